// Values the interceptor chain hands to handlers.
import { createContextKey, type HandlerContext } from "@connectrpc/connect";
import type { FieldViolation } from "./errors.js";

export interface Principal {
  orgId: string;
  keyId: string;
  kind: "platform" | "screening";
  scope: "read-write" | "read-only" | null;
}

export const principalKey = createContextKey<Principal | null>(null, { description: "authenticated API key" });

/** Header that carries the request id from the HTTP layer into every protocol. */
export const requestIdHeader = "x-request-id";

const uuidV7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

/**
 * The request id the HTTP layer gave this call (the `X-Request-Id` response
 * header), so that /v2/guard can use it as `metadata.request_uuid` and the
 * service log joins the request log (docs/api.md#the-screening-call). The HTTP
 * layer always overwrites the header with its own UUIDv7; anything else (an
 * in-process transport, a test) gets undefined and the caller makes a new id.
 */
export function requestIdOf(ctx: HandlerContext): string | undefined {
  const id = ctx.requestHeader.get(requestIdHeader);
  return id !== null && uuidV7.test(id) ? id : undefined;
}

/**
 * Header that carries the peer's address from the HTTP layer (set there from the socket,
 * overwriting anything a client sent), for limits per client address.
 */
export const clientAddressHeader = "x-parapet-client-address";

/**
 * Values of the wrong JSON type that the REST layer found, with their paths, and
 * took out of the request so that the rest of it could be decoded; the validation
 * interceptor reports them with the rule violations, in one answer
 * (docs/api.md#field-paths). RPC protocols decode in Connect and never set it.
 */
export const decodeViolationsKey = createContextKey<readonly FieldViolation[]>([], { description: "request values of the wrong JSON type" });
