// Every schema migration, in version order (docs/storage.md#schema-and-migrations). Each lives
// with the resource whose collections it changes; start-up runs the pending ones before any
// repository opens its collections, since opening them assumes the current schema.
import { rollupStartField } from "./analytics/migrations.js";
import type { Database } from "./storage/collection.js";
import { migrateSchema, type MigrationLog, type MigrationReport } from "./storage/schema.js";

const MIGRATIONS = [rollupStartField];

export function migrateStore(db: Database, log: MigrationLog): Promise<MigrationReport> {
  return migrateSchema(db, MIGRATIONS, log);
}
