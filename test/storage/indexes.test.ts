// Secondary indexes of the embedded engine: the order invariant under churn,
// query results equal to a full mingo scan, and logs queries that read only
// the documents they return.

import fs from "node:fs";
import { find as mingoFind } from "mingo";
import { afterAll, describe, expect, it, vi } from "vitest";
import type { Doc, Filter, Sort } from "../../src/storage/collection.js";
import { DiskTable } from "../../src/storage/embedded/disk-table.js";
import { EmbeddedDatabase } from "../../src/storage/embedded/engine.js";
import { planQuery } from "../../src/storage/embedded/planner.js";
import { SortedIndex } from "../../src/storage/embedded/sorted-index.js";
import { tempDir } from "./engines.js";

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
});

/** Small deterministic PRNG so failures reproduce. */
function rng(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

describe("SortedIndex", () => {
  it("stays ordered through random inserts, updates and removals", () => {
    const rand = rng(7);
    const index = new SortedIndex({ name: "i", keys: { a: 1, b: -1 } });
    const docs = new Map<number, Doc>();
    for (let step = 0; step < 20_000; step++) {
      const row = Math.floor(rand() * 3000);
      if (docs.has(row) && rand() < 0.5) {
        index.remove(row);
        docs.delete(row);
      } else {
        if (docs.has(row)) index.remove(row);
        const doc = { _id: String(row), a: Math.floor(rand() * 20), b: rand() < 0.1 ? null : `s${Math.floor(rand() * 50)}` };
        index.insert(row, doc);
        docs.set(row, doc);
      }
    }
    index.verify();
    expect(index.size).toBe(docs.size);
  });
});

describe("query planning and execution", () => {
  it("returns what a full mingo scan returns, for random filters, sorts and limits", async () => {
    const dir = tempDir();
    dirs.push(dir);
    const db = await EmbeddedDatabase.open({ dataDir: dir, ttlSweepIntervalMs: 0 });
    const rand = rng(42);
    const T0 = Date.UTC(2025, 0, 1);
    const docs = Array.from({ length: 2000 }, (_, i) => ({
      _id: `d${String(i).padStart(5, "0")}`,
      t: new Date(T0 + Math.floor(rand() * 100_000) * 1000),
      meta: { org: `o${Math.floor(rand() * 5)}`, project: `p${Math.floor(rand() * 4)}` },
      score: Math.floor(rand() * 100),
      flagged: rand() < 0.3,
    }));
    const mem = await db.collection("mem");
    const ts = await db.collection("ts", { timeseries: { timeField: "t", metaField: "meta" } });
    for (const c of [mem, ts]) {
      await c.createIndex({ name: "org_t", keys: { "meta.org": 1, t: 1, _id: 1 } });
      await c.createIndex({ name: "org_project_t", keys: { "meta.org": 1, "meta.project": 1, t: -1 } });
      await c.createIndex({ name: "score", keys: { score: -1 } });
      await c.insertMany(docs);
    }
    const time = (k: number) => new Date(T0 + k * 1000);
    for (let q = 0; q < 300; q++) {
      const filter: Filter = {};
      if (rand() < 0.8) filter["meta.org"] = `o${Math.floor(rand() * 5)}`;
      if (rand() < 0.4) filter["meta.project"] = `p${Math.floor(rand() * 4)}`;
      if (rand() < 0.7) {
        const a = Math.floor(rand() * 100_000);
        const range: Record<string, Date> = {};
        if (rand() < 0.8) range[rand() < 0.5 ? "$gte" : "$gt"] = time(a);
        if (rand() < 0.8) range[rand() < 0.5 ? "$lt" : "$lte"] = time(a + Math.floor(rand() * 50_000));
        if (Object.keys(range).length > 0) filter.t = range;
      }
      if (rand() < 0.3) filter.flagged = true;
      if (rand() < 0.2) filter.score = { $gte: Math.floor(rand() * 100) };
      const sorts: Sort[] = [{ t: 1, _id: 1 }, { t: -1, _id: -1 }, { score: -1, _id: 1 }, { _id: 1 }];
      const sort = sorts[Math.floor(rand() * sorts.length)];
      const skip = rand() < 0.3 ? Math.floor(rand() * 20) : 0;
      const limit = rand() < 0.8 ? 1 + Math.floor(rand() * 100) : 0;
      const expected = mingoFind(docs, filter)
        .sort(sort)
        .skip(skip)
        .limit(limit || docs.length)
        .all()
        .map((d) => d._id);
      for (const c of [mem, ts]) {
        const got = (await c.find(filter, { sort, skip, limit })).map((d) => d._id);
        expect(got, JSON.stringify({ filter, sort, skip, limit })).toEqual(expected);
        const count = mingoFind(docs, filter).all().length;
        expect(await c.countDocuments(filter)).toBe(count);
      }
    }
    await db.close();
  });

  it("answers a logs page by reading about as many documents as it returns", async () => {
    const dir = tempDir();
    dirs.push(dir);
    const db = await EmbeddedDatabase.open({ dataDir: dir, ttlSweepIntervalMs: 0 });
    const logs = await db.collection("guard_logs", { timeseries: { timeField: "timestamp", metaField: "meta" } });
    await logs.createIndex({ name: "org_time", keys: { "meta.org_id": 1, timestamp: 1, _id: 1 } });
    const T0 = Date.UTC(2025, 0, 1);
    await logs.insertMany(
      Array.from({ length: 20_000 }, (_, i) => ({
        _id: `e${String(i).padStart(6, "0")}`,
        timestamp: new Date(T0 + i * 1000),
        meta: { org_id: `org${i % 10}`, project_id: "p" },
      })),
    );
    const reads = vi.spyOn(DiskTable.prototype, "read");
    const page = await logs.find(
      { "meta.org_id": "org3", timestamp: { $gte: new Date(T0 + 5_000_000), $lt: new Date(T0 + 15_000_000) } },
      { sort: { timestamp: 1, _id: 1 }, limit: 100 },
    );
    expect(page).toHaveLength(100);
    expect(reads.mock.calls.length).toBe(100);
    reads.mockRestore();
    await db.close();
  });

  it("plans equality prefix + range + sort, and falls back to a scan otherwise", () => {
    const orgTime = new SortedIndex({ name: "org_time", keys: { org: 1, t: 1 } });
    const orgProjectTime = new SortedIndex({ name: "org_project_time", keys: { org: 1, project: 1, t: 1 } });
    const indexes = [orgTime, orgProjectTime];
    const range = { $gte: new Date(0), $lt: new Date(10) };
    const p1 = planQuery({ org: "a", t: range }, { t: -1 }, indexes, false);
    expect(p1).toMatchObject({ kind: "index", index: orgTime, sorted: true, reverse: true, exact: true });
    const p2 = planQuery({ org: "a", project: "x", t: range, flagged: true }, { t: 1 }, indexes, false);
    expect(p2).toMatchObject({ kind: "index", index: orgProjectTime, sorted: true, exact: false });
    expect(planQuery({ flagged: true }, undefined, indexes, false)).toEqual({ kind: "scan" });
    expect(planQuery({ _id: "x" }, undefined, indexes, true)).toMatchObject({ kind: "ids", ids: ["x"], exact: true });
  });
});
