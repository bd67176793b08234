// Failed authentications, limited per client address and per key prefix (docs/api.md#authentication):
// a token bucket each, spent only by failures. While either bucket of a request is empty the key
// is not even looked up, so a guesser learns nothing, and a client that keeps presenting a valid
// key from an address without failures is never slowed. Buckets live in this process.
import { LRUCache } from "lru-cache";

/** Characters of a presented key that name its bucket: the key kind and a few more, as stored in `prefix`. */
const PREFIX_CHARS = 8;

export class AuthFailureLimiter {
  // Bounded: an attacker cycling addresses evicts the oldest buckets, which start full again.
  private readonly buckets = new LRUCache<string, { tokens: number; at: number }>({ max: 100_000 });

  constructor(
    /** Failures allowed at once. */
    private readonly burst: number,
    /** Failures allowed per minute after the burst; 0 disables the limit. */
    private readonly perMinute: number,
    private readonly now: () => number = () => performance.now(),
  ) {}

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
    let wait = 0;
    for (const s of subjects) {
      const b = this.refilled(s);
      if (b && b.tokens < 1) wait = Math.max(wait, Math.ceil(((1 - b.tokens) * 60) / this.perMinute));
    }
    return wait;
  }

  /** Records a failed attempt against every subject. */
  failed(subjects: string[]): void {
    if (this.perMinute <= 0) return;
    for (const s of subjects) {
      let b = this.refilled(s);
      if (!b) {
        b = { tokens: this.burst, at: this.now() };
        this.buckets.set(s, b);
      }
      b.tokens = Math.max(0, b.tokens - 1);
    }
  }

  private refilled(subject: string): { tokens: number; at: number } | undefined {
    const b = this.buckets.get(subject);
    if (!b) return undefined;
    const t = this.now();
    b.tokens = Math.min(this.burst, b.tokens + ((t - b.at) / 60_000) * this.perMinute);
    b.at = t;
    return b;
  }
}
