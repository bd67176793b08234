// The engines the conformance suite runs against. MongoDB joins when
// MONGODB_URI is set; otherwise its suite is reported as skipped.

import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll } from "vitest";
import type { Database } from "../../src/storage/collection.js";
import { EmbeddedDatabase } from "../../src/storage/embedded/engine.js";

export interface EngineUnderTest {
  name: "embedded" | "mongodb";
  available: boolean;
  /** A fresh, empty database. */
  create(): Promise<Database>;
  /** Closes db and opens the same database again. */
  reopen(db: Database): Promise<Database>;
  destroy(db: Database): Promise<void>;
}

export function tempDir(prefix = "parapet-storage-"): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), prefix));
}

/** A maker of temporary directories for one test file, all removed after its tests. */
export function tempDirsOfFile(): () => string {
  const dirs: string[] = [];
  afterAll(() => {
    for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
  });
  return () => {
    const d = tempDir();
    dirs.push(d);
    return d;
  };
}

const embeddedDirs = new WeakMap<Database, string>();

const embedded: EngineUnderTest = {
  name: "embedded",
  available: true,
  async create() {
    const dir = tempDir();
    const db = await EmbeddedDatabase.open({ dataDir: dir, ttlSweepIntervalMs: 0 });
    embeddedDirs.set(db, dir);
    return db;
  },
  async reopen(db) {
    const dir = embeddedDirs.get(db)!;
    await db.close();
    const next = await EmbeddedDatabase.open({ dataDir: dir, ttlSweepIntervalMs: 0 });
    embeddedDirs.set(next, dir);
    return next;
  },
  async destroy(db) {
    await db.close();
    const dir = embeddedDirs.get(db);
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  },
};

/** MONGODB_URI with the database part replaced, so every run gets its own database. */
export function uriWithDatabase(uri: string, name: string): string {
  const m = /^(mongodb(?:\+srv)?:\/\/[^/?#]*)(\/[^?#]*)?(.*)$/.exec(uri);
  if (!m) throw new Error(`not a MongoDB URI: ${uri}`);
  return `${m[1]}/${name}${m[3]}`;
}

const mongoNames = new WeakMap<Database, string>();

export const mongodb: EngineUnderTest = {
  name: "mongodb",
  available: !!process.env.MONGODB_URI,
  async create() {
    const { MongoDatabase } = await import("../../src/storage/mongodb/engine.js");
    const name = `parapet_test_${process.pid}_${Math.random().toString(36).slice(2, 8)}`;
    const db = await MongoDatabase.connect(uriWithDatabase(process.env.MONGODB_URI!, name));
    mongoNames.set(db, name);
    return db;
  },
  async reopen(db) {
    const { MongoDatabase } = await import("../../src/storage/mongodb/engine.js");
    const name = mongoNames.get(db)!;
    await db.close();
    const next = await MongoDatabase.connect(uriWithDatabase(process.env.MONGODB_URI!, name));
    mongoNames.set(next, name);
    return next;
  },
  async destroy(db) {
    const { MongoDatabase } = await import("../../src/storage/mongodb/engine.js");
    if (db instanceof MongoDatabase) await db.db.dropDatabase();
    await db.close();
  },
};

export const engines: EngineUnderTest[] = [embedded, mongodb];
