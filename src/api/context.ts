// Values the interceptor chain hands to handlers.
import { createContextKey } from "@connectrpc/connect";

export interface Principal {
  orgId: string;
  keyId: string;
  kind: "platform" | "screening";
  scope: "read-write" | "read-only" | null;
}

export const principalKey = createContextKey<Principal | null>(null, { description: "authenticated API key" });

/** Header that carries the request id from the HTTP layer into every protocol. */
export const requestIdHeader = "x-request-id";

/**
 * Header that carries the peer's address from the HTTP layer (set there from the socket,
 * overwriting anything a client sent), for limits per client address.
 */
export const clientAddressHeader = "x-parapet-client-address";
