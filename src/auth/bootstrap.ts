// First start on an empty store: a default organization and its first keys
// (docs/configuration.md). Keys from PARAPET_BOOTSTRAP_* are registered
// verbatim (and re-registered idempotently on later starts); otherwise fresh
// keys are generated, printed once and saved with mode 0600 in the data dir.
import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import type { Logger } from "../observability/logger.js";
import type { ApiKeys } from "./api-keys.js";
import { DEFAULT_ORG_ID, type Organizations } from "./organizations.js";

export interface BootstrapOptions {
  dataDir: string;
  platformKey?: string;
  screeningKey?: string;
}

const BOOTSTRAP_KEYS_FILE = "bootstrap-keys.json";

export async function bootstrap(orgs: Organizations, keys: ApiKeys, options: BootstrapOptions, log: Logger): Promise<void> {
  const fresh = (await orgs.count()) === 0;
  if (fresh) await orgs.create("Default organization", DEFAULT_ORG_ID);

  const given: [string | undefined, "platform" | "screening", string][] = [
    [options.platformKey, "platform", "PARAPET_BOOTSTRAP_PLATFORM_KEY"],
    [options.screeningKey, "screening", "PARAPET_BOOTSTRAP_SCREENING_KEY"],
  ];
  for (const [key, kind, setting] of given) {
    if (!key) continue;
    const stored = await keys.find(key);
    if (!stored) {
      await keys.create(DEFAULT_ORG_ID, kind, kind === "platform" ? "read-write" : null, key);
    } else if (stored.revoked_at) {
      // Revocation is the operator's decision about this key; an environment variable left set must not undo it.
      log.warn({ key_id: stored._id, revoked_at: stored.revoked_at.toISOString() }, `${setting} names a revoked key; it stays revoked (unset it or set a new key)`);
    } else if (stored.kind !== kind) {
      throw new Error(`${setting} is already registered as a ${stored.kind} key (${stored._id}); use another key`);
    }
  }
  if (!fresh) return;

  const generated: Record<string, string> = {};
  if (!options.platformKey) generated.platform_key = (await keys.create(DEFAULT_ORG_ID, "platform", "read-write")).key;
  if (!options.screeningKey) generated.screening_key = (await keys.create(DEFAULT_ORG_ID, "screening", null)).key;
  if (Object.keys(generated).length === 0) return;

  await mkdir(options.dataDir, { recursive: true });
  const file = path.join(options.dataDir, BOOTSTRAP_KEYS_FILE);
  await writeFile(file, JSON.stringify({ organization_id: DEFAULT_ORG_ID, ...generated }, null, 2) + "\n", { mode: 0o600 });
  // Printed once, on purpose outside the JSON log stream: it is the only
  // time these keys are shown, and log shippers should not collect them.
  process.stdout.write(
    `\nParapet created organization ${DEFAULT_ORG_ID} with these API keys (shown once, also saved to ${file}):\n` +
      Object.entries(generated)
        .map(([k, v]) => `  ${k}: ${v}\n`)
        .join("") +
      "\n",
  );
  log.info({ file }, "bootstrap keys generated");
}
