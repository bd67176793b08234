// Per-key request rate limit (docs/decisions.md#rate-limits-and-deadlines): a token bucket per API
// key id, refilled continuously. This one keeps its buckets in this process: the whole limit on the
// embedded engine (one process per data directory), and the fallback of the limit that replicas on
// MongoDB share (shared-rate-limit.ts) while its store is unreachable.
import { TokenBuckets } from "./token-buckets.js";

/** What the authentication interceptor asks before a request goes ahead. */
export interface RequestRateLimit {
  /** 0 when the request may go ahead, otherwise the whole seconds until a token is available. */
  take(key: string): number | Promise<number>;
}

export class RateLimiter implements RequestRateLimit {
  private readonly buckets: TokenBuckets;

  constructor(
    /** Sustained requests per second per key; 0 disables the limit. */
    private readonly perSecond: number,
    burst: number,
    now: () => number = () => performance.now(),
  ) {
    this.buckets = new TokenBuckets(burst, perSecond, now);
  }

  take(key: string): number {
    if (this.perSecond <= 0) return 0;
    const wait = this.buckets.secondsUntilToken(key);
    if (wait === 0) this.buckets.spend(key);
    return wait;
  }
}
