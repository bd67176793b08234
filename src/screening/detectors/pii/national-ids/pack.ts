// The built-in national-ID guardrails: custom guardrail ids that every
// organization has without creating them, one for all twelve countries and
// one per country. A policy enables them like any custom guardrail (by id in
// `custom_guardrail_ids`), and their matches are reported like one
// (`custom_guardrail`, with a label per identifier), so the contract's
// detector types do not change (docs/decisions.md#national-identifiers).
import type { Detection } from "../../../detector.js";
import { contentLocations } from "../../../detector.js";
import { detectNationalIds } from "./index.js";
import { ID_KINDS } from "./kinds.js";

export interface BuiltinGuardrail {
  id: string;
  name: string;
  /** Added to every span, after the identifier's own label. */
  labels: string[];
  locations: readonly string[];
  detect: (text: string) => Detection;
}

const PREFIX = "custom-guardrail-builtin-national-ids";

const countries = [...new Set(ID_KINDS.map((k) => k.country))];

const all: BuiltinGuardrail = {
  id: PREFIX,
  name: `National identifiers (built-in): ${ID_KINDS.map((k) => k.name).join(", ")}`,
  labels: ["national_id"],
  locations: contentLocations,
  detect: (text) => detectNationalIds(text),
};

const perCountry: BuiltinGuardrail[] = countries.map((country) => {
  const only = new Set([country]);
  const names = ID_KINDS.filter((k) => k.country === country).map((k) => k.name);
  return {
    id: `${PREFIX}-${country}`,
    name: `National identifiers (built-in): ${names.join(", ")}`,
    labels: ["national_id"],
    locations: contentLocations,
    detect: (text: string) => detectNationalIds(text, only),
  };
});

const byId = new Map([all, ...perCountry].map((g) => [g.id, g]));

/** The built-in guardrail of this id, if it is one. */
export function builtinGuardrail(id: string): BuiltinGuardrail | undefined {
  return byId.get(id);
}

/** Every built-in guardrail id, the all-countries one first (docs/custom-guardrails.md#built-in-guardrails). */
export const BUILTIN_GUARDRAIL_IDS: readonly string[] = [...byId.keys()];
