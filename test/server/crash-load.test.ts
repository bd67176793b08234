// Load with a crash in the middle: 20,000 screening requests at 64
// concurrent connections, kill -9 part-way, restart. Every request answered
// before the kill has its log afterwards, no log is duplicated, and the
// restart takes less than 5 s of CPU until the service answers again (its own
// work: on a loaded machine its wall time is mostly waiting for a core; the
// lock of the killed process is taken over at once, tested in
// test/storage/crash.test.ts). Loopback only, bounded in count.
import http from "node:http";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { freePort, spawnServer, waitReady, type ChildServer } from "../support/child-server.js";

const SCREENING = "psk_crash_load_test_key_00000000000000000";
const PLATFORM = "ppk_crash_load_test_key_00000000000000000";
const env = (dataDir: string) => ({
  PARAPET_DATA_DIR: dataDir,
  PARAPET_BOOTSTRAP_SCREENING_KEY: SCREENING,
  PARAPET_BOOTSTRAP_PLATFORM_KEY: PLATFORM,
  PARAPET_RATE_LIMIT_RPS: "0",
  // The restart's CPU is recovery's (opening the journal, rebuilding state), measured without the
  // screening path's warm-up, whose own budget is bounded apart (docs/operations.md#warm-up).
  PARAPET_WARMUP_MS: "0",
});

const dirs: string[] = [];
const children: ChildServer[] = [];
afterAll(async () => {
  for (const c of children) c.child.kill("SIGKILL");
  for (const d of dirs) await rm(d, { recursive: true, force: true });
});

function guard(agent: http.Agent, port: number, seq: number): Promise<string | null> {
  const body = JSON.stringify({
    metadata: { seq },
    messages: [{ role: "user", content: `request ${seq}: please reset my password, mail me at user${seq}@example.com` }],
  });
  return new Promise((resolve) => {
    const req = http.request(
      {
        host: "127.0.0.1",
        port,
        path: "/v2/guard",
        method: "POST",
        agent,
        headers: { authorization: `Bearer ${SCREENING}`, "content-type": "application/json", "content-length": Buffer.byteLength(body) },
      },
      (res) => {
        let text = "";
        res.setEncoding("utf8");
        res.on("data", (c) => (text += c));
        res.on("end", () => {
          if (res.statusCode !== 200) return resolve(null);
          try {
            resolve(JSON.parse(text).metadata.request_uuid);
          } catch {
            resolve(null);
          }
        });
        res.on("error", () => resolve(null));
      },
    );
    req.on("error", () => resolve(null));
    req.end(body);
  });
}

/** CPU seconds the service has used since it started, all its threads (its /metrics). */
async function cpuSeconds(url: string): Promise<number> {
  const text = await (await fetch(`${url}/metrics`)).text();
  const line = /^parapet_process_cpu_seconds_total (\S+)$/m.exec(text);
  if (!line) throw new Error("no parapet_process_cpu_seconds_total in /metrics");
  return Number(line[1]);
}

async function allLogs(url: string): Promise<string[]> {
  const ids: string[] = [];
  const start = new Date(Date.now() - 3_600_000).toISOString();
  const end = new Date(Date.now() + 3_600_000).toISOString();
  for (let offset = 0; ; offset += 1000) {
    const res = await fetch(`${url}/v1-beta/logs`, {
      method: "POST",
      headers: { authorization: `Bearer ${PLATFORM}`, "content-type": "application/json" },
      body: JSON.stringify({ start_time: start, end_time: end, limit: 1000, offset }),
    });
    const body = await res.json();
    ids.push(...body.logs.map((l: { request_uuid: string }) => l.request_uuid));
    if (!body.has_more) return ids;
  }
}

describe("crash under load", () => {
  it("keeps every answered request's log through kill -9 and restarts on less than 5 s of CPU", { timeout: 300_000 }, async () => {
    const dataDir = await mkdtemp(path.join(tmpdir(), "parapet-crash-"));
    dirs.push(dataDir);
    const port = await freePort();
    let server = spawnServer(port, env(dataDir));
    children.push(server);
    await waitReady(server.url);

    const TOTAL = 20_000;
    const KILL_AT = 8_000;
    const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });
    const answered: string[] = [];
    let sent = 0;
    let failed = 0;
    let restarted: Promise<void> | null = null;
    let restartCpuS = -1;

    const worker = async () => {
      while (sent < TOTAL) {
        const seq = sent++;
        if (seq === KILL_AT) {
          server.child.kill("SIGKILL");
          await server.exited;
          server = spawnServer(port, env(dataDir));
          children.push(server);
          const url = server.url;
          restarted = waitReady(url).then(async () => {
            restartCpuS = await cpuSeconds(url);
          });
        }
        const id = await guard(agent, port, seq);
        if (id) answered.push(id);
        else {
          failed++;
          // While the service is down, wait for it instead of spinning.
          if (restarted) await restarted;
        }
      }
    };
    await Promise.all(Array.from({ length: 64 }, worker));
    agent.destroy();

    expect(restartCpuS).toBeGreaterThan(0);
    expect(restartCpuS).toBeLessThan(5);
    expect(answered.length + failed).toBe(TOTAL);
    expect(answered.length).toBeGreaterThan(TOTAL * 0.95);

    const logged = await allLogs(server.url);
    expect(new Set(logged).size).toBe(logged.length); // no duplicates
    const loggedSet = new Set(logged);
    const missing = answered.filter((id) => !loggedSet.has(id));
    expect(missing).toEqual([]);
    // Requests cut off by the kill may or may not have been logged, but no more than were sent.
    expect(logged.length).toBeLessThanOrEqual(TOTAL);

    server.child.kill("SIGTERM");
    expect(await server.exited).toEqual({ code: 0, signal: null });
  });

  it("SIGTERM finishes in-flight requests and exits 0", { timeout: 60_000 }, async () => {
    const dataDir = await mkdtemp(path.join(tmpdir(), "parapet-term-"));
    dirs.push(dataDir);
    const port = await freePort();
    const server = spawnServer(port, env(dataDir));
    children.push(server);
    await waitReady(server.url);
    const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });
    // 64 clients keep a request each in flight until the signal, which is sent once the service
    // answers: it finds requests in flight however long a loaded machine takes to get there.
    const answered: string[] = [];
    let signalled = false;
    let seq = 0;
    let serving!: () => void;
    const answering = new Promise<void>((resolve) => (serving = resolve));
    const client = async () => {
      while (!signalled) {
        const id = await guard(agent, port, seq++);
        if (!id) return;
        answered.push(id);
        serving();
      }
    };
    const clients = Promise.all(Array.from({ length: 64 }, client));
    await Promise.race([answering, clients]);
    signalled = true;
    server.child.kill("SIGTERM");
    await clients;
    agent.destroy();
    const { code } = await server.exited;
    expect(code).toBe(0);
    // Requests already accepted were answered; none was cut off half-way.
    expect(answered.length).toBeGreaterThan(0);
    const restarted = spawnServer(port, env(dataDir));
    children.push(restarted);
    await waitReady(restarted.url);
    const logged = new Set(await allLogs(restarted.url));
    expect(answered.filter((id) => !logged.has(id))).toEqual([]);
    restarted.child.kill("SIGTERM");
    await restarted.exited;
  });
});
