// First start on an empty store: a default organization and its first keys
// (docs/configuration.md#bootstrap-keys). Keys from PARAPET_BOOTSTRAP_* are registered
// verbatim (and re-registered idempotently on later starts); otherwise fresh
// keys are generated and saved with mode 0600 to the keys file, announced in
// one JSON log line that names the file, and printed only to an interactive
// terminal: logs are collected and kept by other systems, a terminal is not.
// With neither a file nor a terminal (MongoDB in a container) the log is the
// only place left, so the keys go into one line that says so.
//
// Replicas may start together on one empty MongoDB database: whichever creates the
// default organization generates the keys; the others meet its _id (a duplicate
// key) and know someone else did it. A start that died between creating the
// organization and its keys left it with none: the next start past a grace
// period (longer than any start takes) generates them.
import { chmod, mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { DuplicateKeyError, type Database } from "../storage/collection.js";
import type { Logger } from "../observability/logger.js";
import type { ApiKeys, KeyKind } from "./api-keys-repository.js";
import { DEFAULT_ORG_ID, type Organizations } from "./organizations-repository.js";

export interface BootstrapOptions {
  /** Where generated keys are saved besides being shown; undefined: shown only (MongoDB without PARAPET_BOOTSTRAP_KEYS_FILE). */
  keysFile?: string;
  platformKey?: string;
  screeningKey?: string;
  /** Where secrets may be printed: standard output when it is an interactive terminal (the default), else nowhere (null). */
  terminal?: { write(text: string): unknown } | null;
}

/** A default organization this old that never had a key was left by a start that died midway. */
export const ABANDONED_AFTER_MS = 60_000;

/**
 * bootstrap, with no other process of the store bootstrapping at the same time (a lease on
 * MongoDB): two replicas that both find the default organization without keys (a start that
 * died midway) would otherwise both generate and print keys.
 */
export function bootstrapInTurn(db: Database, orgs: Organizations, keys: ApiKeys, options: BootstrapOptions, log: Logger): Promise<void> {
  const run = () => bootstrap(orgs, keys, options, log);
  return db.startupMigration ? db.startupMigration("bootstrap keys", run) : run();
}

export async function bootstrap(orgs: Organizations, keys: ApiKeys, options: BootstrapOptions, log: Logger): Promise<void> {
  const created = (await orgs.count()) === 0 && (await orgs.createIfAbsent("Default organization", DEFAULT_ORG_ID));
  const fresh = created || (await leftWithoutKeys(orgs, keys, log));

  const given: [string | undefined, KeyKind, string][] = [
    [options.platformKey, "platform", "PARAPET_BOOTSTRAP_PLATFORM_KEY"],
    [options.screeningKey, "screening", "PARAPET_BOOTSTRAP_SCREENING_KEY"],
  ];
  for (const [key, kind, setting] of given) if (key) await registerGivenKey(keys, key, kind, setting, log);
  if (!fresh) return;

  const generated: Record<string, string> = {};
  if (!options.platformKey) generated.platform_key = (await keys.create(DEFAULT_ORG_ID, "platform", "read-write")).key;
  if (!options.screeningKey) generated.screening_key = (await keys.create(DEFAULT_ORG_ID, "screening", null)).key;
  if (Object.keys(generated).length === 0) return;

  const file = options.keysFile;
  const terminal = options.terminal !== undefined ? options.terminal : process.stdout.isTTY ? process.stdout : null;
  const names = Object.keys(generated);
  let unwritable: string | undefined;
  if (file) {
    try {
      await mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
      await writeFile(file, JSON.stringify({ organization_id: DEFAULT_ORG_ID, ...generated }, null, 2) + "\n", { mode: 0o600 });
      // writeFile's mode applies only to a file it creates; one left from another store keeps its own.
      await chmod(file, 0o600);
    } catch (err) {
      unwritable = String(err);
    }
  }
  terminal?.write(
    `\nParapet created organization ${DEFAULT_ORG_ID} with these API keys (shown once${file && !unwritable ? `, also saved to ${file}` : ""}):\n` +
      Object.entries(generated)
        .map(([k, v]) => `  ${k}: ${v}\n`)
        .join("") +
      "\n",
  );
  const fields = { organization_id: DEFAULT_ORG_ID, keys: names, ...(file ? { file } : {}), ...(unwritable ? { err: unwritable } : {}) };
  if (file && !unwritable) {
    log.info(fields, "bootstrap keys generated and saved to the keys file");
  } else if (terminal) {
    log.warn(
      fields,
      unwritable
        ? "bootstrap keys generated and shown on the terminal only: the keys file could not be written"
        : "bootstrap keys generated and shown on the terminal only (no keys file configured)",
    );
  } else {
    // Nowhere else to put them: a key stored but never shown is lost to the operator, so this one line carries them.
    log.warn(
      {
        ...fields,
        ...generated,
        warning:
          "this log line contains API keys: store them, then remove this line from wherever logs are kept, or revoke the keys (docs/configuration.md#bootstrap-keys)",
      },
      unwritable
        ? "bootstrap keys generated: the keys file could not be written and there is no terminal, so they are in this line only"
        : "bootstrap keys generated: no keys file is configured and there is no terminal, so they are in this line only",
    );
  }
}

async function leftWithoutKeys(orgs: Organizations, keys: ApiKeys, log: Logger): Promise<boolean> {
  const org = await orgs.get(DEFAULT_ORG_ID);
  // Younger: another replica may be creating its keys right now.
  if (!org || Date.now() - org.created_at.getTime() < ABANDONED_AFTER_MS) return false;
  // Revoked keys count: an organization whose keys the operator revoked is not given new ones.
  if ((await keys.page(DEFAULT_ORG_ID, null, 1, true)).length > 0) return false;
  log.warn(
    { organization_id: DEFAULT_ORG_ID, created_at: org.created_at.toISOString() },
    "the default organization has no API key (an earlier start stopped midway): generating its keys",
  );
  return true;
}

/** Registers a key given in the environment; another replica registering it at the same moment is fine. */
async function registerGivenKey(keys: ApiKeys, key: string, kind: KeyKind, setting: string, log: Logger): Promise<void> {
  let stored = await keys.find(key);
  if (!stored) {
    try {
      await keys.create(DEFAULT_ORG_ID, kind, kind === "platform" ? "read-write" : null, key);
      return;
    } catch (err) {
      if (!(err instanceof DuplicateKeyError)) throw err;
      stored = await keys.find(key);
      if (!stored) throw err;
    }
  }
  if (stored.revoked_at) {
    // Revocation is the operator's decision about this key; an environment variable left set must not undo it.
    log.warn({ key_id: stored._id, revoked_at: stored.revoked_at.toISOString() }, `${setting} names a revoked key; it stays revoked (unset it or set a new key)`);
  } else if (stored.kind !== kind) {
    throw new Error(`${setting} is already registered as a ${stored.kind} key (${stored._id}); use another key`);
  }
}
