// The command line's grammar as the user reads it, and the errors that answer exit status 2.

export const usage = `usage:
  parapet serve                                   start the service (same as npm start)
  parapet keys create --kind platform|screening [--scope read-write|read-only] [--org ID] [API]
  parapet keys list [--org ID] [--include-revoked] [API]
  parapet keys revoke KEY_ID [API]
  parapet orgs create --name NAME                 (organizations have no API: service stopped, or MongoDB)
  parapet orgs list
  parapet orgs set ORG_ID [--name NAME] [--max-policies N] [--feature NAME=on|off ...]
                          features: policies, logs_analytics, agentic
  parapet screen TEXT | --file FILE|- [--project ID] [--role user|assistant|system|tool] [--json] [API]
                          exit 0 not flagged, 3 flagged
  parapet logs tail [--flagged] [--detected] [--project ID] [--since 10m] [--interval 2] [--json] [API]
  parapet calibrate --model DIR|judge --data FILE.jsonl [--out FILE] [--max-fpr 1%|l1,l2,l3,l4] [--min-score 0.1]
                    [--label NAME ...] [--slot prompt_attack|moderation|pii] [--dry-run]
                          thresholds from labelled data, written where the service reads them
  parapet export FILE                             embedded data directory -> NDJSON file
  parapet import FILE                             NDJSON file -> the configured store (MONGODB_URI)
  parapet migrate                                 embedded data directory -> MONGODB_URI directly
API: --url URL --key KEY (or PARAPET_URL, PARAPET_PLATFORM_KEY, PARAPET_SCREENING_KEY). Without them the
command finds the service running on PARAPET_DATA_DIR and uses the keys of its bootstrap-keys.json.
Key commands use the store directly when no service holds it. Exit status: 0 success, 1 failure, 2 usage.
Configuration comes from the same environment variables as the service (PARAPET_DATA_DIR, MONGODB_URI).`;

/** A command line that cannot mean anything: exit 2 with the usage text. */
export class UsageError extends Error {}

/** Input the command cannot use (a binary or oversized file, an --org the key cannot act on): exit 2, one line, no usage text. */
export class InputError extends UsageError {}

export function oneOf<T extends string>(value: string | undefined, allowed: readonly T[], flag: string): T {
  if (value === undefined || !allowed.includes(value as T)) throw new UsageError(`${flag} must be one of: ${allowed.join(", ")}`);
  return value as T;
}

/** The action a command takes, checked before anything is opened: a typo is a usage error, not a locked store. */
export function actionOf<T extends string>(command: string, action: string | undefined, allowed: readonly T[]): T {
  if (action === undefined) throw new UsageError(`${command} needs an action: ${allowed.join(", ")}`);
  if (!allowed.includes(action as T)) throw new UsageError(`unknown ${command} action '${action}' (one of: ${allowed.join(", ")})`);
  return action as T;
}
