// Configuration changes and schema versions across restarts (docs/storage.md#schema-and-migrations):
// the real service started on one store twice, a store written before the rollup rename
// migrated, migrations run twice at once, and a store newer than the build refused.

import fs from "node:fs";
import { afterAll, describe, expect, it } from "vitest";
import { rollupStartField } from "../../src/analytics/migrations.js";
import { ROLLUP_COLLECTIONS, type Rollup } from "../../src/analytics/repository.js";
import { startApp, type App } from "../../src/app.js";
import { loadConfig } from "../../src/config.js";
import type { StoredLog } from "../../src/logs/repository.js";
import { migrateStore } from "../../src/migrations.js";
import { createLogger } from "../../src/observability/logger.js";
import { openRepositories } from "../../src/repositories.js";
import type { Database } from "../../src/storage/collection.js";
import { EmbeddedDatabase } from "../../src/storage/embedded/engine.js";
import { migrateSchema, schemaVersion, type Migration, type MigrationLog } from "../../src/storage/schema.js";
import { engines, tempDir, uriWithDatabase } from "./engines.js";

const DAY = 86_400_000;
const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
});

/** A MigrationLog keeping what start-up would log. */
function capturingLog(): { log: MigrationLog; lines: Record<string, unknown>[] } {
  const lines: Record<string, unknown>[] = [];
  return { log: { info: (details, message) => lines.push({ ...details, msg: message }) }, lines };
}

function logOf(id: string, at: Date): StoredLog {
  return {
    _id: id,
    timestamp: at,
    meta: { org_id: "org-default", project_id: "project-default" },
    policy_id: "policy-default",
    flagged: false,
    detected: false,
    fired: [],
    families: ["no_detections"],
    messages: [],
    results: [],
    msg_results: [],
    event_metadata: "{}",
  };
}

describe.each(engines)("retention change on restart ($name)", (engine) => {
  it.skipIf(!engine.available)(
    "starts with another PARAPET_RETENTION_DAYS, changes the TTLs in place, and old rows expire under the new one",
    async () => {
      const env: Record<string, string> = { HOST: "127.0.0.1", PORT: "0", PARAPET_SCREENING_WORKERS: "0" };
      if (engine.name === "mongodb") env.MONGODB_URI = uriWithDatabase(process.env.MONGODB_URI!, `parapet_retention_${process.pid}`);
      else {
        env.PARAPET_DATA_DIR = tempDir();
        dirs.push(env.PARAPET_DATA_DIR);
      }
      const start = (days: number) => startApp(loadConfig({ ...env, PARAPET_RETENTION_DAYS: String(days) }), createLogger("silent"));
      const tenDaysAgo = new Date(Date.now() - 10 * DAY);

      let app: App = await start(30);
      try {
        await app.repos.rollups.record("org-default", "project-default", tenDaysAgo, []);
        await app.repos.rollups.record("org-default", "project-default", new Date(), []);
        await app.repos.logs.append(logOf("old", tenDaysAgo));
        await app.repos.logs.append(logOf("new", new Date()));
      } finally {
        await app.close();
      }

      app = await start(7); // used to exit: "an index named retention already exists ... with a different specification"
      try {
        for (const name of ROLLUP_COLLECTIONS) {
          const c = await app.db.collection(name);
          expect((await c.listIndexes()).find((i) => i.name === "retention")).toEqual({ name: "retention", keys: { start: 1 }, expireAfterSeconds: 7 * 86_400 });
        }
        if (app.db instanceof EmbeddedDatabase) {
          expect(app.db.describe().find((c) => c.name === "guard_logs")?.options.expireAfterSeconds).toBe(7 * 86_400);
          // Ten-day-old rows outlive a 30-day retention and not a 7-day one.
          expect(await app.db.sweepExpired()).toBe(3);
          expect((await app.repos.rollups.minutes.find({})).map((r: Rollup) => r.start.getTime() > Date.now() - DAY)).toEqual([true]);
          expect((await app.repos.rollups.hours.find({})).length).toBe(1);
          expect((await app.repos.logs.logs.find({})).map((l) => l._id)).toEqual(["new"]);
        }
        // On MongoDB the TTL monitor deletes in its own time (every 60 s); the indexes above are what it acts on.
      } finally {
        if (engine.name === "mongodb") {
          const { MongoDatabase } = await import("../../src/storage/mongodb/engine.js");
          if (app.db instanceof MongoDatabase) await app.db.db.dropDatabase();
        }
        await app.close();
      }
    },
    60_000,
  );
});

/** What analytics rollups looked like before `minute` became `start` (git: 1f3e433). */
async function writeStoreBeforeRename(db: Database, at: Date): Promise<void> {
  const minutes = await db.collection("analytics_minutes");
  await minutes.createIndex({ name: "org_minute", keys: { org_id: 1, minute: 1 } });
  await minutes.createIndex({ name: "retention", keys: { minute: 1 }, expireAfterSeconds: 30 * 86_400 });
  const minute = new Date(Math.floor(at.getTime() / 60_000) * 60_000);
  await minutes.insertOne({
    _id: `org-default|project-default|${minute.getTime()}`,
    org_id: "org-default",
    project_id: "project-default",
    minute,
    num_requests: 3,
    total_flagged: 1,
  });
}

describe.each(engines)("schema migrations ($name)", (engine) => {
  it.skipIf(!engine.available)("a store from before the rollup rename is migrated: fields, indexes, expiry and queries", async () => {
    let db = await engine.create();
    try {
      const at = new Date(Date.now() - 3 * DAY);
      await writeStoreBeforeRename(db, at);
      db = await engine.reopen(db);

      const { log, lines } = capturingLog();
      expect(await schemaVersion(db)).toBe(0);
      expect(await migrateStore(db, log)).toEqual({ from: 0, to: 1 });
      expect(lines).toEqual([expect.objectContaining({ msg: "schema migration applied", schema_version: 1 })]);
      const repos = await openRepositories(db, 1 * 86_400);
      const minutes = await db.collection("analytics_minutes");
      const [row] = await minutes.find({});
      expect(row.minute).toBeUndefined();
      expect(row.start).toEqual(new Date(Math.floor(at.getTime() / 60_000) * 60_000));
      expect((await minutes.listIndexes()).map((i) => [i.name, i.keys, i.expireAfterSeconds]).sort()).toEqual([
        ["org_start", { org_id: 1, start: 1 }, undefined],
        ["retention", { start: 1 }, 86_400],
      ]);
      // Analytics read the migrated row.
      const t0 = Math.floor(at.getTime() / 3_600_000) * 3_600_000;
      const rows = await repos.rollups.rowsFor("org-default", [], t0, t0 + 3_600_000, 3_600_000);
      expect(rows.map((r) => r.num_requests)).toEqual([3]);

      // A second start finds nothing to do; the version survives a restart.
      db = await engine.reopen(db);
      const again = capturingLog();
      expect(await migrateStore(db, again.log)).toEqual({ from: 1, to: 1 });
      expect(again.lines).toEqual([]);
      // The old minute rollup and the hour rollup built from it now expire with the retention (3 days old, 1 day).
      if (db instanceof EmbeddedDatabase) expect(await db.sweepExpired()).toBe(2);
    } finally {
      await engine.destroy(db);
    }
  });

  it.skipIf(!engine.available)("two processes migrating at once both finish; the one that records second says so", async () => {
    const db = await engine.create();
    try {
      await writeStoreBeforeRename(db, new Date());
      const a = capturingLog();
      const b = capturingLog();
      // Two runners on one store, interleaving at every await: what replicas starting together do.
      await Promise.all([migrateStore(db, a.log), migrateStore(db, b.log)]);
      // And once more, as after a crash before the version was recorded.
      await rollupStartField.up(db);
      expect(await schemaVersion(db)).toBe(1);
      // The hour rollup built from the old minutes counts them once, not once per run.
      expect((await (await db.collection("analytics_hours")).find({})).map((r) => r.num_requests)).toEqual([3]);
      const messages = [...a.lines, ...b.lines].map((l) => l.msg).sort();
      expect(messages).toEqual(["schema migration applied", "schema migration applied; another process recorded it first"]);
      await openRepositories(db, 86_400);
      const [row] = await (await db.collection("analytics_minutes")).find({});
      expect(Object.keys(row)).toContain("start");
      expect(Object.keys(row)).not.toContain("minute");
    } finally {
      await engine.destroy(db);
    }
  });

  it.skipIf(!engine.available)("a store migrated by a newer build is refused, naming both versions", async () => {
    const db = await engine.create();
    try {
      const next: Migration = { version: 2, name: "from a newer build", up: async () => undefined };
      const first: Migration = { version: 1, name: "first", up: async () => undefined };
      await migrateSchema(db, [first, next], capturingLog().log);
      await expect(migrateSchema(db, [first], capturingLog().log)).rejects.toThrow(/schema is version 2, newer than this build of Parapet knows \(1\)/);
    } finally {
      await engine.destroy(db);
    }
  });
});
