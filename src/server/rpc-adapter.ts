// Connect, gRPC and gRPC-Web on Node's HTTP servers: connect-node's
// connectNodeAdapter, with each method handler wrapped so that errors Connect
// raises while decoding a request carry our identifier and request id
// (rpc-protocol-errors.ts), and with a handler that fails unexpectedly logged
// and answered instead of leaving the request hanging.
import type { IncomingMessage, ServerResponse } from "node:http";
import type { Http2ServerRequest, Http2ServerResponse } from "node:http2";
import { Code, ConnectError, createConnectRouter, type ConnectRouter, type ConnectRouterOptions } from "@connectrpc/connect";
import { compressionBrotli, compressionGzip, universalRequestFromNodeRequest, universalResponseToNodeResponse } from "@connectrpc/connect-node";
import type { UniversalHandler } from "@connectrpc/connect/protocol";
import { requestIdHeader } from "../api/context.js";
import type { Logger } from "../observability/logger.js";
import { sendError } from "./rest/handler.js";
import { withProtocolErrors } from "./rpc-protocol-errors.js";

type Req = IncomingMessage | Http2ServerRequest;
type Res = ServerResponse | Http2ServerResponse;

export interface RpcHandlerOptions extends ConnectRouterOptions {
  routes: (router: ConnectRouter) => void;
  /** Requests to paths no RPC serves. */
  fallback: (req: Req, res: Res) => void;
  log: Logger;
}

export function createRpcHandler(options: RpcHandlerOptions): (req: Req, res: Res) => void {
  const router = createConnectRouter({ acceptCompression: [compressionGzip, compressionBrotli], ...options });
  options.routes(router);
  const byPath = new Map<string, UniversalHandler>(router.handlers.map((h) => [h.requestPath, withProtocolErrors(h)]));

  return (req, res) => {
    const handler = byPath.get((req.url ?? "").split("?", 1)[0]);
    if (!handler) return options.fallback(req, res);
    const requestId = String(req.headers[requestIdHeader] ?? "");
    if (!("authority" in req) && !req.headers.host) {
      // Connect builds the request URL from Host and throws without one (HTTP/1.0).
      return sendError(res, "bad_request", "a Host header is required", requestId);
    }
    handler(universalRequestFromNodeRequest(req as never, res as never, undefined, undefined))
      // Answered already when the request missed its receive deadline (http2-deadlines.ts,
      // http1-server.ts): a second answer would fail on headers already sent.
      .then((uRes) => (res.headersSent ? undefined : universalResponseToNodeResponse(uRes, res as never)))
      .catch((reason: unknown) => {
        // The client went away: nobody to answer.
        if (ConnectError.from(reason).code === Code.Aborted) return;
        options.log.error({ request_id: requestId, rpc: handler.method.name, err: String((reason as Error)?.stack ?? reason) }, "rpc handler failed");
        if (!res.headersSent) sendError(res, "internal", "internal error", requestId);
        else res.destroy();
      });
  };
}
