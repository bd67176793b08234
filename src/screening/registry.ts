// Detector type -> implementation. The engine looks detectors up here; a type
// without an entry reports no_level (and policy health says so).
import type { StoredDetector } from "../policies/repository.js";
import { exactDetectors, type ExactDetector } from "./detectors/index.js";
import { learnedDetectors, loadModels, loadOnnxPromptAttack, modelVersion, prepare } from "./detectors/learned/index.js";
import type { DetectFn, DetectorRegistry } from "./engine.js";
import type { Part } from "./parts.js";

function exact(type: string, detect: ExactDetector): DetectFn {
  // tool_access_control judges the called function's name, not its arguments.
  if (type === "tool_access_control") return (_text, part: Part, config: StoredDetector) => detect(part.toolName ?? "", config);
  return (text, _part, config) => detect(text, config);
}

export const detectorRegistry: DetectorRegistry = {
  ...Object.fromEntries(Object.entries(exactDetectors).map(([type, detect]) => [type, exact(type, detect)])),
  ...learnedDetectors,
};

/**
 * Loads the shipped models, and the bring-your-own ONNX prompt_attack model
 * when PARAPET_PROMPT_ATTACK_ONNX is set, at start-up rather than on the
 * first request.
 */
export async function loadDetectors(): Promise<void> {
  loadModels();
  await loadOnnxPromptAttack();
}

/** Asynchronous work some detectors need before the synchronous engine runs (ONNX inference). */
export const prepareDetectors: (parts: Part[]) => Promise<void> = prepare;

/** The detector set's version for dev_info.model_version. */
export function detectorsVersion(): string {
  return `exact-1+${modelVersion()}`;
}
