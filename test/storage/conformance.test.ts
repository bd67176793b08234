// One suite, every engine (docs/storage.md#the-port): repositories rely on exactly these
// behaviours, whichever engine runs.

import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { DuplicateKeyError, type Database, type Doc } from "../../src/storage/collection.js";
import { engines } from "./engines.js";

const EVENTS = { timeseries: { timeField: "timestamp", metaField: "meta", granularity: "seconds" as const }, expireAfterSeconds: 86_400 };
// Recent, so that the events' one-day TTL never expires them mid-test (MongoDB's TTL monitor runs every 60 s).
const T0 = Math.floor((Date.now() - 3_600_000) / 60_000) * 60_000;

for (const engine of engines) {
  describe.skipIf(!engine.available)(`storage conformance: ${engine.name}`, () => {
    let db: Database;
    beforeEach(async () => {
      db = await engine.create();
    });
    afterEach(async () => {
      await engine.destroy(db);
    });

    describe("documents", () => {
      it("round-trips documents, with Dates as Dates and nested values intact", async () => {
        const c = await db.collection("things");
        const doc = { _id: "a", at: new Date(T0), nested: { list: [1, "two", { three: 3 }], none: null }, flag: true, n: 1.5 };
        await c.insertOne(doc);
        const found = await c.findOne({ _id: "a" });
        expect(found).toEqual(doc);
        expect(found!.at).toBeInstanceOf(Date);
      });

      it("hands out copies: mutating a result or the inserted object changes nothing stored", async () => {
        const c = await db.collection("things");
        const doc = { _id: "a", tags: ["x"] };
        await c.insertOne(doc);
        doc.tags.push("mutated");
        const found = (await c.findOne({ _id: "a" }))!;
        (found.tags as string[]).push("again");
        expect((await c.findOne({ _id: "a" }))!.tags).toEqual(["x"]);
      });

      it("refuses a duplicate _id with DuplicateKeyError", async () => {
        const c = await db.collection("things");
        await c.insertOne({ _id: "a" });
        await expect(c.insertOne({ _id: "a" })).rejects.toBeInstanceOf(DuplicateKeyError);
        await expect(c.insertOne({ _id: "a" })).rejects.toMatchObject({ code: 11000 });
      });

      it("insertMany keeps the documents before a duplicate (ordered)", async () => {
        const c = await db.collection("things");
        await c.insertOne({ _id: "b" });
        await expect(c.insertMany([{ _id: "a" }, { _id: "b" }, { _id: "c" }])).rejects.toBeInstanceOf(DuplicateKeyError);
        expect((await c.find({}, { sort: { _id: 1 } })).map((d) => d._id)).toEqual(["a", "b"]);
      });

      it("survives close and reopen", async () => {
        const c = await db.collection("things");
        await c.insertMany([
          { _id: "a", n: 1 },
          { _id: "b", n: 2 },
        ]);
        await c.updateOne({ _id: "a" }, { $inc: { n: 10 } });
        await c.deleteOne({ _id: "b" });
        db = await engine.reopen(db);
        const again = await db.collection("things");
        expect(await again.find({})).toEqual([{ _id: "a", n: 11 }]);
      });
    });

    describe("queries", () => {
      let c: Awaited<ReturnType<Database["collection"]>>;
      beforeEach(async () => {
        c = await db.collection("people");
        await c.createIndex({ name: "org_age", keys: { org: 1, age: 1 } });
        await c.insertMany([
          { _id: "1", org: "a", name: "ann", age: 31, tags: ["x", "y"], at: new Date(T0) },
          { _id: "2", org: "a", name: "bob", age: 25, tags: ["y"], at: new Date(T0 + 1000) },
          { _id: "3", org: "b", name: "cid", age: 40, at: new Date(T0 + 2000) },
          { _id: "4", org: "a", name: "dee", age: 52, tags: [], at: new Date(T0 + 3000) },
          { _id: "5", org: "b", name: "eve", age: 25, at: new Date(T0 + 4000) },
        ]);
      });

      const ids = (docs: Doc[]) => docs.map((d) => d._id);

      it("filters with comparison, set, element, array and regex operators", async () => {
        expect(ids(await c.find({ org: "a" }, { sort: { _id: 1 } }))).toEqual(["1", "2", "4"]);
        expect(ids(await c.find({ org: "a", age: { $gte: 30, $lt: 60 } }, { sort: { age: 1 } }))).toEqual(["1", "4"]);
        expect(ids(await c.find({ age: { $in: [25, 40] } }, { sort: { _id: 1 } }))).toEqual(["2", "3", "5"]);
        expect(ids(await c.find({ org: { $ne: "a" } }, { sort: { _id: 1 } }))).toEqual(["3", "5"]);
        expect(ids(await c.find({ tags: { $exists: false } }, { sort: { _id: 1 } }))).toEqual(["3", "5"]);
        expect(ids(await c.find({ tags: "y" }, { sort: { _id: 1 } }))).toEqual(["1", "2"]);
        expect(ids(await c.find({ name: { $regex: "^[a-c]" } }, { sort: { _id: 1 } }))).toEqual(["1", "2", "3"]);
        expect(ids(await c.find({ $or: [{ org: "b" }, { age: { $gt: 50 } }] }, { sort: { _id: 1 } }))).toEqual(["3", "4", "5"]);
        expect(ids(await c.find({ at: { $gte: new Date(T0 + 1000), $lt: new Date(T0 + 3000) } }, { sort: { at: -1 } }))).toEqual(["3", "2"]);
      });

      it("sorts on several keys, skips and limits", async () => {
        expect(ids(await c.find({}, { sort: { age: 1, _id: -1 } }))).toEqual(["5", "2", "1", "3", "4"]);
        expect(ids(await c.find({}, { sort: { age: -1 }, skip: 1, limit: 2 }))).toEqual(["3", "1"]);
        expect(ids(await c.find({ org: "a" }, { sort: { age: -1 }, limit: 1 }))).toEqual(["4"]);
        expect((await c.findOne({ org: "b" }, { sort: { age: 1 } }))!._id).toBe("5");
        expect(await c.findOne({ org: "zzz" })).toBeNull();
      });

      it("projects fields", async () => {
        expect(await c.find({ _id: "1" }, { projection: { name: 1 } })).toEqual([{ _id: "1", name: "ann" }]);
        const [without] = await c.find({ _id: "3" }, { projection: { at: 0, org: 0 } });
        expect(without).toEqual({ _id: "3", name: "cid", age: 40 });
      });

      it("counts", async () => {
        expect(await c.countDocuments({})).toBe(5);
        expect(await c.countDocuments({ org: "a" })).toBe(3);
        expect(await c.countDocuments({ org: "a", age: { $lt: 40 } })).toBe(2);
        expect(await c.countDocuments({ name: /e/ })).toBe(2);
      });

      it("aggregates", async () => {
        const byOrg = await c.aggregate<{ _id: string; n: number; total: number }>([
          { $match: { age: { $gte: 25 } } },
          { $group: { _id: "$org", n: { $sum: 1 }, total: { $sum: "$age" } } },
          { $sort: { _id: 1 } },
        ]);
        expect(byOrg).toEqual([
          { _id: "a", n: 3, total: 108 },
          { _id: "b", n: 2, total: 65 },
        ]);
        const top = await c.aggregate([{ $sort: { age: -1 } }, { $limit: 2 }, { $project: { _id: 1 } }]);
        expect(top).toEqual([{ _id: "4" }, { _id: "3" }]);
      });
    });

    describe("updates", () => {
      it("applies operators and reports matched and modified counts", async () => {
        const c = await db.collection("things");
        await c.insertOne({ _id: "a", n: 1, list: [1], at: new Date(T0) });
        expect(await c.updateOne({ _id: "a" }, { $inc: { n: 2 }, $push: { list: 2 }, $set: { "deep.x": true } })).toEqual({
          matchedCount: 1,
          modifiedCount: 1,
          upsertedId: null,
        });
        expect(await c.findOne({ _id: "a" })).toEqual({ _id: "a", n: 3, list: [1, 2], at: new Date(T0), deep: { x: true } });
        expect(await c.updateOne({ _id: "a" }, { $set: { n: 3 } })).toEqual({ matchedCount: 1, modifiedCount: 0, upsertedId: null });
        expect(await c.updateOne({ _id: "zzz" }, { $set: { n: 3 } })).toEqual({ matchedCount: 0, modifiedCount: 0, upsertedId: null });
        await c.updateOne({ _id: "a" }, { $unset: { deep: "" }, $set: { at: new Date(T0 + 5) } });
        expect(await c.findOne({ _id: "a" })).toEqual({ _id: "a", n: 3, list: [1, 2], at: new Date(T0 + 5) });
      });

      it("upserts: seeds from the filter, applies $setOnInsert only on insert, generates string ids", async () => {
        const c = await db.collection("rollups");
        const first = await c.updateOne(
          { _id: "org1:2025-01-01T00:00", org: "org1" },
          { $inc: { requests: 1 }, $setOnInsert: { created: new Date(T0) } },
          { upsert: true },
        );
        expect(first).toEqual({ matchedCount: 0, modifiedCount: 0, upsertedId: "org1:2025-01-01T00:00" });
        await c.updateOne({ _id: "org1:2025-01-01T00:00", org: "org1" }, { $inc: { requests: 1 }, $setOnInsert: { created: new Date(T0 + 99) } }, { upsert: true });
        expect(await c.findOne({ _id: "org1:2025-01-01T00:00" })).toEqual({
          _id: "org1:2025-01-01T00:00",
          org: "org1",
          requests: 2,
          created: new Date(T0),
        });
        const generated = await c.updateOne({ org: "org2" }, { $set: { name: "x" } }, { upsert: true });
        expect(typeof generated.upsertedId).toBe("string");
        expect(await c.findOne({ org: "org2" })).toEqual({ _id: generated.upsertedId, org: "org2", name: "x" });
      });

      it("updateMany", async () => {
        const c = await db.collection("things");
        await c.insertMany([
          { _id: "a", g: 1 },
          { _id: "b", g: 1 },
          { _id: "c", g: 2 },
        ]);
        expect(await c.updateMany({ g: 1 }, { $set: { seen: true } })).toEqual({ matchedCount: 2, modifiedCount: 2, upsertedId: null });
        expect(await c.countDocuments({ seen: true })).toBe(2);
      });

      it("findOneAndUpdate returns the document before or after", async () => {
        const c = await db.collection("counters");
        await c.insertOne({ _id: "seq", n: 0 });
        expect(await c.findOneAndUpdate({ _id: "seq" }, { $inc: { n: 1 } })).toEqual({ _id: "seq", n: 0 });
        expect(await c.findOneAndUpdate({ _id: "seq" }, { $inc: { n: 1 } }, { returnDocument: "after" })).toEqual({ _id: "seq", n: 2 });
        expect(await c.findOneAndUpdate({ _id: "none" }, { $inc: { n: 1 } })).toBeNull();
        expect(await c.findOneAndUpdate({ _id: "new" }, { $inc: { n: 5 } }, { upsert: true, returnDocument: "after" })).toEqual({ _id: "new", n: 5 });
      });

      it("concurrent $inc through findOneAndUpdate loses no increment", async () => {
        const c = await db.collection("counters");
        await Promise.all(Array.from({ length: 50 }, () => c.findOneAndUpdate({ _id: "seq" }, { $inc: { n: 1 } }, { upsert: true })));
        expect((await c.findOne({ _id: "seq" }))!.n).toBe(50);
      });

      it("refuses replacement documents", async () => {
        const c = await db.collection("things");
        await c.insertOne({ _id: "a", n: 1 });
        await expect(c.updateOne({ _id: "a" }, { n: 2 })).rejects.toThrow(/atomic operators/);
      });
    });

    describe("deletes", () => {
      it("deleteOne and deleteMany report counts", async () => {
        const c = await db.collection("things");
        await c.insertMany([
          { _id: "a", g: 1 },
          { _id: "b", g: 1 },
          { _id: "c", g: 2 },
        ]);
        expect(await c.deleteOne({ g: 1 })).toBe(1);
        expect(await c.deleteMany({ g: { $gte: 1 } })).toBe(2);
        expect(await c.deleteOne({ g: 1 })).toBe(0);
        expect(await c.countDocuments({})).toBe(0);
      });
    });

    describe("indexes", () => {
      it("enforces unique indexes, compound ones included", async () => {
        const c = await db.collection("policies");
        await c.createIndex({ name: "org_name_unique", keys: { org_id: 1, name: 1 }, unique: true });
        await c.insertOne({ _id: "p1", org_id: "o1", name: "default" });
        await c.insertOne({ _id: "p2", org_id: "o2", name: "default" });
        await expect(c.insertOne({ _id: "p3", org_id: "o1", name: "default" })).rejects.toBeInstanceOf(DuplicateKeyError);
        await c.insertOne({ _id: "p4", org_id: "o1", name: "other" });
        await expect(c.updateOne({ _id: "p4" }, { $set: { name: "default" } })).rejects.toBeInstanceOf(DuplicateKeyError);
        expect((await c.findOne({ _id: "p4" }))!.name).toBe("other");
        await c.updateOne({ _id: "p4" }, { $set: { name: "renamed", note: "same key, other fields" } });
        await c.updateOne({ _id: "p4" }, { $set: { note: "unchanged key" } });
      });

      it("lets exactly one of many concurrent creates with the same unique key win", async () => {
        const c = await db.collection("policies");
        await c.createIndex({ name: "org_name_unique", keys: { org_id: 1, name: 1 }, unique: true });
        const results = await Promise.allSettled(Array.from({ length: 20 }, (_, i) => c.insertOne({ _id: `p${i}`, org_id: "o1", name: "same" })));
        expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
        for (const r of results) if (r.status === "rejected") expect(r.reason).toBeInstanceOf(DuplicateKeyError);
        expect(await c.countDocuments({ org_id: "o1" })).toBe(1);
      });

      it("refuses a unique index over duplicates, and creating the same index twice is a no-op", async () => {
        const c = await db.collection("keys");
        await c.insertMany([
          { _id: "a", hash: "h" },
          { _id: "b", hash: "h" },
        ]);
        await expect(c.createIndex({ name: "hash_unique", keys: { hash: 1 }, unique: true })).rejects.toBeInstanceOf(DuplicateKeyError);
        await c.deleteOne({ _id: "b" });
        await c.createIndex({ name: "hash_unique", keys: { hash: 1 }, unique: true });
        await c.createIndex({ name: "hash_unique", keys: { hash: 1 }, unique: true });
        await expect(c.insertOne({ _id: "c", hash: "h" })).rejects.toBeInstanceOf(DuplicateKeyError);
      });

      it("opening a collection twice is idempotent", async () => {
        const a = await db.collection("things");
        await a.insertOne({ _id: "x" });
        const b = await db.collection("things");
        expect(await b.countDocuments({})).toBe(1);
      });
    });

    describe("time-series collections", () => {
      const event = (i: number, org = `org${i % 3}`) => ({
        _id: `ev-${String(i).padStart(5, "0")}`,
        timestamp: new Date(T0 + i * 1000),
        meta: { org_id: org, project_id: `proj${i % 2}` },
        flagged: i % 4 === 0,
        messages: [{ role: "user", content: `message ${i}` }],
      });

      it("stores events and answers logs-style queries sorted by time", async () => {
        const logs = await db.collection("guard_logs", EVENTS);
        await logs.createIndex({ name: "org_time", keys: { "meta.org_id": 1, timestamp: 1, _id: 1 } });
        await logs.createIndex({ name: "org_project_time", keys: { "meta.org_id": 1, "meta.project_id": 1, timestamp: 1, _id: 1 } });
        await logs.insertMany(Array.from({ length: 300 }, (_, i) => event(i)));
        const page = await logs.find(
          { "meta.org_id": "org1", timestamp: { $gte: new Date(T0 + 30_000), $lt: new Date(T0 + 200_000) } },
          { sort: { timestamp: 1, _id: 1 }, skip: 2, limit: 5 },
        );
        expect(page.map((d) => d._id)).toEqual(["ev-00037", "ev-00040", "ev-00043", "ev-00046", "ev-00049"]);
        expect(page[0].timestamp).toEqual(new Date(T0 + 37_000));
        const flaggedInProject = await logs.find(
          { "meta.org_id": "org0", "meta.project_id": "proj0", flagged: true, timestamp: { $gte: new Date(T0), $lt: new Date(T0 + 300_000) } },
          { sort: { timestamp: -1, _id: -1 }, limit: 3 },
        );
        expect(flaggedInProject.map((d) => d._id)).toEqual(["ev-00288", "ev-00276", "ev-00264"]);
        expect(await logs.countDocuments({ "meta.org_id": "org2" })).toBe(100);
        const perOrg = await logs.aggregate([{ $match: { flagged: true } }, { $group: { _id: "$meta.org_id", n: { $sum: 1 } } }, { $sort: { _id: 1 } }]);
        expect(perOrg).toEqual([
          { _id: "org0", n: 25 },
          { _id: "org1", n: 25 },
          { _id: "org2", n: 25 },
        ]);
      });

      it("is insert-only except deleteMany on the meta field", async () => {
        const logs = await db.collection("guard_logs", EVENTS);
        await logs.insertMany(Array.from({ length: 30 }, (_, i) => event(i)));
        await expect(logs.updateOne({ _id: "ev-00001" }, { $set: { flagged: true } })).rejects.toThrow(/time-series/);
        await expect(logs.deleteOne({ _id: "ev-00001" })).rejects.toThrow(/time-series/);
        await expect(logs.createIndex({ name: "u", keys: { _id: 1 }, unique: true })).rejects.toThrow(/time-series/);
        expect(await logs.deleteMany({ "meta.org_id": "org1" })).toBe(10);
        expect(await logs.countDocuments({})).toBe(20);
      });

      it("needs a date in the time field", async () => {
        const logs = await db.collection("guard_logs", EVENTS);
        await expect(logs.insertOne({ _id: "x", timestamp: "2025-01-01", meta: {} })).rejects.toThrow();
      });
    });
  });
}
