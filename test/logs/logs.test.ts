// POST /v1-beta/logs (docs/api.md#logs): filters, paging, field shapes.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LogService } from "../../gen/parapet/v1/logs_pb.js";
import { familiesOf, type StoredLog } from "../../src/logs/repository.js";
import { rpcClient, startTestServer, type TestServer } from "../support/server.js";

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ PARAPET_RETENTION_DAYS: "3650" });
});
afterAll(async () => {
  await server?.close();
});

const logs = (body: Record<string, unknown>, key?: string | null) => server.rest("POST", "/v1-beta/logs", body, key);

let seq = 0;
function syntheticLog(orgId: string, at: Date, over: Partial<StoredLog> = {}): StoredLog {
  const fired = over.fired ?? [];
  seq++;
  return {
    _id: `00000000-0000-7000-8000-${String(seq).padStart(12, "0")}`,
    timestamp: at,
    meta: { org_id: orgId, project_id: "project-a" },
    policy_id: "policy-default",
    flagged: fired.length > 0,
    detected: fired.length > 0,
    fired,
    families: familiesOf(fired),
    messages: [],
    results: fired.map((t) => ({ detector_type: t, result: "l1_confident" })),
    msg_results: fired.map((t) => ({ detector_type: t, result: "l1_confident", message_id: 0, tool_id: null })),
    event_metadata: "{}",
    ...over,
  };
}

describe("logs written by /v2/guard", () => {
  it("every GuardLog field is present and typed as the API reference says", async () => {
    const start = new Date(Date.now() - 1000).toISOString();
    const g = await server.rest(
      "POST",
      "/v2/guard",
      {
        metadata: { user: "u-1" },
        messages: [
          { role: "system", content: "You are a bot" },
          { role: "user", content: "mail jane.doe@example.com 😀" },
          { role: "assistant", content: null, tool_calls: [{ id: "call_1", type: "function", function: { name: "lookup", arguments: '{"q":1}' } }] },
          { role: "tool", content: "result", tool_call_id: "call_1", name: "lookup" },
        ],
      },
      server.screeningKey,
    );
    expect(g.status).toBe(200);
    const res = await logs({ start_time: start, end_time: new Date(Date.now() + 1000).toISOString() });
    expect(res.status).toBe(200);
    const log = res.body.logs.find((l: any) => l.request_uuid === g.body.metadata.request_uuid);
    expect(log).toBeDefined();
    expect(Object.keys(log).sort()).toEqual([
      "api_key_id",
      "event_metadata",
      "flagged",
      "messages",
      "msg_results",
      "policy_id",
      "policy_version",
      "project_id",
      "request_uuid",
      "results",
      "screening_ms",
      "timestamp",
    ]);
    expect(log.project_id).toBe("project-default");
    expect(log.policy_id).toBe("policy-default");
    expect(log.flagged).toBe(true);
    expect(JSON.parse(log.event_metadata)).toEqual({ user: "u-1" });
    expect(new Date(log.timestamp).toISOString()).toBe(log.timestamp);
    expect(log.messages).toHaveLength(4);
    for (const m of log.messages) {
      expect(Object.keys(m).sort()).toEqual(["content", "content_parts_json", "index", "name", "refusal", "role", "size", "tool_call_id", "tool_calls"]);
    }
    expect(log.messages[1]).toMatchObject({ role: "user", index: 1, size: "27", content: "mail jane.doe@example.com 😀" });
    expect(log.messages[2].tool_calls).toEqual([{ id: "call_1", type: "function", function: { name: "lookup", arguments: '{"q":1}' } }]);
    expect(log.messages[3]).toMatchObject({ tool_call_id: "call_1", name: "lookup" });
    expect(log.results).toContainEqual({ detector_type: "pii/email", result: "l1_confident" });
    expect(log.msg_results).toContainEqual({
      detector_type: "pii/email",
      result: "l1_confident",
      message_id: 1,
      tool_id: null,
      spans: [{ start: 5, end: 25, labels: expect.any(Array) }],
    });
  });

  it("a request without metadata logs '{}'", async () => {
    const start = new Date(Date.now() - 1000).toISOString();
    const g = await server.rest("POST", "/v2/guard", { messages: [{ role: "user", content: "hello" }] }, server.screeningKey);
    const res = await logs({ start_time: start, end_time: new Date(Date.now() + 1000).toISOString(), detector_types: ["no_detections"] });
    const log = res.body.logs.find((l: any) => l.request_uuid === g.body.metadata.request_uuid);
    expect(log.event_metadata).toBe("{}");
    expect(log.results).toEqual([]);
    expect(log.msg_results).toEqual([]);
  });
});

describe("filters and paging over stored logs", () => {
  let orgId: string;
  let key: string;
  const N = 2700; // a multiple of the 9 kinds below
  const base = Date.UTC(2025, 0, 10, 12, 0, 0);
  beforeAll(async () => {
    const org = await server.newOrg();
    orgId = org.orgId;
    key = org.platformKey;
    const docs: StoredLog[] = [];
    const kinds = [
      [],
      ["prompt_attack"],
      ["pii/email", "pii/name"],
      ["moderated_content/hate"],
      ["override_deny"],
      ["unknown_links"],
      ["tool_access_control"],
      ["custom_guardrail"],
      ["dangerous_deviation"],
    ];
    for (let i = 0; i < N; i++) {
      const fired = kinds[i % kinds.length];
      // Many logs share a millisecond: ordering must still be total and stable.
      docs.push(
        syntheticLog(orgId, new Date(base + Math.floor(i / 3) * 1000), {
          fired,
          meta: { org_id: orgId, project_id: i % 2 ? "project-odd" : "project-even" },
          flagged: fired.length > 0 && i % 4 !== 0,
        }),
      );
    }
    await server.app.repos.logs.logs.insertMany(docs);
  });

  const range = { start_time: new Date(base).toISOString(), end_time: new Date(base + 1000 * 1000).toISOString() };

  it("pages through thousands of logs oldest first, without loss or duplicates, has_more exact", async () => {
    const seen: string[] = [];
    let offset = 0;
    let pages = 0;
    for (;;) {
      const res = await logs({ ...range, limit: 250, offset }, key);
      expect(res.status).toBe(200);
      seen.push(...res.body.logs.map((l: any) => l.request_uuid));
      pages++;
      if (!res.body.has_more) break;
      expect(res.body.logs).toHaveLength(250);
      offset += 250;
    }
    expect(pages).toBe(Math.ceil(N / 250));
    expect(seen).toHaveLength(N);
    expect(new Set(seen).size).toBe(N);
    const times = (await server.app.repos.logs.logs.find({ "meta.org_id": orgId }, { sort: { timestamp: 1, _id: 1 } })).map((l) => l._id);
    expect(seen).toEqual(times);
  });

  it("order newest_first pages the same logs from the other end, without loss or duplicates", async () => {
    const newest: string[] = [];
    for (let offset = 0; ; offset += 500) {
      const res = await logs({ ...range, order: "newest_first", limit: 500, offset }, key);
      expect(res.status).toBe(200);
      newest.push(...res.body.logs.map((l: any) => l.request_uuid));
      if (!res.body.has_more) break;
      expect(res.body.logs).toHaveLength(500);
    }
    const oldest = (await server.app.repos.logs.logs.find({ "meta.org_id": orgId }, { sort: { timestamp: 1, _id: 1 } })).map((l) => l._id);
    expect(newest).toEqual([...oldest].reverse());
    // "oldest_first" is the default spelled out.
    const explicit = await logs({ ...range, order: "oldest_first", limit: 7 }, key);
    expect(explicit.body.logs.map((l: any) => l.request_uuid)).toEqual(oldest.slice(0, 7));
  });

  it("order newest_first with filters: the newest matching logs first", async () => {
    const res = await logs({ ...range, order: "newest_first", project_id: "project-odd", flagged_only: true, limit: 20 }, key);
    const expected = (
      await server.app.repos.logs.logs.find({ "meta.org_id": orgId, "meta.project_id": "project-odd", flagged: true }, { sort: { timestamp: -1, _id: -1 }, limit: 20 })
    ).map((l) => l._id);
    expect(res.body.logs.map((l: any) => l.request_uuid)).toEqual(expected);
    expect(res.body.has_more).toBe(true);
    const times = res.body.logs.map((l: any) => Date.parse(l.timestamp));
    expect(times).toEqual([...times].sort((a, b) => b - a));
  });

  it("start_time inclusive, end_time exclusive, default limit 100", async () => {
    const res = await logs({ start_time: new Date(base).toISOString(), end_time: new Date(base + 2000).toISOString() }, key);
    expect(res.body.logs).toHaveLength(6);
    const def = await logs(range, key);
    expect(def.body.logs).toHaveLength(100);
    expect(def.body.has_more).toBe(true);
  });

  it("project_id, flagged_only, detected_only", async () => {
    const odd = await logs({ ...range, project_id: "project-odd", limit: 1000 }, key);
    expect(odd.body.logs.every((l: any) => l.project_id === "project-odd")).toBe(true);
    expect(odd.body.logs).toHaveLength(1000);
    const flagged = await server.app.repos.logs.logs.countDocuments({ "meta.org_id": orgId, flagged: true });
    const detected = await server.app.repos.logs.logs.countDocuments({ "meta.org_id": orgId, detected: true });
    let n = 0;
    for (let offset = 0; ; offset += 1000) {
      const r = await logs({ ...range, flagged_only: true, limit: 1000, offset }, key);
      expect(r.body.logs.every((l: any) => l.flagged)).toBe(true);
      n += r.body.logs.length;
      if (!r.body.has_more) break;
    }
    expect(n).toBe(flagged);
    const d = await logs({ ...range, detected_only: true, limit: 1000, offset: 2000 }, key);
    expect(d.body.logs.every((l: any) => l.results.length > 0)).toBe(true);
    expect(2000 + d.body.logs.length).toBe(detected);
    expect(detected).toBeGreaterThan(flagged);
  });

  it("detector_types families", async () => {
    const count = async (types: string[]) => {
      let total = 0;
      for (let offset = 0; ; offset += 1000) {
        const r = await logs({ ...range, detector_types: types, limit: 1000, offset }, key);
        expect(r.status).toBe(200);
        total += r.body.logs.length;
        if (!r.body.has_more) return total;
      }
    };
    expect(await count(["data_leakage"])).toBe(N / 9);
    expect(await count(["content_violation"])).toBe(N / 9);
    expect(await count(["deny_listed"])).toBe(N / 9);
    expect(await count(["no_detections"])).toBe(N / 9);
    expect(await count(["prompt_attack", "unknown_links"])).toBe((2 * N) / 9);
    expect(await count(["custom_guardrail", "tool_access_control", "dangerous_deviation"])).toBe((3 * N) / 9);
    expect(await count(["audio_prompt_attack"])).toBe(0);
  });

  it("paging is stable while new logs arrive", async () => {
    const first = await logs({ ...range, limit: 100, offset: 0 }, key);
    await server.app.repos.logs.logs.insertOne(syntheticLog(orgId, new Date(base + 999 * 1000)));
    const second = await logs({ ...range, limit: 100, offset: 100 }, key);
    const again = await logs({ ...range, limit: 200, offset: 0 }, key);
    expect([...first.body.logs, ...second.body.logs].map((l: any) => l.request_uuid)).toEqual(again.body.logs.map((l: any) => l.request_uuid));
  });

  it("other organizations' logs are never returned", async () => {
    const res = await logs({ ...range, limit: 1000 });
    expect(res.body.logs.some((l: any) => l.project_id === "project-odd")).toBe(false);
  });

  it("works over gRPC", async () => {
    const client = rpcClient(LogService, server, "grpc", key);
    const res = await client.getLogs({ startTime: range.start_time, endTime: range.end_time, limit: 5 });
    expect(res.logs).toHaveLength(5);
    expect(res.hasMore).toBe(true);
    const newest = await client.getLogs({ startTime: range.start_time, endTime: range.end_time, limit: 5, order: "newest_first" });
    const rest = await logs({ ...range, limit: 5, order: "newest_first" }, key);
    expect(newest.logs.map((l) => l.requestUuid)).toEqual(rest.body.logs.map((l: any) => l.request_uuid));
    expect(newest.logs[0].requestUuid).not.toBe(res.logs[0].requestUuid);
  });
});

describe("validation, auth and switches", () => {
  const t0 = "2025-01-01T00:00:00Z";
  const t1 = "2025-01-02T00:00:00Z";
  it.each([
    [{ end_time: t1 }, "start_time"],
    [{ start_time: t0 }, "end_time"],
    [{ start_time: t1, end_time: t0 }, "end_time"],
    [{ start_time: t0, end_time: t0 }, "end_time"],
    [{ start_time: "yesterday", end_time: t1 }, "start_time"],
    [{ start_time: "2025-02-30T00:00:00Z", end_time: t1 }, "start_time"],
    [{ start_time: t0, end_time: t1, limit: 0 }, "limit"],
    [{ start_time: t0, end_time: t1, limit: 1001 }, "limit"],
    [{ start_time: t0, end_time: t1, offset: -1 }, "offset"],
    [{ start_time: t0, end_time: t1, limit: "ten" }, "limit"],
    [{ start_time: t0, end_time: t1, detector_types: ["pii/email"] }, "detector_types"],
    [{ start_time: t0, end_time: t1, order: "desc" }, "order"],
  ])("%j -> 422 naming %s", async (body, field) => {
    const res = await logs(body);
    expect(res.status).toBe(422);
    expect(res.body.message).toContain(field);
  });

  it("accepts limit 1000, offset 0, null project_id and offsets other than Z", async () => {
    const res = await logs({ start_time: "2025-01-01T02:00:00+02:00", end_time: t1, limit: 1000, offset: 0, project_id: null });
    expect(res.status).toBe(200);
  });

  it("malformed JSON: 400", async () => {
    expect((await logs("{" as unknown as Record<string, unknown>)).status).toBe(400);
  });

  it("read-only platform keys may read logs; screening keys may not", async () => {
    const ro = await server.readOnlyKey();
    expect((await logs({ start_time: t0, end_time: t1 }, ro)).status).toBe(200);
    expect((await logs({ start_time: t0, end_time: t1 }, server.screeningKey)).status).toBe(403);
    expect((await logs({ start_time: t0, end_time: t1 }, null)).status).toBe(401);
  });

  it("feature switch off: 403; tool_access_control filter needs the agentic switch", async () => {
    const org = await server.newOrg();
    await server.app.repos.orgs.update(org.orgId, { features: { agentic: false } });
    expect((await logs({ start_time: t0, end_time: t1, detector_types: ["tool_access_control"] }, org.platformKey)).status).toBe(403);
    expect((await logs({ start_time: t0, end_time: t1, detector_types: ["prompt_attack"] }, org.platformKey)).status).toBe(200);
    await server.app.repos.orgs.update(org.orgId, { features: { logs_analytics: false } });
    const res = await logs({ start_time: t0, end_time: t1 }, org.platformKey);
    expect(res.status).toBe(403);
    expect(res.body.error).toBe("feature_disabled");
  });

  it("a query past the paging limit: 403 query_too_large", async () => {
    const res = await logs({ start_time: t0, end_time: t1, offset: 100_000, limit: 10 });
    expect(res.status).toBe(403);
    expect(res.body.error).toBe("query_too_large");
  });
});

describe("retention", () => {
  it("removes logs and analytics counters older than PARAPET_RETENTION_DAYS", async () => {
    const short = await startTestServer({ PARAPET_RETENTION_DAYS: "1" });
    try {
      const now = Date.now();
      await short.app.repos.logs.logs.insertMany([syntheticLog("org-default", new Date(now - 2 * 86_400_000)), syntheticLog("org-default", new Date(now - 3_600_000))]);
      await short.app.repos.rollups.record("org-default", "project-default", new Date(now - 2 * 86_400_000), []);
      await short.app.repos.rollups.record("org-default", "project-default", new Date(now - 3_600_000), []);
      const db = short.app.db as unknown as { sweepExpired(now: Date): Promise<unknown> };
      await db.sweepExpired(new Date(now));
      const left = await short.app.repos.logs.logs.find({ "meta.org_id": "org-default" });
      expect(left.map((l) => l.timestamp.getTime())).toEqual([now - 3_600_000]);
      expect(await short.app.repos.rollups.minutes.countDocuments({})).toBe(1);
      expect(await short.app.repos.rollups.hours.countDocuments({})).toBe(1);
    } finally {
      await short.close();
    }
  });
});
