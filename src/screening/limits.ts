// Per-request bounds of the screening engine (docs/detectors.md#limits),
// shared by the engine and the detectors that can produce many matches.

/**
 * Most spans one outcome reports: a part of many small matches would
 * otherwise answer, log and store one span per match. The outcome's level and
 * verdict do not depend on the spans left out.
 */
export const MAX_SPANS_PER_OUTCOME = 1000;

/**
 * Custom guardrails. RE2 is linear in the text, but a policy may name any
 * number of guardrails of up to 50 patterns each: total work is patterns x
 * characters, and matches are spans to map, answer and log.
 */
export const GUARDRAIL_LIMITS = {
  /** Characters scanned, summed over every pattern and the parts at its guardrail's locations. */
  scannedChars: 50_000_000,
  /** Spans collected over every guardrail of the request; past it a pattern only decides whether it matches. */
  matches: 1000,
} as const;
