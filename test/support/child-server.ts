// The service as a separate process, compiled as `npm start` runs it
// (dist/src/main.js, built once by test/support/global-setup.ts), for tests
// that kill, restart or signal it.
import { spawn, type ChildProcess } from "node:child_process";
import net from "node:net";
import path from "node:path";

const root = path.resolve(import.meta.dirname, "../..");

export async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = net.createServer().listen(0, "127.0.0.1", () => {
      const port = (s.address() as net.AddressInfo).port;
      s.close(() => resolve(port));
    });
  });
}

export interface ChildServer {
  child: ChildProcess;
  port: number;
  url: string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** The service log so far (JSON lines on standard output, at LOG_LEVEL, warn unless `env` says). */
  logLines(): Record<string, unknown>[];
}

export function spawnServer(port: number, env: Record<string, string>): ChildServer {
  const child = spawn(process.execPath, [path.join(root, "dist/src/main.js")], {
    cwd: root,
    env: { ...process.env, HOST: "127.0.0.1", PORT: String(port), LOG_LEVEL: "warn", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  child.stderr?.resume();
  let stdout = "";
  child.stdout?.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.once("exit", (code, signal) => resolve({ code, signal })));
  const logLines = () =>
    stdout
      .split("\n")
      // Whole lines only: the last piece may still be being written.
      .slice(0, -1)
      .filter((l) => l.startsWith("{"))
      .map((l) => JSON.parse(l) as Record<string, unknown>);
  return { child, port, url: `http://127.0.0.1:${port}`, exited, logLines };
}

/** Resolves with the milliseconds it took until /readyz answers 200; the default bound is generous for a loaded machine. */
export async function waitReady(url: string, timeoutMs = 60_000): Promise<number> {
  const started = Date.now();
  while (Date.now() - started < timeoutMs) {
    const ok = await fetch(`${url}/readyz`).then(
      (r) => r.status === 200,
      () => false,
    );
    if (ok) return Date.now() - started;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`service at ${url} not ready after ${timeoutMs} ms`);
}
