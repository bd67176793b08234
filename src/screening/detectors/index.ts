// Every exact (non-learned) detector, by detector type (catalog.ts). The
// engine looks a policy's detector type up here; learned detectors
// (prompt_attack, moderated_content other than profanity, tool_risk/*,
// dangerous_deviation) live elsewhere. For tool_access_control the text is
// the tool call's function name.
import type { DetectorType } from "../../policies/catalog.js";
import type { Detection, DetectorConfig } from "../detector.js";
import { overrideDetectors } from "./overrides.js";
import { piiDetectors } from "./pii.js";
import { profanityDetectors } from "./profanity.js";
import { toolAccessControlDetectors } from "./tool-access-control.js";
import { unknownLinksDetectors } from "./unknown-links.js";

export type ExactDetector = (text: string, config: DetectorConfig) => Detection;

export const exactDetectors = {
  ...piiDetectors,
  ...unknownLinksDetectors,
  ...overrideDetectors,
  ...toolAccessControlDetectors,
  ...profanityDetectors,
} satisfies Partial<Record<DetectorType, ExactDetector>>;

export type ExactDetectorType = keyof typeof exactDetectors;
export const exactDetectorTypes = Object.keys(exactDetectors) as ExactDetectorType[];

export function isExactDetectorType(t: string): t is ExactDetectorType {
  return Object.hasOwn(exactDetectors, t);
}
