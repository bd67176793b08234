// Write-time analytics rollups (DESIGN.md 4): one counter document per
// organization, project and minute, bumped with an $inc upsert on a
// deterministic id for every screening request. Analytics queries bucket these
// instead of aggregating raw logs, which the embedded engine could not do fast.
import type { Collection, Database, Doc } from "../storage/collection.js";

export const counterFields = [
  "num_requests",
  "total_flagged",
  "prompt_attack_flagged",
  "moderation_flagged",
  "pii_flagged",
  "unknown_links_flagged",
  "override_deny_flagged",
] as const;
export type Counter = (typeof counterFields)[number];

export interface MinuteRollup extends Doc, Record<Counter, number> {
  org_id: string;
  project_id: string;
  minute: Date;
}

/** Which analytics counters a request with these fired detector types increments (spec 2.11). */
export function countersFor(fired: string[]): Record<Counter, number> {
  const has = (pred: (t: string) => boolean) => (fired.some(pred) ? 1 : 0);
  return {
    num_requests: 1,
    total_flagged: fired.length > 0 ? 1 : 0,
    prompt_attack_flagged: has((t) => t === "prompt_attack"),
    moderation_flagged: has((t) => t.startsWith("moderated_content/")),
    pii_flagged: has((t) => t.startsWith("pii/")),
    unknown_links_flagged: has((t) => t === "unknown_links"),
    override_deny_flagged: has((t) => t === "override_deny"),
  };
}

export class AnalyticsRollups {
  private constructor(readonly rollups: Collection<MinuteRollup>) {}

  static async open(db: Database, retentionSeconds: number): Promise<AnalyticsRollups> {
    const rollups = await db.collection<MinuteRollup>("analytics_minutes");
    await rollups.createIndex({ name: "org_minute", keys: { org_id: 1, minute: 1 } });
    await rollups.createIndex({ name: "retention", keys: { minute: 1 }, expireAfterSeconds: retentionSeconds });
    return new AnalyticsRollups(rollups);
  }

  async record(orgId: string, projectId: string, at: Date, fired: string[]): Promise<void> {
    const minute = new Date(Math.floor(at.getTime() / 60_000) * 60_000);
    await this.rollups.updateOne(
      { _id: `${orgId}|${projectId}|${minute.getTime()}` },
      { $inc: countersFor(fired), $set: { org_id: orgId, project_id: projectId, minute } },
      { upsert: true },
    );
  }
}
