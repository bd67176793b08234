// The exact detectors this evaluation measures, called as the engine calls
// them. The lists are in report order (the rows of the tables and the speed
// line); test/training/catalogue.test.ts checks that they hold exactly the
// registry's pii/* types and exact (non-learned) detectors, so a detector added
// to the registry is not silently left out of the figures.
import type { Detection } from "../../src/screening/detector.js";
import type { Part } from "../../src/screening/parts.js";
import { definitionOf } from "../../src/screening/registry.js";
import type { DetectorConfig } from "../../src/screening/vocabulary.js";

/** The PII detectors, scored on the filled templates; macro F1 is their mean. */
export const PII_TYPES = [
  "pii/email",
  "pii/ip_address",
  "pii/credit_card",
  "pii/iban_code",
  "pii/us_social_security_number",
  "pii/phone_number",
  "pii/address",
  "pii/name",
] as const;
export type PiiType = (typeof PII_TYPES)[number];

/** Every exact detector (for tool_access_control the text is the tool name). */
export const EXACT_TYPES = [...PII_TYPES, "unknown_links", "override_allow", "override_deny", "tool_access_control", "moderated_content/profanity"] as const;
type ExactType = (typeof EXACT_TYPES)[number];

type ExactDetect = (text: string, config: DetectorConfig) => Detection;

export const exactDetectors = Object.fromEntries(
  EXACT_TYPES.map((type) => {
    const d = definitionOf(type)!;
    const detect: ExactDetect = (text, config) => {
      const part: Part = { location: "user::content", messageId: 0, text, toolName: text };
      return d.detect(text, part, { type, location: part.location, ...config }, { parts: [part] });
    };
    return [type, detect];
  }),
) as Record<ExactType, ExactDetect>;

export const noConfig: DetectorConfig = {};
