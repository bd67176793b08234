// The words for what happened to a screened request, one meaning each wherever the console shows
// them (overview, logs filters, the logs list, a log's detail), with the hint that explains it.
// They follow the API: a log's `flagged` and the logs filter `flagged_only` are the answer's
// decision, which only enforce-mode projects return; `detected_only` and analytics'
// `total_flagged` count requests any detector fired on, in either mode (docs/api.md#logs).

export type Outcome = "flagged" | "detected" | "passed";

export const outcomeWords: Record<Outcome, { label: string; hint: string }> = {
  flagged: { label: "Flagged", hint: "the answer said flagged: true, which only projects in enforce mode return" },
  detected: { label: "Detected", hint: "at least one detector fired, in detect or enforce mode" },
  passed: { label: "Passed", hint: "no detector fired" },
};

/** A logged request's outcome: flagged if its answer was, else detected if a detector fired. */
export function outcomeOf(log: { flagged: boolean; results: unknown[] }): Outcome {
  return log.flagged ? "flagged" : log.results.length > 0 ? "detected" : "passed";
}
