// The shipped model files, loaded once per process (synchronous, well under a
// second); a detector called before loadModels loads them itself. An optional
// bring-your-own ONNX model replaces the built-in prompt_attack scores: it is
// asynchronous, so `prepare` scores a request's parts before the synchronous
// engine runs. What each detector reads: docs/learned-detectors.md.
import { readFileSync } from "node:fs";
import { LRUCache } from "lru-cache";
import { normalizeText } from "../../normalize.js";
import type { Part } from "../../parts.js";
import type { Level, Location } from "../../vocabulary.js";
import { DEFAULT_MODELS_DIR, loadModelFiles, type LoadedModels, type RuleLevels } from "./model-store.js";
import { OnnxPromptAttack, type OnnxPromptAttackOptions } from "./onnx-prompt-attack.js";

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

export function models(): LoadedModels {
  return loaded ?? loadModels();
}

/** Levels for rule signatures missing from the manifest (never used with the shipped one). */
const FALLBACK_RULE_LEVEL: Level = "l4_less_likely";

/** The level the manifest gives a rule-based detector's signature. */
export function ruleLevel(table: RuleLevels, signature: string): Level {
  return table[signature] ?? FALLBACK_RULE_LEVEL;
}

/** Locations a prompt_attack detector may screen: the parts the ONNX pre-pass scores. */
export const PROMPT_ATTACK_LOCATIONS: readonly Location[] = ["user::content", "assistant::content", "tool::content", "tool_definition::content", "assistant::tool_call"];

const onnxScores = new LRUCache<string, number>({ max: 4096 });

/** Loads a bring-your-own ONNX prompt_attack model; until it resolves, the built-in model runs. */
export async function loadOnnxPromptAttack(options: OnnxPromptAttackOptions): Promise<void> {
  onnx = await OnnxPromptAttack.create(options);
  onnxScores.clear();
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

/**
 * The asynchronous pre-pass for the ONNX model: scores every part a
 * prompt_attack detector may screen (normalized as the engine does) so the
 * synchronous detector can read the score. A no-op without an ONNX model.
 */
export async function prepare(parts: Part[]): Promise<void> {
  if (!onnx) return;
  for (const p of parts) {
    if (!PROMPT_ATTACK_LOCATIONS.includes(p.location)) continue;
    const text = normalizeText(p.text).text;
    if (onnxScores.has(text)) continue;
    onnxScores.set(text, await onnx.score(text));
  }
}

/** The ONNX model's score and level thresholds for a normalized text the pre-pass scored, if any. */
export function onnxScoreOf(text: string): { score: number; thresholds: OnnxPromptAttack["thresholds"] } | undefined {
  if (!onnx) return undefined;
  const score = onnxScores.get(text);
  return score === undefined ? undefined : { score, thresholds: onnx.thresholds };
}
