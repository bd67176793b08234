// Write-time analytics rollups (docs/decisions.md#analytics): one counter document per
// organization, project and minute, bumped with an $inc upsert on a
// deterministic id for every screening request. Analytics queries bucket these
// instead of aggregating raw logs, which the embedded engine could not do fast.
import { counterOf } from "../screening/registry.js";
import { familyCounters } from "../screening/vocabulary.js";
import type { Collection, Database, Doc } from "../storage/collection.js";
import { binOf } from "./screening-time.js";

// Per-family counters are declared by the detectors (their definition's `counter`).
export const counterFields = ["num_requests", "total_flagged", ...familyCounters] as const;
export type Counter = (typeof counterFields)[number];

/**
 * Counters of one organization, project and period (a minute or an hour). Beside the contract's
 * counters, the details extension's (docs/api.md#analytics-details): `decision_flagged`, one
 * `detector:<type>` per detector type that fired and one `screening_ms_bin:<i>` per histogram bin
 * (screening-time.ts), top-level fields all, so a request's update stays a flat $inc; rows
 * written before the extension lack them, which reads as zero.
 */
export interface Rollup extends Doc, Record<Counter, number> {
  org_id: string;
  project_id: string;
  /** Period start, UTC. */
  start: Date;
  decision_flagged?: number;
  [detail: `${typeof DETECTOR_PREFIX | typeof SCREENING_BIN_PREFIX}${string}`]: number | undefined;
}

export const DETECTOR_PREFIX = "detector:";
export const SCREENING_BIN_PREFIX = "screening_ms_bin:";

/** What the details extension counts of a request besides the detector types that fired. */
export interface RequestOutcome {
  /** The decision returned (false in detect mode). */
  flagged: boolean;
  /** Absent when not timed (a stream's request). */
  screeningMs?: number;
}

const MINUTE = 60_000;
const HOUR = 3_600_000;

/** The per-minute and per-hour rollups, in that order. */
export const ROLLUP_COLLECTIONS = ["analytics_minutes", "analytics_hours"] as const;

/** Which analytics counters a request with these fired detector types increments (docs/api.md#analytics). */
export function countersFor(fired: string[]): Record<Counter, number> {
  const counters = Object.fromEntries(counterFields.map((c) => [c, 0])) as Record<Counter, number>;
  counters.num_requests = 1;
  counters.total_flagged = fired.length > 0 ? 1 : 0;
  for (const t of fired) {
    const counter = counterOf(t);
    if (counter) counters[counter] = 1;
  }
  return counters;
}

/** The details extension's counters a request increments (docs/api.md#analytics-details). */
function detailCountersFor(fired: string[], outcome: RequestOutcome): Record<string, number> {
  const counters: Record<string, number> = { decision_flagged: outcome.flagged ? 1 : 0 };
  for (const t of new Set(fired)) counters[DETECTOR_PREFIX + t] = 1;
  if (outcome.screeningMs !== undefined) counters[SCREENING_BIN_PREFIX + binOf(outcome.screeningMs)] = 1;
  return counters;
}

// Two granularities: minute counters give exact buckets for any minute-aligned
// range; hour counters let long ranges read 60 times fewer rows. A query uses
// an hour row only when no bucket boundary falls inside that hour.
export class AnalyticsRollups {
  private constructor(
    readonly minutes: Collection<Rollup>,
    readonly hours: Collection<Rollup>,
  ) {}

  static async open(db: Database, retentionSeconds: number): Promise<AnalyticsRollups> {
    const open = async (name: string) => {
      const c = await db.collection<Rollup>(name);
      await c.createIndex({ name: "org_start", keys: { org_id: 1, start: 1 } });
      await c.createIndex({ name: "retention", keys: { start: 1 }, expireAfterSeconds: retentionSeconds });
      return c;
    };
    const [minutes, hours] = ROLLUP_COLLECTIONS;
    return new AnalyticsRollups(await open(minutes), await open(hours));
  }

  /** Counts one screened request; without `outcome` only the contract's counters (tests that predate the extension). */
  async record(orgId: string, projectId: string, at: Date, fired: string[], outcome?: RequestOutcome): Promise<void> {
    const counters: Record<string, number> = countersFor(fired);
    if (outcome) Object.assign(counters, detailCountersFor(fired, outcome));
    const bump = (c: Collection<Rollup>, period: number) => {
      const start = new Date(Math.floor(at.getTime() / period) * period);
      return c.updateOne(
        { _id: `${orgId}|${projectId}|${start.getTime()}` },
        { $inc: counters, $set: { org_id: orgId, project_id: projectId, start } },
        { upsert: true },
      );
    };
    await Promise.all([bump(this.minutes, MINUTE), bump(this.hours, HOUR)]);
  }

  /**
   * Rows whose periods cover [start, end) exactly once, none of them cut by a
   * bucket boundary (start + k * bin): hour rows where possible, minute rows
   * around the boundaries and at the edges. `start`, `end` and `bin` are whole minutes.
   */
  async rowsFor(orgId: string, projectIds: string[], start: number, end: number, bin: number): Promise<Rollup[]> {
    const cut = (t0: number, t1: number) => start + (Math.floor((t0 - start) / bin) + 1) * bin < t1;
    const minuteRanges: [number, number][] = [];
    const addMinutes = (a: number, b: number) => {
      const last = minuteRanges[minuteRanges.length - 1];
      if (last && last[1] === a) last[1] = b;
      else minuteRanges.push([a, b]);
    };
    const usableHours = new Set<number>();
    let t = Math.min(end, Math.ceil(start / HOUR) * HOUR);
    if (start < t) addMinutes(start, t);
    for (; t + HOUR <= end; t += HOUR) {
      if (cut(t, t + HOUR)) addMinutes(t, t + HOUR);
      else usableHours.add(t);
    }
    if (t < end) addMinutes(t, end);

    const base: Record<string, unknown> = { org_id: orgId };
    if (projectIds.length > 0) base.project_id = { $in: projectIds };
    const range = (a: number, b: number) => ({ ...base, start: { $gte: new Date(a), $lt: new Date(b) } });
    const queries: Promise<Rollup[]>[] = minuteRanges.map(([a, b]) => this.minutes.find(range(a, b)));
    if (usableHours.size > 0) {
      const hours = [...usableHours];
      queries.push(this.hours.find(range(Math.min(...hours), Math.max(...hours) + HOUR)).then((rows) => rows.filter((r) => usableHours.has(r.start.getTime()))));
    }
    return (await Promise.all(queries)).flat();
  }
}
