// POST /v1-beta/analytics (docs/api.md#analytics): bucket arithmetic against a
// brute-force count over the same events, validation and isolation.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AnalyticsService } from "../../gen/parapet/v1/analytics_pb.js";
import { countersFor } from "../../src/analytics/repository.js";
import { binOf, SCREENING_MS_BOUNDS } from "../../src/analytics/screening-time.js";
import { rpcClient, startTestServer, type TestServer } from "../support/server.js";

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ PARAPET_RETENTION_DAYS: "3650" });
});
afterAll(async () => {
  await server?.close();
});

const analytics = (body: Record<string, unknown>, key?: string | null) => server.rest("POST", "/v1-beta/analytics", body, key);

interface Event {
  project: string;
  at: number;
  fired: string[];
}

/** Deterministic pseudo-random numbers (mulberry32) so a failure can be replayed. */
function rng(seed: number) {
  return () => {
    seed |= 0;
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const firedKinds = [[], ["prompt_attack"], ["pii/email"], ["moderated_content/hate", "pii/name"], ["unknown_links"], ["override_deny"], ["tool_access_control"]];

describe("buckets match a brute-force count", () => {
  let orgId: string;
  let key: string;
  const events: Event[] = [];
  // Across the 2024 leap day and the February/March month end.
  const from = Date.UTC(2024, 1, 27, 0, 0);
  const to = Date.UTC(2024, 2, 3, 0, 0);

  beforeAll(async () => {
    const org = await server.newOrg();
    orgId = org.orgId;
    key = org.platformKey;
    const random = rng(7);
    for (let i = 0; i < 4000; i++) {
      const e = {
        project: ["project-b", "project-a", org.orgId.replace("org-", "project-default-")][Math.floor(random() * 3)],
        at: from + Math.floor(random() * (to - from)),
        fired: firedKinds[Math.floor(random() * firedKinds.length)],
      };
      events.push(e);
      await server.app.repos.rollups.record(orgId, e.project, new Date(e.at), e.fired);
    }
  });

  function bruteForce(start: number, end: number, binMs: number, project: string) {
    const n = (end - start) / binMs;
    const buckets = Array.from({ length: n }, (_, i) => ({
      timestamp: new Date(start + i * binMs).toISOString().replace(".000Z", "Z"),
      num_requests: 0,
      total_flagged: 0,
      prompt_attack_flagged: 0,
      moderation_flagged: 0,
      pii_flagged: 0,
      unknown_links_flagged: 0,
      override_deny_flagged: 0,
    }));
    for (const e of events) {
      if (e.project !== project || e.at < start || e.at >= end) continue;
      const b = buckets[Math.floor((e.at - start) / binMs)] as Record<string, number | string>;
      for (const [k, v] of Object.entries(countersFor(e.fired))) (b[k] as number) += v;
    }
    return buckets;
  }

  it.each([
    ["2024-02-27T00:00:00Z", "2024-03-03T00:00:00Z", "P1D", 86_400_000],
    ["2024-02-28T05:17:00Z", "2024-03-01T05:17:00Z", "PT6H", 6 * 3_600_000],
    ["2024-02-28T23:00:00Z", "2024-02-29T01:00:00Z", "PT1M", 60_000],
    ["2024-02-28T23:30:00+00:00", "2024-03-01T00:30:00Z", "PT5M", 300_000],
    ["2024-02-27T12:00:00Z", "2024-03-02T12:00:00Z", "P2D", 2 * 86_400_000],
    // Boundaries inside hours: hour counters around them must not be used.
    ["2024-02-27T00:00:00Z", "2024-03-02T00:00:00Z", "PT90M", 90 * 60_000],
    ["2024-02-27T00:07:00Z", "2024-03-02T00:07:00Z", "P1D", 86_400_000],
    ["2024-02-29T10:59:00Z", "2024-02-29T13:01:00Z", "PT2M", 120_000],
  ])("%s .. %s at %s", async (start, end, resolution, binMs) => {
    const res = await analytics({ start_time: start, end_time: end, resolution }, key);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const s = Date.parse(start);
    const e = Date.parse(end);
    expect(res.body.effective_start_time).toBe(new Date(s).toISOString().replace(".000Z", "Z"));
    expect(res.body.resolution).toBe(resolution);
    const ids = res.body.projects.map((p: any) => p.project_id);
    expect(ids).toEqual([...ids].sort());
    for (const p of res.body.projects) {
      expect(p.time_series).toEqual(bruteForce(s, e, binMs, p.project_id));
    }
    const withTraffic = new Set(events.filter((ev) => ev.at >= s && ev.at < e).map((ev) => ev.project));
    expect(new Set(ids)).toEqual(withTraffic);
  });

  it("seconds below the minute are floored on both ends", async () => {
    const res = await analytics({ start_time: "2024-02-28T00:00:59.999Z", end_time: "2024-02-29T00:00:30Z", resolution: "PT1H" }, key);
    expect(res.status).toBe(200);
    expect(res.body.effective_start_time).toBe("2024-02-28T00:00:00Z");
    expect(res.body.effective_end_time).toBe("2024-02-29T00:00:00Z");
    for (const p of res.body.projects) expect(p.time_series).toEqual(bruteForce(Date.UTC(2024, 1, 28), Date.UTC(2024, 1, 29), 3_600_000, p.project_id));
  });

  it("project_ids filters, and names projects without traffic with zero-filled buckets", async () => {
    const res = await analytics({ start_time: "2024-02-27T00:00:00Z", end_time: "2024-02-28T00:00:00Z", project_ids: ["project-b", "project-none"] }, key);
    expect(res.body.projects.map((p: any) => p.project_id)).toEqual(["project-b", "project-none"]);
    expect(res.body.projects[1].time_series).toEqual(bruteForce(Date.UTC(2024, 1, 27), Date.UTC(2024, 1, 28), 86_400_000, "project-none"));
    expect(res.body.projects[0].time_series[0].num_requests).toBeGreaterThan(0);
  });

  it("over gRPC", async () => {
    const client = rpcClient(AnalyticsService, server, "grpc", key);
    const res = await client.getAnalytics({ startTime: "2024-02-27T00:00:00Z", endTime: "2024-03-03T00:00:00Z" });
    expect(res.resolution).toBe("P1D");
    const total = res.projects.flatMap((p) => p.timeSeries).reduce((n, b) => n + b.numRequests, 0);
    expect(total).toBe(events.length);
  });

  it("other organizations see none of it", async () => {
    const res = await analytics({ start_time: "2024-02-27T00:00:00Z", end_time: "2024-03-03T00:00:00Z" });
    expect(res.body.projects).toEqual([]);
  });
});

describe("details extension (include_details)", () => {
  let orgId: string;
  let key: string;
  const from = Date.UTC(2024, 5, 1, 0, 0);
  const to = Date.UTC(2024, 5, 3, 0, 0);
  const detailed: (Event & { flagged: boolean; ms?: number })[] = [];

  beforeAll(async () => {
    const org = await server.newOrg();
    orgId = org.orgId;
    key = org.platformKey;
    const random = rng(11);
    for (let i = 0; i < 1500; i++) {
      const fired = firedKinds[Math.floor(random() * firedKinds.length)];
      const e = {
        project: ["project-a", "project-b"][Math.floor(random() * 2)],
        at: from + Math.floor(random() * (to - from)),
        fired,
        flagged: fired.length > 0 && random() < 0.7,
        // Log-uniform from 0.05 ms to 25 s (the open last bin is screening-time.test.ts's), and some untimed (streams).
        ms: random() < 0.1 ? undefined : Math.round(0.05 * Math.pow(5e5, random()) * 1000) / 1000,
      };
      detailed.push(e);
      await server.app.repos.rollups.record(orgId, e.project, new Date(e.at), e.fired, { flagged: e.flagged, screeningMs: e.ms });
    }
  });

  /** The exact q-quantile (nearest rank) and the width of its histogram bin, which bounds the estimate's error. */
  function exactQuantile(times: number[], q: number): { exact: number; width: number } {
    const sorted = [...times].sort((a, b) => a - b);
    const exact = sorted[Math.max(0, Math.ceil(q * sorted.length) - 1)];
    const bin = binOf(exact);
    const lower = bin === 0 ? 0 : SCREENING_MS_BOUNDS[bin - 1];
    const upper = SCREENING_MS_BOUNDS[bin];
    return { exact, width: upper - lower };
  }

  function expectDetails(bucket: any, events: typeof detailed) {
    expect(bucket.decision_flagged).toBe(events.filter((e) => e.flagged).length);
    const counts: Record<string, number> = {};
    for (const e of events) for (const t of e.fired) counts[t] = (counts[t] ?? 0) + 1;
    expect(bucket.detector_counts ?? {}).toEqual(counts);
    const times = events.flatMap((e) => (e.ms === undefined ? [] : [e.ms]));
    expect(bucket.screening_ms.count).toBe(times.length);
    if (times.length === 0) {
      expect(bucket.screening_ms.p50).toBeNull();
      expect(bucket.screening_ms.p95).toBeNull();
      return;
    }
    for (const [q, field] of [
      [0.5, "p50"],
      [0.95, "p95"],
    ] as const) {
      const { exact, width } = exactQuantile(times, q);
      expect(Math.abs(bucket.screening_ms[field] - exact), `${field} of ${times.length} times`).toBeLessThanOrEqual(width);
    }
  }

  it.each([
    ["2024-06-01T00:00:00Z", "2024-06-03T00:00:00Z", "PT6H", 6 * 3_600_000],
    ["2024-06-01T10:30:00Z", "2024-06-01T13:30:00Z", "PT15M", 15 * 60_000],
    ["2024-06-01T00:00:00Z", "2024-06-03T00:00:00Z", "P2D", 2 * 86_400_000],
  ])("%s .. %s at %s: decisions, detector counts and screening time per bucket, and totals", async (start, end, resolution, binMs) => {
    const res = await analytics({ start_time: start, end_time: end, resolution, include_details: true }, key);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const s = Date.parse(start);
    const e = Date.parse(end);
    for (const p of res.body.projects) {
      p.time_series.forEach((bucket: any, i: number) => {
        const t0 = s + i * binMs;
        expectDetails(
          bucket,
          detailed.filter((ev) => ev.project === p.project_id && ev.at >= t0 && ev.at < t0 + binMs),
        );
      });
    }
    const inRange = detailed.filter((ev) => ev.at >= s && ev.at < e);
    expect(res.body.totals.timestamp).toBe(res.body.effective_start_time);
    expect(res.body.totals.num_requests).toBe(inRange.length);
    expect(res.body.totals.total_flagged).toBe(inRange.filter((ev) => ev.fired.length > 0).length);
    expectDetails(res.body.totals, inRange);
  });

  it("the detected and the flagged are told apart: decisions never exceed detections", async () => {
    const res = await analytics({ start_time: "2024-06-01T00:00:00Z", end_time: "2024-06-03T00:00:00Z", include_details: true }, key);
    const { totals } = res.body;
    expect(totals.decision_flagged).toBeGreaterThan(0);
    expect(totals.decision_flagged).toBeLessThan(totals.total_flagged);
  });

  it("without include_details the answer keeps the contract's shape", async () => {
    const res = await analytics({ start_time: "2024-06-01T00:00:00Z", end_time: "2024-06-03T00:00:00Z" }, key);
    expect(Object.keys(res.body).sort()).toEqual(["effective_end_time", "effective_start_time", "projects", "resolution"]);
    expect(Object.keys(res.body.projects[0].time_series[0]).sort()).toEqual([
      "moderation_flagged",
      "num_requests",
      "override_deny_flagged",
      "pii_flagged",
      "prompt_attack_flagged",
      "timestamp",
      "total_flagged",
      "unknown_links_flagged",
    ]);
  });

  it("over Connect: the same details, and empty ranges have null percentiles", async () => {
    const client = rpcClient(AnalyticsService, server, "connect-binary", key);
    const res = await client.getAnalytics({ startTime: "2024-06-01T00:00:00Z", endTime: "2024-06-03T00:00:00Z", includeDetails: true });
    const rest = await analytics({ start_time: "2024-06-01T00:00:00Z", end_time: "2024-06-03T00:00:00Z", include_details: true }, key);
    expect(res.totals?.decisionFlagged).toBe(rest.body.totals.decision_flagged);
    expect(res.totals?.screeningMs?.p95).toBe(rest.body.totals.screening_ms.p95);
    expect(res.totals?.detectorCounts).toEqual(rest.body.totals.detector_counts);
    const none = await analytics({ start_time: "2024-07-01T00:00:00Z", end_time: "2024-07-02T00:00:00Z", include_details: true }, key);
    expect(none.body.projects).toEqual([]);
    expect(none.body.totals).toEqual({
      timestamp: "2024-07-01T00:00:00Z",
      num_requests: 0,
      total_flagged: 0,
      prompt_attack_flagged: 0,
      moderation_flagged: 0,
      pii_flagged: 0,
      unknown_links_flagged: 0,
      override_deny_flagged: 0,
      decision_flagged: 0,
      screening_ms: { count: 0, p50: null, p95: null },
    });
  });
});

describe("requests screened by /v2/guard are counted", () => {
  it("one request per /v2/guard call, by category", async () => {
    const start = new Date(Math.floor(Date.now() / 60_000) * 60_000);
    const before = await analytics({ start_time: start.toISOString(), end_time: new Date(start.getTime() + 120_000).toISOString(), resolution: "PT2M" });
    const count = (r: any) => r.body.projects.find((p: any) => p.project_id === "project-default")?.time_series[0] ?? { num_requests: 0, pii_flagged: 0 };
    await server.rest("POST", "/v2/guard", { messages: [{ role: "user", content: "mail jane.doe@example.com" }] }, server.screeningKey);
    await server.rest("POST", "/v2/guard", { messages: [{ role: "user", content: "hello" }] }, server.screeningKey);
    const after = await analytics({ start_time: start.toISOString(), end_time: new Date(start.getTime() + 120_000).toISOString(), resolution: "PT2M" });
    expect(count(after).num_requests - count(before).num_requests).toBe(2);
    expect(count(after).pii_flagged - count(before).pii_flagged).toBe(1);
  });

  it("with details: the decision in enforce mode only, the detector types and the screening time", async () => {
    const org = await server.newOrg();
    const rest = (method: string, p: string, body: unknown, k: string) => server.rest(method, p, body, k);
    const enforce = await rest("POST", "/v1-beta/projects", { name: "enforced", action: "enforce" }, org.platformKey);
    const detect = await rest("POST", "/v1-beta/projects", { name: "detected", action: "detect" }, org.platformKey);
    expect([enforce.status, detect.status]).toEqual([200, 200]);
    const start = new Date(Math.floor(Date.now() / 60_000) * 60_000);
    const mail = { messages: [{ role: "user", content: "mail jane.doe@example.com" }] };
    for (const project of [enforce.body.id, detect.body.id]) {
      expect((await rest("POST", "/v2/guard", { ...mail, project_id: project }, org.screeningKey)).status).toBe(200);
    }
    expect((await rest("POST", "/v2/guard", { messages: [{ role: "user", content: "hello" }], project_id: detect.body.id }, org.screeningKey)).status).toBe(200);
    const res = await analytics(
      { start_time: start.toISOString(), end_time: new Date(start.getTime() + 120_000).toISOString(), resolution: "PT2M", include_details: true },
      org.platformKey,
    );
    const { totals } = res.body;
    expect(totals.num_requests).toBe(3);
    expect(totals.total_flagged).toBe(2);
    expect(totals.decision_flagged).toBe(1);
    expect(totals.detector_counts["pii/email"]).toBe(2);
    expect(totals.screening_ms.count).toBe(3);
    expect(totals.screening_ms.p50).toBeGreaterThan(0);
    expect(totals.screening_ms.p95).toBeGreaterThanOrEqual(totals.screening_ms.p50);
    const byProject = Object.fromEntries(res.body.projects.map((p: any) => [p.project_id, p.time_series[0]]));
    expect(byProject[enforce.body.id].decision_flagged).toBe(1);
    expect(byProject[detect.body.id].decision_flagged).toBe(0);
    expect(byProject[detect.body.id].total_flagged).toBe(1);
    // A stream's request is counted, with its decision, but has no screening time.
    const opened = await rest(
      "POST",
      "/v2/guard/streams",
      { messages: [{ role: "user", content: "Tell me about shipping." }], project_id: enforce.body.id },
      org.screeningKey,
    );
    expect(opened.status).toBe(200);
    expect((await rest("POST", `/v2/guard/streams/${opened.body.stream_id}/deltas`, { text: "Ships in two days." }, org.screeningKey)).status).toBe(200);
    expect((await rest("POST", `/v2/guard/streams/${opened.body.stream_id}/close`, {}, org.screeningKey)).status).toBe(200);
    const after = await analytics(
      { start_time: start.toISOString(), end_time: new Date(start.getTime() + 120_000).toISOString(), resolution: "PT2M", include_details: true },
      org.platformKey,
    );
    expect(after.body.totals.num_requests).toBe(4);
    expect(after.body.totals.screening_ms.count).toBe(3);
  });
});

describe("validation", () => {
  const ok = { start_time: "2024-01-01T00:00:00Z", end_time: "2024-01-02T00:00:00Z" };
  it.each([
    [{ ...ok, start_time: "2024-01-01T00:00:00+02:00" }, "start_time"],
    [{ ...ok, end_time: "2024-01-02T00:00:00" }, "end_time"],
    [{ ...ok, end_time: "2024-01-01T00:00:30Z" }, "end_time"],
    [{ ...ok, end_time: "2023-12-31T00:00:00Z" }, "end_time"],
    [{ start_time: "2024-01-01T00:00:00Z", end_time: "2024-07-01T00:00:00Z" }, "180 days"],
    [{ ...ok, resolution: "P1W" }, "resolution"],
    [{ ...ok, resolution: "PT0M" }, "resolution"],
    [{ ...ok, resolution: "PT7M" }, "divide"],
    [{ start_time: "2024-01-01T00:00:00Z", end_time: "2024-01-10T00:00:00Z", resolution: "PT1M" }, "coarser"],
  ])("%j -> 422 (%s)", async (body, fragment) => {
    const res = await analytics(body);
    expect(res.status).toBe(422);
    expect(res.body.message).toContain(fragment);
  });

  it("exactly 180 days and exactly 10,000 buckets are accepted", async () => {
    expect((await analytics({ start_time: "2024-01-01T00:00:00Z", end_time: "2024-06-29T00:00:00Z" })).status).toBe(200);
    const res = await analytics({ start_time: "2024-01-01T00:00:00Z", end_time: "2024-01-07T22:40:00Z", resolution: "PT1M" });
    expect(res.status).toBe(200);
  });

  it("auth and feature switch", async () => {
    expect((await analytics(ok, null)).status).toBe(401);
    expect((await analytics(ok, server.screeningKey)).status).toBe(403);
    expect((await analytics(ok, await server.readOnlyKey())).status).toBe(200);
    const org = await server.newOrg();
    await server.app.repos.orgs.update(org.orgId, { features: { logs_analytics: false } });
    expect((await analytics(ok, org.platformKey)).status).toBe(403);
  });
});
