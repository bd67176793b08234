// AnalyticsService (docs/api.md#analytics): request counts per
// project in contiguous, zero-filled buckets aligned to the floored start.
import type { ServiceImpl } from "@connectrpc/connect";
import type { MessageInitShape } from "@bufbuild/protobuf";
import type { AnalyticsBucketSchema, AnalyticsService } from "../../gen/parapet/v1/analytics_pb.js";
import { callerOrgWith } from "../api/tenant.js";
import { invalidRequest as invalid, requireInstant } from "../api/time.js";
import type { Organizations } from "../auth/organizations-repository.js";
import { counterFields, type AnalyticsRollups, type Counter } from "./repository.js";

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

      const series = new Map<string, Record<Counter, number>[]>();
      const empty = () => Array.from({ length: buckets }, () => Object.fromEntries(counterFields.map((f) => [f, 0])) as Record<Counter, number>);
      for (const id of req.projectIds) series.set(id, empty());
      for (const row of rows) {
        let s = series.get(row.project_id);
        if (!s) series.set(row.project_id, (s = empty()));
        // Buckets are aligned to the requested start, not to the epoch (docs/decisions.md#analytics).
        const bucket = s[Math.floor((row.start.getTime() - start) / bin)];
        for (const f of counterFields) bucket[f] += row[f] ?? 0;
      }
      const projects = [...series.keys()].sort().map((projectId) => ({
        projectId,
        timeSeries: series.get(projectId)!.map((c, i): MessageInitShape<typeof AnalyticsBucketSchema> => ({
          timestamp: iso(start + i * bin),
          numRequests: c.num_requests,
          totalFlagged: c.total_flagged,
          promptAttackFlagged: c.prompt_attack_flagged,
          moderationFlagged: c.moderation_flagged,
          piiFlagged: c.pii_flagged,
          unknownLinksFlagged: c.unknown_links_flagged,
          overrideDenyFlagged: c.override_deny_flagged,
        })),
      }));
      return { effectiveStartTime: iso(start), effectiveEndTime: iso(end), resolution, projects };
    },
  };
}
