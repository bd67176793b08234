// The request handler both HTTP servers share: request id, probes, REST paths,
// then Connect / gRPC / gRPC-Web through the Connect adapter.
import type { IncomingMessage, ServerResponse } from "node:http";
import type { Http2ServerRequest, Http2ServerResponse } from "node:http2";
import { v7 as uuidv7 } from "uuid";
import { clientAddressHeader, requestIdHeader } from "../api/context.js";
import type { AccessLog } from "../observability/access-log.js";
import type { Logger } from "../observability/logger.js";
import type { ConsoleHandler } from "./console.js";
import { createOpenApiHandler, openApiPath } from "./openapi-document.js";
import { probe, probePaths, type ProbeState } from "./probes.js";
import type { Metrics } from "../observability/metrics.js";
import { sendError, type Rest } from "./rest/handler.js";

type Req = IncomingMessage | Http2ServerRequest;
type Res = ServerResponse | Http2ServerResponse;

/** Requests this process is serving now, answered or not yet: the screener reads it (guard/request-screener.ts). */
export interface RequestLoad {
  inFlight: number;
}

export interface HttpHandlerParts {
  rest: Rest;
  connect: (req: Req, res: Res) => void;
  /** Paths the Connect adapter serves (`/parapet.v1.PolicyService/GetPolicy`, ...), for metric labels. */
  rpcPaths: Set<string>;
  probes: ProbeState;
  log: Logger;
  metrics?: Metrics;
  /** The browser console's static files under /console (console.ts). */
  console?: ConsoleHandler;
  load?: RequestLoad;
  /** Key, project and decision of requests in flight, for their access log lines. */
  access?: AccessLog;
}

/** `url` with runs of "/" in its path made one; the query string is left as sent. */
function collapseSlashes(url: string): string {
  const q = url.indexOf("?");
  const path = q === -1 ? url : url.slice(0, q);
  return path.replace(/\/{2,}/g, "/") + (q === -1 ? "" : url.slice(q));
}

export function createHttpHandler(parts: HttpHandlerParts) {
  const openApi = createOpenApiHandler();
  return (req: Req, res: Res): void => {
    const started = process.hrtime.bigint();
    // Always our own id: it must be unique per request (docs/api.md#error-object), so a
    // client-sent X-Request-Id is not trusted.
    const requestId = uuidv7();
    req.headers[requestIdHeader] = requestId;
    // From the socket, never from the client: failed authentications are limited per address.
    req.headers[clientAddressHeader] = req.socket?.remoteAddress ?? "";
    res.setHeader("X-Request-Id", requestId);
    // A client base URL ending in "/" makes "//v2/guard"; "//x" would also parse as a
    // host-relative URL further on. Repeated slashes mean one on every path, REST or RPC
    // (docs/api.md#protocols-and-paths).
    if (req.url?.includes("//")) req.url = collapseSlashes(req.url);
    const path = (req.url ?? "/").split("?")[0];
    const template = parts.rest.templateOf(path);
    const endpoint = template
      ? `${req.method} ${template}`
      : parts.rpcPaths.has(path) || probePaths.has(path) || path === "/metrics" || path === openApiPath
        ? path
        : path === "/console" || path.startsWith("/console/")
          ? "console"
          : "unmatched";
    const metrics = parts.metrics;
    metrics?.inFlight.inc();
    const load = parts.load;
    if (load) load.inFlight++;
    const noted = parts.access?.begin(requestId, res);

    // "close" fires for finished and for aborted responses alike.
    res.once("close", () => {
      metrics?.inFlight.dec();
      if (load) load.inFlight--;
      if (probePaths.has(path) || path === "/metrics") return;
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      metrics?.requests.inc({ endpoint, status: String(res.statusCode) });
      metrics?.latency.observe({ endpoint }, seconds);
      // Ids, route and outcome only: never bodies, screened content or keys (the key's id, never the key).
      parts.log.info({ request_id: requestId, method: req.method, endpoint, status: res.statusCode, ms: Math.round(seconds * 1e5) / 100, ...noted }, "request");
    });

    const fail = (err: unknown) => {
      parts.log.error({ request_id: requestId, err: String((err as Error)?.stack ?? err) }, "request handler failed");
      if (!res.headersSent) sendError(res, "internal", "internal error", requestId);
      else res.end();
    };

    if (probePaths.has(path)) {
      probe(path, parts.probes)
        .then(({ status, body }) => {
          res.setHeader("content-type", "application/json");
          res.writeHead(status);
          res.end(JSON.stringify(body));
        })
        .catch(fail);
      return;
    }
    if (path === "/metrics" && metrics) {
      metrics.registry
        .metrics()
        .then((text) => {
          res.setHeader("content-type", metrics.registry.contentType);
          res.writeHead(200);
          res.end(text);
        })
        .catch(fail);
      return;
    }
    try {
      if (parts.console?.(path, req, res, requestId)) return;
    } catch (err) {
      fail(err);
      return;
    }
    const servedOpenApi = openApi(path, req, res, requestId);
    if (servedOpenApi) {
      servedOpenApi.catch(fail);
      return;
    }
    if (template) {
      parts.rest.handle(req, res, requestId).catch(fail);
      return;
    }
    try {
      parts.connect(req, res);
    } catch (err) {
      fail(err);
    }
  };
}
