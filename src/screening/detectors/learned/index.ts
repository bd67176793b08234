// The learned detectors (issue 6): prompt_attack, moderated_content (hate,
// sexual, violence, weapons, crime, self_harm), tool_risk/* and
// dangerous_deviation, by detector type, with the DetectFn signature of
// engine.ts. Models load once (loadModels, synchronous, well under a second);
// a detector called before that loads them itself. What each detector reads
// and what raises its level: docs/learned-detectors.md.
import { readFileSync } from "node:fs";
import type { Level } from "../../../policies/catalog.js";
import type { StoredDetector } from "../../../policies/repository.js";
import { type Detection, type Span, nothing, levelRank } from "../../detector.js";
import type { DetectFn, ScreeningContext } from "../../engine.js";
import { normalizeText } from "../../normalize.js";
import type { Part } from "../../parts.js";
import { isAllowedTool } from "./allowed-tools.js";
import { crudShares, crudTokens } from "./crud.js";
import type { Crud } from "./crud-lexicon.js";
import { destinationContext, destinationSignature, destinationsIn } from "./destinations.js";
import { actionClasses, deviationSignatures, requestOf } from "./deviation.js";
import { charFeatures, tokenFeatures } from "./features.js";
import { levelOf } from "./levels.js";
import { score } from "./linear.js";
import { DEFAULT_MODELS_DIR, loadModelFiles, type LoadedModels, type RuleLevels } from "./model-store.js";
import { OnnxPromptAttack, onnxOptionsFromEnv, type OnnxPromptAttackOptions } from "./onnx-prompt-attack.js";
import { familyHits, payloadMarkers } from "./payload.js";
import { cachedFeatures, scoreModel, textDetection } from "./text-scoring.js";
import { argValues, callOf, definitionOf, nameWords, userRequest } from "./tool-calls.js";

/** Version of the shipped model files (models/manifest.json), for dev_info.model_version. */
export const MODEL_VERSION: string = (() => {
  try {
    return (JSON.parse(readFileSync(new URL("manifest.json", DEFAULT_MODELS_DIR), "utf8")) as { version: string }).version;
  } catch {
    return "learned-missing";
  }
})();

let loaded: LoadedModels | undefined;
let onnx: OnnxPromptAttack | undefined;

export interface LoadOptions {
  /** Directory holding manifest.json and the weight files (default: the repository's models/). */
  modelsDir?: URL;
}

/** Loads the built-in models (synchronous). Safe to call again: returns what is loaded. */
export function loadModels(options: LoadOptions = {}): LoadedModels {
  if (!loaded || options.modelsDir) loaded = loadModelFiles(options.modelsDir ?? DEFAULT_MODELS_DIR);
  return loaded;
}

function models(): LoadedModels {
  return loaded ?? loadModels();
}

/**
 * Loads a bring-your-own ONNX prompt_attack model: from `options`, else from
 * PARAPET_PROMPT_ATTACK_ONNX and PARAPET_PROMPT_ATTACK_TOKENIZER; does
 * nothing when neither is given. Until it resolves, the built-in model runs.
 */
export async function loadOnnxPromptAttack(options?: OnnxPromptAttackOptions): Promise<boolean> {
  const o = options ?? onnxOptionsFromEnv();
  if (!o) return false;
  onnx = await OnnxPromptAttack.create(o);
  onnxScores.clear();
  return true;
}

/** Stops using the ONNX model (tests). */
export function unloadOnnxPromptAttack(): void {
  onnx = undefined;
  onnxScores.clear();
}

/** dev_info.model_version: the shipped models, plus the ONNX model when one replaces prompt_attack. */
export function modelVersion(): string {
  return onnx ? `${MODEL_VERSION}+onnx:${onnx.modelPath.split(/[\\/]/).pop()}` : MODEL_VERSION;
}

const PROMPT_ATTACK_LOCATIONS = new Set(["user::content", "assistant::content", "tool::content", "tool_definition::content", "assistant::tool_call"]);
const onnxScores = new Map<string, number>();
const ONNX_CACHE = 4096;

/**
 * The asynchronous pre-pass for the ONNX model: scores every part a
 * prompt_attack detector may screen (normalized as the engine does) so the
 * synchronous detector can read the score. A no-op without an ONNX model.
 */
export async function prepare(parts: Part[]): Promise<void> {
  if (!onnx) return;
  for (const p of parts) {
    if (!PROMPT_ATTACK_LOCATIONS.has(p.location)) continue;
    const text = normalizeText(p.text).text;
    if (onnxScores.has(text)) continue;
    const s = await onnx.score(text);
    if (onnxScores.size >= ONNX_CACHE) onnxScores.delete(onnxScores.keys().next().value as string);
    onnxScores.set(text, s);
  }
}

// ---- prompt_attack ----

const promptAttack: DetectFn = (text, part, config) => {
  if (!text.trim()) return nothing;
  if (part.location === "tool_definition::content" && isAllowedTool(config, part.toolName, text)) return nothing;
  if (onnx) {
    const s = onnxScores.get(text);
    if (s !== undefined) {
      const level = levelOf(s, onnx.thresholds);
      return { level, spans: level === "l5_unlikely" ? [] : [{ start: 0, end: text.length, level }] };
    }
  }
  const m = models().promptAttack;
  const head = m.heads.get("prompt_attack")!;
  const f = cachedFeatures(text, m.bits);
  return textDetection(scoreModel(m, f, text.length)[m.names.indexOf("prompt_attack")], f, head.thresholds);
};

// ---- moderated_content ----

function moderation(category: string): DetectFn {
  return (text) => {
    if (!text.trim()) return nothing;
    const m = models().moderation;
    const head = m.heads.get(category)!;
    const f = cachedFeatures(text, m.bits);
    return textDetection(scoreModel(m, f, text.length)[m.names.indexOf(category)], f, head.thresholds);
  };
}

// ---- tool_risk/create, read, update, delete ----

const crudCache = new Map<string, Record<Crud, number>>();

export function crudScores(name: string, args: string, definition?: string): Record<Crud, number> {
  const key = `${name}\u0000${args}\u0000${definition ?? ""}`;
  let s = crudCache.get(key);
  if (!s) {
    const m = models().crud;
    const x = tokenFeatures(crudTokens(name, args, definition), m.bits);
    const kinds: Crud[] = ["create", "read", "update", "delete"];
    const shares = crudShares(kinds.map((c) => score(m.heads.get(c)!, x)));
    s = { create: shares[0], read: shares[1], update: shares[2], delete: shares[3] };
    if (crudCache.size >= 256) crudCache.delete(crudCache.keys().next().value as string);
    crudCache.set(key, s);
  }
  return s;
}

function crud(kind: Crud): DetectFn {
  return (text, part, _config, context) => {
    if (part.location !== "assistant::tool_call") return nothing;
    const s = crudScores(part.toolName ?? "", text, definitionOf(part.toolName, context));
    const level = levelOf(s[kind], models().crud.heads.get(kind)!.thresholds);
    return { level, spans: level !== "l5_unlikely" && text.length ? [{ start: 0, end: text.length, level, labels: [kind] }] : [] };
  };
}

// ---- tool_risk/payload ----

export function payloadScore(value: string): { score: number; hits: ReturnType<typeof familyHits> } {
  const m = models().payload;
  const hits = familyHits(value);
  return { score: score(m.heads.get("payload")!, charFeatures(value, m.bits, payloadMarkers(hits))), hits };
}

const payload: DetectFn = (text, part) => {
  if (part.location !== "assistant::tool_call") return nothing;
  const values = argValues(text);
  if (values.length === 0) return nothing;
  const thresholds = models().payload.heads.get("payload")!.thresholds;
  let best: Level = "l5_unlikely";
  const spans: Span[] = [];
  for (const v of values) {
    if (v.value.length < 2) continue;
    const { score: s, hits } = payloadScore(v.value);
    const level = levelOf(s, thresholds);
    if (level === "l5_unlikely") continue;
    if (levelRank[level] < levelRank[best]) best = level;
    if (v.offset >= 0 && hits.length) for (const h of hits) spans.push({ start: v.offset + h.start, end: v.offset + h.end, level, labels: [h.family] });
    else if (v.offset >= 0) spans.push({ start: v.offset, end: v.offset + v.value.length, level });
    else spans.push({ start: 0, end: text.length, level });
  }
  return { level: best, spans };
};

// ---- tool_risk/untrusted_destination and untrusted_source ----

/** Levels for rule signatures missing from the manifest (never used with the shipped one). */
const FALLBACK_RULE_LEVEL: Level = "l4_less_likely";

function ruleLevel(table: RuleLevels, signature: string): Level {
  return table[signature] ?? FALLBACK_RULE_LEVEL;
}

const untrustedDestination: DetectFn = (text, part) => {
  if (part.location !== "assistant::tool_call") return nothing;
  const table = models().manifest.rules.untrusted_destination;
  const words = nameWords(part.toolName ?? "");
  let any = false;
  let best: Level = "l5_unlikely";
  const spans: Span[] = [];
  for (const v of argValues(text)) {
    for (const d of destinationsIn(v.value)) {
      any = true;
      if (d.trusted || d.internal) continue;
      const level = ruleLevel(table, destinationSignature(d, destinationContext(v.key, words)));
      if (levelRank[level] < levelRank[best]) best = level;
      const start = v.offset >= 0 ? v.offset + d.start : 0;
      const end = v.offset >= 0 ? v.offset + d.end : text.length;
      spans.push({ start, end, level, labels: [d.domain] });
    }
  }
  return any ? { level: best, spans } : nothing;
};

const FETCH_WORDS = new Set("fetch get browse read download scrape open crawl visit load retrieve search http request curl wget url web page".split(" "));
const ORIGIN_KEY = /^(url|uri|link|source|source_url|origin|from|sender|href|site|domain|page_url|canonical_url|reply_to)$/i;

const untrustedSource: DetectFn = (text, part, _config, context) => {
  if (part.location !== "tool::content") return nothing;
  const table = models().manifest.rules.untrusted_source;
  let any = false;
  let best: Level = "l5_unlikely";
  const spans: Span[] = [];
  const note = (signature: string, domain: string, start: number, end: number) => {
    const level = ruleLevel(table, signature);
    if (levelRank[level] < levelRank[best]) best = level;
    spans.push({ start, end, level, labels: [domain] });
  };
  // 1. Where the calling tool fetched from.
  const call = callOf(part, context);
  if (call && nameWords(call.toolName ?? "").some((w) => FETCH_WORDS.has(w))) {
    for (const v of argValues(call.text)) {
      for (const d of destinationsIn(v.value)) {
        if (d.kind === "email") continue;
        any = true;
        if (!d.trusted && !d.internal) note("call_origin", d.domain, 0, text.length);
      }
    }
  }
  // 2. Origins the result declares (url/source/from fields, "From:" / "Source:" lines), then 3. links it merely contains.
  const declared = new Set<string>();
  for (const v of argValues(text)) {
    if (!ORIGIN_KEY.test(v.key)) continue;
    for (const d of destinationsIn(v.value)) {
      any = true;
      declared.add(`${v.offset + d.start}`);
      if (!d.trusted && !d.internal) note("declared_origin", d.domain, v.offset >= 0 ? v.offset + d.start : 0, v.offset >= 0 ? v.offset + d.end : text.length);
    }
  }
  for (const m of text.matchAll(/^(?:from|source|url|sender|reply-to)\s*:\s*(.{1,300})$/gim)) {
    const lineStart = m.index + m[0].length - m[1].length;
    for (const d of destinationsIn(m[1])) {
      any = true;
      declared.add(`${lineStart + d.start}`);
      if (!d.trusted && !d.internal) note("declared_origin", d.domain, lineStart + d.start, lineStart + d.end);
    }
  }
  for (const d of destinationsIn(text.length > 20000 ? text.slice(0, 20000) : text)) {
    if (d.kind === "email" || declared.has(`${d.start}`)) continue;
    any = true;
    if (!d.trusted && !d.internal) note("mentioned", d.domain, d.start, d.end);
  }
  return any ? { level: best, spans } : nothing;
};

// ---- dangerous_deviation ----

const dangerousDeviation: DetectFn = (text, part, _config, context) => {
  if (part.location !== "assistant::tool_call") return nothing;
  const asked = userRequest(part, context);
  if (asked.length === 0) return nothing; // nothing to compare with
  const classes = actionClasses(part.toolName ?? "", text);
  const signatures = deviationSignatures(classes, requestOf(asked));
  if (signatures.length === 0) return { level: "l5_unlikely", spans: [] };
  const table = models().manifest.rules.dangerous_deviation;
  let best: Level = "l5_unlikely";
  for (const s of signatures) {
    const l = ruleLevel(table, s);
    if (levelRank[l] < levelRank[best]) best = l;
  }
  return { level: best, spans: text.length ? [{ start: 0, end: text.length, level: best, labels: signatures.map((s) => s.split(":")[0]) }] : [] };
};

export const learnedDetectors: Record<string, DetectFn> = {
  prompt_attack: promptAttack,
  "moderated_content/hate": moderation("hate"),
  "moderated_content/sexual": moderation("sexual"),
  "moderated_content/violence": moderation("violence"),
  "moderated_content/weapons": moderation("weapons"),
  "moderated_content/crime": moderation("crime"),
  "moderated_content/self_harm": moderation("self_harm"),
  "tool_risk/create": crud("create"),
  "tool_risk/read": crud("read"),
  "tool_risk/update": crud("update"),
  "tool_risk/delete": crud("delete"),
  "tool_risk/payload": payload,
  "tool_risk/untrusted_destination": untrustedDestination,
  "tool_risk/untrusted_source": untrustedSource,
  dangerous_deviation: dangerousDeviation,
};

export type { ScreeningContext, StoredDetector };
