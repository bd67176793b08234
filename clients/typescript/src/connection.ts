// What every transport of this package needs to reach a Parapet service.
import type { Interceptor } from "@connectrpc/connect";
import { apiKeyInterceptor } from "./clients.js";

export interface ConnectionOptions {
  /** The service's address, e.g. `http://localhost:8080` (a trailing slash is fine). */
  baseUrl: string;
  /** A platform key (`ppk_...`) for the management services, a screening key (`psk_...`) for screening. */
  apiKey: string;
  /** Protobuf binary (true) or JSON (false) on Connect and gRPC-Web; default: JSON on Connect, binary on gRPC-Web. gRPC is always binary. */
  binary?: boolean;
  /** Calls not answered within this many milliseconds fail with `timeout`; per call: `{ timeoutMs }`. */
  timeoutMs?: number;
  /** Run before the API-key interceptor (tracing, extra headers). */
  interceptors?: Interceptor[];
}

export function connectionSettings(options: ConnectionOptions, protocol: string) {
  const { baseUrl, apiKey, binary, timeoutMs, interceptors = [] } = options;
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    throw new TypeError(`baseUrl must be an http:// or https:// URL, got ${JSON.stringify(baseUrl)}`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") throw new TypeError(`baseUrl must be an http:// or https:// URL, got ${JSON.stringify(baseUrl)}`);
  if (timeoutMs !== undefined && !(Number.isFinite(timeoutMs) && timeoutMs > 0)) throw new TypeError("timeoutMs must be a positive number of milliseconds");
  return {
    // Connect appends "/parapet.v1.Service/Method" to the base URL as a string.
    baseUrl: url.href.replace(/\/+$/, ""),
    // JSON is Connect's usual encoding and readable in logs; gRPC and gRPC-Web are binary by convention.
    useBinaryFormat: protocol === "grpc" || (binary ?? protocol !== "connect"),
    defaultTimeoutMs: timeoutMs,
    interceptors: [...interceptors, apiKeyInterceptor(apiKey)],
  };
}
