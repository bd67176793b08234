// Bearer-key authentication and authorization (docs/api.md#authentication).
import type { Interceptor } from "@connectrpc/connect";
import { accessOf } from "../../auth/access.js";
import type { ApiKeys } from "../../auth/api-keys-repository.js";
import { AuthFailureLimiter } from "../../auth/auth-failures.js";
import type { RequestRateLimit } from "../../auth/rate-limit.js";
import { clientAddressHeader, principalKey } from "../context.js";
import { ApiError } from "../errors.js";

const bearer = /^Bearer\s+(\S+)\s*$/i;
const expectedHeader = "send 'Authorization: Bearer <API_KEY>'";

/**
 * Why a present Authorization header carries no usable key. A bare key (the
 * scheme left out, as some HTTP clients' "API key" settings send it) is told
 * apart from another scheme, so the fix is in the message (docs/api.md#authentication).
 */
function unusableHeader(header: string): string {
  const parts = header.trim().split(/\s+/);
  const scheme = parts[0];
  if (/^bearer$/i.test(scheme)) return `the Authorization header names the Bearer scheme but no single key; ${expectedHeader}`;
  if (parts.length === 1) return `the Authorization header holds no scheme: the Bearer scheme is expected; ${expectedHeader}`;
  // The scheme is the client's text: named only when it looks like one, and never long.
  const named = /^[A-Za-z][\w.+-]{0,19}$/.test(scheme) ? ` '${scheme}'` : "";
  return `unsupported authorization scheme${named}: the Bearer scheme is expected; ${expectedHeader}`;
}

/**
 * Refuses a failed authentication (429) while its address or its key has used up the failures it
 * may make, otherwise records it and refuses it as unauthenticated (401). Only failures come here:
 * a valid key is served whatever others did from its address or with keys like it.
 */
function failure(failures: AuthFailureLimiter | undefined, subjects: string[], unauthenticated: string): ApiError {
  const blocked = failures?.wait(subjects) ?? 0;
  if (blocked > 0) {
    return new ApiError("rate_limited", `too many failed authentications from this address or with this key; retry in ${blocked} s`, {
      "retry-after": String(blocked),
    });
  }
  failures?.failed(subjects);
  return new ApiError("unauthenticated", unauthenticated);
}

export function authInterceptor(keys: ApiKeys, limiter?: RequestRateLimit, failures?: AuthFailureLimiter): Interceptor {
  return (next) => async (req) => {
    const access = accessOf(req.method);
    if (access.audience === "public") return next(req);
    const header = req.header.get("authorization");
    const presented = header ? bearer.exec(header)?.[1] : undefined;
    const address = req.header.get(clientAddressHeader) ?? undefined;
    if (!presented) {
      throw failure(failures, AuthFailureLimiter.subjects(address, undefined), header?.trim() ? unusableHeader(header) : `missing API key: ${expectedHeader}`);
    }
    // Checked before the failure limit: a guesser's failures must never refuse the owner of a valid key (docs/api.md#authentication).
    const key = await keys.verify(presented);
    if (!key) throw failure(failures, AuthFailureLimiter.subjects(address, presented), "unknown or revoked API key");
    if (access.audience === "screening" && key.kind !== "screening") {
      throw new ApiError("forbidden", "this endpoint takes a screening key, not a platform key");
    }
    if (access.audience === "platform" && key.kind !== "platform") {
      throw new ApiError("forbidden", "the management interface takes a platform key, not a screening key");
    }
    if (access.write && key.scope === "read-only") {
      throw new ApiError("forbidden", "this endpoint needs a read-write platform key (scope read-write); this key is read-only");
    }
    const wait = (await limiter?.take(key._id)) ?? 0;
    if (wait > 0) {
      throw new ApiError("rate_limited", `rate limit exceeded for this API key; retry in ${wait} s`, { "retry-after": String(wait) });
    }
    req.contextValues.set(principalKey, { orgId: key.org_id, keyId: key._id, kind: key.kind, scope: key.scope });
    return next(req);
  };
}
