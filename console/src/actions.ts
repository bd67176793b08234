// What a click, a submit or a change starts: an API call the event handler does
// not wait for (a handler returns nothing). Its failure goes to the page's error
// box, in words (problemOf), rather than becoming an unhandled rejection.
import { useState } from "preact/hooks";
import { problemOf, type Problem } from "./api.js";

/** Runs `action` from an event handler; a failure goes to `onProblem`, the page's error display. */
export function runAction(action: () => Promise<unknown>, onProblem: (problem: Problem) => void): void {
  action().catch((err: unknown) => onProblem(problemOf(err)));
}

export interface Action {
  /** True from `run` until its action settles: the form's submit button waits. */
  busy: boolean;
  /** The last failure, until the next `run`. */
  problem?: Problem;
  /** For an action of the same page that is not busy-tracked (a confirmed delete): it reports to the same error box. */
  setProblem: (problem: Problem | undefined) => void;
  /** Clears the last problem, is busy while `action` runs, and shows its failure. */
  run: (action: () => Promise<unknown>) => void;
}

/** The busy flag and error box of a page's main action (a form's submit). */
export function useAction(): Action {
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<Problem>();
  const run = (action: () => Promise<unknown>) => {
    setBusy(true);
    setProblem(undefined);
    action()
      .catch((err: unknown) => setProblem(problemOf(err)))
      .finally(() => setBusy(false));
  };
  return { busy, problem, setProblem, run };
}
