// `parapet` administration command (docs/cli.md). It works on the store
// directly, so with the embedded engine the service must be stopped first
// (the data directory's lock says so); with MongoDB it runs alongside.
import { parseArgs } from "node:util";
import { ApiKeys, type KeyKind, type KeyScope } from "../auth/api-keys.js";
import { DEFAULT_ORG_ID, Organizations, type Features } from "../auth/organizations.js";
import { loadConfig } from "../config.js";
import type { Database } from "../storage/collection.js";
import { copyEmbeddedToMongo, exportDataDir, importInto, type MigrationSummary } from "../storage/migrate.js";
import { openDatabase } from "../storage/open.js";

const usage = `usage:
  parapet serve                                   start the service (same as npm start)
  parapet keys create --kind platform|screening [--scope read-write|read-only] [--org ID]
  parapet keys list [--org ID]
  parapet keys revoke KEY_ID
  parapet orgs create --name NAME
  parapet orgs list
  parapet orgs set ORG_ID [--name NAME] [--max-policies N] [--feature NAME=on|off ...]
                          features: policies, logs_analytics, agentic
  parapet export FILE                             embedded data directory -> NDJSON file
  parapet import FILE                             NDJSON file -> the configured store (MONGODB_URI)
  parapet migrate                                 embedded data directory -> MONGODB_URI directly
Configuration comes from the same environment variables as the service
(PARAPET_DATA_DIR, MONGODB_URI).`;

class UsageError extends Error {}

function oneOf<T extends string>(value: string | undefined, allowed: readonly T[], flag: string): T {
  if (value === undefined || !allowed.includes(value as T)) throw new UsageError(`${flag} must be one of: ${allowed.join(", ")}`);
  return value as T;
}

async function withDb<T>(fn: (db: Database) => Promise<T>): Promise<T> {
  const config = loadConfig();
  const db = await openDatabase({ mongodbUri: config.mongodbUri, dataDir: config.dataDir });
  try {
    return await fn(db);
  } finally {
    await db.close();
  }
}

async function requireOrg(orgs: Organizations, id: string) {
  const org = await orgs.get(id);
  if (!org) throw new UsageError(`no organization '${id}'`);
  return org;
}

async function keys(action: string | undefined, args: string[]): Promise<void> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: { kind: { type: "string" }, scope: { type: "string" }, org: { type: "string" } },
  });
  await withDb(async (db) => {
    const orgs = await Organizations.open(db);
    const repo = await ApiKeys.open(db);
    if (action === "create") {
      const kind = oneOf<KeyKind>(values.kind, ["platform", "screening"], "--kind");
      if (kind === "screening" && values.scope) throw new UsageError("--scope applies to platform keys only");
      const scope = kind === "platform" ? oneOf<KeyScope>(values.scope ?? "read-write", ["read-write", "read-only"], "--scope") : null;
      const org = await requireOrg(orgs, values.org ?? DEFAULT_ORG_ID);
      const { key } = await repo.create(org._id, kind, scope);
      process.stdout.write(key + "\n");
    } else if (action === "list") {
      for (const k of await repo.list(values.org)) {
        const state = k.revoked_at ? `revoked ${k.revoked_at.toISOString()}` : "active";
        process.stdout.write(`${k._id}\t${k.org_id}\t${k.kind}\t${k.scope ?? "-"}\t${k.prefix}…\t${k.created_at.toISOString()}\t${state}\n`);
      }
    } else if (action === "revoke") {
      const id = positionals[0];
      if (!id) throw new UsageError("keys revoke needs KEY_ID (see parapet keys list)");
      if (!(await repo.revoke(id))) throw new UsageError(`no active key '${id}'`);
      process.stdout.write(`revoked ${id}\n`);
    } else {
      throw new UsageError(`unknown keys action '${action ?? ""}'`);
    }
  });
}

async function organizations(action: string | undefined, args: string[]): Promise<void> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: { name: { type: "string" }, "max-policies": { type: "string" }, feature: { type: "string", multiple: true } },
  });
  await withDb(async (db) => {
    const orgs = await Organizations.open(db);
    if (action === "create") {
      if (!values.name) throw new UsageError("orgs create needs --name");
      process.stdout.write((await orgs.create(values.name))._id + "\n");
    } else if (action === "list") {
      for (const o of await orgs.list()) {
        const features = Object.entries(o.features)
          .map(([k, v]) => `${k}=${v ? "on" : "off"}`)
          .join(",");
        process.stdout.write(`${o._id}\t${o.name}\tdefault_project=${o.default_project_id}\tmax_policies=${o.max_policies}\t${features}\n`);
      }
    } else if (action === "set") {
      const id = positionals[0];
      if (!id) throw new UsageError("orgs set needs ORG_ID");
      await requireOrg(orgs, id);
      let maxPolicies: number | undefined;
      if (values["max-policies"] !== undefined) {
        maxPolicies = Number(values["max-policies"]);
        if (!Number.isInteger(maxPolicies) || maxPolicies < 0) throw new UsageError("--max-policies must be a whole number >= 0");
      }
      const features: Partial<Features> = {};
      for (const f of values.feature ?? []) {
        const m = /^(policies|logs_analytics|agentic)=(on|off)$/.exec(f);
        if (!m) throw new UsageError(`--feature takes NAME=on|off with NAME one of policies, logs_analytics, agentic; got '${f}'`);
        features[m[1] as keyof Features] = m[2] === "on";
      }
      await orgs.update(id, { name: values.name, max_policies: maxPolicies, features });
      process.stdout.write(`updated ${id}\n`);
    } else {
      throw new UsageError(`unknown orgs action '${action ?? ""}'`);
    }
  });
}

function printSummary(summary: MigrationSummary): void {
  for (const c of summary.collections) {
    process.stdout.write(`${c.name}\t${c.documents} documents${c.skipped ? `\t${c.skipped} already present` : ""}\n`);
  }
}

/** Moving from the embedded engine to MongoDB (docs/storage.md). */
async function migration(command: "export" | "import" | "migrate", file: string | undefined): Promise<void> {
  const config = loadConfig();
  if (command !== "migrate" && !file) throw new UsageError(`${command} needs FILE`);
  if (command === "export") return printSummary(await exportDataDir(config.dataDir, file!));
  if (!config.mongodbUri) throw new UsageError(`${command} writes to MongoDB: set MONGODB_URI`);
  if (command === "migrate") return printSummary(await copyEmbeddedToMongo(config.dataDir, config.mongodbUri));
  printSummary(await withDb((db) => importInto(db, file!)));
}

async function main(argv: string[]): Promise<number> {
  const [command, action, ...rest] = argv;
  try {
    switch (command) {
      case "serve":
        await import("../main.js");
        return -1;
      case "keys":
        await keys(action, rest);
        return 0;
      case "orgs":
        await organizations(action, rest);
        return 0;
      case "export":
      case "import":
      case "migrate":
        await migration(command, action);
        return 0;
      case undefined:
      case "help":
      case "--help":
        process.stdout.write(usage + "\n");
        return 0;
      default:
        throw new UsageError(`unknown command '${command}'`);
    }
  } catch (err) {
    if (err instanceof UsageError || (err as { code?: string }).code?.startsWith("ERR_PARSE_ARGS")) {
      process.stderr.write(`parapet: ${(err as Error).message}\n${usage}\n`);
      return 2;
    }
    process.stderr.write(`parapet: ${err instanceof Error ? err.message : String(err)}\n`);
    return 1;
  }
}

const code = await main(process.argv.slice(2));
if (code >= 0) process.exit(code);
