// `parapet` administration command (docs/cli.md). It works on the store directly, so with the
// embedded engine the service must be stopped first (the data directory's lock says so); with
// MongoDB it runs alongside. Key commands can also go through the running service's API
// (--url and a read-write platform key), which needs no lock and works on every engine.
import { parseArgs } from "node:util";
import { timestampDate, type Timestamp } from "@bufbuild/protobuf/wkt";
import { ConnectError, createClient, type Client } from "@connectrpc/connect";
import { createConnectTransport } from "@connectrpc/connect-node";
import { ApiKeyService, type ApiKey } from "../../gen/parapet/v1/api_keys_pb.js";
import { ErrorDetailSchema } from "../../gen/parapet/v1/errors_pb.js";
import { ApiKeys, type KeyKind, type KeyScope } from "../auth/api-keys-repository.js";
import { DEFAULT_ORG_ID, Organizations, type Features } from "../auth/organizations-repository.js";
import { cliApiOf, loadConfig } from "../config.js";
import type { Database } from "../storage/collection.js";
import { copyEmbeddedToMongo, exportDataDir, importInto, type TransferSummary } from "../storage/transfer.js";
import { openDatabase } from "../storage/open.js";

const usage = `usage:
  parapet serve                                   start the service (same as npm start)
  parapet keys create --kind platform|screening [--scope read-write|read-only] [--org ID | API]
  parapet keys list [--org ID | API] [--include-revoked]
  parapet keys revoke KEY_ID [API]
      API: --url URL --key KEY   through the running service, for the key's own organization
           (or PARAPET_URL and PARAPET_API_KEY; KEY is a read-write platform key)
  parapet orgs create --name NAME
  parapet orgs list
  parapet orgs set ORG_ID [--name NAME] [--max-policies N] [--feature NAME=on|off ...]
                          features: policies, logs_analytics, agentic
  parapet export FILE                             embedded data directory -> NDJSON file
  parapet import FILE                             NDJSON file -> the configured store (MONGODB_URI)
  parapet migrate                                 embedded data directory -> MONGODB_URI directly
Configuration comes from the same environment variables as the service
(PARAPET_DATA_DIR, MONGODB_URI).`;

/** What key commands say when the running service holds the embedded store's lock: the way that works instead. */
const lockedHint = (url: string) =>
  `the service is running on this data directory and holds its lock. Key commands work through its API while it runs: ` +
  `add --url ${url} --key <read-write platform key> (or set PARAPET_URL and PARAPET_API_KEY). ` +
  `Organizations (parapet orgs) are changed with the service stopped, or on MongoDB.`;

const orgsLockedHint =
  "the service is running on this data directory and holds its lock. Organizations have no API: stop the service " +
  "(or use MongoDB, where the command runs alongside) to change them; keys can be managed through the API (parapet keys --url).";

class UsageError extends Error {}

function oneOf<T extends string>(value: string | undefined, allowed: readonly T[], flag: string): T {
  if (value === undefined || !allowed.includes(value as T)) throw new UsageError(`${flag} must be one of: ${allowed.join(", ")}`);
  return value as T;
}

/** Thrown by the embedded engine when another process (the running service) holds the data directory. */
function isLocked(err: unknown): boolean {
  return err instanceof Error && err.name === "DataDirectoryLockedError";
}

async function withDb<T>(fn: (db: Database) => Promise<T>, lockedMessage?: string): Promise<T> {
  const config = loadConfig();
  let db: Database;
  try {
    db = await openDatabase({ mongodbUri: config.mongodbUri, dataDir: config.dataDir });
  } catch (err) {
    if (lockedMessage && isLocked(err)) throw new Error(`${lockedMessage}\n(${(err as Error).message})`);
    throw err;
  }
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

const keyOptions = {
  kind: { type: "string" },
  scope: { type: "string" },
  org: { type: "string" },
  url: { type: "string" },
  key: { type: "string" },
  "include-revoked": { type: "boolean" },
} as const;

type KeyValues = ReturnType<typeof parseArgs<{ args: string[]; allowPositionals: true; options: typeof keyOptions }>>["values"];

/** The kind and scope a create asks for, checked the same way for both paths. */
function requestedKey(values: KeyValues): { kind: KeyKind; scope: KeyScope | null } {
  const kind = oneOf<KeyKind>(values.kind, ["platform", "screening"], "--kind");
  if (kind === "screening" && values.scope) throw new UsageError("--scope applies to platform keys only");
  const scope = kind === "platform" ? oneOf<KeyScope>(values.scope ?? "read-write", ["read-write", "read-only"], "--scope") : null;
  return { kind, scope };
}

function keyLine(k: { id: string; org: string; kind: string; scope: string | null; prefix: string; created: Date; revoked: Date | null; lastUsed: Date | null }) {
  const state = k.revoked ? `revoked ${k.revoked.toISOString()}` : "active";
  const used = k.lastUsed ? `last used ${k.lastUsed.toISOString()}` : "never used";
  return `${k.id}\t${k.org}\t${k.kind}\t${k.scope ?? "-"}\t${k.prefix}…\t${k.created.toISOString()}\t${state}\t${used}\n`;
}

async function keys(action: string | undefined, args: string[]): Promise<void> {
  const { values, positionals } = parseArgs({ args, allowPositionals: true, options: keyOptions });
  const url = values.url ?? cliApiOf().url;
  if (url) return keysThroughApi(action, url, values, positionals);
  if (values.key) throw new UsageError("--key goes with --url (the service's address)");
  const config = loadConfig();
  const serviceUrl = `http://${config.host === "0.0.0.0" || config.host === "::" ? "127.0.0.1" : config.host}:${config.port}`;
  await withDb(async (db) => {
    const orgs = await Organizations.open(db);
    const repo = await ApiKeys.open(db);
    if (action === "create") {
      const { kind, scope } = requestedKey(values);
      const org = await requireOrg(orgs, values.org ?? DEFAULT_ORG_ID);
      const { key } = await repo.create(org._id, kind, scope);
      process.stdout.write(key + "\n");
    } else if (action === "list") {
      for (const k of await repo.list(values.org)) {
        if (k.revoked_at && !values["include-revoked"]) continue;
        process.stdout.write(
          keyLine({
            id: k._id,
            org: k.org_id,
            kind: k.kind,
            scope: k.scope,
            prefix: k.prefix,
            created: k.created_at,
            revoked: k.revoked_at,
            lastUsed: k.last_used_at ?? null,
          }),
        );
      }
    } else if (action === "revoke") {
      const id = positionals[0];
      if (!id) throw new UsageError("keys revoke needs KEY_ID (see parapet keys list)");
      if (!(await repo.revoke(id))) throw new UsageError(`no active key '${id}'`);
      process.stdout.write(`revoked ${id}\n`);
    } else {
      throw new UsageError(`unknown keys action '${action ?? ""}'`);
    }
  }, lockedHint(serviceUrl));
}

/** An API error as one line: the service's message and its error identifier. */
class ApiCallError extends Error {}

async function call<T>(url: string, fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    if (!(err instanceof ConnectError)) throw err;
    const detail = err.findDetails(ErrorDetailSchema)[0];
    if (detail) throw new ApiCallError(`${err.rawMessage} (${detail.error}, HTTP ${detail.httpStatus}, request ${detail.requestId})`);
    // No detail: the answer did not come from Parapet (nothing listening, a proxy, a wrong URL).
    throw new ApiCallError(`cannot use the API at ${url}: ${err.rawMessage}`);
  }
}

function dateOf(t: Timestamp | undefined): Date | null {
  return t ? timestampDate(t) : null;
}

/** Key commands through the running service (ApiKeyService), for the organization of --key. */
async function keysThroughApi(action: string | undefined, url: string, values: KeyValues, positionals: string[]): Promise<void> {
  if (values.org) throw new UsageError("--org does not go with --url: the API manages the keys of the organization of --key");
  const key = values.key ?? cliApiOf().key;
  if (!key) throw new UsageError("--url needs a read-write platform key: --key KEY or PARAPET_API_KEY");
  let base: URL;
  try {
    base = new URL(url);
  } catch {
    throw new UsageError(`--url must be the service's address, such as http://127.0.0.1:8080; got '${url}'`);
  }
  const client: Client<typeof ApiKeyService> = createClient(
    ApiKeyService,
    createConnectTransport({
      baseUrl: base.toString().replace(/\/+$/, ""),
      httpVersion: "1.1",
      interceptors: [
        (next) => (req) => {
          req.header.set("authorization", `Bearer ${key}`);
          return next(req);
        },
      ],
    }),
  );
  const line = (k: ApiKey) =>
    keyLine({
      id: k.id,
      org: k.orgId,
      kind: k.kind,
      scope: k.scope ?? null,
      prefix: k.prefix,
      created: dateOf(k.createdAt)!,
      revoked: dateOf(k.revokedAt),
      lastUsed: dateOf(k.lastUsedAt),
    });
  if (action === "create") {
    const { kind, scope } = requestedKey(values);
    const created = await call(url, () => client.createApiKey({ kind, scope: scope ?? undefined }));
    process.stdout.write(created.key + "\n");
  } else if (action === "list") {
    let cursor: string | undefined;
    do {
      const page = await call(url, () => client.listApiKeys({ cursor, limit: 1000, includeRevoked: values["include-revoked"] ?? false }));
      for (const k of page.apiKeys) process.stdout.write(line(k));
      cursor = page.nextCursor;
    } while (cursor);
  } else if (action === "revoke") {
    const id = positionals[0];
    if (!id) throw new UsageError("keys revoke needs KEY_ID (see parapet keys list)");
    await call(url, () => client.revokeApiKey({ keyId: id }));
    process.stdout.write(`revoked ${id}\n`);
  } else {
    throw new UsageError(`unknown keys action '${action ?? ""}'`);
  }
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
  }, orgsLockedHint);
}

function printSummary(summary: TransferSummary): void {
  for (const c of summary.collections) {
    process.stdout.write(`${c.name}\t${c.documents} documents${c.skipped ? `\t${c.skipped} already present` : ""}\n`);
  }
}

/** Moving from the embedded engine to MongoDB (docs/storage.md). */
async function transfer(command: "export" | "import" | "migrate", file: string | undefined): Promise<void> {
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
        await transfer(command, action);
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
