// Reading a REST request body: at most the body limit, decompressed when the client sent
// it with a Content-Encoding (docs/api.md#compressed-bodies).
//
// The limit applies to the body as the service reads it, after decompression, and to the
// bytes on the wire: a few kilobytes of gzip can inflate to gigabytes, so decompression
// streams and stops as soon as the output passes the limit, never holding more than the
// limit (and one decompressor chunk) in memory.
import type { IncomingMessage } from "node:http";
import type { Http2ServerRequest } from "node:http2";
import { pipeline } from "node:stream/promises";
import { createBrotliDecompress, createGunzip, createInflate, type BrotliDecompress, type Gunzip, type Inflate } from "node:zlib";
import type { ErrorId } from "../../api/errors.js";

type Req = IncomingMessage | Http2ServerRequest;

export type BodyRead = { body: Buffer } | { error: ErrorId; message: string };

const decoders: Record<string, () => Gunzip | Inflate | BrotliDecompress> = {
  gzip: createGunzip,
  "x-gzip": createGunzip,
  deflate: createInflate,
  br: createBrotliDecompress,
};

const supported = "gzip, deflate or br";

class OverLimit extends Error {}

/**
 * The client reset its HTTP/2 stream before the body ended: the stream's readable side ends as if
 * the body were complete, and what arrived must not be read as the request.
 */
class Abandoned extends Error {
  readonly code = "ERR_STREAM_PREMATURE_CLOSE";
  constructor() {
    super("the client reset the stream before its body ended");
  }
}

function tooLarge(limit: number, coding?: string): BodyRead {
  return { error: "payload_too_large", message: `request body exceeds ${limit} bytes${coding ? ` once decompressed (Content-Encoding: ${coding})` : ""}` };
}

/** The body's bytes as they arrive, failing once more than `limit` came. */
async function* bounded(req: Req, limit: number): AsyncGenerator<Buffer> {
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > limit) throw new OverLimit();
    yield chunk;
  }
  if ("stream" in req && req.stream.aborted) throw new Abandoned();
}

/**
 * The content coding of the request, or why it cannot be read. One coding at most:
 * layered codings ("gzip, gzip") would multiply the decompression work a request can ask for.
 */
function codingOf(req: Req): { coding: string | null } | { error: ErrorId; message: string } {
  const header = req.headers["content-encoding"];
  const codings = (Array.isArray(header) ? header.join(",") : (header ?? ""))
    .split(",")
    .map((c) => c.trim().toLowerCase())
    .filter((c) => c !== "" && c !== "identity");
  if (codings.length === 0) return { coding: null };
  if (codings.length > 1) {
    return { error: "unsupported_encoding", message: `Content-Encoding lists ${codings.length} content codings; send the body uncompressed or in one of ${supported}` };
  }
  if (!Object.hasOwn(decoders, codings[0])) {
    // The client's text, named in the answer only when it is short and printable.
    const named = /^[\w.+-]{1,32}$/.test(codings[0]) ? ` '${codings[0]}'` : "";
    return { error: "unsupported_encoding", message: `Content-Encoding${named} is not supported: send the body uncompressed or as ${supported}` };
  }
  return { coding: codings[0] };
}

/** Reads the body up to `limit` bytes (after decompression), or says why it cannot be read. */
export async function readBody(req: Req, limit: number): Promise<BodyRead> {
  const declared = Number(req.headers["content-length"] ?? "0");
  if (declared > limit) return tooLarge(limit);
  const coding = codingOf(req);
  if ("error" in coding) return coding;
  if (coding.coding !== null) return inflate(req, coding.coding, limit);
  const chunks: Buffer[] = [];
  try {
    for await (const chunk of bounded(req, limit)) chunks.push(chunk);
  } catch (err) {
    if (err instanceof OverLimit) return tooLarge(limit);
    throw err;
  }
  return { body: Buffer.concat(chunks) };
}

async function inflate(req: Req, coding: string, limit: number): Promise<BodyRead> {
  const chunks: Buffer[] = [];
  let wire = 0;
  let size = 0;
  const counted = async function* (source: AsyncIterable<Buffer>) {
    for await (const chunk of source) {
      wire += chunk.length;
      yield chunk;
    }
  };
  try {
    await pipeline(bounded(req, limit), counted, decoders[coding](), async (inflated: AsyncIterable<Buffer>) => {
      for await (const chunk of inflated) {
        size += chunk.length;
        if (size > limit) throw new OverLimit();
        chunks.push(chunk);
      }
    });
  } catch (err) {
    if (err instanceof OverLimit) return tooLarge(limit, coding);
    if (err instanceof Abandoned) throw err;
    // An empty body is empty in every coding: a client that compresses nothing sends nothing.
    if (wire === 0) return { body: Buffer.alloc(0) };
    const reason = err instanceof Error ? err.message : String(err);
    return { error: "bad_request", message: `request body is not valid ${coding} data (Content-Encoding: ${coding}): ${reason}` };
  }
  return { body: Buffer.concat(chunks) };
}
