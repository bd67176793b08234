// The stored schema's version and the migrations that move a store forward
// (docs/storage.md#schema-and-migrations). Engine-neutral: migrations use the port only.
//
// Several replicas may start on one MongoDB database at once: they take turns
// (Database.startupMigration, a lease on MongoDB), and each reads the version
// once it has its turn. Every migration stays idempotent besides, so one killed
// half-way (or whose lease expired) is finished by the next, and recording a
// version that another process recorded first (the upsert meets its _id) counts
// as done. Migrations run as start-up work (deadline.ts): their own budget.

import { DuplicateKeyError, type Database, type Doc } from "./collection.js";
import { withStartupWork } from "./deadline.js";

export interface Migration {
  /** The schema version the store has once this migration ran; versions are 1, 2, 3, ... in order. */
  version: number;
  /** What it changes, for the log and the version document. */
  name: string;
  /** Must be idempotent: it runs again after a crash half-way, and in every replica that starts before the version is recorded. */
  up(db: Database): Promise<void>;
}

/** Where start-up says what it migrated (pino's signature, so the service logger fits). */
export interface MigrationLog {
  info(details: Record<string, unknown>, message: string): void;
}

const SCHEMA_COLLECTION = "schema";
const VERSION_ID = "version";

interface SchemaVersion extends Doc {
  version: number;
  /** Per version: what ran and when, `applied.<version>`. */
  applied: Record<string, { name: string; at: Date }>;
}

export interface MigrationReport {
  from: number;
  to: number;
}

/** The version recorded in the store; 0 for a store written before versions existed (or an empty one). */
export async function schemaVersion(db: Database): Promise<number> {
  const schema = await db.collection<SchemaVersion>(SCHEMA_COLLECTION);
  return (await schema.findOne({ _id: VERSION_ID }))?.version ?? 0;
}

/** Runs the migrations the store has not had yet, in order, recording each version as it completes. */
export async function migrateSchema(db: Database, migrations: readonly Migration[], log: MigrationLog): Promise<MigrationReport> {
  const run = () => withStartupWork(() => migrateInTurn(db, migrations, log));
  return db.startupMigration ? db.startupMigration("schema migrations", run) : run();
}

async function migrateInTurn(db: Database, migrations: readonly Migration[], log: MigrationLog): Promise<MigrationReport> {
  migrations.forEach((m, i) => {
    if (m.version !== i + 1) throw new Error(`migration ${m.name} has version ${m.version}, expected ${i + 1} (internal error)`);
  });
  const latest = migrations.length;
  const from = await schemaVersion(db);
  if (from > latest) {
    // A newer build migrated this store; an older one would misread what it wrote.
    throw new Error(
      `the stored schema is version ${from}, newer than this build of Parapet knows (${latest}); run that newer build (docs/storage.md#schema-and-migrations)`,
    );
  }
  const schema = await db.collection<SchemaVersion>(SCHEMA_COLLECTION);
  for (const m of migrations.slice(from)) {
    const started = performance.now();
    await m.up(db);
    const recorded = await recordVersion(schema, m);
    const details = { schema_version: m.version, migration: m.name, ms: Math.round(performance.now() - started) };
    log.info(details, recorded ? "schema migration applied" : "schema migration applied; another process recorded it first");
  }
  return { from, to: Math.max(from, latest) };
}

/** True when this process recorded the version, false when another process had (at this version or later). */
async function recordVersion(schema: Awaited<ReturnType<Database["collection"]>>, m: Migration): Promise<boolean> {
  try {
    const r = await schema.updateOne(
      { _id: VERSION_ID, version: { $lt: m.version } },
      { $set: { version: m.version, [`applied.${m.version}`]: { name: m.name, at: new Date() } } },
      { upsert: true },
    );
    return r.matchedCount > 0 || r.upsertedId !== null;
  } catch (e) {
    // The filter missed because the document is at this version or later, and the upsert met its _id.
    if (e instanceof DuplicateKeyError) return false;
    throw e;
  }
}
