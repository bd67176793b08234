// Per-key request rate limit (docs/decisions.md#rate-limits-and-deadlines): a token bucket per API key id, refilled
// continuously. Buckets live in this process: with several replicas each
// enforces the limit on its own share of traffic.
import { LRUCache } from "lru-cache";

export class RateLimiter {
  // An evicted (least recently used) key starts again with a full bucket.
  private readonly buckets = new LRUCache<string, { tokens: number; at: number }>({ max: 100_000 });

  constructor(
    /** Sustained requests per second per key; 0 disables the limit. */
    private readonly perSecond: number,
    private readonly burst: number,
    private readonly now: () => number = () => performance.now(),
  ) {}

  /** 0 when the request may go ahead, otherwise the seconds until a token is available. */
  take(key: string): number {
    if (this.perSecond <= 0) return 0;
    const t = this.now();
    let b = this.buckets.get(key);
    if (!b) {
      b = { tokens: this.burst, at: t };
      this.buckets.set(key, b);
    }
    b.tokens = Math.min(this.burst, b.tokens + ((t - b.at) / 1000) * this.perSecond);
    b.at = t;
    if (b.tokens >= 1) {
      b.tokens -= 1;
      return 0;
    }
    return Math.max(1, Math.ceil((1 - b.tokens) / this.perSecond));
  }
}
