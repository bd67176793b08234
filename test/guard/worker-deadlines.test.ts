// The screening pool under abuse, with real worker threads and the real engine
// (docs/operations.md#limits): a flood from one organization does not hold
// every worker, a request past its deadline stops consuming CPU (cooperative
// stop between guardrail patterns, or the worker terminated and replaced when
// one call overruns), and a full queue answers 503 with Retry-After at once.
// Slow work is real work: RE2 patterns whose matching is linear but costly.
// What is checked is order (which job answered first), CPU time and counters, not
// wall time: a loaded machine stretches wall time without changing either.
import { afterEach, describe, expect, it } from "vitest";
import { ApiError } from "../../src/api/errors.js";
import type { StoredGuardrail } from "../../src/custom-guardrails/repository.js";
import { defaultPoolLimits, ScreeningPool, type PoolLimits } from "../../src/guard/worker-pool.js";
import { DeadlineExceededError, type ScreeningPolicy } from "../../src/screening/engine.js";
import type { Part } from "../../src/screening/parts.js";
import { cpuTimedAsync } from "../support/cpu-time.js";

const policy: ScreeningPolicy = { id: "p", threshold: "l4_less_likely", detectors: [] };
/** Linear in the text, but tens of nanoseconds per character and instruction: a slow pattern. */
const SLOW = String.raw`(?i)(\w+\s*){1,50}zzz`;

function guardrail(patterns: string[]): StoredGuardrail {
  const at = new Date(0);
  return { _id: `custom-guardrail-${patterns.length}`, org_id: "o", name: "slow", patterns, labels: [], locations: ["user::content"], created_at: at, updated_at: at };
}

const text = (n: number) => "lorem ipsum dolor sit amet ".repeat(Math.ceil(n / 27)).slice(0, n);
const parts = (n: number): Part[] => [{ location: "user::content", messageId: 0, text: text(n) }];

let pool: ScreeningPool | undefined;
afterEach(async () => {
  await pool?.close();
  pool = undefined;
});

async function start(size: number, limits: Partial<PoolLimits> = {}): Promise<ScreeningPool> {
  pool = new ScreeningPool(size, undefined, {}, { ...defaultPoolLimits, ...limits });
  await pool.ready();
  return pool;
}

/** The job's answer or error, settled. */
async function settled<T>(p: Promise<T>): Promise<{ value?: T; error?: unknown }> {
  try {
    return { value: await p };
  } catch (error) {
    return { error };
  }
}

/** The job's answer or error, and the CPU the process (the worker included) used until then. */
async function cpuOf<T>(p: () => Promise<T>): Promise<{ ms: number; value?: T; error?: unknown }> {
  const { ms, value } = await cpuTimedAsync(() => settled(p()));
  return { ms, ...value };
}

/** CPU the process (all its threads) uses over `ms`, as a share of one core. */
async function cpuShare(ms: number): Promise<number> {
  const before = process.cpuUsage();
  const t = performance.now();
  await new Promise((r) => setTimeout(r, ms));
  const used = process.cpuUsage(before);
  return (used.user + used.system) / 1000 / (performance.now() - t);
}

const far = () => Date.now() + 60_000;

describe("screening pool", () => {
  it("one organization's flood of slow requests leaves a worker for another organization", async () => {
    // The flood's later jobs wait for their turn in wall time, which a loaded machine stretches
    // past the default 5 s queue wait: the wait bound is not what this test is about.
    const p = await start(2, { maxWaitMs: 600_000 });
    const slow = [guardrail([SLOW, SLOW])];
    let floodDone = 0;
    const flood = Array.from({ length: 6 }, () => settled(p.run(policy, slow, parts(20_000), "flood", far()).finally(() => floodDone++)));
    // The flood holds one worker and waits for it; the other worker is free.
    expect(p.load()).toEqual({ queued: 5, running: 1 });
    const other = await settled(p.run(policy, [], parts(10_000), "other", far()));
    expect(other.error).toBeUndefined();
    // Served while the flood's first request still runs: it did not wait behind a slow one, let alone six.
    expect(floodDone).toBe(0);
    expect(p.load().queued).toBe(5);
    for (const r of await Promise.all(flood)) expect(r.error).toBeUndefined();
  });

  it("a request past its deadline stops at the next pattern and frees the worker", async () => {
    const p = await start(1);
    // Ten slow patterns: seconds of work, each pattern a fraction of it.
    const slow = [guardrail(Array.from({ length: 10 }, () => SLOW))];
    const one = await cpuOf(() => p.run(policy, [guardrail([SLOW])], parts(20_000), "a", far()));
    const late = await cpuOf(() => p.run(policy, slow, parts(20_000), "a", Date.now() + 100));
    expect(late.error).toBeInstanceOf(DeadlineExceededError);
    // Stopped within about one pattern of the deadline, not after all ten: at most the 100 ms
    // before it (less when the machine is loaded) and a pattern or two, in CPU time.
    expect(late.ms).toBeLessThan(100 + 3 * one.ms);
    // Nothing keeps running after the answer...
    expect(await cpuShare(400)).toBeLessThan(0.3);
    // ...and the same worker takes the next request.
    const next = await settled(p.run(policy, [], parts(10_000), "b", far()));
    expect(next.error).toBeUndefined();
    expect(p.replaced).toBe(0);
  });

  it("a worker stuck in one call past its deadline is terminated and replaced", async () => {
    const p = await start(1, { overrunGraceMs: 200 });
    // One pattern on a long text: a single call of about ten seconds of CPU, no check inside it. Its
    // deadline is a second away, so that even a loaded machine starts the call before it (a job whose
    // deadline passed before its first pattern is stopped by the engine, not by the watchdog).
    const started = Date.now();
    const stuck = await settled(p.run(policy, [guardrail([SLOW])], parts(2_000_000), "a", started + 1_000));
    expect(stuck.error).toBeInstanceOf(DeadlineExceededError);
    // Replaced by the watchdog (deadline and grace: 1.2 s), long before the call would have ended.
    expect(p.replaced).toBe(1);
    expect(Date.now() - started).toBeLessThan(5_000);
    // The replacement loads its detectors; after that, nothing runs: the stuck call went with its thread.
    await p.ready();
    expect(await cpuShare(400)).toBeLessThan(0.3);
    const next = await settled(p.run(policy, [], parts(10_000), "b", far()));
    expect(next.error).toBeUndefined();
  });

  it("a full queue answers 503 with Retry-After at once; a job that waited too long is refused", async () => {
    const p = await start(1, { maxQueuePerOrg: 2, maxQueue: 3, maxWaitMs: 100 });
    const slow = [guardrail([SLOW, SLOW, SLOW])];
    let runningDone = false;
    const running = settled(p.run(policy, slow, parts(50_000), "a", far()).finally(() => (runningDone = true)));
    const queued = [settled(p.run(policy, [], parts(100), "a", far())), settled(p.run(policy, [], parts(100), "a", far()))];
    const refused = await settled(p.run(policy, [], parts(100), "a", far()));
    // At once: refused while the running job still runs, not after waiting behind it.
    expect(runningDone).toBe(false);
    expect(refused.error).toBeInstanceOf(ApiError);
    expect((refused.error as ApiError).id).toBe("unavailable");
    expect(Number((refused.error as ApiError).headers["retry-after"])).toBeGreaterThanOrEqual(1);
    // Another organization still finds room in the total queue, but not past it.
    const b = settled(p.run(policy, [], parts(100), "b", far()));
    const full = await settled(p.run(policy, [], parts(100), "c", far()));
    expect(runningDone).toBe(false);
    expect((full.error as ApiError).id).toBe("unavailable");
    expect((await running).error).toBeUndefined();
    // The running job took longer than the wait limit: those behind it are refused, not screened late.
    for (const r of [...(await Promise.all(queued)), await b]) expect((r.error as ApiError | undefined)?.id).toBe("unavailable");
  });
});
