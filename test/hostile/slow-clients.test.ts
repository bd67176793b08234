// Hostile run, part 2 (docs/operations.md#hostile-run): slow clients against
// the compiled service, in cleartext and over TLS, on HTTP/1.1 and HTTP/2.
// Short deadlines are set through the documented settings
// (docs/configuration.md#connections); every slow connection must be closed
// within its deadline (plus slack for a loaded machine's late timers), a
// request cut off by one answered 408 with the Error object, while a normal
// client is served meanwhile.
import { mkdtemp, rm } from "node:fs/promises";
import http2 from "node:http2";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { freePort, spawnServer, waitReady, type ChildServer } from "../support/child-server.js";
import { slowClient } from "../support/slow-client.js";
import { makeTestCertificate } from "../support/tls-certificate.js";
import { parseHttp1 } from "../support/wire.js";
import { scale, summary } from "./settings.js";

const SCREENING = "psk_hostile_slow_key_000000000000000000000";
/**
 * Long enough for 70 TLS handshakes at once on a loaded machine (the protocol deadline covers the
 * handshake), far below the defaults (10 s to 65 s).
 */
const limits = { protocol: 1500, headers: 2000, receive: 3000, idle: 1000 };
/** A late timer on a loaded machine, and Node's HTTP/1.1 idle check (up to a second after the idle timeout). */
const slack = 5000;
const PER_KIND = 10 * scale;

const servers: ChildServer[] = [];
const dirs: string[] = [];
let cleartext: ChildServer;
let secure: ChildServer;

async function start(extra: Record<string, string>): Promise<ChildServer> {
  const dataDir = await mkdtemp(path.join(tmpdir(), "parapet-hostile-slow-"));
  dirs.push(dataDir);
  const server = spawnServer(await freePort(), {
    PARAPET_DATA_DIR: dataDir,
    PARAPET_BOOTSTRAP_SCREENING_KEY: SCREENING,
    PARAPET_PROTOCOL_TIMEOUT_MS: String(limits.protocol),
    PARAPET_HEADERS_TIMEOUT_MS: String(limits.headers),
    PARAPET_RECEIVE_TIMEOUT_MS: String(limits.receive),
    PARAPET_IDLE_TIMEOUT_MS: String(limits.idle),
    PARAPET_WARMUP_MS: "0",
    ...extra,
  });
  servers.push(server);
  return server;
}

beforeAll(async () => {
  const cert = await makeTestCertificate();
  dirs.push(cert.dir);
  cleartext = await start({});
  secure = await start({ TLS_CERT_FILE: cert.certFile, TLS_KEY_FILE: cert.keyFile });
  await waitReady(cleartext.url);
  // The readiness probe is plain HTTP: over TLS, wait through an https request that trusts the test certificate.
  const started = Date.now();
  for (;;) {
    const ok = await new Promise<boolean>((resolve) => {
      const session = http2.connect(`https://127.0.0.1:${secure.port}`, { rejectUnauthorized: false });
      session.on("error", () => resolve(false));
      const stream = session.request({ ":path": "/readyz" });
      stream.on("response", (h) => resolve(h[":status"] === 200));
      stream.on("error", () => resolve(false));
      stream.on("close", () => session.close());
      stream.end();
    });
    if (ok) break;
    if (Date.now() - started > 60_000) throw new Error("the TLS service is not ready after 60 s");
    await new Promise((r) => setTimeout(r, 100));
  }
});
afterAll(async () => {
  for (const s of servers) {
    s.child.kill("SIGKILL");
    await s.exited;
  }
  for (const d of dirs) await rm(d, { recursive: true, force: true });
});

interface Outcome {
  what: string;
  closedAfter: number;
  /** The deadline that applies and the latest close it allows. */
  deadline: number;
  latest: number;
  /** A problem with what the client received (408 without the Error object). */
  answer?: string;
}

function expect408(text: string): string | undefined {
  const res = parseHttp1(text);
  const body = res.body as { status?: string; error?: string; code?: number; request_id?: string };
  const ok = res.status === 408 && body.status === "error" && body.error === "request_timeout" && body.code === 408 && body.request_id === res.headers["x-request-id"];
  return ok ? undefined : `expected 408 with the Error object, got ${text.slice(0, 300)}`;
}

async function http1(server: ChildServer, tls: boolean): Promise<Outcome[]> {
  const opts = { tls, giveUpMs: 30_000 };
  const kinds = [
    // No request (in cleartext) or no TLS handshake at all.
    { kind: "silent", deadline: limits.protocol, start: () => slowClient("silent", server.port, "", "", { giveUpMs: 30_000 }) },
    {
      kind: "slow headers",
      deadline: limits.headers,
      start: () => slowClient("headers", server.port, "POST /v2/guard HTTP/1.1\r\n", "Host: x\r\nX-Slow: " + "a".repeat(1000), opts),
    },
    {
      kind: "slow body",
      deadline: limits.receive,
      start: () =>
        slowClient("body", server.port, "POST /v2/guard HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n", "x".repeat(1000), opts),
    },
    { kind: "idle keep-alive", deadline: limits.idle, start: () => slowClient("idle", server.port, "GET /livez HTTP/1.1\r\nHost: x\r\n\r\n", "", opts) },
  ];
  const runs = kinds.flatMap((k) => Array.from({ length: PER_KIND }, () => ({ ...k, client: k.start() })));
  return Promise.all(
    runs.map(async (r) => {
      const closedAfter = await r.client.closedAfter;
      const text = r.client.received();
      const answer =
        r.kind === "slow headers" || r.kind === "slow body"
          ? expect408(text)
          : r.kind === "idle keep-alive" && !text.startsWith("HTTP/1.1 200")
            ? `idle: ${text.slice(0, 100)}`
            : undefined;
      return {
        what: `${tls ? "TLS" : "cleartext"} HTTP/1.1 ${r.kind}`,
        closedAfter,
        deadline: r.deadline,
        latest: r.deadline + slack + (r.kind === "idle keep-alive" ? 1000 : 0),
        answer,
      };
    }),
  );
}

/** HTTP/2 (h2c with prior knowledge in cleartext, ALPN over TLS): a session opening no stream, a trickled body, an idle session. */
async function http2Slow(server: ChildServer, tls: boolean): Promise<Outcome[]> {
  const authority = `${tls ? "https" : "http"}://127.0.0.1:${server.port}`;
  const what = `${tls ? "TLS" : "cleartext"} HTTP/2`;
  const connect = () => {
    const session = http2.connect(authority, { rejectUnauthorized: false });
    session.on("error", () => {});
    return session;
  };
  /** When the session closed (Infinity if not within 30 s), watched from the start so no close is missed. */
  const closeTime = (session: http2.ClientHttp2Session) =>
    new Promise<number>((resolve) => {
      const giveUp = setTimeout(() => (session.destroy(), resolve(Infinity)), 30_000);
      session.on("close", () => (clearTimeout(giveUp), resolve(Date.now())));
    });
  const noStream = async (): Promise<Outcome> => {
    const started = Date.now();
    const session = connect();
    const pinger = setInterval(() => !session.destroyed && session.ping(() => {}), 50);
    const closedAfter = (await closeTime(session)) - started;
    clearInterval(pinger);
    return { what: `${what} session without a stream`, closedAfter, deadline: limits.headers, latest: limits.headers + slack };
  };
  const trickle = async (): Promise<Outcome> => {
    const session = connect();
    const stream = session.request({ ":method": "POST", ":path": "/v2/guard", "content-type": "application/json", authorization: `Bearer ${SCREENING}` });
    stream.on("error", () => {});
    const started = Date.now();
    const timer = setInterval(() => !stream.destroyed && stream.write("x"), 50);
    let status = 0;
    let text = "";
    stream.on("response", (h) => (status = Number(h[":status"])));
    stream.on("data", (d: Buffer) => (text += d.toString()));
    const closedAfter = await new Promise<number>((resolve) => {
      const giveUp = setTimeout(() => (stream.destroy(), resolve(Infinity)), 30_000);
      stream.on("close", () => (clearTimeout(giveUp), resolve(Date.now() - started)));
    });
    clearInterval(timer);
    session.destroy();
    let answer: string | undefined;
    try {
      const body = JSON.parse(text) as { status?: string; error?: string; code?: number };
      if (status !== 408 || body.status !== "error" || body.error !== "request_timeout" || body.code !== 408) answer = `HTTP ${status} ${text.slice(0, 200)}`;
    } catch {
      answer = `HTTP ${status} ${text.slice(0, 200)}`;
    }
    return { what: `${what} trickled body`, closedAfter, deadline: limits.receive, latest: limits.receive + slack, answer };
  };
  const idle = async (): Promise<Outcome> => {
    const session = connect();
    const closed = closeTime(session);
    const stream = session.request({ ":path": "/livez" });
    let status = 0;
    stream.on("response", (h) => (status = Number(h[":status"])));
    stream.on("error", () => {});
    stream.resume();
    await new Promise((r) => stream.on("close", r));
    const answered = Date.now();
    const closedAfter = (await closed) - answered;
    return {
      what: `${what} idle session`,
      closedAfter,
      deadline: limits.idle,
      latest: limits.idle + slack,
      answer: status === 200 ? undefined : `/livez answered ${status}`,
    };
  };
  return Promise.all([noStream, trickle, idle].flatMap((f) => Array.from({ length: PER_KIND }, f)));
}

it("slow clients in cleartext and over TLS are closed within their deadlines while a normal client is served", { timeout: 120_000 * scale }, async () => {
  const started = Date.now();
  const slow = Promise.all([http1(cleartext, false), http1(secure, true), http2Slow(cleartext, false), http2Slow(secure, true)]);
  // A normal client meanwhile.
  const violations: string[] = [];
  for (let i = 0; i < 10; i++) {
    const status = await fetch(`${cleartext.url}/v2/guard`, {
      method: "POST",
      headers: { authorization: `Bearer ${SCREENING}`, "content-type": "application/json" },
      body: JSON.stringify({ messages: [{ role: "user", content: "hello" }] }),
      signal: AbortSignal.timeout(30_000),
    }).then(
      (r) => r.status,
      (e: Error) => e.message,
    );
    if (status !== 200) violations.push(`a normal request among the slow clients answered ${status}`);
  }
  const outcomes = (await slow).flat();
  for (const o of outcomes) {
    if (o.closedAfter > o.latest) violations.push(`${o.what}: closed after ${o.closedAfter} ms, deadline ${o.deadline} ms (at most ${o.latest} ms allowed)`);
    else if (o.closedAfter < o.deadline - 50) violations.push(`${o.what}: closed after ${o.closedAfter} ms, before its ${o.deadline} ms deadline`);
    if (o.answer) violations.push(`${o.what}: ${o.answer}`);
  }
  const worst = new Map<string, number>();
  for (const o of outcomes) worst.set(o.what, Math.max(worst.get(o.what) ?? 0, o.closedAfter));
  const slowest = [...worst].map(([w, ms]) => `${w} ${ms} ms`).join(", ");
  summary("slow clients", `${outcomes.length} slow connections in ${((Date.now() - started) / 1000).toFixed(0)} s, slowest close per kind: ${slowest}`, violations);
  expect(violations.length, "violations (printed above)").toBe(0);
});
