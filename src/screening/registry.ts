// Every detector, by type: the catalogue policies are validated against, the
// default policy is built from, the engine runs, and the stream, sanitize and
// the console's generated catalogue read. Built from the detector modules' own
// definitions (detector.ts), listed by `npm run generate` in the catalogue
// order of the proto's DetectorConfig.type list (detectors/index.generated.ts).
import type { DetectFn, DetectorDefinition, DetectorKind } from "./detector.js";
import { detectorDefinitions } from "./detectors/index.generated.js";
import { loadModels, loadOnnxModeration, loadOnnxPromptAttack, modelVersion, prepare } from "./detectors/learned/runtime/models.js";
import type { OnnxModerationOptions, OnnxPromptAttackOptions } from "./detectors/learned/runtime/onnx-classifier.js";
import type { Part } from "./parts.js";
import type { FamilyCounter, LogFamily } from "./vocabulary.js";

export const detectors: readonly DetectorDefinition[] = detectorDefinitions;

const byType = new Map(detectors.map((d) => [d.type, d]));

/** Every detector type, in catalogue order. */
export const detectorTypes: readonly string[] = detectors.map((d) => d.type);

export function definitionOf(type: string): DetectorDefinition | undefined {
  return byType.get(type);
}

/** How a type's detector judges; undefined for a type this build does not know (and for custom guardrails). */
export function kindOf(type: string): DetectorKind | undefined {
  return byType.get(type)?.kind;
}

/** The function the engine runs for a type; undefined for a type this build does not know. */
export function detectFnOf(type: string): DetectFn | undefined {
  return byType.get(type)?.detect;
}

/** The type the engine reports for a custom guardrail's outcome. */
export const CUSTOM_GUARDRAIL = "custom_guardrail";

/** Logs filter value of a flagged outcome's detector type (custom guardrails have their own). */
export function logFamilyOf(type: string): LogFamily | null {
  if (type === CUSTOM_GUARDRAIL) return "custom_guardrail";
  return byType.get(type)?.logFamily ?? null;
}

/** Analytics counter of a flagged outcome's detector type, if its family has one. */
export function counterOf(type: string): FamilyCounter | undefined {
  return byType.get(type)?.counter;
}

/** Whether a flagged outcome's spans go into the `/v2/guard` payload. */
export function reportsPayload(type: string): boolean {
  return type === CUSTOM_GUARDRAIL || Boolean(byType.get(type)?.payload);
}

export interface DetectorOptions {
  /** A bring-your-own ONNX model that replaces the built-in prompt_attack scores. */
  promptAttackOnnx?: OnnxPromptAttackOptions;
  /** A bring-your-own ONNX model that replaces the built-in heads of the moderated_content/* categories it maps. */
  moderationOnnx?: OnnxModerationOptions;
}

/** Loads the shipped models, and the ONNX models that are configured, at start-up rather than on the first request. */
export async function loadDetectors(options: DetectorOptions = {}): Promise<void> {
  loadModels();
  if (options.promptAttackOnnx) await loadOnnxPromptAttack(options.promptAttackOnnx);
  if (options.moderationOnnx) await loadOnnxModeration(options.moderationOnnx);
}

/** Asynchronous work some detectors need before the synchronous engine runs (ONNX inference). */
export const prepareDetectors: (parts: Part[]) => Promise<void> = prepare;

/** The detector set's version for dev_info.model_version. */
export function detectorsVersion(): string {
  return `exact-1+${modelVersion()}`;
}
