// The one-time conversion of an events collection that earlier versions stored as a MongoDB
// time-series collection, whose indexes cannot return a page in (time, _id) order
// (docs/storage.md#mongodb-log-paging), into a regular collection of the same name.
//
// Time-series collections cannot be renamed, so: copy into a staging collection, drop the
// source, rename the copy. The copy goes window by window of the time field (time-series
// collections are clustered by time, so each window reads only its buckets), with the
// progress logged and recorded: a replica stopped half-way resumes at the last recorded
// window, and a window copied twice changes nothing ($merge keeps what is there). The
// caller holds the start-up lease (lease.ts), and every drop re-checks what it drops.

import type { Db, Document } from "mongodb";

export interface ConversionOptions {
  timeField: string;
  /** Runs one step with the engine's retries (start-up budget). */
  run: <R>(op: (attempt: { signal: AbortSignal }) => Promise<R>) => Promise<R>;
  /** Whether this replica still holds the start-up lease: nothing is dropped otherwise. */
  held: () => boolean;
  log: (message: string) => void;
  /** Width of one copied window. */
  windowMs?: number;
}

const DEFAULT_WINDOW_MS = 3_600_000;
const PROGRESS_COLLECTION = "startup_progress";

/** The staging collection's name; a store may hold it after a conversion stopped half-way. */
export function stagingName(name: string): string {
  return `${name}__regular`;
}

async function collectionType(db: Db, name: string, run: ConversionOptions["run"]): Promise<string | null> {
  const [info] = await run(() => db.listCollections({ name }, { nameOnly: false }).toArray());
  return info ? String(info.type ?? "collection") : null;
}

/**
 * Brings `name` to a regular collection holding every event, whatever state a stopped
 * conversion left: source still time-series, source dropped and copy not yet renamed, or
 * both present. Returns whether anything was done.
 */
export async function convertTimeseries(db: Db, name: string, options: ConversionOptions): Promise<boolean> {
  const { run, log } = options;
  const staging = stagingName(name);
  const type = await collectionType(db, name, run);
  const stagingType = await collectionType(db, staging, run);
  if (type === "timeseries") {
    await copyWindows(db, name, options);
    // Re-checked under the lease just before the drop: a regular collection here is the
    // finished result of another replica's conversion, never a source to drop.
    if (!options.held()) throw new Error(`lost the start-up lease while converting ${name}; start again to resume`);
    if ((await collectionType(db, name, run)) !== "timeseries") throw new Error(`${name} changed type during its conversion; start again to resume`);
    await run(() => db.dropCollection(name));
  } else if (stagingType === null) {
    return false;
  } else if (type !== null) {
    // Renamed copy and staging both present (a create won the race): add what staging holds.
    await run(({ signal }) =>
      db
        .collection(staging)
        .aggregate([mergeInto(name)], { signal })
        .toArray(),
    );
    if (options.held()) await run(() => db.dropCollection(staging));
    return true;
  }
  await run(() => db.renameCollection(staging, name));
  await run(() => db.collection(PROGRESS_COLLECTION).deleteOne({ _id: `convert:${name}` as never }));
  log(`converted time-series collection ${name} to a regular collection`);
  return true;
}

function mergeInto(target: string): Document {
  return { $merge: { into: target, on: "_id", whenMatched: "keepExisting", whenNotMatched: "insert" } };
}

async function copyWindows(db: Db, name: string, options: ConversionOptions): Promise<void> {
  const { run, log, timeField } = options;
  const windowMs = options.windowMs ?? DEFAULT_WINDOW_MS;
  const source = db.collection(name);
  const progress = db.collection<{ _id: string; done_until: Date }>(PROGRESS_COLLECTION);
  const id = `convert:${name}`;
  const edge = async (direction: 1 | -1): Promise<Date | null> => {
    const [doc] = await run(({ signal }) =>
      source.aggregate([{ $sort: { [timeField]: direction } }, { $limit: 1 }, { $project: { t: `$${timeField}` } }], { signal }).toArray(),
    );
    return doc ? (doc.t as Date) : null;
  };
  const first = await edge(1);
  const last = await edge(-1);
  const resumed = (await run(() => progress.findOne({ _id: id })))?.done_until;
  if (!first || !last) return;
  let from = resumed && resumed > first ? resumed : first;
  const total = Math.max(1, Math.ceil((last.getTime() + 1 - first.getTime()) / windowMs));
  log(
    `converting time-series collection ${name} to a regular collection: ${total} windows of ${windowMs / 60_000} min${resumed ? `, resuming at ${from.toISOString()}` : ""}`,
  );
  let reported = -1;
  for (;;) {
    const isLast = from.getTime() > last.getTime();
    // The last window is open-ended: it takes what was inserted while the copy ran.
    const to = new Date(from.getTime() + windowMs);
    const match = isLast ? { [timeField]: { $gte: from } } : { [timeField]: { $gte: from, $lt: to } };
    await run(({ signal }) => source.aggregate([{ $match: match }, mergeInto(stagingName(name))], { signal }).toArray());
    if (isLast) return;
    await run(() => progress.updateOne({ _id: id }, { $set: { done_until: to } }, { upsert: true }));
    const done = Math.min(100, Math.floor(((to.getTime() - first.getTime()) / windowMs / total) * 100));
    if (done >= reported + 5) {
      log(`converting ${name}: ${done}% (events up to ${to.toISOString()} copied)`);
      reported = done;
    }
    from = to;
  }
}
