// A transport over the Fetch API: Node 20+, browsers, Deno, Bun and edge
// runtimes alike, on HTTP/1.1 or whatever the runtime's fetch negotiates.
import { Code, ConnectError, type Transport } from "@connectrpc/connect";
import { createConnectTransport, createGrpcWebTransport } from "@connectrpc/connect-web";
import { withParapetErrors } from "./clients.js";
import { connectionSettings, type ConnectionOptions } from "./connection.js";

export interface FetchConnectionOptions extends ConnectionOptions {
  /** `connect` (default) or `grpc-web`; plain gRPC needs HTTP/2 trailers: use `@parapet/client/node`. */
  protocol?: "connect" | "grpc-web";
  /** A fetch implementation other than the global one. */
  fetch?: typeof globalThis.fetch;
}

export function createParapetTransport(options: FetchConnectionOptions): Transport {
  const protocol = options.protocol ?? "connect";
  const settings = { ...connectionSettings(options, protocol), fetch: reportingUnreachable(options.fetch ?? ((input, init) => globalThis.fetch(input, init))) };
  if (protocol === "connect") return withParapetErrors(createConnectTransport(settings));
  if (protocol === "grpc-web") return withParapetErrors(createGrpcWebTransport(settings));
  throw new TypeError(`protocol must be "connect" or "grpc-web" over fetch, got ${JSON.stringify(protocol)}`);
}

/**
 * fetch rejects with a bare TypeError when no response arrives (refused,
 * reset, DNS), which Connect reports as `unknown`; it is `unavailable`, as
 * Node's transports report it. Aborts (deadline, caller's signal) pass as they are.
 */
function reportingUnreachable(fetch: typeof globalThis.fetch): typeof globalThis.fetch {
  return async (input, init) => {
    try {
      return await fetch(input, init);
    } catch (err) {
      if (init?.signal?.aborted || !(err instanceof TypeError)) throw err;
      const reason = err.cause instanceof Error ? `${err.message}: ${err.cause.message}` : err.message;
      throw new ConnectError(reason, Code.Unavailable, undefined, undefined, err);
    }
  };
}
