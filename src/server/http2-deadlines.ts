// Deadlines for HTTP/2 sessions and streams. Node's http2 server has only an
// inactivity timeout, which a client defeats by sending a PING or one byte of
// a body now and then; here a session without an open stream is closed after
// the headers timeout (before its first stream) or the idle timeout (after),
// and a stream whose request has not fully arrived within the receive timeout
// is answered 408 and reset.
import http2 from "node:http2";
import { v7 as uuidv7 } from "uuid";
import { errorBody, errorKinds } from "../api/errors.js";
import type { ConnectionLimits } from "./connection-limits.js";
import { apiServices } from "./routes.js";

/**
 * Client- and bidi-streaming RPCs (GuardStream): the request lasts as long as
 * the call, so it has no receive deadline; its handler ends it after an idle
 * time instead (docs/streaming.md#limits).
 */
const streamingPaths = new Set(
  apiServices.flatMap((s) => s.methods.filter((m) => m.methodKind === "bidi_streaming" || m.methodKind === "client_streaming").map((m) => `/${s.typeName}/${m.name}`)),
);

export function enforceHttp2Deadlines(server: http2.Http2Server, limits: ConnectionLimits): void {
  server.on("session", (session: http2.ServerHttp2Session) => {
    let open = 0;
    let served = false;
    let timer: NodeJS.Timeout | undefined;
    const arm = () => {
      timer = setTimeout(() => closeSession(session), served ? limits.idleTimeoutMs : limits.headersTimeoutMs);
    };
    session.on("stream", (stream: http2.ServerHttp2Stream, headers: http2.IncomingHttpHeaders) => {
      open++;
      served = true;
      clearTimeout(timer);
      if (!streamingPaths.has(String(headers[":path"] ?? "").split("?")[0])) receiveDeadline(stream, limits);
      stream.once("close", () => {
        open--;
        if (open === 0 && !session.closed && !session.destroyed) arm();
      });
    });
    session.once("close", () => clearTimeout(timer));
    arm();
  });
}

function closeSession(session: http2.ServerHttp2Session): void {
  // GOAWAY first; a peer that keeps the socket open anyway loses it a moment later.
  session.close();
  setTimeout(() => session.destroy(), 1000).unref();
}

function receiveDeadline(stream: http2.ServerHttp2Stream, limits: ConnectionLimits): void {
  if (stream.endAfterHeaders) return;
  const timer = setTimeout(() => {
    if (stream.destroyed || stream.closed) return;
    if (!stream.headersSent) {
      const requestId = uuidv7();
      const status = errorKinds.request_timeout.http;
      const body = JSON.stringify(errorBody("request_timeout", `the request body was not received within ${limits.receiveTimeoutMs} ms`, requestId, status));
      stream.respond({ ":status": status, "content-type": "application/json", "content-length": Buffer.byteLength(body), "x-request-id": requestId });
      stream.end(body, () => stream.close(http2.constants.NGHTTP2_CANCEL));
    } else {
      stream.close(http2.constants.NGHTTP2_CANCEL);
    }
  }, limits.receiveTimeoutMs);
  const done = () => clearTimeout(timer);
  stream.once("end", done);
  stream.once("close", done);
}
