// The request handler both HTTP servers share: request id, probes, REST paths,
// then Connect / gRPC / gRPC-Web through the Connect adapter.
import type { IncomingMessage, ServerResponse } from "node:http";
import type { Http2ServerRequest, Http2ServerResponse } from "node:http2";
import { v7 as uuidv7 } from "uuid";
import { requestIdHeader } from "../api/context.js";
import type { Logger } from "../observability/logger.js";
import { probe, probePaths, type ProbeState } from "./probes.js";
import { sendError, type RestHandler } from "./rest/handler.js";

type Req = IncomingMessage | Http2ServerRequest;
type Res = ServerResponse | Http2ServerResponse;

export interface HttpHandlerParts {
  rest: { handle: RestHandler; matches: (path: string) => boolean };
  connect: (req: Req, res: Res) => void;
  probes: ProbeState;
  log: Logger;
}

export function createHttpHandler(parts: HttpHandlerParts) {
  return (req: Req, res: Res): void => {
    const started = process.hrtime.bigint();
    // Always our own id: it must be unique per request (spec 2.7), so a
    // client-sent X-Request-Id is not trusted.
    const requestId = uuidv7();
    req.headers[requestIdHeader] = requestId;
    res.setHeader("X-Request-Id", requestId);
    const path = (req.url ?? "/").split("?")[0];

    res.once("finish", () => {
      if (probePaths.has(path)) return;
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      parts.log.info({ request_id: requestId, method: req.method, path, status: res.statusCode, ms: Math.round(ms * 100) / 100 }, "request");
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
    if (parts.rest.matches(path)) {
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
