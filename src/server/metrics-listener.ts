// /metrics on an address of its own (PARAPET_METRICS_PORT, docs/operations.md#metrics): the
// counts it shows span every organization and it answers without a key, so operators who expose
// the API port widely can keep this one on an internal network. Cleartext HTTP/1.1 only: the
// scraper is inside the operator's network.
import http from "node:http";
import { v7 as uuidv7 } from "uuid";
import type { Metrics } from "../observability/metrics.js";
import type { ConnectionLimits } from "./connection-limits.js";
import { sendError } from "./rest/handler.js";

/** A scraper needs one connection; a few spare cover a second scraper and retries. */
const maxConnections = 64;

export interface MetricsListener {
  port: number;
  close(): Promise<void>;
}

export async function listenMetrics(host: string, port: number, metrics: Metrics, limits: ConnectionLimits): Promise<MetricsListener> {
  const server = http.createServer(
    { headersTimeout: limits.headersTimeoutMs, requestTimeout: limits.receiveTimeoutMs, keepAliveTimeout: limits.idleTimeoutMs },
    (req, res) => {
      const requestId = uuidv7();
      res.setHeader("X-Request-Id", requestId);
      res.setHeader("X-Content-Type-Options", "nosniff");
      const path = (req.url ?? "/").split("?")[0];
      if (path !== "/metrics") return sendError(res, "route_not_found", `no route for ${path}: this address serves /metrics only`, requestId);
      if (req.method !== "GET" && req.method !== "HEAD")
        return sendError(res, "method_not_allowed", `${req.method} is not allowed on /metrics`, requestId, { allow: "GET, HEAD" });
      metrics.registry.metrics().then(
        (text) => {
          res.setHeader("content-type", metrics.registry.contentType);
          res.writeHead(200);
          res.end(text);
        },
        () => sendError(res, "internal", "internal error", requestId),
      );
    },
  );
  server.maxConnections = maxConnections;
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => resolve());
  });
  return {
    port: (server.address() as { port: number }).port,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
