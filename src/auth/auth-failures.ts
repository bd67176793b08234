// Failed authentications, limited per client address and per failed key (docs/api.md#authentication):
// a token bucket each, spent only by failures. The limit throttles whoever fails, never the owner
// of a valid key: a presented key is always checked, a valid one is served (only its own rate
// limit applies), and only a request whose key is missing, unknown or revoked meets these buckets.
// The failed key is its own subject, by the whole key's hash: a bucket per prefix (the 8
// characters shown in key lists) let anyone lock a real key out by failing with keys that share
// its prefix (issue 29). Buckets live in this process (token-buckets.ts; an evicted bucket, e.g.
// of an attacker cycling addresses, starts full again).
//
// Replicas on one database also count failures together (docs/decisions.md#rate-limits-and-deadlines):
// each failure is recorded in the shared buckets (shared-buckets.ts) in the background, and a
// refusal there blocks the subject in this process until the shared bucket has a token again.
// The check itself never waits for the store: a guesser spreading attempts over N replicas gets
// at most one attempt more per replica than the shared limit before each replica has seen the
// refusal. A store that errs leaves the per-process limit.
import { hash } from "node:crypto";
import { LRUCache } from "lru-cache";
import { withoutStorageDeadline, withStorageDeadline } from "../storage/deadline.js";
import type { SharedBuckets } from "./shared-buckets.js";
import { TokenBuckets } from "./token-buckets.js";

/** Hex digits of the failed key's SHA-256 that name its bucket (128 bits: no two keys meet by chance). */
const KEY_DIGEST_CHARS = 32;
/** Time the shared store gets to record one failure. */
const STORE_TIMEOUT_MS = 1_000;

export interface SharedFailures {
  store: SharedBuckets;
  /** Wall clock, epoch ms (shared with other replicas through the store). */
  now?: () => number;
  /** Recording a failure in the shared store failed (the per-process limit still applies). */
  onStoreError?: (error: unknown) => void;
}

export class AuthFailureLimiter {
  private readonly buckets: TokenBuckets;
  /** Epoch ms until which the shared bucket of a subject refused. */
  private readonly blocked = new LRUCache<string, number>({ max: 100_000 });
  private readonly burst: number;

  constructor(
    /** Failures allowed at once. */
    burst: number,
    /** Failures allowed per minute after the burst; 0 disables the limit. */
    private readonly perMinute: number,
    now: () => number = () => performance.now(),
    private readonly shared?: SharedFailures,
  ) {
    this.burst = burst;
    this.buckets = new TokenBuckets(burst, perMinute / 60, now);
  }

  /**
   * The buckets a failed request draws on: its address, and the key it presented, as a whole. Only
   * a hash of the key is kept (here and in the shared store), never the key or a part of it.
   */
  static subjects(clientAddress: string | undefined, presentedKey: string | undefined): string[] {
    const out: string[] = [];
    if (clientAddress) out.push(`addr:${clientAddress}`);
    if (presentedKey) out.push(`key:${hash("sha256", presentedKey, "hex").slice(0, KEY_DIGEST_CHARS)}`);
    return out;
  }

  /** 0 when an attempt may be made, otherwise the seconds until one may. */
  wait(subjects: string[]): number {
    if (this.perMinute <= 0) return 0;
    const local = Math.max(0, ...subjects.map((s) => this.buckets.secondsUntilToken(s)));
    if (!this.shared) return local;
    const now = this.sharedNow();
    const until = Math.max(0, ...subjects.map((s) => this.blocked.get(s) ?? 0));
    return until > now ? Math.max(local, Math.ceil((until - now) / 1000)) : local;
  }

  /** Records a failed attempt against every subject. */
  failed(subjects: string[]): void {
    if (this.perMinute <= 0) return;
    for (const s of subjects) {
      this.buckets.spend(s);
      if (this.shared) void this.record(this.shared, s);
    }
  }

  private async record(shared: SharedFailures, subject: string): Promise<void> {
    const now = this.sharedNow();
    const rate = { burst: this.burst, perSecond: this.perMinute / 60 };
    try {
      // The failed request has its answer already; its deadline does not bound the record.
      const grant = await withoutStorageDeadline(() =>
        withStorageDeadline(Date.now() + STORE_TIMEOUT_MS, () => shared.store.take(`fail:${subject}`, 1, rate, now, this.blocked.has(subject))),
      );
      if (grant.granted === 0) this.blocked.set(subject, now + grant.retryAfterMs);
    } catch (e) {
      shared.onStoreError?.(e);
    }
  }

  private sharedNow(): number {
    return (this.shared?.now ?? Date.now)();
  }
}
