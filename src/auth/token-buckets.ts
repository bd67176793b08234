// Token buckets by key, refilled continuously, in this process: the request
// rate limit and the failed-authentication limit both draw on them.
import { LRUCache } from "lru-cache";

interface Bucket {
  tokens: number;
  at: number;
}

export class TokenBuckets {
  // Bounded: an evicted (least recently used) key starts again with a full bucket.
  private readonly buckets = new LRUCache<string, Bucket>({ max: 100_000 });

  constructor(
    private readonly burst: number,
    /** Tokens added per second, up to `burst`. */
    private readonly perSecond: number,
    private readonly now: () => number,
  ) {}

  /** Tokens in the bucket of `key` now; a key never seen has a full bucket. */
  tokens(key: string): number {
    return this.refilled(key)?.tokens ?? this.burst;
  }

  /** Takes one token from the bucket of `key` (none below empty). */
  spend(key: string): void {
    let b = this.refilled(key);
    if (!b) {
      b = { tokens: this.burst, at: this.now() };
      this.buckets.set(key, b);
    }
    b.tokens = Math.max(0, b.tokens - 1);
  }

  /** Whole seconds until the bucket of `key` holds a token again, at least 1; 0 when it holds one. */
  secondsUntilToken(key: string): number {
    const tokens = this.tokens(key);
    return tokens >= 1 ? 0 : Math.max(1, Math.ceil((1 - tokens) / this.perSecond));
  }

  private refilled(key: string): Bucket | undefined {
    const b = this.buckets.get(key);
    if (!b) return undefined;
    const t = this.now();
    b.tokens = Math.min(this.burst, b.tokens + ((t - b.at) / 1000) * this.perSecond);
    b.at = t;
    return b;
  }
}
