// The start-up warm-up (docs/operations.md#warm-up): a new process screens its first few thousand
// requests at about twice the latency of the steady state, while V8 optimises the detectors' code.
// Before /readyz answers ready, the built-in detectors screen synthetic requests (warm-up-text.ts)
// on this thread and on every screening worker, so the first users of a replica that joins a
// balancer meet the steady state. The warm-up calls the engine directly: no request, so no request
// log, no analytics and no request metric. It yields between screenings, so /livez and the other
// probes answer meanwhile, and it ends at a time budget (PARAPET_WARMUP_MS) or once each thread
// has done the work that reaches the steady state, whichever comes first.
import { setImmediate as yieldToEventLoop } from "node:timers/promises";
import { screen, type ScreeningPolicy } from "../screening/engine.js";
import { detectFnOf, detectors } from "../screening/registry.js";
import { warmUpParts } from "./warm-up-text.js";
import type { ScreeningPool } from "./worker-pool.js";

/**
 * Screenings per thread after which more warm-up gains nothing: the latency of the benchmark's
 * 1,000-character requests stops falling after 2,000 to 3,000 of them (docs/operations.md#warm-up),
 * and each synthetic request is about that size.
 */
const WARM_UP_SCREENINGS = 1_500;

/** Every built-in detector that needs no configuration, labels included, at each location it is built for. */
const policy: ScreeningPolicy = {
  id: "warm-up",
  threshold: "l4_less_likely",
  detectors: detectors.filter((d) => d.requires.length === 0).flatMap((d) => d.meaningful.map((location) => ({ type: d.type, location }))),
};

export interface WarmUpResult {
  ms: number;
  /** Synthetic requests screened on the main thread, and on the screening workers. */
  screenings: number;
  workerScreenings: number;
  /** Why it ended: each thread did its share of work, the time budget ran out, or the service is stopping. */
  ended: "work done" | "time budget" | "stopped";
}

interface Lane {
  until: number;
  signal: AbortSignal;
  /** The next synthetic request's number: every request of the warm-up differs from the others. */
  next: () => number;
}

/** Screens on this thread until the lane ends, yielding after each screening. */
async function warmHere(lane: Lane): Promise<number> {
  let done = 0;
  while (done < WARM_UP_SCREENINGS && Date.now() < lane.until && !lane.signal.aborted) {
    screen(policy, [], warmUpParts(lane.next()), detectFnOf);
    done++;
    await yieldToEventLoop();
  }
  return done;
}

/** Keeps one job at a time on the pool until the lane ends; one such loop per worker keeps each busy. */
async function warmOnPool(pool: ScreeningPool, lane: Lane, key: string, share: number): Promise<number> {
  let done = 0;
  while (done < share && Date.now() < lane.until && !lane.signal.aborted) {
    try {
      // Its own fairness key per loop: the pool lets one key hold all workers but one.
      await pool.run(policy, [], warmUpParts(lane.next()), key, lane.until);
    } catch {
      return done; // past the budget, or the pool is closing
    }
    done++;
  }
  return done;
}

/** Warms this thread and, with `pool`, each of its `workers` for at most `budgetMs`. */
export async function warmUp(budgetMs: number, signal: AbortSignal, pool?: ScreeningPool, workers = 0): Promise<WarmUpResult> {
  const started = Date.now();
  let n = 0;
  const lane: Lane = { until: started + budgetMs, signal, next: () => n++ };
  const [screenings, ...onWorkers] = await Promise.all([
    warmHere(lane),
    ...Array.from({ length: pool ? workers : 0 }, (_, i) => warmOnPool(pool!, lane, `warm-up ${i}`, WARM_UP_SCREENINGS)),
  ]);
  const workerScreenings = onWorkers.reduce((a, b) => a + b, 0);
  const ms = Date.now() - started;
  const ended = signal.aborted ? "stopped" : screenings < WARM_UP_SCREENINGS || onWorkers.some((s) => s < WARM_UP_SCREENINGS) ? "time budget" : "work done";
  return { ms, screenings, workerScreenings, ended };
}
