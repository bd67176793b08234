// Contract edges found by the hardening review (issue 14, requirement 7), each on the real
// service: tool calls need `function.arguments`, log bounds keep sub-millisecond precision,
// hour 24 is not a date-time, blank project names are refused, and a body that is not an
// object is a 400 (docs/api.md#errors).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Code, ConnectError } from "@connectrpc/connect";
import { GuardService } from "../../gen/parapet/v1/guard_pb.js";
import { familiesOf, type StoredLog } from "../../src/logs/repository.js";
import { rpcClient, startTestServer, type TestServer } from "../support/server.js";

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ PARAPET_RETENTION_DAYS: "3650" });
});
afterAll(async () => {
  await server?.close();
});

function log(id: number, at: Date): StoredLog {
  return {
    _id: `00000000-0000-7000-8000-${String(id).padStart(12, "0")}`,
    timestamp: at,
    meta: { org_id: "org-default", project_id: "project-edges" },
    policy_id: "policy-default",
    flagged: false,
    detected: false,
    fired: [],
    families: familiesOf([]),
    messages: [],
    results: [],
    msg_results: [],
    event_metadata: "{}",
  };
}

describe("a tool call without function.arguments", () => {
  const withArguments = (fn: Record<string, unknown>) => ({
    messages: [{ role: "assistant", content: null, tool_calls: [{ id: "call_1", type: "function", function: fn }] }],
  });

  it("is refused over REST, naming the field", async () => {
    const res = await server.rest("POST", "/v2/guard", withArguments({ name: "get_weather" }), server.screeningKey);
    expect(res.status).toBe(422);
    expect(res.body).toMatchObject({ status: "error", error: "validation_failed", code: 422 });
    expect(res.body.message).toContain("messages[0].tool_calls[0].function.arguments");
  });

  it("is refused over gRPC too, while empty arguments are accepted", async () => {
    const client = rpcClient(GuardService, server, "grpc", server.screeningKey);
    const err = await client.guard({ messages: [{ role: "assistant", toolCalls: [{ id: "c", type: "function", function: { name: "f" } }] }] }).then(
      () => undefined,
      (e: unknown) => ConnectError.from(e),
    );
    expect(err?.code).toBe(Code.InvalidArgument);
    const ok = await server.rest("POST", "/v2/guard", withArguments({ name: "get_weather", arguments: "" }), server.screeningKey);
    expect(ok.status).toBe(200);
  });
});

describe("log time bounds", () => {
  const base = Date.parse("2024-03-01T10:00:00.775Z");
  beforeAll(async () => {
    await server.app.repos.logs.logs.insertMany([log(1, new Date(base)), log(2, new Date(base + 1))]);
  });
  const ids = async (start: string, end: string) => {
    const res = await server.rest("POST", "/v1-beta/logs", { start_time: start, end_time: end, project_id: "project-edges" });
    expect(res.status).toBe(200);
    return (res.body.logs as { request_uuid: string }[]).map((l) => Number(l.request_uuid.slice(-3)));
  };

  it("a start after the log's millisecond excludes it", async () => {
    expect(await ids("2024-03-01T10:00:00.7759Z", "2024-03-01T10:00:01Z")).toEqual([2]);
    expect(await ids("2024-03-01T10:00:00.775000001Z", "2024-03-01T10:00:01Z")).toEqual([2]);
    expect(await ids("2024-03-01T10:00:00.7750Z", "2024-03-01T10:00:01Z")).toEqual([1, 2]);
  });

  it("an end just after the log's millisecond includes it", async () => {
    expect(await ids("2024-03-01T10:00:00Z", "2024-03-01T10:00:00.7751Z")).toEqual([1]);
    expect(await ids("2024-03-01T10:00:00Z", "2024-03-01T10:00:00.775Z")).toEqual([]);
    expect(await ids("2024-03-01T11:00:00.7751+01:00", "2024-03-01T10:00:00.7761Z")).toEqual([2]);
  });

  it("an end after the start by less than a millisecond is a valid, empty range", async () => {
    expect(await ids("2024-03-01T10:00:00.7751Z", "2024-03-01T10:00:00.7752Z")).toEqual([]);
    const res = await server.rest("POST", "/v1-beta/logs", { start_time: "2024-03-01T10:00:00.7752Z", end_time: "2024-03-01T10:00:00.7751Z" });
    expect(res.status).toBe(422);
  });
});

describe("hour 24", () => {
  it.each([
    ["/v1-beta/logs", { start_time: "2024-03-01T24:00:00Z", end_time: "2024-03-03T00:00:00Z" }],
    ["/v1-beta/logs", { start_time: "2024-03-01T00:00:00Z", end_time: "2024-03-01T24:00:00+00:00" }],
    ["/v1-beta/analytics", { start_time: "2024-03-01T24:00:00Z", end_time: "2024-03-03T00:00:00Z" }],
  ])("is not a date-time on %s", async (p, body) => {
    const res = await server.rest("POST", p, body);
    expect(res.status).toBe(422);
    expect(res.body.message).toMatch(/_time: '2024-03-01T24:00:00.*' is not a valid date-time/);
  });
});

describe("project names", () => {
  it.each(["   ", "\t \n", ""])("%j is refused on create and update", async (name) => {
    const res = await server.rest("POST", "/v1-beta/projects", { name });
    expect(res.status).toBe(422);
    expect(res.body.message).toContain("name");
    const created = (await server.rest("POST", "/v1-beta/projects", { name: "edge project" })).body;
    const upd = await server.rest("PUT", `/v1-beta/projects/${created.id}`, { name });
    expect(upd.status).toBe(422);
  });

  it("are stored trimmed, as policy names are", async () => {
    const res = await server.rest("POST", "/v1-beta/projects", { name: "  Padded  " });
    expect(res.status).toBe(200);
    expect(res.body.name).toBe("Padded");
    const policy = await server.rest("POST", "/v1/policies", {
      name: "  Padded policy  ",
      default_threshold: "l1_confident",
      detectors: [{ type: "pii/email", location: "user::content" }],
    });
    expect((await server.rest("GET", `/v1/policies/${policy.body.id}`)).body.policy.name).toBe("Padded policy");
  });
});

describe("a JSON body that is not an object", () => {
  it.each([
    ["POST", "/v1/policies", "[]"],
    ["POST", "/v1/policies", "42"],
    ["POST", "/v1/policies", '"a string"'],
    ["POST", "/v1/policies", "null"],
    ["POST", "/v1-beta/projects", "[1,2]"],
    ["PUT", "/v1-beta/projects/project-default", "true"],
    ["POST", "/v2/guard", "[]"],
    ["POST", "/v1-beta/logs", "7"],
  ])("%s %s %s answers 400 malformed_json", async (method, p, body) => {
    const res = await server.rest(method, p, body, p === "/v2/guard" ? server.screeningKey : undefined);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ status: "error", error: "malformed_json", code: 400, request_id: expect.any(String) });
  });
});
