// REST paths that are not an RPC's own google.api.http path: a shape other
// products' clients send (Lakera Guard's v1 prompt_injection, its policy lint)
// read into an RPC request, answered in that client's shape. The call runs
// through the same decoding, interceptors (errors, auth, validation) and
// implementation as the RPC's own path (handler.ts); an adapter only
// translates (docs/lakera-compatibility.md).
import type { DescMethodUnary, JsonValue } from "@bufbuild/protobuf";
import type { ErrorId, FieldViolation } from "../../api/errors.js";

export type JsonObject = { [k: string]: JsonValue };

/** A failed call as the adapter sees it, to answer it in its client's shape. */
export interface CallFailure {
  error: string;
  message: string;
  violations: readonly FieldViolation[];
}

/** One request on an adapted path. */
export interface AdaptedCall {
  /** The RPC's request as REST JSON (snake_case names). */
  json: Record<string, unknown>;
  /** What the body got wrong that the RPC request cannot show, reported with its rule violations after authentication. */
  violations?: FieldViolation[];
  /** A violation's path in the RPC request, as the client's own body names it. */
  fieldOf: (path: string) => string;
  /** The client's answer, from the RPC's answer as REST JSON. */
  answer: (out: JsonObject) => unknown;
  /** A 200 answer standing for a failed call (a lint's findings), or null for the Error object. */
  failed: (failure: CallFailure) => unknown;
}

export type Refusal = { error: ErrorId; message: string };

export interface AdaptedRoute {
  /** The exact path, always POST. */
  path: string;
  /** The RPC it calls. */
  method: DescMethodUnary;
  /** Reads the client's parsed JSON body; a refusal answers before authentication, as malformed JSON does. */
  open: (body: unknown) => AdaptedCall | Refusal;
}

/** A path clients know from elsewhere that Parapet does not serve: one error naming what to use instead. */
export interface PointerRoute {
  path: string;
  error: ErrorId;
  message: string;
}

export function isRefusal(x: AdaptedCall | Refusal): x is Refusal {
  return "error" in x;
}
