// The MongoDB engine against a real server (MONGODB_URI): retention changes on
// restart, the logs page's query plan, the conversion of an earlier time-series
// collection. Skipped, and reported as skipped, without MONGODB_URI; run with
// `npm run test:mongodb`. Timestamps are recent and retentions long so that the
// server's TTL monitor (every 60 s) never deletes a document a test still reads.

import { MongoClient, type Document } from "mongodb";
import { describe, expect, it } from "vitest";
import { ApiKeys } from "../../src/auth/api-keys-repository.js";
import { ABANDONED_AFTER_MS, bootstrapInTurn } from "../../src/auth/bootstrap.js";
import { DEFAULT_ORG_ID, Organizations } from "../../src/auth/organizations-repository.js";
import { createLogger } from "../../src/observability/logger.js";
import type { Database } from "../../src/storage/collection.js";
import { MongoDatabase } from "../../src/storage/mongodb/engine.js";
import { mongodb, uriWithDatabase } from "./engines.js";

const uri = process.env.MONGODB_URI;
const YEAR = 365 * 86_400;
const EVENTS = { timeseries: { timeField: "timestamp", metaField: "meta", granularity: "seconds" as const }, expireAfterSeconds: YEAR };

async function withDb(fn: (db: Database, raw: { client: MongoClient; name: string }) => Promise<void>): Promise<void> {
  const db = await mongodb.create();
  const name = (db as unknown as { db: { databaseName: string } }).db.databaseName;
  const client = new MongoClient(uriWithDatabase(uri!, name));
  try {
    await fn(db, { client, name });
  } finally {
    await client.close();
    await mongodb.destroy(db);
  }
}

function stages(plan: Document): string[] {
  const out: string[] = [];
  const walk = (s: Document | undefined) => {
    if (!s) return;
    out.push(String(s.stage));
    walk(s.inputStage);
    for (const c of (s.inputStages as Document[] | undefined) ?? []) walk(c);
  };
  walk(plan);
  return out;
}

describe.skipIf(!uri)("MongoDB engine on a server (MONGODB_URI)", () => {
  it("applies a new retention on restart through collMod", async () => {
    await withDb(async (db, { client, name }) => {
      const c = await db.collection("rollups");
      await c.createIndex({ name: "retention", keys: { start: 1 }, expireAfterSeconds: 30 * 86_400 });
      await c.insertOne({ _id: "a", start: new Date() });
      const again = await mongodb.reopen(db);
      const c2 = await again.collection("rollups");
      await c2.createIndex({ name: "retention", keys: { start: 1 }, expireAfterSeconds: 7 * 86_400 });
      const indexes = await client.db(name).collection("rollups").listIndexes().toArray();
      expect(indexes.find((i) => i.name === "retention")?.expireAfterSeconds).toBe(7 * 86_400);
      const logs = await again.collection("guard_logs", EVENTS);
      const logs2 = await (await mongodb.reopen(again)).collection("guard_logs", { ...EVENTS, expireAfterSeconds: YEAR * 2 });
      void logs;
      const ttl = (await client.db(name).collection("guard_logs").listIndexes().toArray()).find((i) => i.name === "ttl_timestamp");
      expect(ttl?.expireAfterSeconds).toBe(YEAR * 2);
      expect(await logs2.listIndexes()).toEqual([]);
    });
  });

  it("pages logs with an index scan in (time, _id) order and no SORT stage", async () => {
    await withDb(async (db, { client, name }) => {
      const logs = await db.collection("guard_logs", EVENTS);
      await logs.createIndex({ name: "org_time", keys: { "meta.org_id": 1, timestamp: 1, _id: 1 } });
      await logs.createIndex({ name: "org_project_time", keys: { "meta.org_id": 1, "meta.project_id": 1, timestamp: 1, _id: 1 } });
      const t0 = Date.now() - 3_600_000;
      await logs.insertMany(
        Array.from({ length: 2_000 }, (_, i) => ({
          _id: `l${String(i).padStart(5, "0")}`,
          timestamp: new Date(t0 + Math.floor(i / 3) * 1000),
          meta: { org_id: `o${i % 4}`, project_id: `p${i % 2}` },
          flagged: i % 9 === 0,
        })),
      );
      const explain = await client
        .db(name)
        .collection("guard_logs")
        .find({ "meta.org_id": "o1", timestamp: { $gte: new Date(t0), $lt: new Date(t0 + 600_000) } })
        .sort({ timestamp: 1, _id: 1 })
        .skip(100)
        .limit(101)
        .explain("queryPlanner");
      const plan = stages((explain.queryPlanner as Document).winningPlan as Document);
      expect(plan).toContain("IXSCAN");
      expect(plan).not.toContain("SORT");
      const page = await logs.find(
        { "meta.org_id": "o1", timestamp: { $gte: new Date(t0), $lt: new Date(t0 + 600_000) } },
        { sort: { timestamp: 1, _id: 1 }, skip: 10, limit: 5 },
      );
      expect(page.map((d) => d._id)).toEqual(["l00041", "l00045", "l00049", "l00053", "l00057"]);
    });
  });

  it("converts a time-series collection of an earlier version, keeping every event once", async () => {
    await withDb(async (db, { client, name }) => {
      const raw = client.db(name);
      await raw.createCollection("guard_logs", { timeseries: { timeField: "timestamp", metaField: "meta" }, expireAfterSeconds: YEAR });
      const now = Date.now();
      await raw
        .collection("guard_logs")
        .insertMany(Array.from({ length: 50 }, (_, i) => ({ _id: `e${i}`, timestamp: new Date(now - i * 1000), meta: { org_id: "o" } })) as never);
      const logs = await db.collection("guard_logs", EVENTS);
      const [info] = await raw.listCollections({ name: "guard_logs" }).toArray();
      expect(info.type).toBe("collection");
      expect(await logs.countDocuments({})).toBe(50);
      // A regular collection now: _id is unique, so a retried insert cannot store an event twice.
      await expect(raw.collection("guard_logs").insertOne({ _id: "e1" } as never)).rejects.toThrow(/E11000/);
    });
  });

  it("converts with two replicas starting at once: they take turns, and no event is lost or doubled", async () => {
    await withDb(async (_db, { client, name }) => {
      const raw = client.db(name);
      await raw.createCollection("guard_logs", { timeseries: { timeField: "timestamp", metaField: "meta" }, expireAfterSeconds: YEAR });
      const now = Date.now();
      const events = Array.from({ length: 20_000 }, (_, i) => ({ _id: `e${i}`, timestamp: new Date(now - i * 60_000), meta: { org_id: "o" } }));
      await raw.collection("guard_logs").insertMany(events as never);
      const replicas = await Promise.all([0, 1].map(() => MongoDatabase.connect(uriWithDatabase(uri!, name), { lease: { pollMs: 50 } })));
      try {
        const opened = await Promise.all(replicas.map((r) => r.collection("guard_logs", EVENTS)));
        const [info] = await raw.listCollections({ name: "guard_logs" }).toArray();
        expect(info.type).toBe("collection");
        expect(await opened[0].countDocuments({})).toBe(20_000);
        expect(await raw.listCollections({ name: "guard_logs__regular" }).toArray()).toEqual([]);
      } finally {
        await Promise.all(replicas.map((r) => r.close()));
      }
    });
  });

  it("sees its own writes reach the wire: connect wires command monitoring to the send tracker", async () => {
    await withDb(async (_db, { name }) => {
      const db = await MongoDatabase.connect(uriWithDatabase(uri!, name));
      try {
        const tracker = (db as unknown as { tracker: { started: (e: unknown) => void } }).tracker;
        const seen: unknown[] = [];
        const started = tracker.started.bind(tracker);
        tracker.started = (e) => (seen.push(e), started(e));
        const coll = await db.collection("monitored");
        await coll.insertOne({ _id: "a" });
        expect(seen.length).toBeGreaterThan(0);
      } finally {
        await db.close();
      }
    });
  });

  it("bootstraps once when two replicas find a default organization left without keys", async () => {
    await withDb(async (_db, { client, name }) => {
      // A start that died between the organization and its keys, long enough ago to be finished by the next.
      await client
        .db(name)
        .collection("organizations")
        .insertOne({ _id: DEFAULT_ORG_ID, name: "Default organization", created_at: new Date(Date.now() - 2 * ABANDONED_AFTER_MS) } as never);
      const shown: string[] = [];
      const terminal = { write: (text: string) => shown.push(text) };
      const replicas = await Promise.all([0, 1].map(() => MongoDatabase.connect(uriWithDatabase(uri!, name), { lease: { pollMs: 50 } })));
      try {
        await Promise.all(
          replicas.map(async (db) => {
            const [orgs, keys] = [await Organizations.open(db), await ApiKeys.open(db)];
            await bootstrapInTurn(db, orgs, keys, { terminal }, createLogger("silent"));
          }),
        );
        expect(shown.filter((s) => s.includes("shown once"))).toHaveLength(1);
      } finally {
        await Promise.all(replicas.map((r) => r.close()));
      }
    });
  });
});
