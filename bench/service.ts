// What the service benchmarks share: the compiled service started as `npm
// start` runs it, on a free port and a data directory of its own.
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import http from "node:http";
import net from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { buildService } from "../scripts/build.mjs";

const root = path.resolve(import.meta.dirname, "..");

export interface BenchService {
  child: ChildProcess;
  port: number;
  /** SIGTERM, wait for the exit, remove the data directory. */
  stop(): Promise<void>;
}

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = net.createServer().listen(0, "127.0.0.1", () => {
      const port = (s.address() as net.AddressInfo).port;
      s.close(() => resolve(port));
    });
  });
}

/** Builds and starts the service with `env` added to this process's environment; resolves once /readyz answers. */
export async function startService(env: Record<string, string>): Promise<BenchService> {
  const dataDir = await mkdtemp(path.join(tmpdir(), "parapet-bench-"));
  const port = await freePort();
  const main = await buildService();
  const child = spawn(process.execPath, [main], {
    cwd: root,
    env: { ...process.env, PORT: String(port), HOST: "127.0.0.1", PARAPET_DATA_DIR: dataDir, PARAPET_RATE_LIMIT_RPS: "0", ...env },
    stdio: ["ignore", "ignore", "inherit"],
  });
  const stop = async () => {
    if (child.exitCode === null) {
      child.kill("SIGTERM");
      await new Promise((r) => child.once("exit", r));
    }
    await rm(dataDir, { recursive: true, force: true });
  };
  for (let i = 0; i < 200; i++) {
    const ok = await fetch(`http://127.0.0.1:${port}/readyz`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) return { child, port, stop };
    await new Promise((r) => setTimeout(r, 100));
  }
  child.kill("SIGKILL");
  await rm(dataDir, { recursive: true, force: true });
  throw new Error("server did not become ready");
}

/** POSTs a JSON body; resolves with the milliseconds until the whole answer arrived, rejects on any status but 200. */
export function post(agent: http.Agent, port: number, p: string, body: string, key: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const req = http.request(
      {
        host: "127.0.0.1",
        port,
        path: p,
        method: "POST",
        agent,
        headers: { "content-type": "application/json", authorization: `Bearer ${key}`, "content-length": Buffer.byteLength(body) },
      },
      (res) => {
        res.resume();
        res.on("end", () => (res.statusCode === 200 ? resolve(performance.now() - started) : reject(new Error(`HTTP ${res.statusCode}`))));
      },
    );
    req.on("error", reject);
    req.end(body);
  });
}
