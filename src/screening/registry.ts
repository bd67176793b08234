// Every detector, by type: the catalogue policies are validated against, the
// default policy is built from, the engine runs, and the stream, sanitize and
// the console's generated catalogue read. Built from the detector modules' own
// definitions (detector.ts), listed by `npm run generate` in the catalogue
// order of the proto's DetectorConfig.type list (detectors/index.generated.ts).
import type { DetectFn, DetectorDefinition, DetectorKind } from "./detector.js";
import { detectorDefinitions } from "./detectors/index.generated.js";
import type { MessagePort } from "node:worker_threads";
import { loadModels, MODEL_VERSION } from "./detectors/learned/runtime/models.js";
import {
  loadModelRuntime,
  modelLink,
  modelVersions,
  prepareModels,
  reconnectModelRuntime,
  releaseModelRuntime,
  textCost,
  type ModelLink,
  type Placement,
} from "./models/runtime.js";
import type { ModelSettings } from "./models/settings.js";
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
  /** Configured models that serve built-in detectors (docs/learned-detectors.md#configured-models). */
  models?: ModelSettings;
  /** On a screening worker: its port to the model thread the main thread started, and what the graphs output. */
  modelLink?: ModelLink;
}

/**
 * Loads the shipped models, and the configured models, at start-up rather
 * than on the first request. Each load with models is matched by a
 * releaseDetectors (the last one stops the model thread).
 */
export async function loadDetectors(options: DetectorOptions = {}): Promise<void> {
  loadModels();
  if (options.models?.slots.length) await loadModelRuntime(options.models, options.modelLink);
}

export async function releaseDetectors(options: DetectorOptions = {}): Promise<void> {
  if (options.models?.slots.length) await releaseModelRuntime();
}

/** A new port to the model thread for a screening worker (none while it restarts); undefined without configured models. */
export function detectorLink(): ModelLink | undefined {
  return modelLink();
}

/** On a screening worker: its new port to the model thread, once the thread restarted (docs/learned-detectors.md#when-the-model-thread-crashes). */
export function reconnectDetectors(port: MessagePort): void {
  reconnectModelRuntime(port);
}

/**
 * Asynchronous work some detectors need before the synchronous engine runs:
 * the configured models' inference, for the parts where `placements` (the
 * policy's detectors) puts a detector they serve; past `deadline` it stops.
 */
export type PrepareDetectors = (parts: Part[], placements?: readonly Placement[], deadline?: number) => Promise<void>;

export const prepareDetectors: PrepareDetectors = prepareModels;

/** What screening a character costs with the configured models, relative to the built-in detectors alone (worker placement). */
export const screeningTextCost: () => number = textCost;

/** The detector set's version for dev_info.model_version: the shipped models, then every configured model as slot:name. */
export function detectorsVersion(): string {
  return ["exact-1", MODEL_VERSION, ...modelVersions()].join("+");
}
