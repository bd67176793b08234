// MongoDB start-up work without a server (docs/storage.md#mongodb-start-up-work): its own budget,
// the time-series conversion window by window with progress and resumption, the start-up lease,
// and the re-check before a drop. The fakes stand in for the driver's Db and Collection and fail
// with the driver's own error classes; test/storage/mongodb-server.test.ts runs the conversion on
// a real server.

import fs from "node:fs";
import { MongoServerError, type Collection as DriverCollection, type Db, type Document } from "mongodb";
import { describe, expect, it } from "vitest";
import type { Database, Doc } from "../../src/storage/collection.js";
import { isStartupWork, withStartupWork } from "../../src/storage/deadline.js";
import { EmbeddedDatabase } from "../../src/storage/embedded/engine.js";
import { MongoCollection } from "../../src/storage/mongodb/collection.js";
import { convertTimeseries, stagingName } from "../../src/storage/mongodb/convert-timeseries.js";
import { CommandTracker } from "../../src/storage/mongodb/engine.js";
import { StartupLease } from "../../src/storage/mongodb/lease.js";
import { withRetry, type RetryPolicy } from "../../src/storage/mongodb/retry.js";
import { migrateSchema, type Migration } from "../../src/storage/schema.js";
import { tempDir } from "./engines.js";

const HOUR = 3_600_000;
const SHORT: RetryPolicy = { attempts: 3, baseDelayMs: 1, maxDelayMs: 2, budgetMs: 200, startupBudgetMs: 60_000 };
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface FakeCollection {
  type: "timeseries" | "collection";
  docs: Document[];
}

/** The parts of the driver's Db the conversion uses, over in-memory collections. */
class FakeDb {
  readonly colls = new Map<string, FakeCollection>();
  readonly merges: { from: string; match?: Document }[] = [];
  readonly dropped: string[] = [];
  /** Called before each windowed $merge; may throw or change the collections. */
  beforeMerge: (n: number) => Promise<void> = async () => undefined;
  /** Time one $merge takes per document copied. */
  msPerDoc = 0;

  listCollections(filter: { name: string }) {
    const c = this.colls.get(filter.name);
    return { toArray: async () => (c ? [{ name: filter.name, type: c.type }] : []) };
  }

  async dropCollection(name: string) {
    if (!this.colls.delete(name)) throw new MongoServerError({ message: "ns not found", code: 26 });
    this.dropped.push(name);
    return true;
  }

  async renameCollection(from: string, to: string) {
    if (this.colls.has(to)) throw new MongoServerError({ message: "target namespace exists", code: 48 });
    const c = this.colls.get(from);
    if (!c) throw new MongoServerError({ message: "source namespace does not exist", code: 26 });
    this.colls.delete(from);
    this.colls.set(to, c);
  }

  collection(name: string) {
    const get = () => this.colls.get(name) ?? { type: "collection" as const, docs: [] };
    const ensure = () => {
      if (!this.colls.has(name)) this.colls.set(name, { type: "collection", docs: [] });
      return this.colls.get(name)!;
    };
    return {
      aggregate: (pipeline: Document[]) => ({
        toArray: async () => {
          const merge = pipeline.find((s) => s.$merge) as { $merge: { into: string } } | undefined;
          if (!merge) {
            const dir = Number(Object.values(pipeline[0].$sort as Document)[0]);
            const sorted = [...get().docs].sort((a, b) => dir * ((a.timestamp as Date).getTime() - (b.timestamp as Date).getTime()));
            return sorted.slice(0, 1).map((d) => ({ _id: d._id, t: d.timestamp }));
          }
          const match = pipeline.find((s) => s.$match)?.$match as { timestamp: { $gte: Date; $lt?: Date } } | undefined;
          await this.beforeMerge(this.merges.length);
          this.merges.push({ from: name, match });
          const picked = get().docs.filter((d) => !match || (d.timestamp >= match.timestamp.$gte && (!match.timestamp.$lt || d.timestamp < match.timestamp.$lt)));
          await sleep(picked.length * this.msPerDoc);
          const target = this.colls.get(merge.$merge.into) ?? { type: "collection" as const, docs: [] };
          this.colls.set(merge.$merge.into, target);
          for (const d of picked) if (!target.docs.some((t) => t._id === d._id)) target.docs.push(structuredClone(d));
          return [];
        },
      }),
      findOne: async (filter: { _id: string }) => ensure().docs.find((d) => d._id === filter._id) ?? null,
      updateOne: async (filter: { _id: string }, update: { $set: Document }) => {
        const c = ensure();
        const doc = c.docs.find((d) => d._id === filter._id);
        if (doc) Object.assign(doc, update.$set);
        else c.docs.push({ _id: filter._id, ...update.$set });
      },
      deleteOne: async (filter: { _id: string }) => {
        const c = ensure();
        c.docs = c.docs.filter((d) => d._id !== filter._id);
      },
    };
  }
}

/** `n` events an hour apart, from a fixed time. */
function oldLogs(n: number): Document[] {
  const t0 = Date.UTC(2025, 0, 1);
  return Array.from({ length: n }, (_, i) => ({ _id: `log-${String(i).padStart(3, "0")}`, timestamp: new Date(t0 + i * HOUR + 1_000), meta: { org_id: "o" } }));
}

function converting(db: FakeDb, logs: string[], held = () => true) {
  return convertTimeseries(db as unknown as Db, "guard_logs", {
    timeField: "timestamp",
    run: (op) => withStartupWork(() => withRetry(op, { idempotent: true, policy: SHORT })),
    held,
    log: (m) => logs.push(m),
    windowMs: 10 * HOUR,
  });
}

describe("MongoDB start-up work", () => {
  it("gives a start-up step its own budget instead of the per-call retry budget", async () => {
    // One attempt that takes longer than the 200 ms a request's call may take.
    const slow = () => sleep(400).then(() => "done");
    await expect(withRetry(slow, { idempotent: true, policy: SHORT })).rejects.toThrow(/200 ms budget/);
    await expect(withStartupWork(() => withRetry(slow, { idempotent: true, policy: SHORT }))).resolves.toBe("done");
  });

  it("builds an index on existing data past the per-call budget", async () => {
    const driver = {
      collectionName: "guard_logs",
      createIndex: async (_keys: unknown, options: { name: string }) => (await sleep(400), options.name),
    };
    const coll = new MongoCollection<Doc>(driver as unknown as DriverCollection<Doc>, { tracker: new CommandTracker(), retry: SHORT, command: async () => ({}) });
    await expect(coll.createIndex({ name: "org_time", keys: { org_id: 1, timestamp: 1 } })).resolves.toBeUndefined();
  });

  it("converts a time-series collection window by window, past the per-call budget, with progress in the log", async () => {
    const db = new FakeDb();
    const logs: string[] = [];
    db.colls.set("guard_logs", { type: "timeseries", docs: oldLogs(100) });
    // 100 events at 5 ms each: 500 ms in one $merge, more than the 200 ms budget of a call.
    db.msPerDoc = 5;
    expect(await converting(db, logs)).toBe(true);
    expect(db.colls.get("guard_logs")).toMatchObject({ type: "collection" });
    expect(
      db.colls
        .get("guard_logs")!
        .docs.map((d) => d._id)
        .sort(),
    ).toEqual(oldLogs(100).map((d) => d._id));
    expect(db.colls.has(stagingName("guard_logs"))).toBe(false);
    expect(db.merges.length).toBeGreaterThanOrEqual(10);
    expect(logs.some((m) => /converting guard_logs: \d+%/.test(m))).toBe(true);
    expect(logs.at(-1)).toMatch(/converted time-series collection guard_logs/);
  });

  it("resumes a conversion stopped half-way at the last recorded window", async () => {
    const db = new FakeDb();
    db.colls.set("guard_logs", { type: "timeseries", docs: oldLogs(100) });
    db.beforeMerge = async (n) => {
      if (n === 4) throw new Error("killed"); // not transient: the process stops here
    };
    await expect(converting(db, [])).rejects.toThrow("killed");
    expect(db.colls.get("guard_logs")?.type).toBe("timeseries");
    const before = db.merges.length;
    db.beforeMerge = async () => undefined;
    const logs: string[] = [];
    await converting(db, logs);
    expect(logs[0]).toMatch(/resuming at 2025-01-02T16:00:01/);
    // The windows recorded as copied are not copied again.
    const again = db.merges.slice(before);
    expect(again[0].match?.timestamp.$gte).toEqual(new Date(Date.UTC(2025, 0, 1) + 40 * HOUR + 1_000));
    expect(db.colls.get("guard_logs")!.docs).toHaveLength(100);
  });

  it("finishes a conversion stopped between the drop and the rename instead of starting empty", async () => {
    const db = new FakeDb();
    db.colls.set(stagingName("guard_logs"), { type: "collection", docs: oldLogs(5) });
    expect(await converting(db, [])).toBe(true);
    expect(db.colls.get("guard_logs")!.docs).toHaveLength(5);
  });

  it("never drops a collection that another replica already converted", async () => {
    const db = new FakeDb();
    db.colls.set("guard_logs", { type: "timeseries", docs: oldLogs(30) });
    db.beforeMerge = async (n) => {
      // Meanwhile, another replica finished: guard_logs is now the regular, converted collection.
      if (n === 1) db.colls.set("guard_logs", { type: "collection", docs: oldLogs(30) });
    };
    await expect(converting(db, [])).rejects.toThrow(/changed type/);
    expect(db.dropped).toEqual([]);
    expect(db.colls.get("guard_logs")!.docs).toHaveLength(30);
  });

  it("drops nothing once the start-up lease is lost", async () => {
    const db = new FakeDb();
    db.colls.set("guard_logs", { type: "timeseries", docs: oldLogs(3) });
    await expect(converting(db, [], () => false)).rejects.toThrow(/lost the start-up lease/);
    expect(db.dropped).toEqual([]);
  });
});

describe("schema migrations at start-up", () => {
  it("run in turn (the engine's start-up lease) and as start-up work, with its own budget", async () => {
    const dir = tempDir("parapet-migrate-");
    const embedded = await EmbeddedDatabase.open({ dataDir: dir, ttlSweepIntervalMs: 0 });
    try {
      const turns: string[] = [];
      const db: Database = {
        engine: "mongodb",
        collection: (name, options) => embedded.collection(name, options),
        ping: () => embedded.ping(),
        close: () => embedded.close(),
        startupMigration: async (what, fn) => {
          turns.push(what);
          return fn();
        },
      };
      let asStartupWork = false;
      const migration: Migration = { version: 1, name: "test", up: async () => void (asStartupWork = isStartupWork()) };
      await migrateSchema(db, [migration], { info: () => undefined });
      expect(turns).toEqual(["schema migrations"]);
      expect(asStartupWork).toBe(true);
    } finally {
      await embedded.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

/** The lease document's collection, as the driver answers: an upsert that meets a held lease is a duplicate key. */
function leaseCollection() {
  const docs = new Map<string, { owner: string; expires_at: Date }>();
  const matches = (filter: Document, doc: { owner: string; expires_at: Date } | undefined) => {
    if (!doc) return false;
    if (filter.owner !== undefined) return doc.owner === filter.owner;
    return (filter.$or as Document[]).some((c) => (c.owner !== undefined ? doc.owner === c.owner : doc.expires_at < (c.expires_at as { $lt: Date }).$lt));
  };
  return {
    docs,
    coll: {
      updateOne: async (filter: Document, update: { $set: { owner?: string; expires_at: Date } }, options: { upsert?: boolean } = {}) => {
        const doc = docs.get(filter._id as string);
        if (matches(filter, doc)) {
          Object.assign(doc!, update.$set);
          return { matchedCount: 1 };
        }
        if (!options.upsert) return { matchedCount: 0 };
        if (doc) throw new MongoServerError({ message: "E11000 duplicate key error", code: 11000 });
        docs.set(filter._id as string, { owner: update.$set.owner!, expires_at: update.$set.expires_at });
        return { matchedCount: 0, upsertedCount: 1 };
      },
      deleteOne: async (filter: Document) => {
        if (matches(filter, docs.get(filter._id as string))) docs.delete(filter._id as string);
      },
    },
  };
}

describe("MongoDB start-up lease", () => {
  it("lets one replica at a time run start-up migrations", async () => {
    const { coll } = leaseCollection();
    const order: string[] = [];
    const replica = (name: string) =>
      new StartupLease(coll as unknown as ConstructorParameters<typeof StartupLease>[0], "startup", { pollMs: 10 }).run(async () => {
        order.push(`${name} in`);
        await sleep(50);
        order.push(`${name} out`);
      });
    await Promise.all([replica("a"), replica("b")]);
    expect(order).toEqual(["a in", "a out", "b in", "b out"]);
  });

  it("serializes one process's calls too, and runs a nested call under the lease it holds", async () => {
    const { coll, docs } = leaseCollection();
    const lease = new StartupLease(coll as unknown as ConstructorParameters<typeof StartupLease>[0], "startup", { pollMs: 10 });
    const order: string[] = [];
    const step = (name: string) =>
      lease.run(async () => {
        order.push(`${name} in`);
        // A migration opening a collection that needs converting: the same lease, already held.
        await lease.run(async () => void order.push(`${name} nested`));
        await sleep(20);
        order.push(`${name} out`);
      });
    await Promise.all([step("a"), step("b")]);
    expect(order).toEqual(["a in", "a nested", "a out", "b in", "b nested", "b out"]);
    expect(docs.size).toBe(0);
  });

  it("takes over a lease whose holder died, once it expired", async () => {
    const { coll, docs } = leaseCollection();
    docs.set("startup", { owner: "dead replica", expires_at: new Date(Date.now() + 100) });
    const waits: string[] = [];
    const started = Date.now();
    await new StartupLease(coll as unknown as ConstructorParameters<typeof StartupLease>[0], "startup", { pollMs: 10, log: (m) => waits.push(m) }).run(
      async () => undefined,
    );
    expect(Date.now() - started).toBeGreaterThanOrEqual(90);
    expect(waits).toEqual([expect.stringMatching(/waiting for another replica/)]);
    expect(docs.size).toBe(0);
  });

  it("tells its holder when a renewal finds the lease taken over", async () => {
    const { coll, docs } = leaseCollection();
    let held = true;
    await new StartupLease(coll as unknown as ConstructorParameters<typeof StartupLease>[0], "startup", { ttlMs: 60 }).run(async (lease) => {
      docs.set("startup", { owner: "another replica", expires_at: new Date(Date.now() + 60_000) });
      await sleep(80);
      held = lease.held();
    });
    expect(held).toBe(false);
    // The other owner's lease is left alone.
    expect(docs.get("startup")?.owner).toBe("another replica");
  });
});
