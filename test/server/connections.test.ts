// Connection deadlines and the connection cap (docs/configuration.md#connections):
// silent, trickling and idle clients lose their connection within the
// configured time, on HTTP/1.1 and HTTP/2, while a normal client is served.
// Short timeouts keep the file to a few seconds; the bounds past them are
// generous (a loaded machine runs timers late), far below the defaults.
import { rm } from "node:fs/promises";
import http2 from "node:http2";
import net from "node:net";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { startTestServer, type TestServer } from "../support/server.js";
import { makeTestCertificate } from "../support/tls-certificate.js";
import { slowClient, type Slow } from "../support/slow-client.js";
import { parseHttp1 } from "../support/wire.js";

const limits = { protocol: 300, headers: 500, receive: 1000, idle: 800 };
/**
 * Node checks the HTTP/1.1 deadlines every quarter of the shorter one, and a loaded machine runs
 * timers late: allow that, generously. A setting that was not applied would leave its default
 * (10 s and more), or no deadline at all.
 */
const slack = 5000;

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({
    PARAPET_PROTOCOL_TIMEOUT_MS: String(limits.protocol),
    PARAPET_HEADERS_TIMEOUT_MS: String(limits.headers),
    PARAPET_RECEIVE_TIMEOUT_MS: String(limits.receive),
    PARAPET_IDLE_TIMEOUT_MS: String(limits.idle),
  });
});
afterAll(async () => {
  await server?.close();
});

/** A normal screening request. */
async function guard(target: TestServer, body: string): Promise<Response> {
  const res = await fetch(`${target.url}/v2/guard`, {
    method: "POST",
    headers: { authorization: `Bearer ${target.screeningKey}`, "content-type": "application/json" },
    body,
  });
  await res.text();
  return res;
}

describe("slow connections (slowloris)", () => {
  it("120 silent or trickling connections are closed within their deadline while a normal client is served", async () => {
    const port = server.app.port;
    const body = JSON.stringify({ messages: [{ role: "user", content: "hello" }] });
    const slow: Slow[] = [];
    for (let i = 0; i < 30; i++) {
      slow.push(slowClient("silent", port, "", ""));
      // Never completes the 24-byte HTTP/2 preface: a byte at a time keeps the socket active but not decided.
      slow.push(slowClient("preface", port, "", "PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n", { everyMs: 100 }));
      slow.push(slowClient("headers", port, "POST /v2/guard HTTP/1.1\r\n", "Host: x\r\nX-Slow: " + "a".repeat(1000)));
      slow.push(slowClient("body", port, `POST /v2/guard HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n`, "x".repeat(1000)));
    }

    // Meanwhile: normal requests, each answered.
    for (let i = 0; i < 10; i++) expect((await guard(server, body)).status).toBe(200);

    const closed = await Promise.all(slow.map((s) => s.closedAfter));
    const deadline: Record<string, number> = {
      silent: limits.protocol,
      preface: limits.protocol,
      headers: limits.headers,
      body: limits.receive,
    };
    slow.forEach((s, i) => {
      expect(closed[i], `${s.kind} connection ${i}`).toBeGreaterThanOrEqual(deadline[s.kind] - 50);
      expect(closed[i], `${s.kind} connection ${i}`).toBeLessThan(deadline[s.kind] + slack);
    });
    // Where the socket still allows an answer, it is the Error object.
    for (const s of slow.filter((x) => x.kind === "headers" || x.kind === "body")) {
      const res = parseHttp1(s.received());
      expect(res.status).toBe(408);
      expect(res.body).toMatchObject({ status: "error", error: "request_timeout", code: 408, request_id: res.headers["x-request-id"] });
    }
  });

  it("a normal client is served while 120 slow connections are held", async () => {
    // Deadlines far away: the slow connections are all still open when the normal requests are
    // answered, however long a loaded machine takes; a service they starved would answer only
    // once their deadlines closed them.
    const patient = await startTestServer({ PARAPET_PROTOCOL_TIMEOUT_MS: "30000", PARAPET_HEADERS_TIMEOUT_MS: "30000", PARAPET_RECEIVE_TIMEOUT_MS: "30000" });
    const slow: Slow[] = [];
    try {
      const port = patient.app.port;
      for (let i = 0; i < 30; i++) {
        slow.push(slowClient("silent", port, "", "", { giveUpMs: 60_000 }));
        slow.push(slowClient("preface", port, "", "PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n", { everyMs: 100, giveUpMs: 60_000 }));
        slow.push(slowClient("headers", port, "POST /v2/guard HTTP/1.1\r\n", "Host: x\r\nX-Slow: " + "a".repeat(1000), { giveUpMs: 60_000 }));
        slow.push(
          slowClient("body", port, `POST /v2/guard HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n`, "x".repeat(1000), {
            giveUpMs: 60_000,
          }),
        );
      }
      await Promise.all(slow.map((s) => s.connected));
      const body = JSON.stringify({ messages: [{ role: "user", content: "hello" }] });
      for (let i = 0; i < 10; i++) expect((await guard(patient, body)).status).toBe(200);
      expect(slow.filter((s) => s.closed()).map((s) => s.kind)).toEqual([]);
    } finally {
      for (const s of slow) s.destroy();
      await patient.close();
    }
  });

  it("an idle keep-alive connection is closed after the idle timeout", async () => {
    const c = slowClient("idle", server.app.port, "GET /livez HTTP/1.1\r\nHost: x\r\n\r\n", "");
    const after = await c.closedAfter;
    expect(c.received()).toMatch(/^HTTP\/1.1 200/);
    expect(after).toBeGreaterThanOrEqual(limits.idle - 50);
    // Node 20 closes an idle keep-alive socket about a second after keepAliveTimeout.
    expect(after).toBeLessThan(limits.idle + 1000 + slack);
  });
});

describe("HTTP/2", () => {
  // Bounded: without the deadlines these would wait for the test timeout.
  it("a session that only pings and never opens a stream is closed after the headers timeout", { timeout: 10_000 }, async () => {
    const started = Date.now();
    const session = http2.connect(server.url);
    session.on("error", () => {});
    const pinger = setInterval(() => !session.destroyed && session.ping(() => {}), 50);
    const after = await new Promise<number>((resolve) => session.on("close", () => resolve(Date.now() - started)));
    clearInterval(pinger);
    expect(after).toBeGreaterThanOrEqual(limits.headers - 50);
    expect(after).toBeLessThan(limits.headers + slack);
  });

  it("a stream trickling its body is answered 408 with the Error object and reset", { timeout: 10_000 }, async () => {
    const session = http2.connect(server.url);
    session.on("error", () => {});
    const stream = session.request({ ":method": "POST", ":path": "/v2/guard", "content-type": "application/json", authorization: `Bearer ${server.screeningKey}` });
    stream.on("error", () => {});
    const trickle = setInterval(() => !stream.destroyed && stream.write("x"), 50);
    const started = Date.now();
    let status = 0;
    let text = "";
    stream.on("response", (h) => (status = Number(h[":status"])));
    stream.on("data", (d: Buffer) => (text += d.toString()));
    const after = await new Promise<number>((resolve) => stream.on("close", () => resolve(Date.now() - started)));
    clearInterval(trickle);
    session.destroy();
    expect(status).toBe(408);
    expect(JSON.parse(text)).toMatchObject({ status: "error", error: "request_timeout", code: 408 });
    expect(after).toBeLessThan(limits.receive + slack);
  });

  it("a session left idle after its request is closed after the idle timeout", { timeout: 10_000 }, async () => {
    const session = http2.connect(server.url);
    session.on("error", () => {});
    const stream = session.request({ ":path": "/livez" });
    stream.resume();
    await new Promise((r) => stream.on("close", r));
    const started = Date.now();
    const after = await new Promise<number>((resolve) => session.on("close", () => resolve(Date.now() - started)));
    expect(after).toBeGreaterThanOrEqual(limits.idle - 50);
    expect(after).toBeLessThan(limits.idle + slack);
  });
});

describe("TLS: the same deadlines as cleartext", () => {
  let secure: TestServer;
  let certDir = "";
  beforeAll(async () => {
    const cert = await makeTestCertificate();
    certDir = cert.dir;
    secure = await startTestServer({
      PARAPET_PROTOCOL_TIMEOUT_MS: String(limits.protocol),
      PARAPET_HEADERS_TIMEOUT_MS: String(limits.headers),
      PARAPET_RECEIVE_TIMEOUT_MS: String(limits.receive),
      PARAPET_IDLE_TIMEOUT_MS: String(limits.idle),
      TLS_CERT_FILE: cert.certFile,
      TLS_KEY_FILE: cert.keyFile,
    });
  });
  afterAll(async () => {
    await secure?.close();
    if (certDir) await rm(certDir, { recursive: true, force: true });
  });

  it("HTTP/1.1: no handshake, slow headers, a slow body and an idle keep-alive connection are closed within their deadlines", async () => {
    const port = secure.app.port;
    const slow = [
      // Never starts the handshake.
      slowClient("silent", port, "", ""),
      slowClient("headers", port, "POST /v2/guard HTTP/1.1\r\n", "Host: x\r\nX-Slow: " + "a".repeat(1000), { tls: true }),
      slowClient("body", port, `POST /v2/guard HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n`, "x".repeat(1000), { tls: true }),
      slowClient("idle", port, "GET /livez HTTP/1.1\r\nHost: x\r\n\r\n", "", { tls: true }),
    ];
    const closed = await Promise.all(slow.map((s) => s.closedAfter));
    // As in cleartext; Node 20 closes an idle keep-alive socket about a second after keepAliveTimeout.
    const deadline: Record<string, [number, number]> = {
      silent: [limits.protocol, limits.protocol + slack],
      headers: [limits.headers, limits.headers + slack],
      body: [limits.receive, limits.receive + slack],
      idle: [limits.idle, limits.idle + 1000 + slack],
    };
    slow.forEach((s, i) => {
      expect(closed[i], s.kind).toBeGreaterThanOrEqual(deadline[s.kind][0] - 50);
      expect(closed[i], s.kind).toBeLessThan(deadline[s.kind][1]);
    });
    for (const s of slow.filter((x) => x.kind === "headers" || x.kind === "body")) {
      const res = parseHttp1(s.received());
      expect(res.status, s.kind).toBe(408);
      expect(res.body).toMatchObject({ status: "error", error: "request_timeout", code: 408, request_id: res.headers["x-request-id"] });
    }
    expect(slow[3].received()).toMatch(/^HTTP\/1.1 200/);
  });

  it("HTTP/2: a trickled body is answered 408 and an idle session is closed", { timeout: 15_000 }, async () => {
    const session = http2.connect(`https://127.0.0.1:${secure.app.port}`, { rejectUnauthorized: false });
    session.on("error", () => {});
    const stream = session.request({ ":method": "POST", ":path": "/v2/guard", "content-type": "application/json", authorization: `Bearer ${secure.screeningKey}` });
    stream.on("error", () => {});
    const trickle = setInterval(() => !stream.destroyed && stream.write("x"), 50);
    let status = 0;
    stream.on("response", (h) => (status = Number(h[":status"])));
    stream.resume();
    await new Promise((r) => stream.on("close", r));
    clearInterval(trickle);
    expect(status).toBe(408);
    const started = Date.now();
    const after = await new Promise<number>((resolve) => session.on("close", () => resolve(Date.now() - started)));
    expect(after).toBeLessThan(limits.idle + slack);
  });
});

describe("connection cap", () => {
  it("connections beyond PARAPET_MAX_CONNECTIONS are closed at once; the service serves again when they go", async () => {
    // All from one address: the per-address cap is lifted to the total here.
    const capped = await startTestServer({ PARAPET_MAX_CONNECTIONS: "20", PARAPET_MAX_CONNECTIONS_PER_ADDRESS: "20", PARAPET_PROTOCOL_TIMEOUT_MS: "60000" });
    try {
      // Each connection is answered once, so the server has accepted all 20; they stay open (keep-alive).
      const held = await Promise.all(
        Array.from(
          { length: 20 },
          () =>
            new Promise<net.Socket>((resolve) => {
              const s = net.connect(capped.app.port, "127.0.0.1", () => s.write("GET /livez HTTP/1.1\r\nHost: x\r\n\r\n"));
              s.once("data", () => resolve(s));
              s.on("error", () => {});
            }),
        ),
      );
      const extra = slowClient("over the cap", capped.app.port, "GET /livez HTTP/1.1\r\nHost: x\r\n\r\n", "");
      // At once, not at a deadline (generous for a loaded machine: the protocol timeout is 60 s here).
      expect(await extra.closedAfter).toBeLessThan(slack);
      expect(extra.received()).toBe("");
      expect(await capped.app.metrics.registry.metrics()).toContain('parapet_connections_refused_total{reason="max_connections"} 1');
      for (const s of held) s.destroy();
      // Served again once the server has seen them go.
      await vi.waitFor(async () => expect((await capped.rest("GET", "/v1/policies/policy-default")).status).toBe(200), { timeout: 10_000, interval: 100 });
    } finally {
      await capped.close();
    }
  });

  it("one address holds at most a quarter of the cap by default; another address is still served", { timeout: 20_000 }, async () => {
    const capped = await startTestServer({ PARAPET_MAX_CONNECTIONS: "20", PARAPET_RECEIVE_TIMEOUT_MS: "60000", PARAPET_HEADERS_TIMEOUT_MS: "60000" });
    const slow: Slow[] = [];
    try {
      // 20 slow bodies from 127.0.0.1 would take the whole cap; 5 are admitted.
      for (let i = 0; i < 20; i++) {
        slow.push(
          slowClient("body", capped.app.port, `POST /v2/guard HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n`, "x".repeat(1000), {
            everyMs: 200,
            giveUpMs: 60_000,
          }),
        );
      }
      await vi.waitFor(() => expect(slow.filter((s) => s.closed()).length).toBe(15), { timeout: 10_000, interval: 50 });
      // Refused at once, answered nothing.
      for (const s of slow.filter((x) => x.closed())) expect(s.received()).toBe("");
      const other = await new Promise<string>((resolve, reject) => {
        const socket = net.connect({ port: capped.app.port, host: "127.0.0.1", localAddress: "127.0.0.2" }, () =>
          socket.write("GET /livez HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"),
        );
        let text = "";
        socket.on("data", (d) => (text += d.toString("latin1")));
        socket.on("close", () => resolve(text));
        socket.on("error", reject);
      });
      expect(other).toMatch(/^HTTP\/1.1 200/);
      expect(slow.filter((s) => s.closed())).toHaveLength(15);
      // Read in-process: 127.0.0.1 is at its cap, and the service listens on 127.0.0.1 only.
      const metrics = await capped.app.metrics.registry.metrics();
      expect(metrics).toContain('parapet_connections_refused_total{reason="per_address"} 15');
    } finally {
      for (const s of slow) s.destroy();
      await capped.close();
    }
  });
});
