// Per-key request rate limit (docs/decisions.md#rate-limits-and-deadlines): a token bucket per API key id, refilled
// continuously. Buckets live in this process: with several replicas each
// enforces the limit on its own share of traffic.
import { TokenBuckets } from "./token-buckets.js";

export class RateLimiter {
  private readonly buckets: TokenBuckets;

  constructor(
    /** Sustained requests per second per key; 0 disables the limit. */
    private readonly perSecond: number,
    burst: number,
    now: () => number = () => performance.now(),
  ) {
    this.buckets = new TokenBuckets(burst, perSecond, now);
  }

  /** 0 when the request may go ahead, otherwise the seconds until a token is available. */
  take(key: string): number {
    if (this.perSecond <= 0) return 0;
    const wait = this.buckets.secondsUntilToken(key);
    if (wait === 0) this.buckets.spend(key);
    return wait;
  }
}
