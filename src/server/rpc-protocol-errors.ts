// Every protocol error is the client's error (docs/api.md#protocol-errors).
//
// Connect decodes the request — GET parameters, content type, envelopes,
// compression, protobuf — before the interceptors run, so what it rejects there
// never passes the error interceptor: it leaves without a parapet.v1.ErrorDetail
// or request id, and often as `internal` (an undecodable protobuf body is
// "parse binary: ..." with code internal). This module wraps each of Connect's
// method handlers and rewrites those errors in the response each protocol
// sends: the Connect unary error body, the gRPC trailers, the gRPC-Web trailer
// frame and the Connect end-of-stream frame. Errors our own code raised already
// carry an ErrorDetail and pass unchanged.
//
// It reads Connect's wire helpers from the `/protocol*` entry points, which
// Connect documents as internal: this module and rest/invoke-unary.ts are the
// only users, written against @connectrpc/connect 2.1.2 (pinned in
// package.json). Check both when upgrading Connect.
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { ConnectError } from "@connectrpc/connect";
import { encodeEnvelope, type UniversalHandler, type UniversalServerRequest, type UniversalServerResponse } from "@connectrpc/connect/protocol";
import { codeFromHttpStatus, codeToHttpStatus, endStreamFromJson, endStreamToJson, errorFromJsonBytes, errorToJsonBytes } from "@connectrpc/connect/protocol-connect";
import { findTrailerError, setTrailerStatus } from "@connectrpc/connect/protocol-grpc";
import { trailerParse, trailerSerialize } from "@connectrpc/connect/protocol-grpc-web";
import { requestIdHeader } from "../api/context.js";
import { detailedError, frameworkError } from "../api/errors.js";

const grpcTrailerFlag = 0b1000_0000;
const connectEndStreamFlag = 0b0000_0010;
const compressedFlag = 0b0000_0001;

/** `handler` whose framework-raised errors carry our identifier and the request id. */
export function withProtocolErrors(handler: UniversalHandler): UniversalHandler {
  const wrapped = async (req: UniversalServerRequest): Promise<UniversalServerResponse> => {
    const res = await handler(withoutZeroTimeout(req));
    const requestId = req.header.get(requestIdHeader) ?? "";
    const contentType = res.header ? (new Headers(res.header).get("content-type") ?? "") : "";
    if (contentType.startsWith("application/grpc-web")) return { ...res, body: rewriteLastFrame(res.body, grpcTrailerFlag, (data) => grpcWebTrailer(data, requestId)) };
    if (contentType.startsWith("application/grpc"))
      return { ...res, body: afterBody(res.body, () => res.trailer instanceof Headers && grpcTrailer(res.trailer, requestId)) };
    if (contentType.startsWith("application/connect+"))
      return { ...res, body: rewriteLastFrame(res.body, connectEndStreamFlag, (data) => connectEndStream(data, requestId)) };
    if (res.status === 200) return res;
    return connectUnaryError(req, res, requestId);
  };
  return Object.assign(wrapped, handler);
}

/**
 * A deadline of zero (`grpc-timeout: 0m`, `connect-timeout-ms: 0`) is a malformed request, like a
 * negative one: Connect reads it as a deadline already past and answers deadline_exceeded (504),
 * which tells the client to retry with the same header. The header is rewritten into a value
 * Connect's own parser refuses, so that the answer is Connect's invalid_argument in each
 * protocol's shape, with our detail (below), and the message says why.
 */
function withoutZeroTimeout(req: UniversalServerRequest): UniversalServerRequest {
  for (const name of ["grpc-timeout", "connect-timeout-ms"]) {
    const value = req.header.get(name);
    if (value === null || !/^0+[HMSmun]?$/.test(value)) continue;
    const header = new Headers(req.header);
    header.set(name, `${value} (a timeout must be positive)`);
    return { ...req, header };
  }
  return req;
}

/**
 * A Connect unary error, and the bodiless answers of Connect's protocol
 * negotiation (415 for an unknown content type or GET `encoding`, 405 for a
 * method an RPC does not take, 505 for a bidi stream over HTTP/1.1), as a
 * Connect error with our detail.
 */
async function connectUnaryError(req: UniversalServerRequest, res: UniversalServerResponse, requestId: string): Promise<UniversalServerResponse> {
  const header = new Headers(res.header);
  let err: ConnectError;
  // Connect derives the HTTP status from the code, which for method_not_allowed (unimplemented) is 501.
  let status: number | undefined;
  if (res.status === 405) {
    status = 405;
    err = detailedError("method_not_allowed", `${req.method} is not allowed on an RPC path; allowed: POST, and GET for reads (Connect protocol)`, requestId);
    header.set("allow", "POST, GET");
  } else if (res.status === 415) {
    const what = req.method === "GET" ? `encoding '${new URL(req.url).searchParams.get("encoding") ?? ""}'` : `content-type '${req.header.get("content-type") ?? ""}'`;
    err = detailedError("bad_request", `unsupported ${what}: send JSON or protobuf (Connect, gRPC or gRPC-Web)`, requestId);
  } else if (res.status === 505) {
    err = detailedError("bad_request", "this RPC streams in both directions and needs HTTP/2", requestId);
  } else {
    const raw = await readAll(res.body);
    const original = errorFromJsonBytes(decoded(raw, header.get("content-encoding")), undefined, new ConnectError(`HTTP ${res.status}`, codeFromHttpStatus(res.status)));
    err = frameworkError(original, requestId);
    if (err === original) return { ...res, body: once(raw) };
  }
  const body = errorToJsonBytes(err, undefined);
  header.set("content-type", "application/json");
  header.set("content-length", String(body.byteLength));
  header.delete("content-encoding");
  return { status: status ?? codeToHttpStatus(err.code), header, body: once(body) };
}

/** Rewrites a framework error in gRPC trailers in place; false when there was none. */
function grpcTrailer(trailer: Headers, requestId: string): boolean {
  const original = findTrailerError(trailer);
  if (!original) return false;
  const err = frameworkError(original, requestId);
  if (err === original) return false;
  for (const name of ["grpc-status", "grpc-message", "grpc-status-details-bin"]) trailer.delete(name);
  setTrailerStatus(trailer, err);
  return true;
}

function grpcWebTrailer(data: Uint8Array, requestId: string): Uint8Array | null {
  const trailer = trailerParse(data);
  return grpcTrailer(trailer, requestId) ? trailerSerialize(trailer) : null;
}

function connectEndStream(data: Uint8Array, requestId: string): Uint8Array | null {
  const end = endStreamFromJson(data);
  if (!end.error) return null;
  const err = frameworkError(end.error, requestId);
  if (err === end.error) return null;
  return new TextEncoder().encode(JSON.stringify(endStreamToJson(end.metadata, err, undefined)));
}

/**
 * Streams `body` unchanged except its last chunk, which Connect makes one
 * whole frame (the trailer or end-of-stream envelope): when that frame has
 * `flag` and is not compressed, `rewrite` may replace its payload.
 */
async function* rewriteLastFrame(body: UniversalServerResponse["body"], flag: number, rewrite: (data: Uint8Array) => Uint8Array | null): AsyncIterable<Uint8Array> {
  if (!body || body instanceof Uint8Array) {
    if (body) yield body;
    return;
  }
  let held: Uint8Array | undefined;
  for await (const chunk of body) {
    if (held) yield held;
    held = undefined;
    // Each chunk is one envelope: a message frame passes at once, so a streaming
    // answer (GuardStream's verdicts) is never held back until the next one.
    if (chunk.length > 0 && (chunk[0] & flag) === flag) held = chunk;
    else yield chunk;
  }
  if (!held) return;
  const flags = held[0];
  const length = held.length >= 5 ? new DataView(held.buffer, held.byteOffset, held.byteLength).getUint32(1) : -1;
  if ((flags & flag) === flag && (flags & compressedFlag) === 0 && length === held.length - 5) {
    const data = rewrite(held.subarray(5));
    if (data) held = encodeEnvelope(flags, data);
  }
  yield held;
}

/** Streams `body`, then runs `after` before the adapter reads the trailers. */
async function* afterBody(body: UniversalServerResponse["body"], after: () => void): AsyncIterable<Uint8Array> {
  if (body instanceof Uint8Array) yield body;
  else if (body) yield* body;
  after();
}

async function readAll(body: UniversalServerResponse["body"]): Promise<Uint8Array> {
  if (!body) return new Uint8Array();
  if (body instanceof Uint8Array) return body;
  const chunks: Uint8Array[] = [];
  for await (const chunk of body) chunks.push(chunk);
  return Buffer.concat(chunks);
}

function decoded(bytes: Uint8Array, encoding: string | null): Uint8Array {
  // Connect compresses error bodies of 1 KiB and more when the client accepts it.
  if (encoding === "gzip") return gunzipSync(bytes);
  if (encoding === "br") return brotliDecompressSync(bytes);
  return bytes;
}

async function* once(bytes: Uint8Array): AsyncIterable<Uint8Array> {
  yield bytes;
}
