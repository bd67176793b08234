// A screened request is always logged, within one stored document (docs/api.md#log-entry):
// requests near the body limit through the real service, and the cutting rules on their own.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { boundedLog, LOG_DOCUMENT_BUDGET, truncatedMetadata, truncationMarker } from "../../src/logs/bounded.js";
import type { StoredLog } from "../../src/logs/repository.js";
import { MAX_TIMESERIES_DOCUMENT_BYTES } from "../../src/storage/collection.js";
import { bsonDocumentBytes } from "../../src/storage/document-size.js";
import { startTestServer, type TestServer } from "../support/server.js";

const MAX_BODY = 12 * 1024 * 1024;

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ PARAPET_MAX_BODY_BYTES: String(MAX_BODY) });
});
afterAll(async () => {
  await server?.close();
});

async function logFor(requestUuid: string, since: number) {
  const res = await server.rest("POST", "/v1-beta/logs", { start_time: new Date(since).toISOString(), end_time: new Date(Date.now() + 1000).toISOString() });
  expect(res.status).toBe(200);
  return res.body.logs.find((l: { request_uuid: string }) => l.request_uuid === requestUuid);
}

describe("requests near the body limit", () => {
  it("a request of almost PARAPET_MAX_BODY_BYTES is screened and logged, its long texts cut with their original length", async () => {
    const since = Date.now() - 1000;
    const content = "Please summarise the quarterly figures for the northern region. ".repeat(80_000); // 5.2 MB
    const note = "é".repeat(1_000_000); // 2 MB of UTF-8
    const request = (filler: string) =>
      JSON.stringify({
        metadata: { note, filler },
        messages: [
          { role: "user", content },
          { role: "user", content: content.slice(0, 100) },
        ],
      });
    const body = request("x".repeat(MAX_BODY - Buffer.byteLength(request("")) - 100));
    expect(Buffer.byteLength(body)).toBeGreaterThan(MAX_BODY - 8192);
    expect(Buffer.byteLength(body)).toBeLessThanOrEqual(MAX_BODY);

    const g = await server.rest("POST", "/v2/guard", body, server.screeningKey);
    expect(g.status).toBe(200);
    const log = await logFor(g.body.metadata.request_uuid, since);
    expect(log).toBeDefined();
    expect(log.messages).toHaveLength(2);
    expect(log.messages[0].size).toBe(String(content.length));
    expect(log.messages[0].content.endsWith(truncationMarker(content.length))).toBe(true);
    expect(content.startsWith(log.messages[0].content.slice(0, -truncationMarker(content.length).length))).toBe(true);
    expect(log.messages[1].content).toBe(content.slice(0, 100));
    // Still JSON, saying how long it was.
    expect(JSON.parse(log.event_metadata)).toEqual({ parapet_truncated: { original_length: expect.any(Number) } });
  }, 120_000);

  it("one byte over the limit answers 413 and logs nothing", async () => {
    const body = JSON.stringify({ messages: [{ role: "user", content: "x".repeat(MAX_BODY) }] });
    const g = await server.rest("POST", "/v2/guard", body, server.screeningKey);
    expect(g.status).toBe(413);
  });
});

function logWith(messages: { content: string; args?: string }[], metadata = "{}", msgResults = 0): StoredLog {
  return {
    _id: "00000000-0000-7000-8000-000000000001",
    timestamp: new Date(),
    meta: { org_id: "org-default", project_id: "project-default" },
    policy_id: "policy-default",
    flagged: false,
    detected: false,
    fired: [],
    families: ["no_detections"],
    messages: messages.map((m, index) => ({
      role: "user",
      content: m.content,
      content_parts_json: "[]",
      size: String([...m.content].length),
      index,
      name: "",
      tool_calls: m.args === undefined ? [] : [{ id: "c", type: "function", function: { name: "f", arguments: m.args } }],
      refusal: "",
      tool_call_id: "",
    })),
    results: [],
    msg_results: Array.from({ length: msgResults }, (_, i) => ({ detector_type: "pii/email", result: "l1_confident", message_id: i, tool_id: null })),
    event_metadata: metadata,
  };
}

describe("boundedLog", () => {
  it("leaves a log that fits untouched (the same object)", () => {
    const log = logWith([{ content: "hello" }]);
    expect(boundedLog(log)).toBe(log);
  });

  it("cuts the longest texts to one common length, short ones untouched, never splitting a character", () => {
    const big = "😀".repeat(1_500_000); // 6 MB
    const mid = "ab".repeat(1_200_000); // 2.4 MB
    const log = logWith([{ content: big }, { content: "short" }, { content: mid, args: "{}" }]);
    const out = boundedLog(log);
    expect(out).not.toBe(log);
    expect(log.messages[0].content).toBe(big); // the caller's log is not changed
    const size = bsonDocumentBytes(out);
    expect(size).toBeLessThanOrEqual(LOG_DOCUMENT_BUDGET);
    expect(size).toBeGreaterThan(LOG_DOCUMENT_BUDGET - 64 * 1024); // no more cut than needed
    expect(out.messages[1].content).toBe("short");
    const kept0 = out.messages[0].content.slice(0, -truncationMarker(1_500_000).length);
    const kept2 = out.messages[2].content.slice(0, -truncationMarker(2_400_000).length);
    expect(out.messages[0].content.endsWith(truncationMarker(1_500_000))).toBe(true);
    expect(big.startsWith(kept0) && mid.startsWith(kept2)).toBe(true);
    expect(Math.abs(Buffer.byteLength(kept0) - Buffer.byteLength(kept2))).toBeLessThan(4);
    expect(kept0).not.toContain("\uFFFD");
  });

  it("with tens of thousands of messages, leaves out trailing results and messages; kept ones keep their index", () => {
    const log = logWith(
      Array.from({ length: 40_000 }, () => ({ content: "" })),
      "{}",
      40_000,
    );
    const out = boundedLog(log);
    expect(bsonDocumentBytes(out)).toBeLessThanOrEqual(LOG_DOCUMENT_BUDGET);
    expect(out.msg_results.length).toBe(0);
    expect(out.messages.length).toBeGreaterThan(10_000);
    expect(out.messages.every((m, i) => m.index === i)).toBe(true);
  });

  it("metadata too large is replaced by JSON giving its length", () => {
    const out = boundedLog(logWith([], JSON.stringify({ a: "z".repeat(MAX_TIMESERIES_DOCUMENT_BYTES) })));
    expect(out.event_metadata).toBe(truncatedMetadata(MAX_TIMESERIES_DOCUMENT_BYTES + '{"a":""}'.length));
  });
});
