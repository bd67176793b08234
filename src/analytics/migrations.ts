// Schema migrations of the analytics rollups (docs/storage.md#schema-and-migrations).
import { DuplicateKeyError, type Database, type Doc } from "../storage/collection.js";
import type { Migration } from "../storage/schema.js";
import { counterFields, ROLLUP_COLLECTIONS } from "./repository.js";

const HOUR = 3_600_000;
const PAGE = 10_000;

/**
 * The period field of a rollup was `minute` (indexes `org_minute` and `retention` on it) until
 * hour rollups arrived and it became `start`. Stores written before that kept minute rollups
 * that no query read and no TTL expired, and had no hour rollups for those periods, which
 * queries over whole hours read instead.
 */
export const rollupStartField: Migration = {
  version: 1,
  name: "analytics rollups: field minute renamed to start, hour rollups built from the old minute rollups",
  async up(db: Database) {
    const [minutesName, hoursName] = ROLLUP_COLLECTIONS;
    const minutes = await db.collection(minutesName);
    const hours = await db.collection(hoursName);
    // Hours first: `minute` still tells the old rows apart, so a rerun after a crash finds the same ones.
    for (const [id, hour] of await hourSumsOfOldMinutes(minutes)) {
      try {
        // Once per hour row, whoever runs it: the flag makes a second $inc a duplicate key, not a double count.
        await hours.updateOne(
          { _id: id, from_minute_rollups: { $ne: true } },
          { $inc: hour.counters, $set: { ...hour.fields, from_minute_rollups: true } },
          { upsert: true },
        );
      } catch (e) {
        if (!(e instanceof DuplicateKeyError)) throw e;
      }
    }
    // Only documents still carrying the old field, so a second run (or a replica running it too) changes nothing.
    await minutes.updateMany({ minute: { $exists: true } }, { $rename: { minute: "start" } });
    await minutes.dropIndex("org_minute", { org_id: 1, minute: 1 });
    // By keys: AnalyticsRollups.open recreates `retention` on `start`, perhaps already, in a replica that migrated first.
    await minutes.dropIndex("retention", { minute: 1 });
  },
};

interface HourSum {
  fields: { org_id: string; project_id: string; start: Date };
  counters: Record<string, number>;
}

async function hourSumsOfOldMinutes(minutes: Awaited<ReturnType<Database["collection"]>>): Promise<Map<string, HourSum>> {
  const sums = new Map<string, HourSum>();
  let after = "";
  for (;;) {
    const page: Doc[] = await minutes.find({ minute: { $exists: true }, _id: { $gt: after } }, { sort: { _id: 1 }, limit: PAGE });
    for (const row of page) {
      const start = new Date(Math.floor((row.minute as Date).getTime() / HOUR) * HOUR);
      const id = `${String(row.org_id)}|${String(row.project_id)}|${start.getTime()}`;
      let sum = sums.get(id);
      if (!sum) sums.set(id, (sum = { fields: { org_id: String(row.org_id), project_id: String(row.project_id), start }, counters: {} }));
      for (const f of counterFields) if (typeof row[f] === "number") sum.counters[f] = (sum.counters[f] ?? 0) + row[f];
    }
    if (page.length < PAGE) return sums;
    after = page[page.length - 1]._id;
  }
}
