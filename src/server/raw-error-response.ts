// The Error object (docs/api.md#error-object) written straight to a socket,
// for requests Node's HTTP parser rejects before there is a request or response
// object: malformed framing, unknown methods, oversized headers, timeouts,
// CONNECT. The connection is closed afterwards: after a parse error nothing
// on it can be trusted to be the start of a request.
import { STATUS_CODES } from "node:http";
import type { Duplex } from "node:stream";
import { v7 as uuidv7 } from "uuid";
import { errorBody, errorKinds, type ErrorId } from "../api/errors.js";

/** How long a peer that does not read gets to take the answer before the socket is destroyed. */
export const flushGraceMs = 1000;

/** Writes a complete HTTP/1.1 error response, closes the connection, and returns the response's request id. */
export function answerAndClose(socket: Duplex, id: ErrorId, message: string, headers: Record<string, string> = {}): string {
  const requestId = uuidv7();
  const status = errorKinds[id].http;
  const body = JSON.stringify(errorBody(id, message, requestId, status));
  const lines = [
    `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? "Error"}`,
    "content-type: application/json",
    `content-length: ${Buffer.byteLength(body)}`,
    `x-request-id: ${requestId}`,
    "x-content-type-options: nosniff",
    "connection: close",
    ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`),
  ];
  const timer = setTimeout(() => socket.destroy(), flushGraceMs);
  timer.unref();
  socket.once("close", () => clearTimeout(timer));
  socket.end(`${lines.join("\r\n")}\r\n\r\n${body}`, () => socket.destroy());
  return requestId;
}
