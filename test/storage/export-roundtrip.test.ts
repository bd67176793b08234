// `parapet export` / `import` give back every stored value (docs/storage.md#moving-from-the-embedded-engine-to-mongodb):
// arbitrary project metadata and values through a real export file into a second embedded
// database, compared strictly (-0 is not 0, NaN is NaN, key order and types kept).

import fs from "node:fs";
import path from "node:path";
import fc from "fast-check";
import { BSON } from "mongodb";
import { afterAll, describe, expect, it } from "vitest";
import { bsonDocumentBytes } from "../../src/storage/document-size.js";
import { EmbeddedDatabase } from "../../src/storage/embedded/engine.js";
import { decodeValue, encodeValue } from "../../src/storage/export-format.js";
import { exportDataDir, importInto } from "../../src/storage/transfer.js";
import { tempDir } from "./engines.js";

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
});
/** Strict equality of stored values: Object.is for numbers, same key order, Date by time, arrays by element. */
function same(a: unknown, b: unknown): boolean {
  if (typeof a !== "object" || a === null || typeof b !== "object" || b === null) return Object.is(a, b);
  if (a instanceof Date || b instanceof Date) return a instanceof Date && b instanceof Date && Object.is(a.getTime(), b.getTime());
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  return ka.length === kb.length && ka.every((k, i) => k === kb[i] && same((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]));
}

function fresh(): string {
  const d = tempDir();
  dirs.push(d);
  return d;
}

/** Keys that Extended JSON would read as types, and other awkward ones, mixed with arbitrary strings. */
const key = fc.oneof(
  fc.string(),
  fc.constantFrom("$date", "$oid", "$ref", "$id", "$regex", "$options", "$numberLong", "$numberDouble", "$entries", "$undefined", "a.b", "__proto__", "", "\0", "x\0y"),
);
const scalar = fc.oneof(
  fc.string(),
  fc.boolean(),
  fc.constant(null),
  fc.double(),
  fc.integer(),
  fc.date({ noInvalidDate: true }),
  fc.constantFrom(-0, NaN, Infinity, -Infinity, Number.MAX_SAFE_INTEGER + 2),
);
const value = fc.letrec((tie) => ({
  v: fc.oneof({ depthSize: "small" }, scalar, fc.array(tie("v"), { maxLength: 4 }), fc.dictionary(key, tie("v"), { maxKeys: 4 })),
})).v;

describe("export and import round-trip", () => {
  it("project metadata with any keys and values comes back as stored", async () => {
    await fc.assert(
      fc.asyncProperty(fc.dictionary(key, fc.string(), { maxKeys: 8 }), fc.dictionary(key, value, { maxKeys: 6 }), async (metadata, extra) => {
        const source = fresh();
        const db = await EmbeddedDatabase.open({ dataDir: source, ttlSweepIntervalMs: 0 });
        const doc = { _id: "project-1", org_id: "org-default", project_metadata: metadata, extra, created_at: new Date(1_700_000_000_123) };
        await (await db.collection("projects")).insertOne(doc);
        await db.close();

        const file = path.join(fresh(), "export.ndjson");
        await exportDataDir(source, file);
        const target = await EmbeddedDatabase.open({ dataDir: fresh(), ttlSweepIntervalMs: 0 });
        try {
          await importInto(target, file);
          const [back] = await (await target.collection("projects")).find({});
          expect(same(back, doc), `${String(back && JSON.stringify(Object.keys(back)))}`).toBe(true);
        } finally {
          await target.close();
        }
      }),
      { numRuns: 25 },
    );
  });

  it("the value encoding alone round-trips, and writes nothing Extended JSON would read as another type", () => {
    fc.assert(
      fc.property(value, (v) => {
        const line = JSON.stringify(encodeValue({ v }));
        const back = decodeValue(JSON.parse(line)) as { v: unknown };
        expect(same(back.v, v)).toBe(true);
      }),
      { numRuns: 2000 },
    );
    // The cases relaxed Extended JSON (export version 1) got wrong.
    const tricky = { a: { $date: "2020-01-01" }, b: { $ref: "x", $id: "y" }, c: { $regex: "^a", $options: "i" }, d: { $oid: "0123456789abcdef01234567" } };
    expect(decodeValue(JSON.parse(JSON.stringify(encodeValue(tricky))))).toEqual(tricky);
  });

  it("document sizes are counted as MongoDB's BSON encoder counts them", () => {
    const bsonable = fc.dictionary(
      fc.string().filter((k) => !k.includes("\0")),
      fc.oneof(fc.string(), fc.integer(), fc.double(), fc.boolean(), fc.constant(null), fc.date({ noInvalidDate: true }), fc.array(fc.string())),
      { maxKeys: 8 },
    );
    fc.assert(
      fc.property(bsonable, (doc) => {
        expect(bsonDocumentBytes(doc)).toBe(BSON.calculateObjectSize(doc));
      }),
      { numRuns: 500 },
    );
  });
});
