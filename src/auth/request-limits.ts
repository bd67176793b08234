// The request rate limit and the failed-authentication limit, per engine
// (docs/decisions.md#rate-limits-and-deadlines). On the embedded engine one process owns the data
// directory, so buckets in that process are the whole truth. On MongoDB several replicas serve
// one database, and buckets in each would let N replicas allow N times the limit: the buckets are
// shared through the database's `rate_limits` collection instead.
import type { Database } from "../storage/collection.js";
import { AuthFailureLimiter } from "./auth-failures.js";
import { RateLimiter, type RequestRateLimit } from "./rate-limit.js";
import { SharedBuckets } from "./shared-buckets.js";
import { SharedRateLimiter } from "./shared-rate-limit.js";

export interface LimitSettings {
  rateLimitPerSecond: number;
  rateLimitBurst: number;
  authFailureBurst: number;
  authFailuresPerMinute: number;
}

export interface RequestLimits {
  requests: RequestRateLimit;
  failures: AuthFailureLimiter;
}

/** Where the limits report a store they cannot use (pino's signature). */
export interface LimitLog {
  warn(details: Record<string, unknown>, message: string): void;
}

export async function openRequestLimits(db: Database, settings: LimitSettings, log: LimitLog, shared = db.engine === "mongodb"): Promise<RequestLimits> {
  if (!shared) {
    return {
      requests: new RateLimiter(settings.rateLimitPerSecond, settings.rateLimitBurst),
      failures: new AuthFailureLimiter(settings.authFailureBurst, settings.authFailuresPerMinute),
    };
  }
  const store = await SharedBuckets.open(db);
  return {
    requests: new SharedRateLimiter(store, settings.rateLimitPerSecond, settings.rateLimitBurst, {
      onDegraded: (err) => log.warn({ err: String(err) }, "the shared rate limit store failed or was slow: limiting requests per process for 5 s, then trying it again"),
    }),
    failures: new AuthFailureLimiter(settings.authFailureBurst, settings.authFailuresPerMinute, undefined, {
      store,
      onStoreError: (err) => log.warn({ err: String(err) }, "recording a failed authentication in the shared store failed; the per-process limit applies"),
    }),
  };
}
