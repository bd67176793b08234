// The words of the policy API (docs/api.md#detectors): detector types, their
// families and usual locations, thresholds and the logs filter families, and the
// one name the console gives each family wherever it shows one. All
// are the server's own lists, in modules without imports bundled into the
// console as they are: thresholds, locations and filters from the vocabulary,
// the detector catalogue generated from the detector definitions
// (scripts/generate-console-catalogue.ts).
import { detectorCatalogue, type DetectorFamily } from "./catalogue.generated.js";
import { locations, logFilters, thresholds } from "../../src/screening/vocabulary.js";

export { detectorCatalogue, locations, thresholds };

const catalogueFamily = new Map(detectorCatalogue.map((c) => [c.type, c.family]));

/** Custom guardrails fire as one type of their own and are a family of their own, beside the catalogue's. */
const customGuardrails = { type: "custom_guardrail", family: "Custom guardrails" } as const;

/** A detector family's one name everywhere in the console (overview, log filters, badges): the catalogue's heading. */
export type FamilyName = DetectorFamily | typeof customGuardrails.family;

/** The families in catalogue order, custom guardrails last. */
const familyNames: FamilyName[] = [...new Set<FamilyName>([...detectorCatalogue.map((c) => c.family), customGuardrails.family])];

/** The family of a detector type; a type this build does not know is named by itself. */
export function familyOf(detectorType: string): string {
  return detectorType === customGuardrails.type ? customGuardrails.family : (catalogueFamily.get(detectorType) ?? detectorType);
}

/** A logs filter value (`detector_types`), named by its family; `no_detections` is named for what it selects. */
export interface LogFilterOption {
  value: string;
  label: string;
}

/**
 * The logs endpoint's filter values with a detector in this build (audio_prompt_attack matches
 * nothing), in family order. A family with more than one filter value (agent tools: tool access
 * control, dangerous deviation) names each after the detector it selects.
 */
export const logFilterOptions: LogFilterOption[] = (() => {
  const familyOfFilter = (f: string) => (f === customGuardrails.type ? customGuardrails.family : detectorCatalogue.find((c) => c.logFamily === f)?.family);
  const options = logFilters.filter((f) => f !== "audio_prompt_attack" && f !== "no_detections");
  const rank = (f: string) => familyNames.indexOf(familyOfFilter(f) as FamilyName);
  const sorted = [...options].sort((a, b) => rank(a) - rank(b));
  const named = sorted.map((value) => {
    const family = familyOfFilter(value) ?? value;
    const siblings = options.filter((o) => familyOfFilter(o) === family).length;
    return { value, label: siblings > 1 ? `${family}: ${value.replaceAll("_", " ")}` : family };
  });
  return [...named, { value: "no_detections", label: "No detections" }];
})();

/** The logs filter value that selects requests a detector type fired on, if the endpoint has one (tool_risk types have none). */
export function logFilterOf(detectorType: string): string | undefined {
  if (detectorType === customGuardrails.type) return customGuardrails.type;
  const f = detectorCatalogue.find((c) => c.type === detectorType)?.logFamily;
  return f && (logFilters as readonly string[]).includes(f) ? f : undefined;
}

/** A stable colour slot per detector family, for highlights and badges (style.css .c1 to .c6). */
const familyColour: Record<DetectorFamily, number> = {
  "Prompt attacks": 1,
  "Personal data": 2,
  "Content moderation": 3,
  Links: 4,
  Overrides: 5,
  "Agent tools": 6,
};

/** The colour slot of a detector type's family; custom guardrails and types this build does not know share the last one. */
export function colourOf(detectorType: string): number {
  const family = catalogueFamily.get(detectorType);
  return family ? familyColour[family] : 6;
}

/** Levels some policy threshold flags at (l5_unlikely and no_level never flag). */
export function isFlagLevel(level: string | undefined): boolean {
  return level !== undefined && (thresholds as readonly string[]).includes(level);
}
