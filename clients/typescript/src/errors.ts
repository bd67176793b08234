// The one error type every call of this package throws: Parapet's Error object
// (identifier, message, HTTP status, request id) whatever the protocol, so a
// caller handles a refused key or an invalid request the same way over REST,
// Connect or gRPC.
import { Code, ConnectError } from "@connectrpc/connect";
import { ErrorDetailSchema } from "./protocol.js";

/**
 * The identifiers Parapet answers (docs/api.md#error-identifiers). A newer
 * server may send one this list does not know yet, hence the open string.
 */
export const errorIds = [
  "malformed_json",
  "bad_request",
  "duplicate_name",
  "unauthenticated",
  "forbidden",
  "feature_disabled",
  "policy_limit_reached",
  "query_too_large",
  "not_found",
  "route_not_found",
  "method_not_allowed",
  "request_timeout",
  "conflict",
  "policy_in_use",
  "endpoint_retired",
  "payload_too_large",
  "unsupported_encoding",
  "headers_too_large",
  "validation_failed",
  "rate_limited",
  "internal",
  "not_implemented",
  "unavailable",
  "timeout",
] as const;

export type ErrorId = (typeof errorIds)[number];

/** The REST Error object, as `ParapetError.toJSON()` writes it. */
export interface ErrorObject {
  status: "error";
  error: string;
  message: string;
  code: number;
  request_id: string | null;
}

/**
 * Errors that did not come from Parapet (no ErrorDetail: the connection
 * failed, a proxy answered, the deadline passed in the client) get the
 * identifier and status Parapet itself uses for that RPC code.
 */
const byCode: Partial<Record<Code, { error: ErrorId; httpStatus: number }>> = {
  [Code.Canceled]: { error: "timeout", httpStatus: 504 },
  [Code.InvalidArgument]: { error: "bad_request", httpStatus: 400 },
  [Code.DeadlineExceeded]: { error: "timeout", httpStatus: 504 },
  [Code.NotFound]: { error: "not_found", httpStatus: 404 },
  [Code.AlreadyExists]: { error: "duplicate_name", httpStatus: 400 },
  [Code.PermissionDenied]: { error: "forbidden", httpStatus: 403 },
  [Code.ResourceExhausted]: { error: "payload_too_large", httpStatus: 413 },
  [Code.FailedPrecondition]: { error: "conflict", httpStatus: 409 },
  [Code.Unimplemented]: { error: "not_implemented", httpStatus: 501 },
  [Code.Unavailable]: { error: "unavailable", httpStatus: 503 },
  [Code.Unauthenticated]: { error: "unauthenticated", httpStatus: 401 },
};

export class ParapetError extends Error {
  override readonly name = "ParapetError";
  /** Stable machine-readable identifier, e.g. `validation_failed`. */
  readonly error: ErrorId | (string & {});
  /** The HTTP status the REST interface answers for this error (the Error object's `code`). */
  readonly httpStatus: number;
  /** The request's id (the `X-Request-Id` header); undefined when the request never reached Parapet. */
  readonly requestId: string | undefined;
  /** The gRPC / Connect status code. */
  readonly rpcCode: Code;
  /** Seconds to wait before retrying (`Retry-After`), on `rate_limited` and `unavailable`. */
  readonly retryAfterSeconds: number | undefined;

  constructor(
    init: { error: string; message: string; httpStatus: number; requestId?: string; rpcCode: Code; retryAfterSeconds?: number },
    options?: { cause?: unknown },
  ) {
    super(init.message, options);
    this.error = init.error;
    this.httpStatus = init.httpStatus;
    this.requestId = init.requestId;
    this.rpcCode = init.rpcCode;
    this.retryAfterSeconds = init.retryAfterSeconds;
  }

  toJSON(): ErrorObject {
    return { status: "error", error: this.error, message: this.message, code: this.httpStatus, request_id: this.requestId ?? null };
  }
}

/** Anything a transport threw, as a ParapetError (the original is its `cause`). */
export function toParapetError(err: unknown): ParapetError {
  if (err instanceof ParapetError) return err;
  const connectError = ConnectError.from(err);
  const retryAfter = Number(connectError.metadata.get("retry-after") ?? Number.NaN);
  const retryAfterSeconds = Number.isFinite(retryAfter) ? retryAfter : undefined;
  const detail = connectError.findDetails(ErrorDetailSchema)[0];
  if (detail) {
    return new ParapetError(
      {
        error: detail.error,
        message: connectError.rawMessage,
        httpStatus: detail.httpStatus,
        requestId: detail.requestId || undefined,
        rpcCode: connectError.code,
        retryAfterSeconds,
      },
      { cause: connectError },
    );
  }
  const requestId = connectError.metadata.get("x-request-id") ?? undefined;
  const known = !requestId && isConnectionFailure(connectError) ? unavailable : (byCode[connectError.code] ?? { error: "internal", httpStatus: 500 });
  return new ParapetError(
    {
      ...known,
      message: connectError.rawMessage,
      requestId,
      rpcCode: connectError.code,
      retryAfterSeconds,
    },
    { cause: connectError },
  );
}

const unavailable = { error: "unavailable", httpStatus: 503 } as const;

/**
 * Node's transports report a refused certificate or a reset connection as
 * `internal` or `aborted`; the cause, a Node system error (`code` such as
 * ECONNRESET or DEPTH_ZERO_SELF_SIGNED_CERT), shows the service was never
 * reached, which is not an internal error of Parapet.
 */
function isConnectionFailure(err: ConnectError): boolean {
  const cause: unknown = err.cause;
  return cause instanceof Error && typeof (cause as { code?: unknown }).code === "string";
}

/** A request refused before it was sent: the same identifier Parapet answers for it, no request id. */
export function invalidRequest(message: string): ParapetError {
  return new ParapetError({ error: "validation_failed", message, httpStatus: 422, rpcCode: Code.InvalidArgument });
}
