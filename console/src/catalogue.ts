// The words of the policy API (docs/api.md#detectors): detector types, their
// families and usual locations, thresholds and the logs filter families. All
// are the server's own lists, in modules without imports bundled into the
// console as they are: thresholds, locations and filters from the vocabulary,
// the detector catalogue generated from the detector definitions
// (scripts/generate-console-catalogue.ts).
import { detectorCatalogue, type DetectorFamily } from "./catalogue.generated.js";
import { locations, logFilters, thresholds } from "../../src/screening/vocabulary.js";

export { detectorCatalogue, locations, thresholds };

/** The logs endpoint's detector_types filter values with a detector in this build (audio_prompt_attack matches nothing). */
export const logFamilies = logFilters.filter((f) => f !== "audio_prompt_attack");

/** A stable colour slot per detector family, for highlights and badges (style.css .c1 to .c6). */
const familyColour: Record<DetectorFamily, number> = {
  "Prompt attacks": 1,
  "Personal data": 2,
  "Content moderation": 3,
  Links: 4,
  Overrides: 5,
  "Agent tools": 6,
};

const familyOf = new Map(detectorCatalogue.map((c) => [c.type, c.family]));

/** The colour slot of a detector type's family; custom guardrails and types this build does not know share the last one. */
export function colourOf(detectorType: string): number {
  const family = familyOf.get(detectorType);
  return family ? familyColour[family] : 6;
}

/** Levels some policy threshold flags at (l5_unlikely and no_level never flag). */
export function isFlagLevel(level: string | undefined): boolean {
  return level !== undefined && (thresholds as readonly string[]).includes(level);
}
