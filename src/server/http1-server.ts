// The HTTP/1.1 side of the one port: an http.Server that is handed sockets by
// the listener (listener.ts) instead of listening itself, with its deadlines
// switched on and parser rejections answered with the Error object.
import http from "node:http";
import type net from "node:net";
import type { Duplex } from "node:stream";
import type { Logger } from "../observability/logger.js";
import type { Metrics } from "../observability/metrics.js";
import type { ConnectionLimits } from "./connection-limits.js";
import { errorKinds, type ErrorId } from "../api/errors.js";
import { answerAndClose, flushGraceMs } from "./raw-error-response.js";
import { sendError } from "./rest/handler.js";

export function createHttp1Server(handler: http.RequestListener, limits: ConnectionLimits, log?: Logger, metrics?: Metrics): http.Server {
  const server = http.createServer(
    {
      headersTimeout: limits.headersTimeoutMs,
      requestTimeout: limits.receiveTimeoutMs,
      keepAliveTimeout: limits.idleTimeoutMs,
      // Node answers a Host-less HTTP/1.1 request itself, with a bare 400 nobody logs: the request
      // handler answers it instead, with the Error object (http-handler.ts).
      requireHostHeader: false,
      // How often Node checks the two deadlines above: they fire up to this late.
      connectionsCheckingInterval: checkingIntervalMs(limits),
    },
    handler,
  );
  server.keepAliveTimeout = limits.idleTimeoutMs;
  // Node enforces headersTimeout and requestTimeout from a timer it starts on
  // the server's "listening" event, which a server that is handed its sockets
  // never sees (Node 20 and 22, lib/_http_server.js setupConnectionsTracking).
  // Without it a client trickling headers or a body holds its socket forever;
  // test/server/connections.test.ts fails if this stops working.
  server.emit("listening");

  // The response in flight on each socket: a parse error after its headers went out cannot be answered.
  const inFlight = new WeakMap<net.Socket, http.ServerResponse>();
  server.on("request", (req: http.IncomingMessage, res: http.ServerResponse) => {
    inFlight.set(req.socket, res);
    // A response sent before the body was read (an oversized or refused request) must close the
    // connection: the rest of the body is still on its way, and a client that reuses the socket would
    // wait behind it until the receive deadline. Keep-alive comes back once the body has been read,
    // which is before the response in every other case.
    if (hasBody(req) && res.shouldKeepAlive) {
      res.shouldKeepAlive = false;
      req.once("end", () => {
        if (!res.headersSent) res.shouldKeepAlive = true;
      });
    }
    res.once("close", () => {
      if (inFlight.get(req.socket) === res) inFlight.delete(req.socket);
    });
  });

  server.on("clientError", (err: NodeJS.ErrnoException & { reason?: string }, socket: net.Socket) => {
    const res = inFlight.get(socket);
    if (err.code === "ECONNRESET" || !socket.writable || res?.headersSent) {
      socket.destroy();
      return;
    }
    const [id, message] = describe(err, limits);
    // A request whose body broke the framing or missed its deadline is answered through its own
    // response: the request log and metrics then record the status the client got, under its id.
    const requestId = res ? answerInFlight(res, socket, id, message) : answerAndClose(socket, id, message);
    const status = errorKinds[id].http;
    // The request in flight is counted by the request handler; one the parser never produced, here.
    if (!res) metrics?.requests.inc({ endpoint: "unparsed", status: String(status) });
    log?.info({ request_id: requestId, status, error: id, parser: err.code }, "request rejected by the HTTP parser");
  });

  // CONNECT is the one method Node hands over as a raw socket instead of a request.
  server.on("connect", (_req: http.IncomingMessage, socket: Duplex) => {
    answerAndClose(socket, "method_not_allowed", "CONNECT is not supported: Parapet is not a proxy", { allow: "GET, POST, PUT, DELETE" });
  });
  return server;
}

/** Answers the request in flight with the Error object and closes the connection once it is sent. */
function answerInFlight(res: http.ServerResponse, socket: net.Socket, id: ErrorId, message: string): string {
  const requestId = String(res.getHeader("x-request-id") ?? "");
  // Nothing after a parse error or a missed deadline can be read as the next request: the
  // connection ends once the answer is out (Node ends it after a response without keep-alive),
  // or a moment later if the peer does not read.
  res.shouldKeepAlive = false;
  const timer = setTimeout(() => socket.destroy(), flushGraceMs);
  timer.unref();
  socket.once("close", () => clearTimeout(timer));
  // The handler may still be reading the body, which will never end now: end it, so that the read fails at once.
  res.once("close", () => res.req.destroy());
  sendError(res, id, message, requestId);
  return requestId;
}

function describe(err: NodeJS.ErrnoException & { reason?: string }, limits: ConnectionLimits) {
  switch (err.code) {
    case "HPE_HEADER_OVERFLOW":
      return ["headers_too_large", `request headers exceed ${http.maxHeaderSize} bytes`] as const;
    case "ERR_HTTP_REQUEST_TIMEOUT":
      return [
        "request_timeout",
        `the request was not received in time (headers within ${limits.headersTimeoutMs} ms, all of it within ${limits.receiveTimeoutMs} ms)`,
      ] as const;
    case "HPE_INVALID_METHOD":
      return ["bad_request", "unknown HTTP method"] as const;
    default:
      return ["bad_request", `malformed HTTP request: ${err.reason ?? err.code ?? "parse error"}`] as const;
  }
}

function checkingIntervalMs(limits: ConnectionLimits): number {
  return Math.min(5000, Math.max(20, Math.floor(Math.min(limits.headersTimeoutMs, limits.receiveTimeoutMs) / 4)));
}

function hasBody(req: http.IncomingMessage): boolean {
  const length = req.headers["content-length"];
  return req.headers["transfer-encoding"] !== undefined || (length !== undefined && length !== "0");
}
