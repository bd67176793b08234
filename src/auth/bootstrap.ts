// First start on an empty store: a default organization and its first keys
// (docs/configuration.md#bootstrap-keys). Keys from PARAPET_BOOTSTRAP_* are registered
// verbatim (and re-registered idempotently on later starts); otherwise fresh
// keys are generated and shown once, and saved with mode 0600 where a keys file is configured.
//
// Replicas may start together on one empty MongoDB database: whichever creates the
// default organization generates the keys; the others meet its _id (a duplicate
// key) and know someone else did it.
import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { DuplicateKeyError } from "../storage/collection.js";
import type { Logger } from "../observability/logger.js";
import type { ApiKeys, KeyKind } from "./api-keys.js";
import { DEFAULT_ORG_ID, type Organizations } from "./organizations.js";

export interface BootstrapOptions {
  /** Where generated keys are saved besides being shown; undefined: shown only (MongoDB without PARAPET_BOOTSTRAP_KEYS_FILE). */
  keysFile?: string;
  platformKey?: string;
  screeningKey?: string;
}

export async function bootstrap(orgs: Organizations, keys: ApiKeys, options: BootstrapOptions, log: Logger): Promise<void> {
  const fresh = (await orgs.count()) === 0 && (await orgs.createIfAbsent("Default organization", DEFAULT_ORG_ID));

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

  // Shown before anything that can fail: a key that is stored but was never shown is lost to the operator.
  const file = options.keysFile;
  process.stdout.write(
    `\nParapet created organization ${DEFAULT_ORG_ID} with these API keys (shown once${file ? `, also saved to ${file}` : ""}):\n` +
      Object.entries(generated)
        .map(([k, v]) => `  ${k}: ${v}\n`)
        .join("") +
      "\n",
  );
  if (!file) {
    log.info({ organization_id: DEFAULT_ORG_ID }, "bootstrap keys generated and shown on standard output (no keys file configured)");
    return;
  }
  try {
    await mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
    await writeFile(file, JSON.stringify({ organization_id: DEFAULT_ORG_ID, ...generated }, null, 2) + "\n", { mode: 0o600 });
    log.info({ file }, "bootstrap keys generated");
  } catch (err) {
    // A read-only file system, or a file left from another store: the keys were shown above, so start anyway.
    log.warn({ file, err: String(err) }, "bootstrap keys generated and shown on standard output, but the keys file could not be written");
  }
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
