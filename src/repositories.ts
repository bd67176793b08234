// Every repository on one database: the only objects that touch storage.
import { AnalyticsRollups } from "./analytics/repository.js";
import { ApiKeys } from "./auth/api-keys-repository.js";
import { Organizations } from "./auth/organizations-repository.js";
import { CustomGuardrails } from "./custom-guardrails/repository.js";
import { GuardLogs } from "./logs/repository.js";
import { Policies } from "./policies/repository.js";
import { Projects } from "./projects/repository.js";
import { Vault } from "./sanitize/repository.js";
import type { Database } from "./storage/collection.js";

export interface Repositories {
  orgs: Organizations;
  keys: ApiKeys;
  policies: Policies;
  projects: Projects;
  guardrails: CustomGuardrails;
  logs: GuardLogs;
  rollups: AnalyticsRollups;
  vault: Vault;
}

/** Opens (and on first use creates, with their indexes) every collection. */
export async function openRepositories(db: Database, retentionSeconds: number, options: { vaultKey?: Buffer } = {}): Promise<Repositories> {
  return {
    orgs: await Organizations.open(db),
    keys: await ApiKeys.open(db),
    policies: await Policies.open(db),
    projects: await Projects.open(db),
    guardrails: await CustomGuardrails.open(db),
    logs: await GuardLogs.open(db, retentionSeconds),
    rollups: await AnalyticsRollups.open(db, retentionSeconds),
    vault: await Vault.open(db, options.vaultKey),
  };
}
