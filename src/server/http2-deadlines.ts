// Deadlines for HTTP/2 sessions and streams. Node's http2 server has only an
// inactivity timeout, which a client defeats by sending a PING or one byte of
// a body now and then; here a session without an open stream is closed after
// the headers timeout (before its first stream) or the idle timeout (after),
// and a stream whose request has not fully arrived within the receive timeout
// is answered 408 and reset.
import http2 from "node:http2";
import type { ConnectionLimits } from "./connection-limits.js";
import { sendError } from "./rest/handler.js";
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
    session.on("stream", (stream: http2.ServerHttp2Stream) => {
      open++;
      served = true;
      clearTimeout(timer);
      stream.once("close", () => {
        open--;
        if (open === 0 && !session.closed && !session.destroyed) arm();
      });
    });
    session.once("close", () => clearTimeout(timer));
    arm();
  });
  // On the request, not the stream: the 408 goes out through the response the handler holds, so
  // that the request log and metrics record it and the handler does not answer a second time.
  server.on("request", (req: http2.Http2ServerRequest, res: http2.Http2ServerResponse) => {
    if (!streamingPaths.has((req.url ?? "").split("?")[0])) receiveDeadline(req, res, limits);
  });
}

function closeSession(session: http2.ServerHttp2Session): void {
  // GOAWAY first; a peer that keeps the socket open anyway loses it a moment later.
  session.close();
  setTimeout(() => session.destroy(), 1000).unref();
}

function receiveDeadline(req: http2.Http2ServerRequest, res: http2.Http2ServerResponse, limits: ConnectionLimits): void {
  const stream = res.stream;
  if (stream.endAfterHeaders || req.complete) return;
  const timer = setTimeout(() => {
    if (stream.destroyed || stream.closed) return;
    if (!res.headersSent) {
      // The handler set the request id before any deadline could fire.
      sendError(res, "request_timeout", `the request body was not received within ${limits.receiveTimeoutMs} ms`, String(res.getHeader("x-request-id") ?? ""));
      // The client may still be sending: reset once the answer is out, so it stops. (The
      // response's own "finish" waits for the stream to close, which this is.)
      stream.once("finish", () => stream.close(http2.constants.NGHTTP2_CANCEL));
    } else {
      stream.close(http2.constants.NGHTTP2_CANCEL);
    }
  }, limits.receiveTimeoutMs);
  const done = () => clearTimeout(timer);
  req.once("end", done);
  stream.once("close", done);
}
