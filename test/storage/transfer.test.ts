// Export of an embedded data directory and import into another database (the
// path to MongoDB, docs/storage.md). The target here is a second embedded
// database; with MONGODB_URI set, copyEmbeddedToMongo runs against MongoDB too.

import fs from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { EmbeddedDatabase } from "../../src/storage/embedded/engine.js";
import { copyDatabase, copyEmbeddedToMongo, exportDataDir, importInto } from "../../src/storage/transfer.js";
import { mongodb, tempDir, uriWithDatabase } from "./engines.js";

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
});
function fresh(): string {
  const d = tempDir();
  dirs.push(d);
  return d;
}

const T0 = Date.UTC(2025, 0, 1);

async function seed(dir: string): Promise<void> {
  const db = await EmbeddedDatabase.open({ dataDir: dir, ttlSweepIntervalMs: 0 });
  const policies = await db.collection("policies");
  await policies.createIndex({ name: "org_name_unique", keys: { org_id: 1, name: 1 }, unique: true });
  await policies.insertMany([
    { _id: "p1", org_id: "o1", name: "default", updated: new Date(T0) },
    { _id: "p2", org_id: "o1", name: "strict", detectors: [{ type: "pii/email", threshold: "l2" }] },
  ]);
  const logs = await db.collection("guard_logs", { timeseries: { timeField: "timestamp", metaField: "meta" }, expireAfterSeconds: 86_400 * 365 * 100 });
  await logs.createIndex({ name: "org_time", keys: { "meta.org_id": 1, timestamp: 1, _id: 1 } });
  await logs.insertMany(Array.from({ length: 2500 }, (_, i) => ({ _id: `l${i}`, timestamp: new Date(T0 + i), meta: { org_id: "o1", project_id: "p" }, n: i })));
  await db.close();
}

async function expectSeeded(db: import("../../src/storage/collection.js").Database): Promise<void> {
  const policies = await db.collection("policies");
  expect(await policies.find({}, { sort: { _id: 1 } })).toEqual([
    { _id: "p1", org_id: "o1", name: "default", updated: new Date(T0) },
    { _id: "p2", org_id: "o1", name: "strict", detectors: [{ type: "pii/email", threshold: "l2" }] },
  ]);
  await expect(policies.insertOne({ _id: "p3", org_id: "o1", name: "default" })).rejects.toThrow(/duplicate key/);
  const logs = await db.collection("guard_logs");
  expect(await logs.countDocuments({})).toBe(2500);
  const [last] = await logs.find({ "meta.org_id": "o1" }, { sort: { timestamp: -1 }, limit: 1 });
  expect(last).toEqual({ _id: "l2499", timestamp: new Date(T0 + 2499), meta: { org_id: "o1", project_id: "p" }, n: 2499 });
  await expect(logs.updateOne({ _id: "l1" }, { $set: { n: 0 } })).rejects.toThrow(/time-series/);
}

describe("moving an embedded data directory", () => {
  it("exports to a file and imports it, keeping types, indexes and time-series options; a re-run skips what is there", async () => {
    const source = fresh();
    await seed(source);
    const file = path.join(fresh(), "export.ndjson");
    const exported = await exportDataDir(source, file);
    expect(exported.collections.map((c) => [c.name, c.documents])).toEqual([
      ["policies", 2],
      ["guard_logs", 2500],
    ]);
    const target = await EmbeddedDatabase.open({ dataDir: fresh(), ttlSweepIntervalMs: 0 });
    const imported = await importInto(target, file);
    expect(imported.collections.map((c) => [c.name, c.documents, c.skipped])).toEqual([
      ["policies", 2, 0],
      ["guard_logs", 2500, 0],
    ]);
    await expectSeeded(target);
    const again = await importInto(target, file);
    expect(again.collections[0]).toEqual({ name: "policies", documents: 0, skipped: 2 });
    await target.close();
  });

  it("copies directly between databases", async () => {
    const source = fresh();
    await seed(source);
    const from = await EmbeddedDatabase.open({ dataDir: source, ttlSweepIntervalMs: 0 });
    const to = await EmbeddedDatabase.open({ dataDir: fresh(), ttlSweepIntervalMs: 0 });
    await copyDatabase(from, to);
    await expectSeeded(to);
    await from.close();
    await to.close();
  });

  it("refuses to export a directory that a running process holds", async () => {
    const source = fresh();
    await seed(source);
    const running = await EmbeddedDatabase.open({ dataDir: source, ttlSweepIntervalMs: 0 });
    await expect(exportDataDir(source, path.join(fresh(), "x.ndjson"))).rejects.toThrow(/in use/);
    await running.close();
  });

  it.skipIf(!mongodb.available)("copies into MongoDB (MONGODB_URI)", async () => {
    const source = fresh();
    await seed(source);
    const name = `parapet_transfer_${process.pid}`;
    const uri = uriWithDatabase(process.env.MONGODB_URI!, name);
    await copyEmbeddedToMongo(source, uri);
    const { MongoDatabase } = await import("../../src/storage/mongodb/engine.js");
    const db = await MongoDatabase.connect(uri);
    try {
      await expectSeeded(db);
    } finally {
      await db.db.dropDatabase();
      await db.close();
    }
  });
});
