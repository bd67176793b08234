// AnalyticsService (docs/api.md#analytics): request counts per
// project in contiguous, zero-filled buckets aligned to the floored start.
import type { ServiceImpl } from "@connectrpc/connect";
import type { MessageInitShape } from "@bufbuild/protobuf";
import type { AnalyticsBucketSchema, AnalyticsService } from "../../gen/parapet/v1/analytics_pb.js";
import { callerOrgWith } from "../api/tenant.js";
import { invalidRequest as invalid, requireInstant } from "../api/time.js";
import type { Organizations } from "../auth/organizations-repository.js";
import { DETECTOR_PREFIX, SCREENING_BIN_PREFIX, type AnalyticsRollups, type Counter, type Rollup } from "./repository.js";
import { quantileOf, SCREENING_MS_BINS } from "./screening-time.js";

/** The contract's counters by their generated (camelCase) names: a counter added to the rollups and not to the answer fails to compile. */
type CamelCounter = CamelOf<Counter>;
type CamelOf<S extends string> = S extends `${infer H}_${infer T}` ? `${H}${Capitalize<CamelOf<T>>}` : S;

const MINUTE = 60_000;
const MAX_RANGE_DAYS = 180;
const MAX_BUCKETS = 10_000;

/** `PT{n}M`, `PT{n}H` or `P{n}D` (shape checked by the proto rule) in milliseconds. */
function resolutionMs(resolution: string): number {
  const m = /^P(?:T(\d+)([MH])|(\d+)D)$/.exec(resolution);
  if (!m) throw invalid(`resolution: '${resolution}' is not PT{n}M, PT{n}H or P{n}D`);
  if (m[3]) return Number(m[3]) * 1440 * MINUTE;
  return Number(m[1]) * (m[2] === "H" ? 60 : 1) * MINUTE;
}

const floorMinute = (ms: number) => Math.floor(ms / MINUTE) * MINUTE;
const iso = (ms: number) => new Date(ms).toISOString().replace(".000Z", "Z");

/** A bucket's counters: every numeric field of its rollup rows summed, the contract's and the details extension's. */
type Sums = Record<string, number>;

function addCounters(into: Sums, row: Rollup | Sums): void {
  for (const [k, v] of Object.entries(row)) if (typeof v === "number") into[k] = (into[k] ?? 0) + v;
}

function sumOf(buckets: Sums[]): Sums {
  const total: Sums = {};
  for (const b of buckets) addCounters(total, b);
  return total;
}

/** A bucket of the answer; with `details`, the extension's fields (docs/api.md#analytics-details) too. */
function bucketOf(timestamp: string, c: Sums, details: boolean): MessageInitShape<typeof AnalyticsBucketSchema> {
  const n = (f: string) => c[f] ?? 0;
  const bucket = {
    timestamp,
    numRequests: n("num_requests"),
    totalFlagged: n("total_flagged"),
    promptAttackFlagged: n("prompt_attack_flagged"),
    moderationFlagged: n("moderation_flagged"),
    piiFlagged: n("pii_flagged"),
    unknownLinksFlagged: n("unknown_links_flagged"),
    overrideDenyFlagged: n("override_deny_flagged"),
  } satisfies Record<string, unknown> & { [K in CamelCounter]: number };
  if (!details) return bucket;
  const detectorCounts: Record<string, number> = {};
  const bins = new Array<number>(SCREENING_MS_BINS).fill(0);
  for (const [k, v] of Object.entries(c).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    if (k.startsWith(DETECTOR_PREFIX) && v > 0) detectorCounts[k.slice(DETECTOR_PREFIX.length)] = v;
    else if (k.startsWith(SCREENING_BIN_PREFIX)) {
      const i = Number(k.slice(SCREENING_BIN_PREFIX.length));
      if (i >= 0 && i < SCREENING_MS_BINS) bins[i] += v;
    }
  }
  const timed = bins.reduce((a, b) => a + b, 0);
  return {
    ...bucket,
    decisionFlagged: n("decision_flagged"),
    detectorCounts,
    screeningMs: { count: timed, p50: quantileOf(bins, 0.5), p95: quantileOf(bins, 0.95) },
  };
}

export function analyticsService(deps: { orgs: Organizations; rollups: AnalyticsRollups }): ServiceImpl<typeof AnalyticsService> {
  return {
    async getAnalytics(req, ctx) {
      const org = await callerOrgWith(ctx, deps.orgs, "logs_analytics");
      const start = floorMinute(requireInstant("start_time", req.startTime).toMillis());
      const end = floorMinute(requireInstant("end_time", req.endTime).toMillis());
      if (end <= start) throw invalid("end_time: must be strictly after start_time once both are floored to the minute");
      if (end - start > MAX_RANGE_DAYS * 1440 * MINUTE) throw invalid(`the time range may span at most ${MAX_RANGE_DAYS} days`);
      const resolution = req.resolution ?? "P1D";
      const bin = resolutionMs(resolution);
      if ((end - start) % bin !== 0) {
        throw invalid(`resolution: ${resolution} does not divide the range ${iso(start)} to ${iso(end)} evenly`);
      }
      const buckets = (end - start) / bin;
      if (buckets > MAX_BUCKETS) {
        throw invalid(`resolution: ${resolution} gives ${buckets} buckets per project, over the maximum of ${MAX_BUCKETS}; use a coarser resolution`);
      }

      const rows = await deps.rollups.rowsFor(org._id, req.projectIds, start, end, bin);

      const series = new Map<string, Sums[]>();
      const empty = () => Array.from({ length: buckets }, (): Sums => ({}));
      for (const id of req.projectIds) series.set(id, empty());
      for (const row of rows) {
        let s = series.get(row.project_id);
        if (!s) series.set(row.project_id, (s = empty()));
        // Buckets are aligned to the requested start, not to the epoch (docs/decisions.md#analytics).
        addCounters(s[Math.floor((row.start.getTime() - start) / bin)], row);
      }
      const details = req.includeDetails;
      const projects = [...series.keys()].sort().map((projectId) => ({
        projectId,
        timeSeries: series.get(projectId)!.map((c, i) => bucketOf(iso(start + i * bin), c, details)),
      }));
      const totals = details ? bucketOf(iso(start), sumOf([...series.values()].flat()), true) : undefined;
      return { effectiveStartTime: iso(start), effectiveEndTime: iso(end), resolution, projects, totals };
    },
  };
}
