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
  /** Counts requests; also served at /metrics unless `metricsElsewhere` (metrics-listener.ts). */
  metrics?: Metrics;
  metricsElsewhere?: boolean;
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

/**
 * The status the client got: a response that never sent its headers (the client left, or its
 * connection was closed under it) is logged and counted as 499, nginx's "client closed request",
 * never as the 200 the response object starts with.
 */
const notAnswered = 499;

function sentStatus(res: Res, reset: boolean): number {
  return res.headersSent && !reset ? res.statusCode : notAnswered;
}

/**
 * Reading the request failed because its connection went (the client left, a deadline or a
 * framing error answered and closed it): the client's doing, not the service's failure.
 */
function connectionGone(req: Req, err: unknown): boolean {
  const code = (err as NodeJS.ErrnoException)?.code ?? "";
  const closed = "stream" in req ? req.stream.aborted || req.stream.destroyed : req.destroyed;
  return closed && ["ECONNRESET", "ERR_STREAM_PREMATURE_CLOSE", "ERR_HTTP2_STREAM_ERROR", "ERR_HTTP2_STREAM_CANCEL", "ABORT_ERR"].includes(code);
}

function servesMetrics(parts: HttpHandlerParts): boolean {
  return parts.metrics !== undefined && !parts.metricsElsewhere;
}

function endpointOf(parts: HttpHandlerParts, req: Req, path: string, template: string | null | undefined): string {
  if (template) return `${req.method} ${template}`;
  if (parts.rpcPaths.has(path) || probePaths.has(path) || (path === "/metrics" && servesMetrics(parts)) || path === openApiPath) return path;
  return path === "/console" || path.startsWith("/console/") ? "console" : "unmatched";
}

/** Counts the request in flight, and logs and counts it with the status the client got once its response closes. */
function observe(parts: HttpHandlerParts, req: Req, res: Res, requestId: string, path: string, endpoint: string): void {
  const started = process.hrtime.bigint();
  const { metrics, load } = parts;
  metrics?.inFlight.inc();
  if (load) load.inFlight++;
  const noted = parts.access?.begin(requestId, res);
  // An HTTP/2 stream the client reset before the response ended: whatever was written after did not reach it.
  let reset = false;
  if ("stream" in res) res.stream.once("aborted", () => (reset = true));
  // "close" fires for finished and for aborted responses alike.
  res.once("close", () => {
    metrics?.inFlight.dec();
    if (load) load.inFlight--;
    if (probePaths.has(path) || (path === "/metrics" && servesMetrics(parts))) return;
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    const status = sentStatus(res, reset);
    metrics?.requests.inc({ endpoint, status: String(status) });
    metrics?.latency.observe({ endpoint }, seconds);
    // Ids, route and outcome only: never bodies, screened content or keys (the key's id, never the key).
    parts.log.info({ request_id: requestId, method: req.method, endpoint, status, ms: Math.round(seconds * 1e5) / 100, ...noted }, "request");
  });
}

/** What a handler that threw or rejected leaves: a log line, and an answer if none went out. */
function failureOf(parts: HttpHandlerParts, req: Req, res: Res, requestId: string) {
  return (err: unknown) => {
    if (connectionGone(req, err)) {
      parts.log.info(
        { request_id: requestId, reason: (err as NodeJS.ErrnoException)?.code ?? String(err) },
        "request abandoned: its connection closed before it was read",
      );
    } else {
      parts.log.error({ request_id: requestId, err: String((err as Error)?.stack ?? err) }, "request handler failed");
    }
    if (!res.headersSent) sendError(res, "internal", "internal error", requestId);
    else res.end();
  };
}

export function createHttpHandler(parts: HttpHandlerParts) {
  const openApi = createOpenApiHandler();
  return (req: Req, res: Res): void => {
    // Always our own id: it must be unique per request (docs/api.md#error-object), so a
    // client-sent X-Request-Id is not trusted.
    const requestId = uuidv7();
    req.headers[requestIdHeader] = requestId;
    // From the socket, never from the client: failed authentications are limited per address.
    req.headers[clientAddressHeader] = req.socket?.remoteAddress ?? "";
    res.setHeader("X-Request-Id", requestId);
    // Every answer, JSON or not: a browser must never guess a type and render an API answer as a page.
    res.setHeader("X-Content-Type-Options", "nosniff");
    // A client base URL ending in "/" makes "//v2/guard"; "//x" would also parse as a
    // host-relative URL further on. Repeated slashes mean one on every path, REST or RPC
    // (docs/api.md#protocols-and-paths).
    if (req.url?.includes("//")) req.url = collapseSlashes(req.url);
    const path = (req.url ?? "/").split("?")[0];
    const template = parts.rest.templateOf(path);
    observe(parts, req, res, requestId, path, endpointOf(parts, req, path, template));
    const fail = failureOf(parts, req, res, requestId);
    const metrics = parts.metrics;

    if (req.httpVersion === "1.1" && req.headers.host === undefined) {
      // RFC 9112 section 3.2: a server answers 400 to an HTTP/1.1 request without Host.
      res.setHeader("connection", "close");
      sendError(res, "bad_request", "an HTTP/1.1 request must carry a Host header", requestId);
      return;
    }
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
    if (path === "/metrics" && metrics && servesMetrics(parts)) {
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
