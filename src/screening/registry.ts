// Every detector, by type: the catalogue policies are validated against, the
// default policy is built from, the engine runs, and the stream, sanitize and
// the console's generated catalogue read. Built from the detector modules' own
// definitions (detector.ts). The list is written out, like ESLint's rule
// index: its order is the catalogue order (the proto's `string.in` list, the
// console, the default policy), and static imports keep the bundler, knip and
// dependency-cruiser seeing every module.
import type { DetectFn, DetectorDefinition, DetectorKind } from "./detector.js";
import { overrideAllow, overrideDeny } from "./detectors/overrides.js";
import { address } from "./detectors/pii/address/index.js";
import { creditCard } from "./detectors/pii/credit-card.js";
import { email } from "./detectors/pii/email.js";
import { iban } from "./detectors/pii/iban.js";
import { ipAddress } from "./detectors/pii/ip-address.js";
import { name } from "./detectors/pii/name/index.js";
import { phoneNumber } from "./detectors/pii/phone.js";
import { ssn } from "./detectors/pii/ssn.js";
import { profanity } from "./detectors/profanity.js";
import { toolAccessControl } from "./detectors/tool-access-control.js";
import { unknownLinks } from "./detectors/unknown-links.js";
import { dangerousDeviation } from "./detectors/learned/dangerous-deviation.js";
import { crime, hate, selfHarm, sexual, violence, weapons } from "./detectors/learned/moderation.js";
import { promptAttack } from "./detectors/learned/prompt-attack.js";
import { create, read, remove, update } from "./detectors/learned/tool-actions.js";
import { toolPayload } from "./detectors/learned/tool-payload.js";
import { untrustedDestination } from "./detectors/learned/untrusted-destination.js";
import { untrustedSource } from "./detectors/learned/untrusted-source.js";
import { loadModels, loadOnnxModeration, loadOnnxPromptAttack, modelVersion, prepare } from "./detectors/learned/runtime/models.js";
import type { OnnxModerationOptions, OnnxPromptAttackOptions } from "./detectors/learned/runtime/onnx-classifier.js";
import type { Part } from "./parts.js";
import type { FamilyCounter, LogFamily } from "./vocabulary.js";

export const detectors: readonly DetectorDefinition[] = [
  promptAttack,
  hate,
  sexual,
  profanity,
  violence,
  weapons,
  crime,
  selfHarm,
  address,
  creditCard,
  email,
  ipAddress,
  name,
  phoneNumber,
  ssn,
  iban,
  unknownLinks,
  overrideAllow,
  overrideDeny,
  toolPayload,
  create,
  read,
  update,
  remove,
  untrustedDestination,
  untrustedSource,
  dangerousDeviation,
  toolAccessControl,
];

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
