// `@parapet/client/node`: transports on Node's own HTTP/1.1 and HTTP/2
// stacks, which add plain gRPC and TLS options (a private CA, client
// certificates) to what the fetch transport offers.
import type { Transport } from "@connectrpc/connect";
import { createConnectTransport, createGrpcTransport, createGrpcWebTransport, type Http2SessionOptions } from "@connectrpc/connect-node";
import type { SecureContextOptions } from "node:tls";
import { withParapetErrors } from "./clients.js";
import { connectionSettings, type ConnectionOptions } from "./connection.js";

export interface NodeConnectionOptions extends ConnectionOptions {
  /** `connect` (default), `grpc` or `grpc-web`. */
  protocol?: "connect" | "grpc" | "grpc-web";
  /** HTTP version for Connect and gRPC-Web (default `1.1`); gRPC is always HTTP/2. */
  httpVersion?: "1.1" | "2";
  /** TLS settings for https:// base URLs: `ca` for a private CA, `cert` and `key` for a client certificate. */
  tls?: SecureContextOptions & { rejectUnauthorized?: boolean };
  /** HTTP/2 connection settings (keep-alive pings, idle timeout). */
  http2?: Http2SessionOptions;
}

export function createParapetTransport(options: NodeConnectionOptions): Transport {
  const protocol = options.protocol ?? "connect";
  const settings = { ...connectionSettings(options, protocol), nodeOptions: options.tls };
  if (protocol === "grpc") return withParapetErrors(createGrpcTransport({ ...settings, ...options.http2 }));
  const httpVersion = options.httpVersion ?? "1.1";
  if (httpVersion !== "1.1" && httpVersion !== "2") throw new TypeError(`httpVersion must be "1.1" or "2", got ${JSON.stringify(httpVersion)}`);
  const versioned = httpVersion === "2" ? { ...settings, httpVersion, ...options.http2 } : { ...settings, httpVersion };
  if (protocol === "connect") return withParapetErrors(createConnectTransport(versioned));
  if (protocol === "grpc-web") return withParapetErrors(createGrpcWebTransport(versioned));
  throw new TypeError(`protocol must be "connect", "grpc" or "grpc-web", got ${JSON.stringify(protocol)}`);
}
