// GuardStream's bounds (docs/streaming.md#limits): deltas, text, open streams,
// idle expiry, and a client that goes away mid-stream.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../../support/server.js";
import { driver, failure, streamProtocols } from "./support.js";

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({
    PARAPET_STREAMS_PER_ORG: "2",
    PARAPET_STREAMS_MAX: "3",
    PARAPET_STREAM_MAX_DELTAS: "5",
    PARAPET_MAX_BODY_BYTES: "4096",
    PARAPET_STREAM_IDLE_SECONDS: "1",
  });
});
afterAll(async () => {
  await server?.close();
});

const conversation = [{ role: "user", content: "What are your opening hours?" }];
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function logsContaining(marker: string) {
  const res = await server.rest("POST", "/v1-beta/logs", {
    start_time: new Date(Date.now() - 600_000).toISOString(),
    end_time: new Date(Date.now() + 1000).toISOString(),
    limit: 1000,
  });
  expect(res.status).toBe(200);
  return res.body.logs.filter((l: any) => l.messages.some((m: any) => m.content.includes(marker)));
}

/** Polls until `check` passes: the server cleans up after an aborted call asynchronously. */
async function eventually(check: () => Promise<void>, ms = 5000) {
  const until = Date.now() + ms;
  for (;;) {
    try {
      return await check();
    } catch (err) {
      if (Date.now() > until) throw err;
      await sleep(50);
    }
  }
}

/** Fails unless the default organization can open `n` streams now (each is closed again). */
async function canOpen(n: number) {
  const ds = [];
  try {
    for (let i = 0; i < n; i++) {
      const d = driver(server, "rest");
      await d.open({ messages: conversation });
      ds.push(d);
    }
  } finally {
    // Closed even when one open was refused, or the check itself would hold places.
    for (const d of ds) await d.close();
  }
}

describe.each(streamProtocols)("limits over %s", (protocol) => {
  it("a stream may send so many deltas; the refused one ends an RPC stream, which is logged once", async () => {
    const marker = `deltas-${protocol}-${Date.now()}`;
    const d = driver(server, protocol);
    await d.open({ messages: conversation });
    await d.delta(marker + " ");
    for (let i = 0; i < 4; i++) await d.delta("more words ");
    const refused = await failure(d.delta("one too many"));
    expect(refused.error).toBe("payload_too_large");
    expect(refused.message).toMatch(/at most 5 deltas/);
    if (protocol === "rest") {
      expect(refused.status).toBe(413);
      const closed = await d.close();
      expect(closed.received).toBe(marker.length + 1 + 4 * 11);
    }
    await eventually(async () => expect(await logsContaining(marker)).toHaveLength(1));
    await eventually(() => canOpen(2));
  });

  it("a stream's text is bounded by the request body limit", async () => {
    const d = driver(server, protocol);
    await d.open({ messages: conversation });
    for (let i = 0; i < 2; i++) await d.delta("a".repeat(1500) + " ");
    const refused = await failure(d.delta("b".repeat(1500)));
    expect(refused.error).toBe("payload_too_large");
    expect(refused.message).toMatch(/4096 bytes/);
    if (protocol === "rest") await d.close();
    // One delta larger than the body limit never reaches the handler.
    const d2 = driver(server, protocol);
    await d2.open({ messages: conversation });
    const huge = await failure(d2.delta("c".repeat(10_000)));
    expect(huge.error).toBe("payload_too_large");
    if (protocol === "rest") {
      expect(huge.status).toBe(413);
      await d2.close();
    }
    await eventually(() => canOpen(2));
  });

  it("a client that goes away mid-stream frees its place and is logged once", async () => {
    const marker = `gone-${protocol}-${Date.now()}`;
    const d = driver(server, protocol);
    await d.open({ messages: [{ role: "user", content: `${marker} question` }] });
    await d.delta("The answer starts like this and then the client ");
    d.abort();
    if (protocol === "rest") {
      // A REST client that stops calling: the session expires after the idle time.
      await sleep(1500);
    }
    await eventually(() => canOpen(2));
    await eventually(async () => expect(await logsContaining(marker)).toHaveLength(1));
    await sleep(300);
    expect(await logsContaining(marker)).toHaveLength(1);
  });

  it("a stream without a message for the idle time ends", async () => {
    const d = driver(server, protocol);
    await d.open({ messages: conversation });
    await sleep(1500);
    const late = await failure(d.delta("still there?"));
    if (protocol === "rest") {
      expect(late.status).toBe(404);
      expect(late.message).toMatch(/expired after 1 s/);
    } else {
      expect(late.error).toBe("timeout");
    }
    await eventually(() => canOpen(2));
  });
});

describe("open streams", () => {
  it("are bounded per organization (429) and in all (503), with Retry-After", async () => {
    const a = [driver(server, "rest"), driver(server, "grpc")];
    for (const d of a) await d.open({ messages: conversation });
    const third = await failure(driver(server, "rest").open({ messages: conversation }));
    expect(third).toMatchObject({ error: "rate_limited", status: 429, retryAfter: "1" });
    const overRpc = await failure(driver(server, "connect-h2").open({ messages: conversation }));
    expect(overRpc).toMatchObject({ error: "rate_limited", retryAfter: "1" });
    const other = await server.newOrg();
    const b = driver(server, "rest", other.screeningKey);
    await b.open({ messages: conversation });
    const full = await failure(driver(server, "rest", other.screeningKey).open({ messages: conversation }));
    expect(full).toMatchObject({ error: "unavailable", status: 503, retryAfter: "1" });
    await b.close();
    for (const d of a) await d.close();
    await canOpen(2);
  });
});
