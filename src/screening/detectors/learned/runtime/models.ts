// The shipped model files, loaded once per process (synchronous, well under a
// second); a detector called before loadModels loads them itself. Optional
// bring-your-own ONNX models replace the built-in prompt_attack and
// moderation heads: they are asynchronous, so `prepare` scores a request's
// parts before the synchronous engine runs. What each detector reads:
// docs/learned-detectors.md.
import { readFileSync } from "node:fs";
import { contentLocations, type Detection } from "../../../detector.js";
import type { Part } from "../../../parts.js";
import type { Level, Location } from "../../../vocabulary.js";
import { levelOf } from "./levels.js";
import { DEFAULT_MODELS_DIR, loadModelFiles, type LoadedModels, type RuleLevels } from "./model-store.js";
import {
  loadOnnxSlot,
  onnxModelFiles,
  onnxScoreOf,
  prepareOnnx,
  unloadOnnx,
  type OnnxModerationOptions,
  type OnnxPromptAttackOptions,
  type OnnxSlot,
} from "./onnx-classifier.js";

/** Version of the shipped model files (models/manifest.json), for dev_info.model_version. */
export const MODEL_VERSION: string = (() => {
  try {
    return (JSON.parse(readFileSync(new URL("manifest.json", DEFAULT_MODELS_DIR), "utf8")) as { version: string }).version;
  } catch {
    return "learned-missing";
  }
})();

let loaded: LoadedModels | undefined;

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

/** Loads a bring-your-own ONNX prompt_attack model; until it resolves, the built-in model runs. */
export async function loadOnnxPromptAttack(o: OnnxPromptAttackOptions): Promise<void> {
  // A one-value output is the attack logit itself, whatever the label says.
  await loadOnnxSlot("prompt_attack", o, (outputs) => ({
    labels: { prompt_attack: outputs === 1 ? 0 : (o.attackLabel ?? 1) },
    activation: "softmax",
    thresholds: o.thresholds,
    locations: PROMPT_ATTACK_LOCATIONS,
  }));
}

/** Loads a bring-your-own ONNX moderation model for the categories its label map names; the others keep the built-in heads. */
export async function loadOnnxModeration(o: OnnxModerationOptions): Promise<void> {
  await loadOnnxSlot("moderation", o, () => ({ labels: o.labels, activation: o.activation ?? "sigmoid", thresholds: o.thresholds, locations: contentLocations }));
}

/** Stops using the ONNX models (tests). */
export function unloadOnnxModels(): void {
  unloadOnnx();
}

/** dev_info.model_version: the shipped models, plus each ONNX model that replaces built-in heads. */
export function modelVersion(): string {
  const files = new Map(onnxModelFiles());
  const tags: [OnnxSlot, string][] = [
    ["prompt_attack", "onnx"],
    ["moderation", "moderation-onnx"],
  ];
  return [MODEL_VERSION, ...tags.filter(([slot]) => files.has(slot)).map(([slot, tag]) => `${tag}:${files.get(slot)}`)].join("+");
}

/** The asynchronous pre-pass for the ONNX models; a no-op without them. */
export async function prepare(parts: Part[]): Promise<void> {
  await prepareOnnx(parts);
}

/**
 * The ONNX model's detection of a label (prompt_attack, a moderation
 * category) for a normalized text the pre-pass scored; undefined when the
 * built-in head should run. The span is the head of the text the model read.
 */
export function onnxDetection(slot: OnnxSlot, label: string, text: string): Detection | undefined {
  const s = onnxScoreOf(slot, label, text);
  if (!s) return undefined;
  const level = levelOf(s.score, s.thresholds);
  return { level, spans: level === "l5_unlikely" ? [] : [{ start: 0, end: s.end, level }] };
}
