// The shape every detector family has (STYLE.md: ESLint rules, Presidio
// recognizers). A detector is a pure function from text (+ its configuration)
// to a confidence level and the spans that justify it. Detectors never read
// policies, storage or requests: the engine owns orchestration, thresholds,
// modes, Unicode normalization and mapping spans back to the original text.
import type { Level } from "../policies/catalog.js";

/** A matched region, half-open [start, end) in UTF-16 code units of the text the detector was given. */
export interface Span {
  start: number;
  end: number;
  /** Custom-guardrail labels or entity sub-types (e.g. "visa"), shown in the payload. */
  labels?: string[];
  /**
   * Confidence of this span alone, when a detector scores spans separately (the
   * Detection's level is the strongest of them); lets the engine drop the spans
   * that are under the policy threshold.
   */
  level?: Level;
}

export interface Detection {
  /** `no_level` when the detector found nothing; `l5_unlikely` for scored-but-below. */
  level: Level;
  spans: Span[];
}

/** Per-detector configuration from the policy (spec 2.3); only the fields a type accepts are set. */
export interface DetectorConfig {
  allowed_domains?: string[] | null;
  override_list?: string[] | null;
  tool_access_action?: "allow" | "deny" | null;
  tool_access_list?: string[] | null;
}

export const nothing: Detection = { level: "no_level", spans: [] };

/** Orders levels: lower is more confident. */
export const levelRank: Record<Level, number> = {
  l1_confident: 1,
  l2_very_likely: 2,
  l3_likely: 3,
  l4_less_likely: 4,
  l5_unlikely: 5,
  no_level: 6,
};

/** The most confident of several levels. */
export function strongest(levels: Level[]): Level {
  let best: Level = "no_level";
  for (const l of levels) if (levelRank[l] < levelRank[best]) best = l;
  return best;
}
