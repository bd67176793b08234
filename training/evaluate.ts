// Figures of the shipped models: the hand-written probes for the text models
// (their cross-source figures come from cross-source.ts, which retrains them
// per round), and the tool detectors on the test split of the generated data,
// through the same code the detectors run. The test split is never used to
// train or to pick thresholds (calibration uses the validation split).
import { levelRank, type Level } from "../src/screening/vocabulary.js";
import type { Part } from "../src/screening/parts.js";
import { detectFnOf } from "../src/screening/registry.js";
import { crudShares, crudTokens } from "../src/screening/detectors/learned/agent-tools/crud.js";
import { charFeatures, tokenFeatures } from "../src/screening/detectors/learned/runtime/features.js";
import { score } from "../src/screening/detectors/learned/runtime/linear.js";
import type { LoadedModels } from "../src/screening/detectors/learned/runtime/model-store.js";
import { normalizeText } from "../src/screening/normalize.js";
import { familyHits, payloadMarkers } from "../src/screening/detectors/learned/agent-tools/payload.js";
import { metrics, type BinaryMetrics } from "./calibrate.js";
import { CATEGORIES } from "./generators/moderation.js";
import { CRUD, definitionText } from "./generators/tools.js";
import {
  ATTACK_PROBES,
  ATTACK_TALK_PROBES,
  BENIGN_PROMPT_PROBES,
  CLEAN_DOCUMENT_PROBES,
  INDIRECT_ATTACK_PROBES,
  HARMFUL_MULTILINGUAL_PROBES,
  HARMFUL_MORE_LANGUAGES,
  HARMFUL_PROBES,
  HARMFUL_REQUEST_PROBES,
  SAFE_MORE_LANGUAGES,
  SAFE_MULTILINGUAL_PROBES,
  SAFE_REQUEST_PROBES,
  SAFE_PROBES,
  SHORT_REQUEST_PROBES,
} from "./probes.js";
import { crudData, destinationData, deviationData, payloadData, sourceData } from "./datasets.js";

export interface Evaluation {
  /** The hand-written probes (probes.ts), screened by the shipped models at the default threshold. */
  probes: ProbeResult[];
  crud: { accuracy: number; n: number; perClass: Record<string, BinaryMetrics> };
  payload: BinaryMetrics;
  untrusted_destination: LevelMetrics;
  untrusted_source: LevelMetrics;
  dangerous_deviation: LevelMetrics;
}

/** How many probes of one set were flagged, and which texts went the wrong way. */
export interface ProbeResult {
  name: string;
  /** Whether the set should be flagged. */
  harmful: boolean;
  n: number;
  wrong: string[];
}

/** Rule detectors have levels, not scores: precision/recall/F1 at l4 and precision per level. */
export interface LevelMetrics {
  n: number;
  positives: number;
  precision: number;
  recall: number;
  f1: number;
  perLevel: Record<string, { count: number; precision: number | null }>;
}

export function levelMetrics(levels: Level[], labels: number[]): LevelMetrics {
  let tp = 0;
  let fp = 0;
  let fn = 0;
  const per: Record<string, { count: number; pos: number }> = {};
  levels.forEach((l, i) => {
    const flagged = levelRank[l] <= levelRank.l4_less_likely;
    if (flagged && labels[i]) tp++;
    else if (flagged) fp++;
    else if (labels[i]) fn++;
    per[l] ??= { count: 0, pos: 0 };
    per[l].count++;
    per[l].pos += labels[i];
  });
  const precision = tp + fp ? tp / (tp + fp) : 1;
  const recall = tp + fn ? tp / (tp + fn) : 0;
  const perLevel: LevelMetrics["perLevel"] = {};
  for (const [l, v] of Object.entries(per)) perLevel[l] = { count: v.count, precision: v.count ? v.pos / v.count : null };
  return {
    n: levels.length,
    positives: labels.filter(Boolean).length,
    precision,
    recall,
    f1: precision + recall ? (2 * precision * recall) / (precision + recall) : 0,
    perLevel,
  };
}

/** The hand-written probes, through the detectors themselves (language gate included), on text normalized as the engine does. */
function probeResults(): ProbeResult[] {
  const flaggedBy =
    (types: readonly string[], location: Part["location"] = "user::content") =>
    (text: string) => {
      const normalized = normalizeText(text).text;
      const part: Part = { location, messageId: 0, text };
      return types.some((t) => levelRank[detectFnOf(t)!(normalized, part, { type: t, location: part.location }, { parts: [part] }).level] <= levelRank.l4_less_likely);
    };
  const attack = flaggedBy(["prompt_attack"]);
  const harmful = flaggedBy(CATEGORIES.map((c) => `moderated_content/${c}`));
  const probe = (name: string, isHarmful: boolean, texts: string[], flags: (t: string) => boolean): ProbeResult => ({
    name,
    harmful: isHarmful,
    n: texts.length,
    wrong: texts.filter((t) => flags(t) !== isHarmful),
  });
  const texts = (rows: { text: string }[]) => rows.map((r) => r.text);
  return [
    probe("prompt_attack: attacks, 9 languages", true, texts(ATTACK_PROBES), attack),
    probe("prompt_attack: benign, 9 languages", false, texts(BENIGN_PROMPT_PROBES), attack),
    probe("prompt_attack: short everyday requests, 8 languages", false, texts(SHORT_REQUEST_PROBES), attack),
    probe("prompt_attack: injected tool results, 8 languages", true, texts(INDIRECT_ATTACK_PROBES), flaggedBy(["prompt_attack"], "tool::content")),
    probe("prompt_attack: clean tool results, 6 languages", false, texts(CLEAN_DOCUMENT_PROBES), flaggedBy(["prompt_attack"], "tool::content")),
    probe("prompt_attack: talk about attacks, 6 languages", false, texts(ATTACK_TALK_PROBES), attack),
    probe("moderated_content: harmful, English", true, HARMFUL_PROBES, harmful),
    probe("moderated_content: safe, English", false, SAFE_PROBES, harmful),
    probe("moderated_content: harmful, 8 languages", true, texts(HARMFUL_MULTILINGUAL_PROBES), harmful),
    probe("moderated_content: safe, 8 languages", false, texts(SAFE_MULTILINGUAL_PROBES), harmful),
    probe("moderated_content: crime/violence requests, English", true, HARMFUL_REQUEST_PROBES, harmful),
    probe("moderated_content: safe on the same topics, English", false, SAFE_REQUEST_PROBES, harmful),
    probe("moderated_content: harmful, 16 languages", true, texts(HARMFUL_MORE_LANGUAGES), harmful),
    probe("moderated_content: safe, 16 languages", false, texts(SAFE_MORE_LANGUAGES), harmful),
  ];
}

/** The four-way CRUD model on the held-out calls: accuracy and each class's metrics. */
function crudEvaluation(models: LoadedModels) {
  const cr = crudData().filter((e) => e.split === "test");
  const perClass: Record<string, BinaryMetrics> = {};
  const crudScores = cr.map((e) => {
    const x = tokenFeatures(crudTokens(e.name, e.args, e.definition), models.crud.bits);
    return crudShares(CRUD.map((c) => score(models.crud.heads.get(c)!, x)));
  });
  let correct = 0;
  cr.forEach((e, i) => {
    const best = crudScores[i].indexOf(Math.max(...crudScores[i]));
    if (CRUD[best] === e.label) correct++;
  });
  CRUD.forEach((c, k) => {
    perClass[c] = metrics(
      crudScores.map((s) => s[k]),
      cr.map((e) => (e.label === c ? 1 : 0)),
      models.crud.heads.get(c)!.thresholds,
    );
  });
  return { accuracy: cr.length ? correct / cr.length : 0, n: cr.length, perClass };
}

export function evaluate(models: LoadedModels): Evaluation {
  const probes = probeResults();
  const crud = crudEvaluation(models);
  // payload
  const pl = payloadData().filter((e) => e.split === "test");
  const plHead = models.payload.heads.get("payload")!;
  const plScores = pl.map((e) => score(plHead, charFeatures(e.text, models.payload.bits, payloadMarkers(familyHits(e.text)))));
  const payload = metrics(
    plScores,
    pl.map((e) => e.label),
    plHead.thresholds,
  );
  // rules, through the detectors themselves
  const cfg = (type: string) => ({ type, location: "assistant::tool_call" as const });
  const dest = destinationData().filter((e) => e.split === "test");
  const destLevels = dest.map((e) => {
    const part: Part = { location: "assistant::tool_call", messageId: 1, toolId: 0, text: e.args, toolName: e.name };
    return detectFnOf("tool_risk/untrusted_destination")!(e.args, part, cfg("tool_risk/untrusted_destination"), { parts: [part] }).level;
  });
  const src = sourceData().filter((e) => e.split === "test");
  const srcLevels = src.map((e) => {
    const call: Part = { location: "assistant::tool_call", messageId: 1, toolId: 0, text: e.callArgs, toolName: e.callName };
    const result: Part = { location: "tool::content", messageId: 2, text: e.result, toolName: e.callName };
    return detectFnOf("tool_risk/untrusted_source")!(e.result, result, { type: "tool_risk/untrusted_source", location: "tool::content" }, { parts: [call, result] })
      .level;
  });
  const dev = deviationData().filter((e) => e.split === "test");
  const devLevels = dev.map((e) => {
    const user: Part = { location: "user::content", messageId: 0, text: e.user };
    const call: Part = { location: "assistant::tool_call", messageId: 1, toolId: 0, text: e.args, toolName: e.name };
    return detectFnOf("dangerous_deviation")!(e.args, call, cfg("dangerous_deviation"), { parts: [user, call] }).level;
  });
  void definitionText;
  return {
    probes,
    crud,
    payload,
    untrusted_destination: levelMetrics(
      destLevels,
      dest.map((e) => e.label),
    ),
    untrusted_source: levelMetrics(
      srcLevels,
      src.map((e) => e.label),
    ),
    dangerous_deviation: levelMetrics(
      devLevels,
      dev.map((e) => e.label),
    ),
  };
}

const f3 = (x: number | null | undefined) => (x === null || x === undefined ? "  -  " : x.toFixed(3));

function binaryLine(name: string, m: BinaryMetrics): string {
  const levels = Object.entries(m.perLevel)
    .map(([l, v]) => `${l.slice(0, 2)} n=${v.count} p=${f3(v.cumulativePrecision)}`)
    .join("  ");
  return `${name.padEnd(28)} n=${String(m.n).padStart(5)} pos=${String(m.positives).padStart(4)}  P=${f3(m.precision)} R=${f3(m.recall)} F1=${f3(m.f1)} (best-t ${f3(m.bestF1)}) FPR=${f3(m.fpr)} TPR@1%FPR=${f3(m.tprAt1Fpr)}  [${levels}]`;
}

function levelLine(name: string, m: LevelMetrics): string {
  const levels = Object.entries(m.perLevel)
    .sort((a, b) => levelRank[a[0] as Level] - levelRank[b[0] as Level])
    .map(([l, v]) => `${l.slice(0, 2)} n=${v.count} p=${f3(v.precision)}`)
    .join("  ");
  return `${name.padEnd(28)} n=${String(m.n).padStart(5)} pos=${String(m.positives).padStart(4)}  P=${f3(m.precision)} R=${f3(m.recall)} F1=${f3(m.f1)}  [${levels}]`;
}

export function formatEvaluation(e: Evaluation): string {
  const lines: string[] = [];
  lines.push("Hand-written probes (probes.ts; never trained or tuned on), shipped models at the default threshold l4_less_likely:");
  for (const p of e.probes) lines.push(`  ${p.name.padEnd(42)} ${p.harmful ? "flagged" : "passed"} ${p.n - p.wrong.length}/${p.n}`);
  lines.push("");
  lines.push("Tool detectors, test split of the generated data (never used for training or threshold selection). P/R/F1/FPR at l4;");
  lines.push("per level: n = examples at that level, p = precision of everything at that level or more confident.");
  lines.push("best-t: the best F1 of these scores at any threshold, picked on the test split itself (an upper bound, not a result).");
  lines.push(`tool_risk CRUD accuracy      n=${e.crud.n} accuracy=${f3(e.crud.accuracy)}`);
  for (const c of CRUD) lines.push(binaryLine(`tool_risk/${c}`, e.crud.perClass[c]));
  lines.push(binaryLine("tool_risk/payload", e.payload));
  lines.push(levelLine("tool_risk/untrusted_destination", e.untrusted_destination));
  lines.push(levelLine("tool_risk/untrusted_source", e.untrusted_source));
  lines.push(levelLine("dangerous_deviation", e.dangerous_deviation));
  return lines.join("\n");
}
