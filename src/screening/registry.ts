// Detector type -> implementation. The engine looks detectors up here; a type
// without an entry reports no_level (and policy health says so).
import type { DetectorRegistry } from "./engine.js";

export const detectorRegistry: DetectorRegistry = {};

/** Version of the detector set, reported in dev_info.model_version. */
export const MODEL_VERSION = "exact-1";
