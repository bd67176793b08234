// /metrics exposure (docs/operations.md#metrics): no runtime version in what it shows without a
// key, and with PARAPET_METRICS_PORT it is served on its own address and no longer on the main port.
import { describe, expect, it } from "vitest";
import { loadConfig } from "../../src/config.js";
import { createLogger } from "../../src/observability/logger.js";
import { startTestServer } from "../support/server.js";

describe("/metrics", () => {
  it("shows no Node.js version", async () => {
    const server = await startTestServer();
    try {
      const res = await fetch(`${server.url}/metrics`);
      const text = await res.text();
      expect(res.status).toBe(200);
      // Still the runtime's other metrics, and the service's own.
      expect(text).toContain("parapet_process_cpu_user_seconds_total");
      expect(text).toContain("parapet_http_requests_total");
      expect(text).not.toContain("version_info");
      expect(text).not.toContain(process.version);
    } finally {
      await server.close();
    }
  });

  it("with PARAPET_METRICS_PORT, is served there and only there", async () => {
    const lines: Record<string, unknown>[] = [];
    const log = createLogger("info", { write: (line: string) => void lines.push(JSON.parse(line) as Record<string, unknown>) });
    const server = await startTestServer({ PARAPET_METRICS_PORT: "0", PARAPET_METRICS_HOST: "127.0.0.1" }, log);
    try {
      const port = Number(lines.find((l) => l.msg === "metrics listening")?.port);
      expect(port).toBeGreaterThan(0);
      expect(port).not.toBe(server.app.port);

      expect((await server.rest("GET", "/v1/policies/policy-default")).status).toBe(200);
      const scraped = await fetch(`http://127.0.0.1:${port}/metrics`);
      expect(scraped.status).toBe(200);
      expect(scraped.headers.get("content-type")).toContain("text/plain");
      expect(await scraped.text()).toContain('parapet_http_requests_total{endpoint="GET /v1/policies/{policy_id}",status="200"} 1');

      const main = await server.rest("GET", "/metrics", undefined, null);
      expect(main.status).toBe(404);
      expect(main.body).toMatchObject({ error: "route_not_found", request_id: main.headers.get("x-request-id") });

      const other = await fetch(`http://127.0.0.1:${port}/v1/policies/policy-default`);
      expect(other.status).toBe(404);
      expect(other.headers.get("x-content-type-options")).toBe("nosniff");
      expect((await fetch(`http://127.0.0.1:${port}/metrics`, { method: "POST" })).status).toBe(405);
    } finally {
      await server.close();
    }
  });

  it("PARAPET_METRICS_PORT is refused where it cannot apply", () => {
    expect(() => loadConfig({ PARAPET_METRICS_HOST: "127.0.0.1" })).toThrow("PARAPET_METRICS_HOST is set but PARAPET_METRICS_PORT is not");
    expect(() => loadConfig({ PARAPET_METRICS_PORT: "9464", PARAPET_METRICS: "off" })).toThrow("PARAPET_METRICS_PORT is set but PARAPET_METRICS is off");
    expect(() => loadConfig({ PARAPET_METRICS_PORT: "8080" })).toThrow("PARAPET_METRICS_PORT must differ from PORT");
    expect(loadConfig({ PARAPET_METRICS_PORT: "9464", HOST: "10.0.0.5" }).metricsListen).toEqual({ host: "10.0.0.5", port: 9464 });
  });
});
