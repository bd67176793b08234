// What the pii/* detectors share. Structured types (email, IP, card, IBAN,
// SSN, phone) are validated (public suffix list, isIP, Luhn + IIN, mod-97, SSA
// ranges, libphonenumber metadata) and report l1 only when validation passes;
// addresses and names are scored from patterns, lexicons and context words.
// docs/detectors.md lists what raises and lowers each level. A configured
// token classifier (PARAPET_PII_MODEL) adds its entities' spans to the types it
// maps, or stands in for them (docs/learned-detectors.md#pii-model).
import { contentLocations, defineDetector, type Detection, type DetectorDefinition } from "../../detector.js";
import { withEntities } from "../../models/runtime.js";

/**
 * A pii/* detector: exact, any content location, matches returned as payload
 * spans, logged as data leakage, replaced by `[placeholder_N]` when sanitized.
 */
export function piiDetector(type: `pii/${string}`, placeholder: string, detect: (text: string) => Detection): DetectorDefinition {
  const label = type.slice("pii/".length);
  return defineDetector({
    type,
    kind: "exact",
    meaningful: contentLocations,
    placeholder,
    console: { family: "Personal data", defaults: ["user::content", "assistant::content"] },
    payload: true,
    logFamily: "data_leakage",
    counter: "pii_flagged",
    detect: (text, part) => withEntities(label, text, part.location, detect),
  });
}
