// Detector type -> implementation. The engine looks detectors up here; a type
// without an entry reports no_level (and policy health says so).
import type { StoredDetector } from "../policies/repository.js";
import { exactDetectors, type ExactDetector } from "./detectors/index.js";
import type { DetectFn, DetectorRegistry } from "./engine.js";
import type { Part } from "./parts.js";

function exact(type: string, detect: ExactDetector): DetectFn {
  // tool_access_control judges the called function's name, not its arguments.
  if (type === "tool_access_control") return (_text, part: Part, config: StoredDetector) => detect(part.toolName ?? "", config);
  return (text, _part, config) => detect(text, config);
}

export const detectorRegistry: DetectorRegistry = Object.fromEntries(
  Object.entries(exactDetectors).map(([type, detect]) => [type, exact(type, detect)]),
);

/** Version of the detector set, reported in dev_info.model_version. */
export const MODEL_VERSION = "exact-1";
