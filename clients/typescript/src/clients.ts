// Generated clients for every Parapet service over one transport, throwing
// ParapetError instead of Connect's error type.
import type { DescService } from "@bufbuild/protobuf";
import { createClient, type Client, type Interceptor, type Transport } from "@connectrpc/connect";
import { toParapetError } from "./errors.js";
import * as protocol from "./protocol.js";

/**
 * Sends the API key as `Authorization: Bearer <key>`, the only credential
 * Parapet takes (docs/api.md#authentication).
 */
export function apiKeyInterceptor(apiKey: string): Interceptor {
  // Refused here rather than by the HTTP stack at the first call, where it would surface as an obscure transport error.
  if (typeof apiKey !== "string" || apiKey === "" || /[\s\0]/.test(apiKey)) {
    throw new TypeError("apiKey must be a non-empty string without whitespace (a ppk_ platform key or a psk_ screening key)");
  }
  const authorization = `Bearer ${apiKey}`;
  return (next) => (req) => {
    req.header.set("authorization", authorization);
    return next(req);
  };
}

const wrapped = new WeakSet<Transport>();

/**
 * The transport with every failure turned into a ParapetError. Done around
 * the transport, not as an interceptor, so that it also covers transports
 * the caller built and errors raised after the interceptors ran (decoding the
 * response, the connection dropping while a stream is read).
 */
export function withParapetErrors(transport: Transport): Transport {
  if (wrapped.has(transport)) return transport;
  const result: Transport = {
    async unary(...args) {
      try {
        return await transport.unary(...args);
      } catch (err) {
        throw toParapetError(err);
      }
    },
    async stream(...args) {
      let response;
      try {
        response = await transport.stream(...args);
      } catch (err) {
        throw toParapetError(err);
      }
      const messages = response.message;
      return {
        ...response,
        message: (async function* () {
          try {
            yield* messages;
          } catch (err) {
            throw toParapetError(err);
          }
        })(),
      };
    },
  };
  wrapped.add(result);
  return result;
}

/** A generated client for one service (any of this package's `...Service` descriptors). */
export function createParapetClient<S extends DescService>(service: S, transport: Transport): Client<S> {
  return createClient(service, withParapetErrors(transport));
}

type Protocol = typeof protocol;
type ServiceExport = { [K in keyof Protocol]: Protocol[K] extends DescService ? K : never }[keyof Protocol];
type ClientName<K> = K extends `${infer Name}Service` ? Uncapitalize<Name> : never;

/**
 * One client per service, named after it: `guard` (GuardService), `policy`
 * (PolicyService), `project`, `apiKey`, `log`, `analytics`, ... Derived from
 * the generated code, so a service added to the protos appears here too.
 */
export type ParapetClients = { [K in ServiceExport as ClientName<K>]: Client<Protocol[K]> };

export function createParapetClients(transport: Transport): ParapetClients {
  const errorsTyped = withParapetErrors(transport);
  const clients: Record<string, unknown> = {};
  for (const [exportName, value] of Object.entries(protocol)) {
    if (!isService(value) || !exportName.endsWith("Service")) continue;
    const name = exportName.slice(0, -"Service".length);
    clients[name.charAt(0).toLowerCase() + name.slice(1)] = createClient(value, errorsTyped);
  }
  return clients as ParapetClients;
}

function isService(value: unknown): value is DescService {
  return typeof value === "object" && value !== null && (value as { kind?: unknown }).kind === "service";
}
