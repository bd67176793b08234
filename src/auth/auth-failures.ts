// Failed authentications, limited per client address and per key prefix (docs/api.md#authentication):
// a token bucket each, spent only by failures. While either bucket of a request is empty the key
// is not even looked up, so a guesser learns nothing, and a client that keeps presenting a valid
// key from an address without failures is never slowed. Buckets live in this process
// (token-buckets.ts; an evicted bucket, e.g. of an attacker cycling addresses, starts full again).
import { TokenBuckets } from "./token-buckets.js";

/** Characters of a presented key that name its bucket: the key kind and a few more, as stored in `prefix`. */
const PREFIX_CHARS = 8;

export class AuthFailureLimiter {
  private readonly buckets: TokenBuckets;

  constructor(
    /** Failures allowed at once. */
    burst: number,
    /** Failures allowed per minute after the burst; 0 disables the limit. */
    private readonly perMinute: number,
    now: () => number = () => performance.now(),
  ) {
    this.buckets = new TokenBuckets(burst, perMinute / 60, now);
  }

  /** The buckets a request draws on. */
  static subjects(clientAddress: string | undefined, presentedKey: string | undefined): string[] {
    const out: string[] = [];
    if (clientAddress) out.push(`addr:${clientAddress}`);
    if (presentedKey) out.push(`prefix:${presentedKey.slice(0, PREFIX_CHARS)}`);
    return out;
  }

  /** 0 when an attempt may be made, otherwise the seconds until one may. */
  wait(subjects: string[]): number {
    if (this.perMinute <= 0) return 0;
    return Math.max(0, ...subjects.map((s) => this.buckets.secondsUntilToken(s)));
  }

  /** Records a failed attempt against every subject. */
  failed(subjects: string[]): void {
    if (this.perMinute <= 0) return;
    for (const s of subjects) this.buckets.spend(s);
  }
}
