// Outermost interceptor: whatever a handler or interceptor throws leaves as a
// ConnectError carrying the stable identifier and request id, and nothing
// internal (stack traces, driver messages) reaches the client.
import { Code, type Interceptor } from "@connectrpc/connect";
import type { Logger } from "../../observability/logger.js";
import { requestIdHeader } from "../context.js";
import { ApiError, toConnectError } from "../errors.js";

export function errorInterceptor(log: Logger): Interceptor {
  return (next) => async (req) => {
    try {
      return await next(req);
    } catch (err) {
      const requestId = req.header.get(requestIdHeader) ?? "";
      const out = toConnectError(err, requestId);
      if (!(err instanceof ApiError) && out.code === Code.Internal) {
        log.error({ request_id: requestId, rpc: req.method.name, err: String((err as Error)?.stack ?? err) }, "unhandled error");
      }
      throw out;
    }
  };
}
