// Raw requests on each protocol and readers for the errors that come back, for
// tests that send what no generated client would (malformed frames, bodies,
// parameters) and check the answer is a client error carrying our identifier.
import http2 from "node:http2";
import net from "node:net";
import { gunzipSync } from "node:zlib";
import { fromBinary } from "@bufbuild/protobuf";
import { base64Decode } from "@bufbuild/protobuf/wire";
import { ConnectError } from "@connectrpc/connect";
import { findTrailerError } from "@connectrpc/connect/protocol-grpc";
import { trailerParse } from "@connectrpc/connect/protocol-grpc-web";
import { ErrorDetailSchema, type ErrorDetail } from "../../gen/parapet/v1/errors_pb.js";

export interface Answer {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
  trailers: Record<string, string>;
}

/** A gRPC / gRPC-Web length-prefixed frame. */
export function frame(flags: number, payload: Uint8Array, declaredLength = payload.length): Buffer {
  const head = Buffer.alloc(5);
  head[0] = flags;
  head.writeUInt32BE(declaredLength, 1);
  return Buffer.concat([head, payload]);
}

/** One request on a fresh HTTP/2 connection (gRPC needs HTTP/2). */
export function h2Request(url: string, headers: Record<string, string>, body: Uint8Array, timeoutMs = 10_000): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const session = http2.connect(url);
    const timer = setTimeout(() => {
      session.destroy();
      reject(new Error(`no HTTP/2 answer within ${timeoutMs} ms`));
    }, timeoutMs);
    session.on("error", (err: Error) => {
      clearTimeout(timer);
      reject(err);
    });
    const stream = session.request({ ":method": "POST", ...headers });
    let head: http2.IncomingHttpHeaders = {};
    let tail: http2.IncomingHttpHeaders = {};
    const chunks: Buffer[] = [];
    stream.on("response", (h) => (head = h));
    stream.on("trailers", (t) => (tail = t));
    stream.on("data", (d: Buffer) => chunks.push(d));
    stream.on("close", () => {
      clearTimeout(timer);
      session.close();
      resolve({ status: Number(head[":status"]), headers: flat(head), body: Buffer.concat(chunks), trailers: flat(tail) });
    });
    stream.on("error", () => {});
    stream.end(Buffer.from(body));
  });
}

function flat(h: http2.IncomingHttpHeaders): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(h)) if (v !== undefined && !k.startsWith(":")) out[k] = Array.isArray(v) ? v.join(", ") : String(v);
  return out;
}

/** Writes `data` on a plain TCP connection and returns everything the server sends until it closes (or `timeoutMs`). */
export function rawExchange(port: number, data: string | Buffer, timeoutMs = 5000): Promise<{ text: string; closed: boolean }> {
  return new Promise((resolve) => {
    const socket = net.connect(port, "127.0.0.1", () => socket.write(data));
    const chunks: Buffer[] = [];
    const timer = setTimeout(() => {
      socket.destroy();
      resolve({ text: Buffer.concat(chunks).toString("latin1"), closed: false });
    }, timeoutMs);
    socket.on("data", (d) => chunks.push(d));
    socket.on("error", () => {});
    socket.on("close", () => {
      clearTimeout(timer);
      resolve({ text: Buffer.concat(chunks).toString("latin1"), closed: true });
    });
  });
}

/** Status, headers and JSON body of a raw HTTP/1.1 response. */
export function parseHttp1(text: string): { status: number; headers: Record<string, string>; body: any } {
  const [head, ...rest] = text.split("\r\n\r\n");
  const [statusLine, ...lines] = head.split("\r\n");
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const i = line.indexOf(":");
    headers[line.slice(0, i).trim().toLowerCase()] = line.slice(i + 1).trim();
  }
  let body: unknown = rest.join("\r\n\r\n");
  try {
    body = JSON.parse(body as string);
  } catch {
    // not JSON: the assertion shows the text
  }
  return { status: Number(statusLine.split(" ")[1]), headers, body };
}

/** The error of a Connect unary response body: its code string and our ErrorDetail, if any. */
export function connectError(body: Buffer | string): { code: string; message: string; detail?: ErrorDetail } {
  const json = JSON.parse(body.toString()) as { code: string; message: string; details?: { type: string; value: string }[] };
  const raw = json.details?.find((d) => d.type === ErrorDetailSchema.typeName);
  return { code: json.code, message: json.message, detail: raw ? fromBinary(ErrorDetailSchema, base64Decode(raw.value)) : undefined };
}

/** The error in gRPC trailers (or a trailers-only header block), with our ErrorDetail. */
export function grpcError(trailers: Record<string, string>): { error: ConnectError | undefined; detail?: ErrorDetail } {
  const error = findTrailerError(new Headers(trailers));
  return { error, detail: error?.findDetails(ErrorDetailSchema)[0] };
}

/** The trailers a gRPC-Web response body ends with (gzip-compressed ones decompressed). */
export function grpcWebTrailers(body: Buffer): Record<string, string> {
  let at = 0;
  while (at + 5 <= body.length) {
    const flags = body[at];
    const length = body.readUInt32BE(at + 1);
    const payload = body.subarray(at + 5, at + 5 + length);
    // The trailer frame is compressed too (flag 0x01) when the server compresses its messages (gzip, the one it offers).
    if (flags & 0x80) return Object.fromEntries(trailerParse(flags & 0x01 ? gunzipSync(payload) : payload).entries());
    at += 5 + length;
  }
  return {};
}
