// Limits and caches across replicas (docs/decisions.md#rate-limits-and-deadlines,
// docs/deployment.md#replicas-on-one-database). A "replica" here is what each process owns: its
// own SharedRateLimiter, AuthFailureLimiter or ApiKeys, over one database. On the embedded engine
// the replicas share one Database object (one process may hold its directory); with MONGODB_URI
// each replica has its own connection to the server (`npm run test:mongodb`), and without it
// those runs are reported as skipped. Clocks are injected where a bound in time is checked.

import { rm } from "node:fs/promises";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { ApiKeys, KEY_CACHE_TTL_MS } from "../../src/auth/api-keys-repository.js";
import { AuthFailureLimiter } from "../../src/auth/auth-failures.js";
import { RateLimiter } from "../../src/auth/rate-limit.js";
import { openRequestLimits } from "../../src/auth/request-limits.js";
import { SharedBuckets, type Grant } from "../../src/auth/shared-buckets.js";
import { SharedRateLimiter } from "../../src/auth/shared-rate-limit.js";
import type { Database } from "../../src/storage/collection.js";
import { engines, uriWithDatabase, type EngineUnderTest } from "../storage/engines.js";
import { startTestServer } from "../support/server.js";

/** The database as a second replica sees it. */
async function secondReplica(engine: EngineUnderTest, db: Database): Promise<Database> {
  if (engine.name === "embedded") return db;
  const { MongoDatabase } = await import("../../src/storage/mongodb/engine.js");
  const name = (db as unknown as { db: { databaseName: string } }).db.databaseName;
  return MongoDatabase.connect(uriWithDatabase(process.env.MONGODB_URI!, name));
}

/** A store that counts the round trips a limiter makes. */
function counted(store: SharedBuckets): { store: SharedBuckets; calls: () => number } {
  let calls = 0;
  const wrapped = { take: (...args: Parameters<SharedBuckets["take"]>) => (calls++, store.take(...args)) };
  return { store: wrapped as unknown as SharedBuckets, calls: () => calls };
}

/**
 * The tests' clock: fixed, and an hour ahead, so that on a real server the TTL monitor (every 60 s,
 * on the server's clock) never removes a bucket a test still uses.
 */
const T0 = Date.now() + 3_600_000;

/**
 * For the tests of the shared limit itself: the store's answer is waited for. On a loaded machine it
 * may take longer than the default 100 ms, and the limiter would rightly limit per process instead
 * (tested in "request limits when the shared store fails").
 */
const PATIENT = 60_000;
/** Background writes to the store: polled for this long. */
const settled = { timeout: 10_000 };

async function allowedOf(limiter: { take(key: string): number | Promise<number> }, key: string, n: number): Promise<number> {
  let allowed = 0;
  for (let i = 0; i < n; i++) if ((await limiter.take(key)) === 0) allowed++;
  return allowed;
}

for (const engine of engines) {
  describe.skipIf(!engine.available)(`limits shared by replicas: ${engine.name}`, () => {
    let db: Database;
    let other: Database;
    beforeEach(async () => {
      db = await engine.create();
      other = await secondReplica(engine, db);
    });
    afterEach(async () => {
      if (other !== db) await other.close();
      await engine.destroy(db);
    });

    describe("shared buckets", () => {
      const rate = { burst: 10, perSecond: 1 };

      it("hold burst tokens across replicas, refill at the rate, and say when the next one comes", async () => {
        const a = await SharedBuckets.open(db);
        const b = await SharedBuckets.open(other);
        const t = T0;
        const grants: Grant[] = [];
        for (let i = 0; i < 12; i++) grants.push(await (i % 2 ? a : b).take("k", 1, rate, t));
        expect(grants.filter((g) => g.granted === 1)).toHaveLength(10);
        expect(grants.slice(10)).toEqual([
          { granted: 0, retryAfterMs: 1000 },
          { granted: 0, retryAfterMs: 1000 },
        ]);
        expect(await a.take("k", 1, rate, t + 400)).toEqual({ granted: 0, retryAfterMs: 600 });
        expect(await b.take("k", 1, rate, t + 1000)).toEqual({ granted: 1, retryAfterMs: 0 });
        // Another bucket is untouched.
        expect((await a.take("other", 1, rate, t)).granted).toBe(1);
      });

      it("grant what is left of a larger ask, and never more than the burst after a long idle time", async () => {
        const a = await SharedBuckets.open(db);
        const t = T0;
        expect((await a.take("k", 7, rate, t)).granted).toBe(7);
        expect((await a.take("k", 7, rate, t)).granted).toBe(3);
        expect((await a.take("k", 1, rate, t)).granted).toBe(0);
        // A day later the bucket is full: burst tokens, not a day's worth.
        expect((await a.take("k", 1000, rate, t + 86_400_000)).granted).toBe(10);
        expect((await a.take("k", 1, rate, t + 86_400_000)).granted).toBe(0);
      });

      it("give out exactly the burst to many concurrent takers on two replicas", async () => {
        const a = await SharedBuckets.open(db);
        const b = await SharedBuckets.open(other);
        const t = T0;
        const grants = await Promise.all(Array.from({ length: 40 }, (_, i) => (i % 2 ? a : b).take("hot", 1, rate, t)));
        expect(grants.reduce((n, g) => n + g.granted, 0)).toBe(10);
      });

      it("expire idle buckets by a TTL index", async () => {
        await SharedBuckets.open(db);
        const indexes = await (await db.collection("rate_limits")).listIndexes();
        expect(indexes).toContainEqual({ name: "expiry", keys: { expires_at: 1 }, expireAfterSeconds: 0 });
      });
    });

    describe("request rate limit", () => {
      it("allows one limit across two replicas, not one per replica", async () => {
        const t = T0;
        const now = () => t;
        const a = new SharedRateLimiter(await SharedBuckets.open(db), 100, 200, { now, storeTimeoutMs: PATIENT });
        const b = new SharedRateLimiter(await SharedBuckets.open(other), 100, 200, { now, storeTimeoutMs: PATIENT });
        let allowed = 0;
        for (let i = 0; i < 300; i++) {
          if ((await a.take("key-1")) === 0) allowed++;
          if ((await b.take("key-1")) === 0) allowed++;
        }
        // Two in-process limiters would allow 400; tokens a replica leased and did not use are lost.
        expect(allowed).toBeLessThanOrEqual(200);
        expect(allowed).toBeGreaterThanOrEqual(198);
        const local = [new RateLimiter(100, 200, now), new RateLimiter(100, 200, now)];
        expect((await allowedOf(local[0], "key-1", 300)) + (await allowedOf(local[1], "key-1", 300))).toBe(400);
      });

      it("answers most requests from leased tokens, and remembers a refusal until a token is due", async () => {
        let t = T0;
        const { store, calls } = counted(await SharedBuckets.open(db));
        const limiter = new SharedRateLimiter(store, 5000, 10_000, { now: () => t, storeTimeoutMs: PATIENT });
        expect(await allowedOf(limiter, "key-1", 1000)).toBe(1000);
        // Leases of 50 tokens: about 20 round trips for 1000 requests, not 1000.
        expect(calls()).toBeLessThanOrEqual(25);
        const strict = counted(await SharedBuckets.open(db));
        const slow = new SharedRateLimiter(strict.store, 1, 2, { now: () => t, storeTimeoutMs: PATIENT });
        expect(await allowedOf(slow, "key-2", 2)).toBe(2);
        expect(await slow.take("key-2")).toBe(1);
        const before = strict.calls();
        for (let i = 0; i < 100; i++) expect(await slow.take("key-2")).toBe(1);
        expect(strict.calls()).toBe(before);
        t += 1000;
        expect(await slow.take("key-2")).toBe(0);
      });

      it("serves a burst of concurrent requests on two replicas from one bucket: the burst, then 429s", async () => {
        const now = () => T0;
        const a = new SharedRateLimiter(await SharedBuckets.open(db), 1, 20, { now, storeTimeoutMs: PATIENT });
        const b = new SharedRateLimiter(await SharedBuckets.open(other), 1, 20, { now, storeTimeoutMs: PATIENT });
        const answers = await Promise.all(Array.from({ length: 30 }, (_, i) => Promise.resolve((i % 2 ? a : b).take("cold"))));
        expect(answers.filter((w) => w === 0)).toHaveLength(20);
        for (const w of answers.filter((w) => w !== 0)) expect(w).toBeGreaterThanOrEqual(1);
      });

      it("drops leased tokens after a second: a replica never sits on the shared budget", async () => {
        let t = T0;
        const a = new SharedRateLimiter(await SharedBuckets.open(db), 1000, 10, { now: () => t, storeTimeoutMs: PATIENT });
        const b = new SharedRateLimiter(await SharedBuckets.open(other), 1000, 10, { now: () => t, storeTimeoutMs: PATIENT });
        expect(await a.take("k")).toBe(0); // a leases 10 (1% of 1000/s), uses 1
        expect(await b.take("k")).toBeGreaterThan(0); // nothing left for b
        t += 1001;
        // a's 9 unused tokens lapsed; a second refilled 10 tokens (1000/s, burst 10)
        expect(await allowedOf(b, "k", 10)).toBe(10);
      });
    });

    describe("failed authentications", () => {
      it("count across replicas: a subject exhausted on one replica is refused on the other after its next failure", async () => {
        const t = T0;
        const store = await SharedBuckets.open(db);
        const a = new AuthFailureLimiter(3, 3, () => 0, { store, now: () => t });
        const b = new AuthFailureLimiter(3, 3, () => 0, { store: await SharedBuckets.open(other), now: () => t });
        const subjects = AuthFailureLimiter.subjects("10.0.0.9", "ppk_guess1");
        for (let i = 0; i < 3; i++) a.failed(subjects);
        expect(a.wait(subjects)).toBeGreaterThan(0);
        // a records in the background: wait until both shared buckets hold its three failures (3 x 20 s).
        const buckets = await db.collection("rate_limits");
        await vi.waitFor(async () => {
          for (const s of subjects) expect((await buckets.findOne({ _id: `fail:${s}` }))?.tat).toBe(T0 + 60_000);
        }, settled);
        // b has seen none of them yet: its own buckets are full, so one more attempt goes through...
        expect(b.wait(subjects)).toBe(0);
        b.failed(subjects);
        // ...and the shared bucket's refusal blocks b too, though b's own buckets still hold 2.
        await vi.waitFor(() => expect(b.wait(subjects)).toBe(20), settled);
        const alone = new AuthFailureLimiter(3, 3, () => 0);
        alone.failed(subjects);
        expect(alone.wait(subjects)).toBe(0);
      });
    });

    describe("API key cache", () => {
      it("stops accepting a key revoked on another replica within the cache TTL, and at once on the replica that revoked it", async () => {
        let clock = 0;
        const a = await ApiKeys.open(db, { now: () => clock });
        const b = await ApiKeys.open(other, { now: () => clock });
        const { key, record } = await a.create("org-x", "screening", null);
        expect(await b.verify(key)).not.toBeNull(); // b caches it
        clock = 100;
        await a.revokeIn(record._id);
        expect(await a.verify(key)).toBeNull();
        clock = 100 + KEY_CACHE_TTL_MS - 101;
        expect(await b.verify(key)).not.toBeNull(); // within the documented staleness
        clock = KEY_CACHE_TTL_MS;
        expect(await b.verify(key)).toBeNull();
        // The contract is 5 s on every replica: the TTL leaves the rest for the lookup.
        expect(KEY_CACHE_TTL_MS).toBeLessThanOrEqual(5_000);
      });

      it("accepts a key created on another replica at once, even after it was refused there as unknown", async () => {
        const a = await ApiKeys.open(db, { now: () => 0 });
        const b = await ApiKeys.open(other, { now: () => 0 });
        const secret = `psk_${"x".repeat(43)}`;
        expect(await b.verify(secret)).toBeNull();
        await a.create("org-x", "screening", null, secret);
        expect(await b.verify(secret)).not.toBeNull();
      });
    });
  });
}

describe.skipIf(!process.env.MONGODB_URI)("two Parapet replicas on one MongoDB database (MONGODB_URI)", () => {
  it("share one rate limit per key, and a key revoked through one stops working on the other within 5 s", async () => {
    const name = `parapet_replicas_${process.pid}_${Math.random().toString(36).slice(2, 8)}`;
    const env = { MONGODB_URI: uriWithDatabase(process.env.MONGODB_URI!, name), PARAPET_RATE_LIMIT_RPS: "1", PARAPET_RATE_LIMIT_BURST: "6" };
    const one = await startTestServer(env);
    const two = await startTestServer({ ...env, PARAPET_BOOTSTRAP_PLATFORM_KEY: one.platformKey, PARAPET_BOOTSTRAP_SCREENING_KEY: one.screeningKey });
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 12; i++) statuses.push((await (i % 2 ? one : two).rest("GET", "/v1/policies")).status);
      // Per-process buckets would allow 12 (6 per replica); one shared bucket allows 6.
      expect(statuses.filter((s) => s === 200).length).toBeLessThanOrEqual(6);
      expect(statuses.filter((s) => s === 429).length).toBeGreaterThanOrEqual(6);
      const refused = await two.rest("GET", "/v1/policies");
      expect(refused.status).toBe(429);
      expect(Number(refused.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);

      const { key, record } = await one.app.repos.keys.create("org-default", "platform", "read-only");
      expect((await two.rest("GET", "/v1-beta/projects", undefined, key)).status).toBe(200);
      await one.app.repos.keys.revokeIn(record._id);
      const revokedAt = Date.now();
      // Time is read when each request starts: a request that started more than 5 s after the
      // revocation and was still let in is a stale cache, however slowly a loaded machine answers.
      let status = 200;
      let lastAccepted = revokedAt;
      while (status === 200 && Date.now() - revokedAt < 30_000) {
        await new Promise((r) => setTimeout(r, 250));
        const sent = Date.now();
        status = (await two.rest("GET", "/v1-beta/projects", undefined, key)).status;
        if (status === 200) lastAccepted = sent;
      }
      expect(status).toBe(401);
      expect(lastAccepted - revokedAt).toBeLessThan(5_000);
    } finally {
      await two.close();
      await one.close();
      await rm(one.dataDir, { recursive: true, force: true });
      await rm(two.dataDir, { recursive: true, force: true });
      const { MongoClient } = await import("mongodb");
      const client = new MongoClient(env.MONGODB_URI);
      await client.db(name).dropDatabase();
      await client.close();
    }
  });
});

describe("request limits when the shared store fails", () => {
  const failing = (take: () => Promise<Grant>) => ({ take: vi.fn(take) }) as unknown as SharedBuckets & { take: ReturnType<typeof vi.fn> };

  it("a store that never answers costs a request at most the store timeout, then the process limits on its own", async () => {
    let t = T0;
    const store = failing(() => new Promise<Grant>(() => undefined));
    const degraded = vi.fn();
    const limiter = new SharedRateLimiter(store, 1, 3, { now: () => t, storeTimeoutMs: 100, onDegraded: degraded });
    const started = Date.now();
    expect(await limiter.take("k")).toBe(0);
    expect(Date.now() - started).toBeLessThan(1_000);
    expect(degraded).toHaveBeenCalledTimes(1);
    // Per process: the same burst of 3 (one already spent), then 429, without asking the store.
    expect(await allowedOf(limiter, "k", 5)).toBe(2);
    expect(store.take).toHaveBeenCalledTimes(1);
    // Five seconds later the store is asked again.
    t += 5_001;
    await limiter.take("k");
    expect(store.take).toHaveBeenCalledTimes(2);
  });

  it("a store that errs degrades the same way, and the failed-authentication limit keeps its per-process buckets", async () => {
    const store = failing(() => Promise.reject(new Error("connection refused")));
    const limiter = new SharedRateLimiter(store, 1, 2, { now: () => 0 });
    expect(await allowedOf(limiter, "k", 3)).toBe(2);
    const errors = vi.fn();
    const failures = new AuthFailureLimiter(2, 1, () => 0, { store, onStoreError: errors });
    const subjects = AuthFailureLimiter.subjects("10.0.0.1", undefined);
    failures.failed(subjects);
    failures.failed(subjects);
    expect(failures.wait(subjects)).toBe(60);
    await vi.waitFor(() => expect(errors).toHaveBeenCalledTimes(2), settled);
  });

  it("the embedded engine keeps the in-process limits, MongoDB gets the shared ones", async () => {
    const embedded = engines.find((e) => e.name === "embedded")!;
    const db = await embedded.create();
    try {
      const settings = { rateLimitPerSecond: 10, rateLimitBurst: 10, authFailureBurst: 5, authFailuresPerMinute: 10 };
      const log = { warn: vi.fn() };
      expect((await openRequestLimits(db, settings, log)).requests).toBeInstanceOf(RateLimiter);
      expect(await (await db.collection("rate_limits")).listIndexes()).toEqual([]);
      expect((await openRequestLimits(db, settings, log, true)).requests).toBeInstanceOf(SharedRateLimiter);
    } finally {
      await embedded.destroy(db);
    }
  });
});
