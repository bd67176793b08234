// Hostile run, part 1 (docs/operations.md#hostile-run): a seeded stream of
// malformed inputs over every protocol against the compiled service. No answer
// is a server error or an `internal`/`unknown` RPC error, every error carries
// the documented Error object (REST) or an ErrorDetail with the request id
// (RPC), the service logs no error, and it stays up and serves normal requests.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { Code } from "@connectrpc/connect";
import fc from "fast-check";
import { afterAll, beforeAll, expect, it } from "vitest";
import { freePort, spawnServer, waitReady, type ChildServer } from "../support/child-server.js";
import { connectError, grpcError, grpcWebTrailers, h2Request } from "../support/wire.js";
import { MAX_BODY_BYTES, malformedInputs, type Probe } from "./malformed-inputs.js";
import { scale, seed, summary } from "./settings.js";

const SCREENING = "psk_hostile_fuzz_key_000000000000000000000";
const PLATFORM = "ppk_hostile_fuzz_key_000000000000000000000";
const BUDGET_MS = 30_000 * scale;
const CONCURRENCY = 4;

let server: ChildServer;
let dataDir: string;
beforeAll(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), "parapet-hostile-fuzz-"));
  server = spawnServer(await freePort(), {
    PARAPET_DATA_DIR: dataDir,
    PARAPET_BOOTSTRAP_SCREENING_KEY: SCREENING,
    PARAPET_BOOTSTRAP_PLATFORM_KEY: PLATFORM,
    PARAPET_MAX_BODY_BYTES: String(MAX_BODY_BYTES),
    PARAPET_RATE_LIMIT_RPS: "0",
    // Bad credentials are part of the run: the failed-authentication limit would turn their 401s into 429s, both fine, but keep the final check's keys served.
    PARAPET_AUTH_FAILURE_BURST: "1000000",
    PARAPET_AUTH_FAILURES_PER_MINUTE: "0",
    PARAPET_WARMUP_MS: "0",
  });
  await waitReady(server.url);
});
afterAll(async () => {
  server?.child.kill("SIGKILL");
  await server?.exited;
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

interface Answer {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
  trailers: Record<string, string>;
}

async function send(p: Probe): Promise<Answer> {
  if (p.transport === "grpc" || p.transport === "connect-stream") return h2Request(server.url, { ":path": p.path, ...p.headers }, p.body, 15_000);
  const res = await fetch(server.url + p.path, {
    method: p.method,
    headers: p.headers,
    body: p.method === "GET" || p.method === "HEAD" ? undefined : new Uint8Array(p.body),
    signal: AbortSignal.timeout(15_000),
  });
  return { status: res.status, headers: Object.fromEntries(res.headers), body: Buffer.from(await res.arrayBuffer()), trailers: {} };
}

/** The REST Error object: `{status: "error", error, code, request_id}`, code the HTTP status. */
function restError(a: Answer): string | null {
  if (a.status >= 500) return `HTTP ${a.status}`;
  if (a.status < 400) return null;
  let body: { status?: unknown; code?: unknown; error?: unknown; request_id?: unknown };
  try {
    body = JSON.parse(a.body.toString());
  } catch {
    return `HTTP ${a.status} without a JSON Error object`;
  }
  const ok = body.status === "error" && body.code === a.status && typeof body.error === "string" && body.request_id === a.headers["x-request-id"];
  return ok ? null : `HTTP ${a.status} Error object ${a.body.toString().slice(0, 200)}`;
}

/** An RPC error: a client error with our ErrorDetail carrying the request id; never internal or unknown. */
function rpcError(code: string, detail: { requestId: string; httpStatus: number } | undefined, a: Answer): string | null {
  if (code === "internal" || code === "unknown") return `RPC error ${code}`;
  if (!detail) return `RPC error ${code} without ErrorDetail`;
  if (detail.requestId !== a.headers["x-request-id"]) return `RPC error ${code}: request id ${detail.requestId} ≠ ${a.headers["x-request-id"]}`;
  if (detail.httpStatus >= 500) return `RPC error ${code}: ErrorDetail status ${detail.httpStatus}`;
  return null;
}

/** The error of a Connect streaming response: its end-of-stream message. */
function connectStreamError(body: Buffer): string | undefined {
  for (let at = 0; at + 5 <= body.length; at += 5 + body.readUInt32BE(at + 1)) {
    if (body[at] & 0x02) {
      const end = JSON.parse(body.subarray(at + 5, at + 5 + body.readUInt32BE(at + 1)).toString()) as { error?: unknown };
      return end.error ? JSON.stringify(end.error) : undefined;
    }
  }
  return undefined;
}

function check(p: Probe, a: Answer): string | null {
  if (!Number.isFinite(a.status)) return "no HTTP status (stream reset)";
  const isJsonError = a.body.length > 0 && a.body[0] === 0x7b && a.headers["content-type"]?.startsWith("application/json");
  if (a.status !== 200 && isJsonError && a.body.includes('"status":"error"')) return restError(a);
  if (p.transport === "rest") return restError(a);
  if (p.transport === "connect") {
    if (a.status === 200) return null;
    const err = connectError(a.body);
    // Connect fixes the HTTP status of `unimplemented` at 501: a retired endpoint (410) rides on it.
    if (a.status >= 500 && err.code !== "unimplemented") return `HTTP ${a.status} ${err.code}`;
    return rpcError(err.code, err.detail, a);
  }
  if (a.status >= 500) return `HTTP ${a.status}`;
  if (a.status !== 200 && isJsonError) {
    // Refused before any stream began (an unsupported content type on this path): a Connect error body.
    const err = connectError(a.body);
    return rpcError(err.code, err.detail, a);
  }
  if (a.status !== 200) return restError(a);
  if (p.transport === "connect-stream") {
    const error = connectStreamError(a.body);
    if (!error) return null;
    const err = connectError(error);
    return rpcError(err.code, err.detail, a);
  }
  const trailers = p.transport === "grpc-web" ? grpcWebTrailers(a.body) : a.trailers;
  const { error, detail } = grpcError({ ...a.headers, ...trailers });
  if (!error) return null;
  return rpcError(error.code === Code.Internal ? "internal" : error.code === Code.Unknown ? "unknown" : Code[error.code], detail, a);
}

const describeProbe = (p: Probe) =>
  `${p.kind} | ${p.method} ${p.path.slice(0, 200)} headers ${JSON.stringify(p.headers).slice(0, 300)} body(${p.body.length} B, base64) ${Buffer.from(p.body.subarray(0, 300)).toString("base64")}`;

it(
  "malformed inputs over every protocol: no internal error, every error the documented Error object, the service stays up",
  { timeout: BUDGET_MS + 120_000 },
  async () => {
    const arbitrary = malformedInputs({ screening: SCREENING, platform: PLATFORM });
    const violations: string[] = [];
    const perTransport: Record<string, number> = {};
    const statuses: Record<string, number> = {};
    const started = Date.now();
    let sent = 0;
    let batch = 0;
    while (Date.now() - started < BUDGET_MS) {
      const probes = fc.sample(arbitrary, { seed: seed + batch++, numRuns: 100 });
      const queue = [...probes];
      const sender = async () => {
        for (let p = queue.shift(); p && Date.now() - started < BUDGET_MS; p = queue.shift()) {
          sent++;
          perTransport[p.transport] = (perTransport[p.transport] ?? 0) + 1;
          try {
            const answer = await send(p);
            statuses[answer.status] = (statuses[answer.status] ?? 0) + 1;
            const problem = check(p, answer);
            if (problem) violations.push(`${problem} <- ${describeProbe(p)}`);
          } catch (err) {
            violations.push(`no answer (${(err as Error).message}) <- ${describeProbe(p)}`);
          }
        }
      };
      await Promise.all(Array.from({ length: CONCURRENCY }, sender));
      const live = await fetch(`${server.url}/livez`).then(
        (r) => r.status,
        (e: Error) => e.message,
      );
      if (live !== 200) {
        violations.push(`service down after batch ${batch} (/livez: ${live})`);
        break;
      }
    }
    // Still serving normal requests on REST and an RPC protocol.
    const guard = await fetch(`${server.url}/v2/guard`, {
      method: "POST",
      headers: { authorization: `Bearer ${SCREENING}`, "content-type": "application/json" },
      body: JSON.stringify({ messages: [{ role: "user", content: "hello" }] }),
    }).then(
      (r) => r.status,
      (e: Error) => e.message,
    );
    if (guard !== 200) violations.push(`a normal REST guard request afterwards answered ${guard}`);
    const ping = await fetch(`${server.url}/parapet.v1.SystemService/Ping`, {
      method: "POST",
      headers: { authorization: `Bearer ${SCREENING}`, "content-type": "application/json" },
      body: JSON.stringify({ messages: [{ role: "user", content: "hi" }] }),
    }).then(
      (r) => r.status,
      (e: Error) => e.message,
    );
    if (ping !== 200) violations.push(`a normal Connect ping afterwards answered ${ping}`);
    const errors = server.logLines().filter((l) => l.level === "error" || l.level === "fatal" || (typeof l.level === "number" && l.level >= 50));
    for (const l of errors.slice(0, 5)) violations.push(`service logged an error: ${JSON.stringify(l).slice(0, 500)}`);

    const tally = (counts: Record<string, number>) =>
      Object.entries(counts)
        .map(([k, n]) => `${k}: ${n}`)
        .join(", ");
    summary(
      "fuzz",
      `${sent} malformed inputs in ${((Date.now() - started) / 1000).toFixed(0)} s (${tally(perTransport)}; HTTP ${tally(statuses)}), ${errors.length} error log lines`,
      violations,
    );
    expect(violations.length, "violations (printed above with their inputs)").toBe(0);
  },
);
