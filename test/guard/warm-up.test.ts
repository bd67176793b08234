// The start-up warm-up (docs/operations.md#warm-up) on a real service: /readyz waits for it while
// /livez answers, it leaves nothing a request would leave behind, PARAPET_WARMUP_MS=0 skips it, and
// stopping the service ends it.
import { describe, expect, it } from "vitest";
import { createLogger } from "../../src/observability/logger.js";
import { startTestServer, type TestServer } from "../support/server.js";

interface Captured {
  server: TestServer;
  lines: Record<string, unknown>[];
  logged: (msg: string) => Record<string, unknown> | undefined;
}

async function start(env: Record<string, string>): Promise<Captured> {
  const lines: Record<string, unknown>[] = [];
  const log = createLogger("info", { write: (line: string) => void lines.push(JSON.parse(line) as Record<string, unknown>) });
  const server = await startTestServer(env, log);
  return { server, lines, logged: (msg) => lines.find((l) => l.msg === msg) };
}

async function probe(url: string, path: string): Promise<{ status: number; body: { status: string } }> {
  const res = await fetch(url + path);
  return { status: res.status, body: (await res.json()) as { status: string } };
}

describe("start-up warm-up", () => {
  it("/readyz answers 503 warming_up until the warm-up has ended, while /livez and /startupz answer 200", async () => {
    const { server, logged } = await start({ PARAPET_WARMUP_MS: "3000", PARAPET_SCREENING_WORKERS: "1" });
    try {
      expect(logged("warming up the screening path: /readyz answers 503 until it ends")).toMatchObject({ budget_ms: 3000, workers: 1 });
      const seen: string[] = [];
      for (;;) {
        const finishedBefore = logged("warm-up finished") !== undefined;
        const [ready, live, startup] = await Promise.all([probe(server.url, "/readyz"), probe(server.url, "/livez"), probe(server.url, "/startupz")]);
        expect(live.status).toBe(200);
        expect(startup.status).toBe(200);
        if (ready.status === 200) {
          // Ready only once the warm-up has ended: its line was written before readiness changed.
          expect(logged("warm-up finished")).toBeDefined();
          break;
        }
        // Not ready before the warm-up ended, and for no other reason.
        expect(finishedBefore).toBe(false);
        expect(ready).toEqual({ status: 503, body: { status: "warming_up" } });
        seen.push(ready.body.status);
      }
      expect(seen.length).toBeGreaterThan(0);
      await server.app.warmedUp;
      const finished = logged("warm-up finished")!;
      expect(["work done", "time budget"]).toContain(finished.ended);
      // The main thread and the worker both screened.
      expect(finished.screenings).toBeGreaterThan(0);
      expect(finished.worker_screenings).toBeGreaterThan(0);
      expect(typeof finished.ms).toBe("number");
    } finally {
      await server.close();
    }
  }, 120_000);

  it("leaves no request log, analytics or request metric behind", async () => {
    const { server, lines, logged } = await start({ PARAPET_WARMUP_MS: "2000", PARAPET_SCREENING_WORKERS: "1" });
    try {
      await server.app.warmedUp;
      const finished = logged("warm-up finished")!;
      expect(Number(finished.screenings) + Number(finished.worker_screenings)).toBeGreaterThan(0);
      const { logs, rollups } = server.app.repos;
      expect(await logs.logs.countDocuments({})).toBe(0);
      expect(await rollups.minutes.countDocuments({})).toBe(0);
      expect(await rollups.hours.countDocuments({})).toBe(0);
      // No service-log line of a request, and no request, screening or detection counted.
      expect(lines.filter((l) => l.msg === "request" || "request_id" in l)).toEqual([]);
      const metrics = await (await fetch(`${server.url}/metrics`)).text();
      const samples = metrics
        .split("\n")
        .filter((l) => /^parapet_(http_requests_total|screenings_total|detections_total|decisions_total|flagged_decisions_total)\{/.test(l));
      expect(samples).toEqual([]);
    } finally {
      await server.close();
    }
  }, 60_000);

  it("PARAPET_WARMUP_MS=0 skips it: ready at once", async () => {
    const { server, logged } = await start({ PARAPET_WARMUP_MS: "0" });
    try {
      expect(await probe(server.url, "/readyz")).toEqual({ status: 200, body: { status: "ok" } });
      expect(logged("warm-up skipped (PARAPET_WARMUP_MS=0)")).toBeDefined();
      expect(logged("warming up the screening path: /readyz answers 503 until it ends")).toBeUndefined();
      expect(logged("warm-up finished")).toBeUndefined();
    } finally {
      await server.close();
    }
  }, 30_000);

  it("stopping the service during the warm-up ends it", async () => {
    const { server, logged } = await start({ PARAPET_WARMUP_MS: "60000", PARAPET_SCREENING_WORKERS: "1" });
    let closed = false;
    try {
      expect((await probe(server.url, "/readyz")).body.status).toBe("warming_up");
      await server.close();
      closed = true;
      // close() waits for the warm-up to stop; it stopped rather than finished its work.
      expect(logged("warm-up finished")).toMatchObject({ ended: "stopped" });
      await server.app.warmedUp;
    } finally {
      if (!closed) await server.close();
    }
  }, 60_000);
});
