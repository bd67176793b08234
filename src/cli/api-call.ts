// Calls to the running service, and their failures as one line a user can act on: the service's
// own message with its error identifier, HTTP status and request id; or, when no Parapet
// answered, where the address came from so the right setting gets fixed.
import { ConnectError } from "@connectrpc/connect";
import { ErrorDetailSchema } from "../../gen/parapet/v1/errors_pb.js";
import type { Credential, ServiceTarget } from "./find-service.js";

/** A failed call: exit 1, the message alone. */
export class ApiCallError extends Error {}

/** No Parapet answered at the address (nothing listening, a proxy, a wrong URL): a follower may retry. */
export class UnreachableError extends ApiCallError {}

/** How long one call may take before the command gives up on it. */
const CALL_TIMEOUT_MS = 60_000;

/** What the user controls behind some statuses: which key was sent, which setting holds a limit. */
function hintFor(status: number, credential: Credential): string {
  if (status === 401) return `; the key came from ${credential.from}`;
  if (status === 413) return "; the service's PARAPET_MAX_BODY_BYTES sets the limit";
  return "";
}

function unreachable(target: ServiceTarget, reason: string): UnreachableError {
  return new UnreachableError(
    `cannot use the API at ${target.url} (from ${target.from}): ${reason}. ` + `Is the service running there? Point --url or PARAPET_URL at it.`,
  );
}

/** The innermost cause of a failed fetch: "connect ECONNREFUSED 127.0.0.1:8080" rather than "fetch failed". */
function causeOf(err: unknown): string {
  let e: unknown = err;
  while (e instanceof Error && e.cause instanceof Error) e = e.cause;
  return e instanceof Error ? e.message : String(e);
}

export interface RestAnswer {
  body: unknown;
  /** The service's clock (the Date header), for commands that query by time. */
  date: Date | undefined;
}

/** A REST call with a JSON body; throws ApiCallError for every answer but 2xx. */
export async function restCall(target: ServiceTarget, credential: Credential, path: string, body: unknown, signal?: AbortSignal): Promise<RestAnswer> {
  let res: Response;
  try {
    res = await fetch(target.url + path, {
      method: "POST",
      headers: { authorization: `Bearer ${credential.key}`, "content-type": "application/json" },
      body: JSON.stringify(body),
      signal: signal ? AbortSignal.any([signal, AbortSignal.timeout(CALL_TIMEOUT_MS)]) : AbortSignal.timeout(CALL_TIMEOUT_MS),
    });
  } catch (err) {
    if (signal?.aborted) throw err;
    throw unreachable(target, causeOf(err));
  }
  const text = await res.text();
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw unreachable(target, `HTTP ${res.status} with a body that is not Parapet's JSON`);
  }
  const dateHeader = res.headers.get("date");
  const date = dateHeader ? new Date(dateHeader) : undefined;
  if (res.ok) return { body: parsed, date: date && !Number.isNaN(date.getTime()) ? date : undefined };
  const e = parsed as { error?: unknown; message?: unknown; request_id?: unknown };
  if (typeof e.error !== "string") throw unreachable(target, `HTTP ${res.status} with a body that is not Parapet's error`);
  throw new ApiCallError(`${String(e.message)} (${e.error}, HTTP ${res.status}, request ${String(e.request_id)})${hintFor(res.status, credential)}`);
}

/** An RPC through a generated Connect client, its errors reported as restCall reports them. */
export async function rpcCall<T>(target: ServiceTarget, credential: Credential, fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    if (!(err instanceof ConnectError)) throw err;
    const detail = err.findDetails(ErrorDetailSchema)[0];
    if (detail) {
      throw new ApiCallError(`${err.rawMessage} (${detail.error}, HTTP ${detail.httpStatus}, request ${detail.requestId})${hintFor(detail.httpStatus, credential)}`);
    }
    // No detail: the answer did not come from Parapet (nothing listening, a proxy, a wrong URL).
    throw unreachable(target, causeOf(err.cause ?? err) || err.rawMessage);
  }
}
