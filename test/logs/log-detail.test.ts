// The log detail extensions (docs/api.md#log-entry): matched spans per detector and part, the
// policy version in force and the screening time, over REST and Connect, and how old logs,
// sanitized requests and requests of thousands of matches are stored.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LogService } from "../../gen/parapet/v1/logs_pb.js";
import { create } from "@bufbuild/protobuf";
import { MessageSchema } from "../../gen/parapet/v1/guard_pb.js";
import { logOf, MAX_LOGGED_SPANS } from "../../src/guard/log-entry.js";
import type { Resolved } from "../../src/guard/resolve.js";
import type { Outcome } from "../../src/screening/engine.js";
import { boundedLog, truncationMarker } from "../../src/logs/bounded.js";
import { familiesOf, type StoredLog } from "../../src/logs/repository.js";
import { bsonDocumentBytes } from "../../src/storage/document-size.js";
import { rpcClient, startTestServer, type TestServer } from "../support/server.js";

let server: TestServer;
let projectId: string;
let policyVersion: number;

beforeAll(async () => {
  server = await startTestServer();
  const detectors = [
    { type: "pii/email", location: "user::content" },
    { type: "pii/email", location: "assistant::tool_call" },
  ];
  const created = await server.rest("POST", "/v1/policies", { name: "log detail", default_threshold: "l2_very_likely", detectors });
  expect(created.status, JSON.stringify(created.body)).toBe(200);
  const policyId = created.body.id;
  // A second version, so the stored number is the one in force, not always 1.
  const updated = await server.rest("PUT", `/v1/policies/${policyId}`, { name: "log detail v2", default_threshold: "l2_very_likely", detectors });
  expect(updated.status, JSON.stringify(updated.body)).toBe(200);
  policyVersion = (await server.rest("GET", `/v1/policies/${policyId}`)).body.policy.version_id;
  expect(policyVersion).toBe(2);
  const project = await server.rest("POST", "/v1-beta/projects", { name: "log detail", policy_id: policyId, action: "enforce" });
  expect(project.status, JSON.stringify(project.body)).toBe(200);
  projectId = project.body.id;
});
afterAll(async () => {
  await server?.close();
});

async function guardAndLog(body: Record<string, unknown>) {
  const since = new Date(Date.now() - 1000).toISOString();
  const g = await server.rest("POST", "/v2/guard", { project_id: projectId, ...body }, server.screeningKey);
  expect(g.status, JSON.stringify(g.body)).toBe(200);
  const uuid = g.body.metadata.request_uuid as string;
  const res = await server.rest("POST", "/v1-beta/logs", { start_time: since, end_time: new Date(Date.now() + 1000).toISOString(), project_id: projectId, limit: 1000 });
  expect(res.status).toBe(200);
  const log = res.body.logs.find((l: { request_uuid: string }) => l.request_uuid === uuid);
  expect(log).toBeDefined();
  return { guard: g.body, log, since, uuid };
}

/** The text a span covers, counted in code points as the API says. */
const covered = (text: string, s: { start: number; end: number }) => Array.from(text).slice(s.start, s.end).join("");

const EMAIL = "jane.doe@example.com";

describe("a flagged request's log", () => {
  it("REST: spans point at the flagged text of the message and of the tool call, with the policy version and the screening time", async () => {
    const args = JSON.stringify({ to: "bob@example.org" });
    const { guard, log } = await guardAndLog({
      payload: true,
      messages: [
        { role: "user", content: `😀 please mail ${EMAIL} today` },
        { role: "assistant", content: null, tool_calls: [{ id: "c1", type: "function", function: { name: "send", arguments: args } }] },
      ],
    });
    expect(guard.flagged).toBe(true);
    expect(log.policy_version).toBe(policyVersion);
    expect(typeof log.screening_ms).toBe("number");
    expect(log.screening_ms).toBeGreaterThanOrEqual(0);

    const inMessage = log.msg_results.find((r: any) => r.message_id === 0);
    expect(inMessage).toMatchObject({ detector_type: "pii/email", tool_id: null });
    expect(inMessage.spans).toHaveLength(1);
    expect(covered(log.messages[0].content, inMessage.spans[0])).toBe(EMAIL);
    expect(inMessage).not.toHaveProperty("spans_truncated");
    // The same offsets /v2/guard's payload gave for that message.
    const payload = guard.payload.find((p: any) => p.message_id === 0);
    expect({ start: inMessage.spans[0].start, end: inMessage.spans[0].end }).toEqual({ start: payload.start, end: payload.end });

    const inCall = log.msg_results.find((r: any) => r.message_id === 1);
    expect(inCall).toMatchObject({ detector_type: "pii/email", tool_id: 0 });
    expect(covered(log.messages[1].tool_calls[0].function.arguments, inCall.spans[0])).toBe("bob@example.org");
  });

  it("Connect: the same fields through the generated client", async () => {
    const { since, uuid } = await guardAndLog({ messages: [{ role: "user", content: `write to ${EMAIL}` }] });
    const client = rpcClient(LogService, server, "connect-json", server.platformKey);
    const res = await client.getLogs({ startTime: since, endTime: new Date(Date.now() + 1000).toISOString(), projectId, limit: 1000 });
    const log = res.logs.find((l) => l.requestUuid === uuid)!;
    expect(log).toBeDefined();
    expect(log.policyVersion).toBe(policyVersion);
    expect(log.screeningMs).toBeGreaterThanOrEqual(0);
    const r = log.msgResults.find((x) => x.detectorType === "pii/email")!;
    expect(r.spans.map((s) => covered(log.messages[0].content, s))).toEqual([EMAIL]);
    expect(r.spansTruncated).toBeUndefined();
  });

  it("a request of thousands of matches keeps at most 50 spans per detector and part, and says so", async () => {
    const content = Array.from({ length: 3000 }, (_, i) => `user${i}@example.com`).join(" ");
    const { log } = await guardAndLog({ messages: [{ role: "user", content }] });
    const r = log.msg_results.find((x: any) => x.detector_type === "pii/email");
    expect(r.spans).toHaveLength(MAX_LOGGED_SPANS);
    expect(r.spans_truncated).toBe(true);
    for (const s of r.spans) expect(covered(log.messages[0].content, s)).toMatch(/^user\d+@example\.com$/);
  });

  it("a passed request's log carries the version and the time, and no spans", async () => {
    const { log } = await guardAndLog({ messages: [{ role: "user", content: "hello there" }] });
    expect(log.flagged).toBe(false);
    expect(log.msg_results).toEqual([]);
    expect(log.policy_version).toBe(policyVersion);
    expect(log.screening_ms).toBeGreaterThanOrEqual(0);
  });

  it("the default policy's logs carry its version (1)", async () => {
    const since = new Date(Date.now() - 1000).toISOString();
    const g = await server.rest("POST", "/v2/guard", { messages: [{ role: "user", content: "hi" }] }, server.screeningKey);
    const res = await server.rest("POST", "/v1-beta/logs", { start_time: since, end_time: new Date(Date.now() + 1000).toISOString(), limit: 1000 });
    const log = res.body.logs.find((l: any) => l.request_uuid === g.body.metadata.request_uuid);
    expect(log.policy_id).toBe("policy-default");
    expect(log.policy_version).toBe(1);
  });
});

describe("a sanitized request's log", () => {
  it("holds neither the original values nor spans into the original text", async () => {
    const other = "ceo.private@example.net";
    const { guard, log } = await guardAndLog({
      sanitize: { mode: "mask" },
      messages: [{ role: "user", content: `mail ${EMAIL} and ${other}, thanks` }],
    });
    expect(guard.sanitized_messages[0].content).toBe("mail [EMAIL_1] and [EMAIL_2], thanks");
    expect(log.messages[0].content).toBe("mail [EMAIL_1] and [EMAIL_2], thanks");
    const stored = JSON.stringify(log);
    expect(stored).not.toContain(EMAIL);
    expect(stored).not.toContain(other);
    const r = log.msg_results.find((x: any) => x.detector_type === "pii/email");
    expect(r).toBeDefined();
    expect(r).not.toHaveProperty("spans");
    expect(log.policy_version).toBe(policyVersion);
    // Nor in the stored document itself, whatever the API renders.
    const doc = await server.app.repos.logs.logs.find({ _id: log.request_uuid }, {});
    expect(JSON.stringify(doc)).not.toContain(EMAIL);
    expect(doc[0].msg_results.every((x) => x.spans === undefined)).toBe(true);
  });
});

describe("logs written before the extensions", () => {
  it("render exactly as before: no policy_version, screening_ms, spans or spans_truncated", async () => {
    const org = await server.newOrg();
    const at = new Date(Date.UTC(2026, 0, 5, 10, 0, 0));
    const old: StoredLog = {
      _id: "00000000-0000-7000-8000-00000000abcd",
      timestamp: at,
      meta: { org_id: org.orgId, project_id: "project-old" },
      policy_id: "policy-default",
      flagged: true,
      detected: true,
      fired: ["pii/email"],
      families: familiesOf(["pii/email"]),
      messages: [],
      results: [{ detector_type: "pii/email", result: "l1_confident" }],
      msg_results: [{ detector_type: "pii/email", result: "l1_confident", message_id: 0, tool_id: null }],
      event_metadata: "{}",
    };
    await server.app.repos.logs.logs.insertMany([old]);
    const range = { start_time: new Date(at.getTime() - 1000).toISOString(), end_time: new Date(at.getTime() + 1000).toISOString() };
    const res = await server.rest("POST", "/v1-beta/logs", range, org.platformKey);
    expect(res.status).toBe(200);
    const [log] = res.body.logs;
    expect(Object.keys(log).sort()).toEqual(["event_metadata", "flagged", "messages", "msg_results", "policy_id", "project_id", "request_uuid", "results", "timestamp"]);
    expect(log.msg_results).toEqual([{ detector_type: "pii/email", result: "l1_confident", message_id: 0, tool_id: null }]);

    const client = rpcClient(LogService, server, "grpc", org.platformKey);
    const rpc = await client.getLogs({ startTime: range.start_time, endTime: range.end_time });
    expect(rpc.logs[0].policyVersion).toBeUndefined();
    expect(rpc.logs[0].screeningMs).toBeUndefined();
    expect(rpc.logs[0].msgResults[0].spans).toEqual([]);
  });
});

describe("the document bound counts spans", () => {
  const spans = (n: number, from = 0) => Array.from({ length: n }, (_, i) => ({ start: from + i, end: from + i + 1, labels: ["email"] }));
  const logWith = (content: string, results: StoredLog["msg_results"]) => ({
    messages: [{ content, tool_calls: [] }],
    msg_results: results,
    event_metadata: "{}",
  });

  it("spans give way before any text is cut", () => {
    const content = "a".repeat(10_000);
    const log = logWith(content, [
      { detector_type: "pii/email", result: "l1_confident", message_id: 0, tool_id: null, spans: spans(50) },
      { detector_type: "pii/name", result: "l1_confident", message_id: 0, tool_id: null, spans: spans(50, 100) },
    ]);
    const withoutLast = structuredClone(log);
    delete withoutLast.msg_results[1].spans;
    withoutLast.msg_results[1].spans_truncated = true;
    // A budget the log fits once the last entry's spans are gone, not before.
    const budget = bsonDocumentBytes(withoutLast);
    const out = boundedLog(log, budget);
    expect(bsonDocumentBytes(out)).toBeLessThanOrEqual(budget);
    expect(out.messages[0].content).toBe(content);
    expect(out.msg_results[0].spans).toHaveLength(50);
    expect(out.msg_results[1].spans).toBeUndefined();
    expect(out.msg_results[1].spans_truncated).toBe(true);
    // The stored input is untouched.
    expect(log.msg_results[1].spans).toHaveLength(50);
  });

  it("when texts must be cut too, every span is gone first, so none points past a cut", () => {
    const content = "b".repeat(100_000);
    const log = logWith(content, [{ detector_type: "pii/email", result: "l1_confident", message_id: 0, tool_id: null, spans: [...spans(5), ...spans(5, 90_000)] }]);
    const out = boundedLog(log, 20_000);
    expect(bsonDocumentBytes(out)).toBeLessThanOrEqual(20_000);
    expect(out.messages[0].content.endsWith(truncationMarker(100_000))).toBe(true);
    expect(out.msg_results[0].spans).toBeUndefined();
    expect(out.msg_results[0].spans_truncated).toBe(true);
    expect(out.msg_results[0].detector_type).toBe("pii/email");
  });
});

describe("logOf", () => {
  const resolved = { project: { _id: "project-x" }, policy: { _id: "policy-x", version_id: 7 } } as unknown as Resolved;
  const outcome = (detectorType: string, spans: Outcome["spans"], extra: Partial<Outcome> = {}): Outcome => ({
    detectorId: `${detectorType}@user::content`,
    detectorType,
    location: "user::content",
    messageId: 0,
    level: "l1_confident",
    spans,
    customMatched: false,
    matched: true,
    flagged: true,
    ...extra,
  });
  const messages = [create(MessageSchema, { role: "user", content: "run rm now" })];

  it("keeps working with the original eight parameters: spans and version, no timing", () => {
    const log = logOf(
      "id-1",
      new Date(),
      "org-x",
      resolved,
      true,
      { outcomes: [outcome("override_deny", [{ start: 0, end: 3, text: "run", labels: [] }])], detected: true },
      messages,
      "{}",
    );
    expect(log.policy_version).toBe(7);
    expect(log).not.toHaveProperty("screening_ms");
    expect(log.msg_results[0].spans).toEqual([{ start: 0, end: 3, labels: [] }]);
  });

  it("keeps no span for tool_access_control (its span names the tool, not the text) nor for tool definitions", () => {
    const s = {
      outcomes: [
        outcome("tool_access_control", [{ start: 0, end: 2, text: "ru", labels: ["rm"] }], { location: "assistant::tool_call", toolId: 0 }),
        outcome("prompt_attack", [{ start: 0, end: 4, text: "run ", labels: [] }], { location: "tool_definition::content", messageId: undefined, toolId: 0 }),
      ],
      detected: true,
    };
    const log = logOf("id-2", new Date(), "org-x", resolved, true, s, messages, "{}", { screeningMs: 1.23456 });
    expect(log.screening_ms).toBe(1.235);
    expect(log.msg_results.map((r) => r.spans)).toEqual([undefined, undefined]);
  });

  it("keeps the first 50 spans and flags the rest; keeps none when sanitized", () => {
    const many = Array.from({ length: 60 }, (_, i) => ({ start: i, end: i + 1, text: "x", labels: ["l"] }));
    const s = { outcomes: [outcome("pii/email", many)], detected: true };
    const log = logOf("id-3", new Date(), "org-x", resolved, true, s, messages, "{}", {});
    expect(log.msg_results[0].spans?.map((x) => x.start)).toEqual(Array.from({ length: 50 }, (_, i) => i));
    expect(log.msg_results[0].spans_truncated).toBe(true);
    const sanitized = logOf("id-4", new Date(), "org-x", resolved, true, s, messages, "{}", { sanitized: true });
    expect(sanitized.msg_results[0]).toEqual({ detector_type: "pii/email", result: "l1_confident", message_id: 0, tool_id: null });
  });
});
