// Limits on what one HTTP/2 session may make the server do for nothing
// (docs/configuration.md#connections). Opening a stream and resetting it at
// once ("rapid reset") costs the client two frames and the server a request
// handler each time; nghttp2's own rate limit then ends the session with a
// GOAWAY but leaves the socket open and silent, so the client sees a hang.
// Here a session that resets streams faster than any client needs is sent
// GOAWAY ENHANCE_YOUR_CALM and its socket is closed, before nghttp2's limit
// (a burst of 1,000) is reached.
import http2 from "node:http2";
import type { Logger } from "../observability/logger.js";
import type { Metrics } from "../observability/metrics.js";

/** Reset streams a session may have at once; spent ones come back at `resetsPerSecond`. */
const resetBurst = 200;
const resetsPerSecond = 20;

/**
 * Node's own per-session limits, set explicitly: frames nghttp2 finds invalid
 * (Node's default 1,000) and streams refused for exceeding the 100 concurrent
 * ones. Past either Node destroys the session.
 */
export const http2SessionOptions: http2.ServerOptions & { maxSessionInvalidFrames: number; maxSessionRejectedStreams: number } = {
  // One client cannot open streams without bound on one connection.
  settings: { maxConcurrentStreams: 100 },
  // Node reads both (lib/internal/http2/core.js) though @types/node does not declare them.
  maxSessionInvalidFrames: 100,
  maxSessionRejectedStreams: 100,
};

export function limitHttp2Abuse(server: http2.Http2Server, metrics?: Metrics, log?: Logger): void {
  server.on("session", (session: http2.ServerHttp2Session) => {
    let tokens = resetBurst;
    let last = Date.now();
    session.on("stream", (stream: http2.ServerHttp2Stream) => {
      stream.once("close", () => {
        // Either side's reset counts: the server resets only what a client made it give up on (a trickled body).
        if (stream.rstCode === http2.constants.NGHTTP2_NO_ERROR || session.destroyed || session.closed) return;
        const now = Date.now();
        tokens = Math.min(resetBurst, tokens + ((now - last) / 1000) * resetsPerSecond);
        last = now;
        tokens -= 1;
        if (tokens >= 0) return;
        metrics?.http2SessionsClosed.inc({ reason: "stream_resets" });
        log?.warn({ address: session.socket?.remoteAddress }, "HTTP/2 session closed: too many reset streams (GOAWAY ENHANCE_YOUR_CALM)");
        session.goaway(http2.constants.NGHTTP2_ENHANCE_YOUR_CALM);
        session.destroy();
      });
    });
  });
  server.on("sessionError", (err: NodeJS.ErrnoException, session: http2.ServerHttp2Session) => {
    if (err.code !== "ERR_HTTP2_TOO_MANY_INVALID_FRAMES") return;
    metrics?.http2SessionsClosed.inc({ reason: "invalid_frames" });
    log?.warn({ address: session.socket?.remoteAddress }, "HTTP/2 session closed: too many invalid frames or refused streams");
  });
}
