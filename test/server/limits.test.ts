// Operational limits and observability: rate limit, request limits, metrics,
// structured request logs.
import net from "node:net";
import { Writable } from "node:stream";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { pino } from "pino";
import { afterAll, describe, expect, it } from "vitest";
import { startApp } from "../../src/app.js";
import { RateLimiter } from "../../src/auth/rate-limit.js";
import { loadConfig } from "../../src/config.js";
import { startTestServer, type TestServer } from "../support/server.js";
import { parseHttp1 } from "../support/wire.js";

const servers: TestServer[] = [];
afterAll(async () => {
  for (const s of servers) await s.close();
});

describe("RateLimiter", () => {
  it("allows the burst, then one request per 1/rate seconds", () => {
    let now = 0;
    const limiter = new RateLimiter(2, 3, () => now);
    expect([limiter.take("k"), limiter.take("k"), limiter.take("k")]).toEqual([0, 0, 0]);
    expect(limiter.take("k")).toBe(1);
    now += 500;
    expect(limiter.take("k")).toBe(0);
    expect(limiter.take("k")).toBeGreaterThan(0);
    expect(limiter.take("other")).toBe(0);
    expect(new RateLimiter(0, 1, () => now).take("k")).toBe(0);
  });
});

describe("per-key rate limit over HTTP", () => {
  it("answers 429 with Retry-After once a key's burst is spent, other keys unaffected", async () => {
    const server = await startTestServer({ PARAPET_RATE_LIMIT_RPS: "1", PARAPET_RATE_LIMIT_BURST: "3" });
    servers.push(server);
    const statuses = [];
    for (let i = 0; i < 5; i++) statuses.push((await server.rest("GET", "/v1/policies/policy-default")).status);
    expect(statuses.slice(0, 3)).toEqual([200, 200, 200]);
    const limited = await server.rest("GET", "/v1/policies/policy-default");
    expect(limited.status).toBe(429);
    expect(limited.body).toMatchObject({ status: "error", error: "rate_limited", code: 429 });
    expect(Number(limited.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    expect((await server.rest("GET", "/v1/policies/policy-default", undefined, await server.readOnlyKey())).status).toBe(200);
  });
});

describe("request limits", () => {
  it("too many messages: 422", async () => {
    const server = await startTestServer({ PARAPET_MAX_MESSAGES: "3" });
    servers.push(server);
    const messages = Array.from({ length: 4 }, () => ({ role: "user", content: "hi" }));
    const res = await server.rest("POST", "/v2/guard", { messages }, server.screeningKey);
    expect(res.status).toBe(422);
    expect(res.body.message).toContain("at most 3 messages");
    expect((await server.rest("POST", "/v2/guard", { messages: messages.slice(1) }, server.screeningKey)).status).toBe(200);
  });

  it("a configured body limit applies to REST and RPC paths", async () => {
    const server = await startTestServer({ PARAPET_MAX_BODY_BYTES: "2048" });
    servers.push(server);
    const res = await server.rest("POST", "/v2/guard", { messages: [{ role: "user", content: "x".repeat(3000) }] }, server.screeningKey);
    expect(res.status).toBe(413);
    const rpc = await fetch(`${server.url}/parapet.v1.GuardService/Guard`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${server.screeningKey}` },
      body: JSON.stringify({ messages: [{ role: "user", content: "x".repeat(3000) }] }),
    });
    // The Connect protocol maps resource_exhausted to HTTP 429.
    expect(rpc.status).toBe(429);
    expect((await rpc.json()).code).toBe("resource_exhausted");
  });

  it("a body refused before it was read closes its HTTP/1.1 connection; a body read in full keeps it", async () => {
    const server = await startTestServer({ PARAPET_MAX_BODY_BYTES: "2048" });
    servers.push(server);
    const port = new URL(server.url).port;
    /** Sends one request on a fresh socket and resolves with its response head once the headers arrived. */
    const send = (path: string, chunks: string[], end: boolean) =>
      new Promise<{ status: number; headers: Record<string, string> }>((resolve, reject) => {
        const socket = net.connect(Number(port), "127.0.0.1");
        let text = "";
        socket.on("error", reject);
        socket.on("data", (d) => {
          text += d.toString("latin1");
          if (!text.includes("\r\n\r\n")) return;
          const { status, headers } = parseHttp1(text);
          socket.destroy();
          resolve({ status, headers });
        });
        const head = `POST ${path} HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\nauthorization: Bearer ${server.screeningKey}\r\ntransfer-encoding: chunked\r\n\r\n`;
        const body = chunks.map((c) => `${Buffer.byteLength(c).toString(16)}\r\n${c}\r\n`).join("");
        // Without the last chunk the body never ends: the server answers an over-limit body without waiting for it.
        socket.write(head + body + (end ? "0\r\n\r\n" : ""));
      });
    const big = JSON.stringify({ messages: [{ role: "user", content: "x".repeat(3000) }] });
    const refusedRpc = await send("/parapet.v1.GuardService/Guard", [big.slice(0, 1500), big.slice(1500)], false);
    expect(refusedRpc.status).toBe(429);
    expect(refusedRpc.headers.connection).toBe("close");
    const refusedRest = await send("/v2/guard", [big], false);
    expect(refusedRest.status).toBe(413);
    expect(refusedRest.headers.connection).toBe("close");
    const small = JSON.stringify({ messages: [{ role: "user", content: "hello" }] });
    const served = await send("/v2/guard", [small.slice(0, 10), small.slice(10)], true);
    expect(served.status).toBe(200);
    expect(served.headers.connection).toBe("keep-alive");
  });
});

describe("metrics and request logs", () => {
  it("/metrics exposes request counts, latency histograms and detections", async () => {
    const server = await startTestServer();
    servers.push(server);
    await server.rest("GET", "/v1/policies/policy-default");
    await server.rest("POST", "/v2/guard", { messages: [{ role: "user", content: "hi" }] }, server.screeningKey);
    const res = await fetch(`${server.url}/metrics`);
    expect(res.status).toBe(200);
    const text = await res.text();
    expect(text).toMatch(/parapet_http_requests_total\{endpoint="GET \/v1\/policies\/\{policy_id\}",status="200"\} 1/);
    expect(text).toMatch(/parapet_http_request_duration_seconds_bucket\{le="0.005",endpoint="POST \/v2\/guard"\}/);
    expect(text).toContain("parapet_storage_write_duration_seconds_count 1");
    expect(text).toContain("parapet_requests_in_flight");
    expect(text).toContain("parapet_process_resident_memory_bytes");
  });

  it("one JSON log line per request with its id, never the content or the key", async () => {
    const lines: string[] = [];
    const sink = new Writable({
      write(chunk, _enc, done) {
        lines.push(...String(chunk).trim().split("\n"));
        done();
      },
    });
    const dataDir = await mkdtemp(path.join(tmpdir(), "parapet-logtest-"));
    const key = "psk_log_test_key_that_must_not_appear_0001";
    const app = await startApp(
      loadConfig({ HOST: "127.0.0.1", PORT: "0", PARAPET_DATA_DIR: dataDir, PARAPET_BOOTSTRAP_SCREENING_KEY: key }),
      pino({ level: "info" }, sink),
    );
    try {
      const secret = "my secret diary entry 4111 1111 1111 1111";
      const res = await fetch(`http://127.0.0.1:${app.port}/v2/guard`, {
        method: "POST",
        headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
        body: JSON.stringify({ messages: [{ role: "user", content: secret }] }),
      });
      const requestId = res.headers.get("x-request-id");
      const entry = lines.map((l) => JSON.parse(l)).find((l) => l.request_id === requestId);
      expect(entry).toMatchObject({ msg: "request", endpoint: "POST /v2/guard", status: 200, method: "POST" });
      expect(typeof entry.ms).toBe("number");
      const all = lines.join("\n");
      expect(all).not.toContain("secret diary");
      expect(all).not.toContain(key);
    } finally {
      await app.close();
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});
