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
  unsupported_encoding: { http: 415, code: Code.Unimplemented },
  headers_too_large: { http: 431, code: Code.ResourceExhausted },
  validation_failed: { http: 422, code: Code.InvalidArgument },
  rate_limited: { http: 429, code: Code.ResourceExhausted },
  internal: { http: 500, code: Code.Internal },
  not_implemented: { http: 501, code: Code.Unimplemented },
  unavailable: { http: 503, code: Code.Unavailable },
  timeout: { http: 504, code: Code.DeadlineExceeded },
} as const satisfies Record<string, ErrorKind>;

export type ErrorId = keyof typeof errorKinds;

/** One broken rule of a request (docs/api.md#field-paths). */
export interface FieldViolation {
  /** JSON path rooted at what the client sent, snake_case names: `messages[0].content`, `detectors[1].location`; "" for the whole request. */
  field: string;
  message: string;
  /** The rule's identifier (`string.in`), "" for a value of the wrong JSON type. */
  rule: string;
}

export class ApiError extends Error {
  constructor(
    readonly id: ErrorId,
    message: string,
    /** Extra response headers, e.g. Retry-After for rate_limited. */
    readonly headers: Record<string, string> = {},
    /** On validation_failed: every offending field, as the message lists them. */
    readonly violations: readonly FieldViolation[] = [],
  ) {
    super(message);
    this.name = "ApiError";
  }
}

/**
 * Violations one answer lists: a request of thousands of bad entries gets a
 * bounded answer that still says how many there were.
 */
const maxListedViolations = 100;
/** A path holds client strings (map keys): cut, so an answer never echoes a megabyte. */
const maxPathLength = 200;
const maxViolationMessageLength = 300;

function cut(text: string, max: number): string {
  return text.length > max ? text.slice(0, max - 1) + "…" : text;
}

/**
 * The validation_failed error naming every violation, in the message (one
 * `path: message [rule]` per violation) and as structured violations for the
 * Error object and the RPC ErrorDetail (docs/api.md#field-paths).
 */
export function validationFailed(violations: readonly FieldViolation[]): ApiError {
  const listed = violations.slice(0, maxListedViolations).map((v) => ({
    field: cut(v.field, maxPathLength),
    message: cut(v.message, maxViolationMessageLength),
    rule: v.rule,
  }));
  const lines = listed.map((v) => `${v.field || "(request)"}: ${v.message}${v.rule ? ` [${v.rule}]` : ""}`);
  const more = violations.length - listed.length;
  if (more > 0) lines.push(`and ${more} more violation${more === 1 ? "" : "s"}`);
  return new ApiError("validation_failed", "validation failed: " + lines.join("; "), {}, listed);
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
  let violations: readonly FieldViolation[] = [];
  if (err instanceof ApiError) {
    ({ id, message, headers, violations } = err);
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
  return detailedError(id, message, requestId, headers, violations);
}

/** The ConnectError of identifier `id`, with its ErrorDetail. */
export function detailedError(
  id: ErrorId,
  message: string,
  requestId: string,
  headers: Record<string, string> = {},
  violations: readonly FieldViolation[] = [],
): ConnectError {
  const kind = errorKinds[id];
  const detail = create(ErrorDetailSchema, { error: id, requestId, httpStatus: kind.http, violations: violations.map((v) => ({ ...v })) });
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

/** The REST Error object (docs/api.md#error-object); `violations` only when there are some. */
export function errorBody(id: string, message: string, requestId: string, http: number, violations: readonly FieldViolation[] = []) {
  const body = { status: "error", error: id, message, code: http, request_id: requestId };
  return violations.length > 0 ? { ...body, violations: violations.map(({ field, message, rule }) => ({ field, message, rule })) } : body;
}
