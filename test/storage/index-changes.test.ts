// createIndex migrates an index whose specification changed (docs/storage.md#collections-and-indexes),
// on every engine, and the change survives a restart (journal replay) and a snapshot.

import { describe, expect, it } from "vitest";
import { DuplicateKeyError, MAX_TIMESERIES_DOCUMENT_BYTES, type Database } from "../../src/storage/collection.js";
import { bsonDocumentBytes } from "../../src/storage/document-size.js";
import { EmbeddedDatabase } from "../../src/storage/embedded/engine.js";
import { engines } from "./engines.js";

const DAY = 86_400;

/** Reopens twice: once replaying the journal, once (embedded) from a snapshot taken first. */
async function reopenBothWays(engine: (typeof engines)[number], db: Database): Promise<Database> {
  db = await engine.reopen(db);
  if (db instanceof EmbeddedDatabase) await db.compact();
  return engine.reopen(db);
}

describe.each(engines)("index changes ($name)", (engine) => {
  it.skipIf(!engine.available)("a new TTL is applied in place and expires by it after restarts", async () => {
    let db = await engine.create();
    try {
      const rows = await db.collection("rows");
      await rows.createIndex({ name: "retention", keys: { at: 1 }, expireAfterSeconds: 30 * DAY });
      await rows.insertMany([
        { _id: "old", at: new Date(Date.now() - 10 * DAY * 1000) },
        { _id: "new", at: new Date() },
      ]);
      await rows.createIndex({ name: "retention", keys: { at: 1 }, expireAfterSeconds: 7 * DAY });
      expect(await rows.listIndexes()).toEqual([{ name: "retention", keys: { at: 1 }, expireAfterSeconds: 7 * DAY }]);
      db = await reopenBothWays(engine, db);
      const again = await db.collection("rows");
      expect(await again.listIndexes()).toEqual([{ name: "retention", keys: { at: 1 }, expireAfterSeconds: 7 * DAY }]);
      if (db instanceof EmbeddedDatabase) {
        expect(await db.sweepExpired()).toBe(1);
        expect((await again.find({})).map((d) => d._id)).toEqual(["new"]);
      }
    } finally {
      await engine.destroy(db);
    }
  });

  it.skipIf(!engine.available)("other keys, another unique, or the same keys under a new name rebuild the index; the query uses it", async () => {
    let db = await engine.create();
    try {
      const c = await db.collection("things");
      await c.insertMany([
        { _id: "a", k: 1, j: 1 },
        { _id: "b", k: 2, j: 1 },
      ]);
      await c.createIndex({ name: "by_k", keys: { k: 1 } });
      await c.createIndex({ name: "by_k", keys: { k: 1 }, unique: true });
      await expect(c.insertOne({ _id: "c", k: 1, j: 2 })).rejects.toBeInstanceOf(DuplicateKeyError);
      // Unique on a field with duplicates: refused before anything changes.
      await expect(c.createIndex({ name: "by_k", keys: { j: 1 }, unique: true })).rejects.toBeInstanceOf(DuplicateKeyError);
      expect(await c.listIndexes()).toEqual([{ name: "by_k", keys: { k: 1 }, unique: true }]);
      await c.createIndex({ name: "by_k", keys: { j: 1, k: 1 } });
      await c.createIndex({ name: "by_j_k", keys: { j: 1, k: 1 } });
      expect(await c.listIndexes()).toEqual([{ name: "by_j_k", keys: { j: 1, k: 1 } }]);
      db = await reopenBothWays(engine, db);
      const again = await db.collection("things");
      expect(await again.listIndexes()).toEqual([{ name: "by_j_k", keys: { j: 1, k: 1 } }]);
      await again.insertOne({ _id: "c", k: 1, j: 2 });
      expect((await again.find({ j: 1 }, { sort: { k: -1 } })).map((d) => d._id)).toEqual(["b", "a"]);
    } finally {
      await engine.destroy(db);
    }
  });

  it.skipIf(!engine.available)("dropIndex: a missing index counts as dropped; with keys, only an index with those keys", async () => {
    let db = await engine.create();
    try {
      const c = await db.collection("things");
      await c.createIndex({ name: "x", keys: { x: 1 } });
      await c.dropIndex("x", { y: 1 });
      expect((await c.listIndexes()).map((i) => i.name)).toEqual(["x"]);
      await c.dropIndex("x", { x: 1 });
      await c.dropIndex("x");
      await c.dropIndex("never");
      db = await engine.reopen(db);
      expect(await (await db.collection("things")).listIndexes()).toEqual([]);
    } finally {
      await engine.destroy(db);
    }
  });

  it.skipIf(!engine.available)("a time-series document over 4 MB is refused; one just under is stored", async () => {
    const db = await engine.create();
    try {
      const events = await db.collection("events", { timeseries: { timeField: "timestamp", metaField: "meta" } });
      const doc = (text: string, _id = "fits") => ({ _id, timestamp: new Date(), meta: { org_id: "o" }, text });
      const overhead = bsonDocumentBytes(doc(""));
      await events.insertOne(doc("x".repeat(MAX_TIMESERIES_DOCUMENT_BYTES - overhead)));
      await expect(events.insertOne(doc("x".repeat(MAX_TIMESERIES_DOCUMENT_BYTES - overhead + 1), "over"))).rejects.toThrow(/limit is 4000000/);
      expect(await events.countDocuments({})).toBe(1);
    } finally {
      await engine.destroy(db);
    }
  });
});
