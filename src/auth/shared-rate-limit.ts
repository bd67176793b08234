// The per-key request rate limit shared by every replica on one database
// (docs/decisions.md#rate-limits-and-deadlines): the limit is one bucket per key in the store
// (shared-buckets.ts), and each replica takes tokens from it in small leases, so that most
// requests spend a token this process already holds and do not wait for the store:
//
// - a lease is 1% of a second's rate (1 to 100 tokens), more when more requests are waiting, and
//   lapses after LEASE_MS: a replica never holds the shared budget for longer than that;
// - a key busy enough to use a lease in under half its life gets the next one fetched ahead of
//   need (limits from 150/s); a quieter key fetches when a request finds none (a round trip,
//   usually about 1 ms), so prefetched tokens never go unused on keys that send a request now and
//   then, nor on small limits;
// - a refusal is remembered until the bucket has a token again: over-limit traffic costs the store
//   nothing until then;
// - the store is given STORE_TIMEOUT_MS. When it errs or is slower, this process limits on its
//   own buckets (rate-limit.ts: the same rate and burst, per process) for DEGRADED_MS, then tries
//   the store again: a slow or unreachable MongoDB degrades the limit to per-replica, it never
//   holds requests. Failing closed would turn a storage hiccup into 429s for every client.

import { LRUCache } from "lru-cache";
import { withoutStorageDeadline, withStorageDeadline } from "../storage/deadline.js";
import { RateLimiter, type RequestRateLimit } from "./rate-limit.js";
import type { SharedBuckets } from "./shared-buckets.js";

/** How long leased tokens stay usable. */
const LEASE_MS = 1_000;
/** How long a request may wait for the store before this process limits on its own. */
const STORE_TIMEOUT_MS = 100;
/** How long this process limits on its own after the store failed, before asking it again. */
const DEGRADED_MS = 5_000;
/** Rounds of waiting for a lease before a request gives up on its share (other waiters took it). */
const MAX_ROUNDS = 3;

interface Lease {
  tokens: number;
  /** Epoch ms when the leased tokens lapse. */
  lapses: number;
  grantedAt: number;
  /** Epoch ms before which the shared bucket has no token. */
  blockedUntil: number;
  /** Requests waiting for the lease being fetched. */
  waiting: number;
  pending?: Promise<void>;
}

export interface SharedRateLimitOptions {
  /** Wall clock, epoch ms (shared with other replicas through the store). */
  now?: () => number;
  storeTimeoutMs?: number;
  /** The store failed or was slow; this process limits on its own for a while. */
  onDegraded?: (error: unknown) => void;
}

export class SharedRateLimiter implements RequestRateLimit {
  private readonly leases = new LRUCache<string, Lease>({ max: 100_000 });
  private readonly local: RateLimiter;
  private readonly now: () => number;
  private readonly storeTimeoutMs: number;
  private readonly leaseSize: number;
  private degradedUntil = 0;

  constructor(
    private readonly store: SharedBuckets,
    /** Sustained requests per second per key; 0 disables the limit. */
    private readonly perSecond: number,
    private readonly burst: number,
    private readonly options: SharedRateLimitOptions = {},
  ) {
    this.now = options.now ?? Date.now;
    this.storeTimeoutMs = options.storeTimeoutMs ?? STORE_TIMEOUT_MS;
    this.leaseSize = Math.max(1, Math.min(100, Math.round(perSecond / 100), burst));
    this.local = new RateLimiter(perSecond, burst, this.now);
  }

  /** 0 when the request may go ahead, otherwise the seconds until a token is available. */
  take(key: string): number | Promise<number> {
    if (this.perSecond <= 0) return 0;
    const now = this.now();
    if (now < this.degradedUntil) return this.local.take(key);
    let lease = this.leases.get(key);
    if (!lease) {
      lease = { tokens: 0, lapses: 0, grantedAt: 0, blockedUntil: 0, waiting: 0 };
      this.leases.set(key, lease);
    }
    return this.spend(key, lease, now) ?? this.wait(key, lease);
  }

  /** The answer from what this process holds, or undefined when the store must be asked. */
  private spend(key: string, lease: Lease, now: number): number | undefined {
    if (lease.tokens >= 1 && lease.lapses > now) {
      lease.tokens--;
      // Below 150/s (leases of one token) nothing is fetched ahead: a token fetched ahead at the end
      // of a burst is lost, which a small limit would feel.
      const busy = this.leaseSize > 1 && now - lease.grantedAt < LEASE_MS / 2;
      if (busy && lease.tokens <= this.leaseSize / 2 && !lease.pending) void this.fetch(key, lease);
      return 0;
    }
    if (lease.blockedUntil > now) return Math.max(1, Math.ceil((lease.blockedUntil - now) / 1000));
    return undefined;
  }

  private async wait(key: string, lease: Lease): Promise<number> {
    lease.waiting++;
    try {
      for (let round = 0; round < MAX_ROUNDS; round++) {
        await (lease.pending ?? this.fetch(key, lease));
        const now = this.now();
        if (now < this.degradedUntil) return this.local.take(key);
        const answer = this.spend(key, lease, now);
        if (answer !== undefined) return answer;
      }
      return 1;
    } finally {
      lease.waiting--;
    }
  }

  /** Asks the store for a lease; resolves when the lease is updated, never rejects, within the store timeout. */
  private fetch(key: string, lease: Lease): Promise<void> {
    const now = this.now();
    const want = Math.min(this.burst, Math.max(this.leaseSize, lease.waiting));
    const rate = { burst: this.burst, perSecond: this.perSecond };
    // Not under the deadline of the request that happened to start the fetch: its lease serves
    // others too. Requests stop waiting after storeTimeoutMs; an answer up to twice that still
    // lands in the lease instead of being lost with the tokens it took.
    const asked = withoutStorageDeadline(() =>
      withStorageDeadline(Date.now() + 2 * this.storeTimeoutMs, () => this.store.take(`req:${key}`, want, rate, now, lease.lapses > now || lease.blockedUntil > 0)),
    );
    const applied = asked.then(
      (grant) => {
        if (grant.granted > 0) {
          // Unused tokens of a lapsed lease are gone: they were counted in the shared bucket when taken.
          lease.tokens = (lease.lapses > this.now() ? lease.tokens : 0) + grant.granted;
          lease.lapses = now + LEASE_MS;
          lease.grantedAt = now;
          lease.blockedUntil = 0;
        } else {
          lease.blockedUntil = now + grant.retryAfterMs;
        }
      },
      (e: unknown) => this.degrade(e),
    );
    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<void>((resolve) => {
      timer = setTimeout(() => {
        this.degrade(new Error(`the rate limit store did not answer within ${this.storeTimeoutMs} ms`));
        resolve();
      }, this.storeTimeoutMs);
    });
    const done = Promise.race([applied, timedOut]).finally(() => {
      clearTimeout(timer);
      if (lease.pending === done) lease.pending = undefined;
    });
    lease.pending = done;
    return done;
  }

  private degrade(error: unknown): void {
    const now = this.now();
    if (now < this.degradedUntil) return;
    this.degradedUntil = now + DEGRADED_MS;
    this.options.onDegraded?.(error);
  }
}
