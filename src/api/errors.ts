// One error model for every protocol (docs/api.md#errors, docs/decisions.md#errors).
//
// Handlers and interceptors throw ApiError with a stable identifier. The
// identifier fixes both the HTTP status the REST paths answer and the Connect /
// gRPC code RPC clients see; the identifier and request id also ride on RPC
// errors as a parapet.v1.ErrorDetail so every client can log the same thing.
import { Code, ConnectError } from "@connectrpc/connect";
import { create } from "@bufbuild/protobuf";
import { ErrorDetailSchema } from "../../gen/parapet/v1/errors_pb.js";
import { StorageUnavailableError } from "../storage/collection.js";

interface ErrorKind {
  http: number;
  code: Code;
}

export const errorKinds = {
  malformed_json: { http: 400, code: Code.InvalidArgument },
  bad_request: { http: 400, code: Code.InvalidArgument },
  duplicate_name: { http: 400, code: Code.AlreadyExists },
  unauthenticated: { http: 401, code: Code.Unauthenticated },
  forbidden: { http: 403, code: Code.PermissionDenied },
  feature_disabled: { http: 403, code: Code.PermissionDenied },
  policy_limit_reached: { http: 403, code: Code.PermissionDenied },
  query_too_large: { http: 403, code: Code.PermissionDenied },
  not_found: { http: 404, code: Code.NotFound },
  route_not_found: { http: 404, code: Code.NotFound },
  method_not_allowed: { http: 405, code: Code.Unimplemented },
  request_timeout: { http: 408, code: Code.DeadlineExceeded },
  conflict: { http: 409, code: Code.FailedPrecondition },
  policy_in_use: { http: 409, code: Code.FailedPrecondition },
  endpoint_retired: { http: 410, code: Code.Unimplemented },
  payload_too_large: { http: 413, code: Code.ResourceExhausted },
  headers_too_large: { http: 431, code: Code.ResourceExhausted },
  validation_failed: { http: 422, code: Code.InvalidArgument },
  rate_limited: { http: 429, code: Code.ResourceExhausted },
  internal: { http: 500, code: Code.Internal },
  not_implemented: { http: 501, code: Code.Unimplemented },
  unavailable: { http: 503, code: Code.Unavailable },
  timeout: { http: 504, code: Code.DeadlineExceeded },
} as const satisfies Record<string, ErrorKind>;

export type ErrorId = keyof typeof errorKinds;

export class ApiError extends Error {
  constructor(
    readonly id: ErrorId,
    message: string,
    /** Extra response headers, e.g. Retry-After for rate_limited. */
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = "ApiError";
  }
}

/** Connect codes raised by the framework itself (not by our code), mapped to an identifier. */
const idByCode: Partial<Record<Code, ErrorId>> = {
  [Code.InvalidArgument]: "bad_request",
  [Code.Unauthenticated]: "unauthenticated",
  [Code.PermissionDenied]: "forbidden",
  [Code.NotFound]: "not_found",
  [Code.Unimplemented]: "not_implemented",
  [Code.ResourceExhausted]: "payload_too_large",
  [Code.DeadlineExceeded]: "timeout",
  [Code.Unavailable]: "unavailable",
  [Code.Canceled]: "timeout",
};

/** Converts anything thrown into the ConnectError clients receive; never leaks internals. */
export function toConnectError(err: unknown, requestId: string): ConnectError {
  let id: ErrorId;
  let message: string;
  let headers: Record<string, string> = {};
  if (err instanceof ApiError) {
    ({ id, message, headers } = err);
  } else if (err instanceof StorageUnavailableError) {
    id = "unavailable";
    message = "storage is unavailable; retry later";
    headers = { "retry-after": String(err.retryAfterSeconds) };
  } else if (err instanceof ConnectError) {
    const detail = errorDetailOf(err);
    if (detail) return err;
    id = idByCode[err.code] ?? "internal";
    message = id === "internal" ? "internal error" : err.rawMessage;
  } else {
    id = "internal";
    message = "internal error";
  }
  return detailedError(id, message, requestId, headers);
}

/** The ConnectError of identifier `id`, with its ErrorDetail. */
export function detailedError(id: ErrorId, message: string, requestId: string, headers: Record<string, string> = {}): ConnectError {
  const kind = errorKinds[id];
  const detail = create(ErrorDetailSchema, { error: id, requestId, httpStatus: kind.http });
  return new ConnectError(message, kind.code, headers, [{ desc: ErrorDetailSchema, value: detail }]);
}

/**
 * An error Connect raised itself, outside the interceptors (decoding the body,
 * envelopes, compression, GET parameters), as the client receives it: with the
 * identifier and request id. Those errors arrive as `internal` or
 * `unimplemented` but are the client's (docs/api.md#protocol-errors); only
 * encoding our own response is ours.
 */
export function frameworkError(err: ConnectError, requestId: string): ConnectError {
  if (errorDetailOf(err)) return err;
  let id: ErrorId;
  let message = err.rawMessage;
  if (err.code === Code.Internal && /^(serialize |cannot encode)/.test(message)) {
    id = "internal";
    message = "internal error";
  } else if (err.code === Code.ResourceExhausted || err.code === Code.DeadlineExceeded || err.code === Code.Unavailable) {
    id = idByCode[err.code]!;
  } else {
    id = "bad_request";
    // Connect's wording for an exception that is not a ConnectError (a bad base64 `message`).
    if (message === "internal error") message = "the request could not be decoded";
  }
  return detailedError(id, message, requestId);
}

export function errorDetailOf(err: ConnectError) {
  return err.findDetails(ErrorDetailSchema)[0];
}

/** The REST Error object (docs/api.md#error-object). */
export function errorBody(id: string, message: string, requestId: string, http: number) {
  return { status: "error", error: id, message, code: http, request_id: requestId };
}
