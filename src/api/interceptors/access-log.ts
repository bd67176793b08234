// The authenticated key's id on the request's access log line (docs/operations.md#logs). Runs
// after authInterceptor: a call whose key was refused has no key id to give.
import type { Interceptor } from "@connectrpc/connect";
import type { AccessLog } from "../../observability/access-log.js";
import { principalKey, requestIdHeader } from "../context.js";

export function accessLogInterceptor(access: AccessLog): Interceptor {
  return (next) => (req) => {
    const principal = req.contextValues.get(principalKey);
    if (principal) access.note(req.header.get(requestIdHeader) ?? undefined, { key_id: principal.keyId });
    return next(req);
  };
}
