// The Collection port on the MongoDB driver: a pass-through plus the few
// adaptations both engines promise (collection.ts): string ids for upserts,
// DuplicateKeyError, time-series restrictions reported the same way, and
// retries that never apply a write twice nor drop part of a batch
// (docs/storage.md#mongodb-retries says, per write, why each retry is safe).

import {
  BSON,
  MongoBulkWriteError,
  MongoServerError,
  type Collection as DriverCollection,
  type Document,
  type Filter as DriverFilter,
  type WriteConcernSettings,
  type WriteError,
} from "mongodb";
import {
  DuplicateKeyError,
  MAX_TIMESERIES_DOCUMENT_BYTES,
  UnstorableDocumentError,
  type Collection,
  type Doc,
  type Filter,
  type FindOneAndUpdateOptions,
  type FindOptions,
  type IndexSpec,
  type Update,
  type UpdateOptions,
  type UpdateResult,
} from "../collection.js";
import { isStartupWork, withStartupWork } from "../deadline.js";
import { newDocumentId } from "../ids.js";
import { withRetry, type Attempt, type RetryPolicy } from "./retry.js";

/** Update operators whose second application changes nothing, so a retry is harmless. */
const IDEMPOTENT_OPERATORS = new Set(["$set", "$unset", "$setOnInsert", "$addToSet", "$pull", "$pullAll", "$min", "$max"]);

/** Server codes of createIndex refusing an index that exists with other options or keys. */
const INDEX_OPTIONS_CONFLICT = 85;
const INDEX_KEY_SPECS_CONFLICT = 86;
const INDEX_NOT_FOUND = 27;
const NAMESPACE_NOT_FOUND = 26;

/** An index build that takes this long is worth a line in the log. */
const SLOW_INDEX_MS = 5_000;
const INDEX_PROGRESS_MS = 15_000;

interface DriverIndex {
  name: string;
  key: Record<string, number>;
  unique?: boolean;
  expireAfterSeconds?: number;
}

/** The TTL index that carries an event collection's retention (engine.ts). */
export function retentionIndexName(timeField: string): string {
  return `ttl_${timeField}`;
}

/**
 * Tells whether a driver call reached the wire. Every write carries a fresh
 * token as its `comment`; the engine marks a token when the driver emits
 * commandStarted for a command carrying it, which happens before the command
 * is written to the socket. A token never marked proves the attempt was not sent.
 */
export interface SendTracker {
  open(): string;
  sent(token: string): boolean;
  close(token: string): void;
}

export interface MongoCollectionOptions {
  /** The port's time-series rules (insert-only events); stored as a regular collection, see engine.ts. */
  events?: { timeField: string; metaField: string };
  tracker: SendTracker;
  /** The same collection on the start-up client, used by start-up work (engine.ts clientOptions). */
  startup?: DriverCollection<Doc>;
  /** Runs a database command (collMod) on the collection's database. */
  command: (command: Document) => Promise<Document>;
  retry?: RetryPolicy;
  onWarning?: (message: string, error: unknown) => void;
}

interface ReadAttempt extends Attempt {
  coll: DriverCollection<Doc>;
  /** Options every read takes: the client stops waiting at the signal, the server at maxTimeMS. */
  bound: { signal: AbortSignal; maxTimeMS: number };
}

interface WriteAttempt extends Attempt {
  coll: DriverCollection<Doc>;
  /** Options every write takes: its send-tracking comment, and the server's time limits. */
  bound: { comment: string; maxTimeMS: number; writeConcern: WriteConcernSettings };
  /** An earlier attempt of this call may have reached a server (and been applied). */
  earlierMaybeSent: boolean;
}

/**
 * The server's time limit for one attempt: what the call has left. Work abandoned at the
 * deadline (a flagged_only scan through 100,000 skipped entries) ends on the server too, and its
 * connection comes back to the pool, instead of running on for no one.
 */
function serverTimeLimit(a: Attempt): number {
  return Math.max(1, Math.ceil(a.remainingMs));
}

export class MongoCollection<T extends Doc = Doc> implements Collection<T> {
  constructor(
    private readonly coll: DriverCollection<Doc>,
    private readonly options: MongoCollectionOptions,
  ) {}

  get name(): string {
    return this.coll.collectionName;
  }

  async insertOne(doc: T): Promise<void> {
    this.checkEventSize(doc);
    await this.write(true, async ({ coll, bound, earlierMaybeSent }) => {
      // A lost reply may hide a stored document: look before sending it again.
      if (earlierMaybeSent && (await this.stored(coll, bound, [doc])).size > 0) return;
      try {
        await coll.insertOne({ ...doc }, bound).catch((err: unknown) => {
          throw unstorable(err, [doc]);
        });
      } catch (e) {
        // The earlier attempt was still in flight when we looked, and landed first.
        if (earlierMaybeSent && isDuplicate(e) && (await this.stored(coll, bound, [doc])).size > 0) return;
        throw e;
      }
    });
  }

  async insertMany(docs: T[]): Promise<void> {
    if (docs.length === 0) return;
    for (const d of docs) this.checkEventSize(d);
    // What is still to insert. Ordered inserts stop at the first failure, so
    // everything before the failing index is stored and the rest is not.
    let rest = docs.map((d) => ({ ...d }));
    await this.write(true, async ({ coll, bound, earlierMaybeSent }) => {
      if (earlierMaybeSent) {
        const stored = await this.stored(coll, bound, rest);
        rest = rest.filter((d) => !stored.has(d._id));
      }
      while (rest.length > 0) {
        try {
          await coll.insertMany(rest, { ...bound, ordered: true }).catch((err: unknown) => {
            throw unstorable(err, rest);
          });
          rest = [];
        } catch (e) {
          const failed = firstWriteError(e);
          if (!failed) throw e; // no per-document answer (network, election): the next attempt looks first
          rest = rest.slice(failed.index);
          // Every document still in `rest` was in the batch of each earlier attempt, so a
          // duplicate _id holding this very document after a possibly delivered attempt is that attempt's own insert.
          if (failed.code === 11000 && earlierMaybeSent && (await this.stored(coll, bound, [rest[0]])).size > 0) {
            rest = rest.slice(1);
            continue;
          }
          throw e;
        }
      }
    });
  }

  async findOne(filter: Filter, options: FindOptions = {}): Promise<T | null> {
    return (await this.read(async ({ coll, bound }) => plain(await coll.findOne(filter as DriverFilter<Doc>, { ...driverFind(options), ...bound })))) as T | null;
  }

  async find(filter: Filter, options: FindOptions = {}): Promise<T[]> {
    return (await this.read(async ({ coll, bound }) =>
      plain(await coll.find(filter as DriverFilter<Doc>, { ...driverFind(options), ...bound }).toArray()),
    )) as unknown as T[];
  }

  async countDocuments(filter: Filter): Promise<number> {
    return this.read(({ coll, bound }) => coll.countDocuments(filter as DriverFilter<Doc>, bound));
  }

  async updateOne(filter: Filter, update: Update, options: UpdateOptions = {}): Promise<UpdateResult> {
    this.refuseOnEvents("update");
    const u = withUpsertId(filter, update, options.upsert);
    const look = conditional(filter, update);
    const send = ({ coll, bound }: WriteAttempt) => coll.updateOne(filter, u, { ...bound, upsert: options.upsert });
    const r =
      look === undefined
        ? await this.write(isIdempotent(update), send)
        : await this.write(look !== null, (a) =>
            this.conditionalRetry(
              a,
              look!,
              send,
              (r) => r.matchedCount > 0 || r.upsertedId != null,
              () => APPLIED_UPDATE,
            ),
          );
    return { matchedCount: r.matchedCount, modifiedCount: r.modifiedCount, upsertedId: r.upsertedId == null ? null : String(r.upsertedId) };
  }

  async updateMany(filter: Filter, update: Update, options: UpdateOptions = {}): Promise<UpdateResult> {
    this.refuseOnEvents("updateMany");
    const u = withUpsertId(filter, update, options.upsert);
    const r = await this.write(isIdempotent(update), ({ coll, bound }) => coll.updateMany(filter as DriverFilter<Doc>, u, { ...bound, upsert: options.upsert }));
    return { matchedCount: r.matchedCount, modifiedCount: r.modifiedCount, upsertedId: r.upsertedId == null ? null : String(r.upsertedId) };
  }

  async findOneAndUpdate(filter: Filter, update: Update, options: FindOneAndUpdateOptions = {}): Promise<T | null> {
    this.refuseOnEvents("update");
    const u = withUpsertId(filter, update, options.upsert);
    const returnDocument = options.returnDocument ?? "before";
    const send = ({ coll, bound }: WriteAttempt) => coll.findOneAndUpdate(filter, u, { ...bound, upsert: options.upsert, returnDocument });
    // The document before an update cannot be read back once the update applied.
    const look = returnDocument === "after" ? conditional(filter, update) : conditional(filter, update) && null;
    const doc =
      look === undefined
        ? await this.write(isIdempotent(update), send)
        : await this.write(look !== null, (a) =>
            this.conditionalRetry(
              a,
              look!,
              send,
              (d) => d !== null,
              (found) => found,
            ),
          );
    return doc as unknown as T | null;
  }

  /**
   * One attempt of a conditional update (its filter tests a field it sets, as a revoke's
   * `revoked_at: null`). Re-sent after a lost reply it would no longer match and report "nothing
   * matched" for its own change: so a retry first looks for the document as the update leaves it
   * (the other filter fields, the values set), and counts a match as this call's own update; a
   * re-send that matched nothing (the earlier attempt landed meanwhile) looks again.
   */
  private async conditionalRetry<R>(
    a: WriteAttempt,
    look: Document,
    send: (a: WriteAttempt) => Promise<R>,
    matched: (r: R) => boolean,
    applied: (found: Doc) => R,
  ): Promise<R> {
    const mine = async () => (a.earlierMaybeSent ? plain(await a.coll.findOne(look as DriverFilter<Doc>, durableRead(a.bound))) : null);
    const before = await mine();
    if (before) return applied(before);
    try {
      const r = await send(a);
      if (matched(r)) return r;
      const after = await mine();
      return after ? applied(after) : r;
    } catch (e) {
      // A conditional upsert re-sent after its first attempt inserted: the filter missed, the insert met its _id.
      const after = isDuplicate(e) ? await mine() : null;
      if (after) return applied(after);
      throw e;
    }
  }

  async deleteOne(filter: Filter): Promise<number> {
    if (this.options.events) {
      throw new Error(`deleteOne is not available on time-series collection ${this.name} (MongoDB 6.3 refuses it); use deleteMany on the meta field`);
    }
    // A second deleteOne on a filter that several documents match would delete another one.
    const byId = filter._id !== undefined && (typeof filter._id !== "object" || filter._id === null);
    return (await this.write(byId, ({ coll, bound }) => coll.deleteOne(filter as DriverFilter<Doc>, bound))).deletedCount;
  }

  async deleteMany(filter: Filter): Promise<number> {
    const events = this.options.events;
    if (events && Object.keys(filter).some((k) => k !== events.metaField && !k.startsWith(`${events.metaField}.`))) {
      throw new Error(`deleteMany on time-series collection ${this.name} must filter on the meta field ${events.metaField} only`);
    }
    return (await this.write(true, ({ coll, bound }) => coll.deleteMany(filter as DriverFilter<Doc>, bound))).deletedCount;
  }

  async aggregate<R = Record<string, unknown>>(pipeline: Record<string, unknown>[]): Promise<R[]> {
    return (await this.read(async ({ coll, bound }) => plain(await coll.aggregate(pipeline, bound).toArray()))) as R[];
  }

  async createIndex(spec: IndexSpec): Promise<void> {
    if (this.options.events && spec.unique) {
      throw new Error(`time-series collection ${this.name} cannot have unique index ${spec.name} (MongoDB refuses them)`);
    }
    // Indexes are built when a repository opens its collections at start-up: a build on
    // existing data takes as long as the data needs, not a request's budget.
    const started = performance.now();
    const progress = setInterval(() => {
      const s = Math.round((performance.now() - started) / 1000);
      this.options.onWarning?.(`building index ${spec.name} on ${this.name}: ${s} s so far (start-up waits for it)`, null);
    }, INDEX_PROGRESS_MS);
    progress.unref();
    try {
      await withStartupWork(() => this.buildIndex(spec));
    } finally {
      clearInterval(progress);
    }
    const ms = Math.round(performance.now() - started);
    if (ms >= SLOW_INDEX_MS) this.options.onWarning?.(`index ${spec.name} on ${this.name} built in ${ms} ms`, null);
  }

  private async buildIndex(spec: IndexSpec): Promise<void> {
    try {
      await this.write(true, ({ coll, bound }) => coll.createIndex(spec.keys, { ...indexOptions(spec), ...bound }));
      return;
    } catch (e) {
      if (!(e instanceof MongoServerError && (e.code === INDEX_OPTIONS_CONFLICT || e.code === INDEX_KEY_SPECS_CONFLICT))) throw e;
    }
    await this.migrateIndex(spec);
  }

  /**
   * createIndex refused: an index of that name (or of those keys) exists with
   * other options or keys. Make it match `spec`. Safe when several processes
   * start at once: each step either does what is needed or finds it done.
   */
  private async migrateIndex(spec: IndexSpec): Promise<void> {
    const indexes = await this.driverIndexes();
    const current = indexes.find((i) => i.name === spec.name);
    if (current && sameKeys(current.key, spec.keys) && !!current.unique === !!spec.unique) {
      if (current.expireAfterSeconds !== undefined && spec.expireAfterSeconds !== undefined) {
        // Only the TTL differs: collMod changes it in place (createIndex refuses with
        // IndexOptionsConflict), without a rebuild and without a moment where expiry stops.
        await this.write(true, () => this.options.command({ collMod: this.name, index: { name: spec.name, expireAfterSeconds: spec.expireAfterSeconds } }));
        this.options.onWarning?.(`index ${spec.name} on ${this.name}: expireAfterSeconds ${current.expireAfterSeconds} -> ${spec.expireAfterSeconds}`, null);
        return;
      }
    }
    // Other keys, other uniqueness, a TTL added or removed, or these keys under
    // another name: drop what stands in the way, then build the index as
    // specified. Dropping by name *and* old keys never drops an index that
    // another replica already rebuilt; creating an identical index is a no-op.
    const obstacles = indexes.filter((i) => i.name !== "_id_" && (i.name === spec.name || sameKeys(i.key, spec.keys)));
    for (const old of obstacles) await this.dropIndex(old.name, old.key as Record<string, 1 | -1>);
    await this.write(true, ({ coll, bound }) => coll.createIndex(spec.keys, { ...indexOptions(spec), ...bound }));
    this.options.onWarning?.(
      `index ${spec.name} on ${this.name} rebuilt as ${JSON.stringify({ keys: spec.keys, unique: !!spec.unique, expireAfterSeconds: spec.expireAfterSeconds })}`,
      null,
    );
  }

  async dropIndex(name: string, keys?: Record<string, 1 | -1>): Promise<void> {
    if (keys) {
      const current = (await this.driverIndexes()).find((i) => i.name === name);
      if (!current || !sameKeys(current.key, keys)) return;
    }
    try {
      await this.write(true, ({ coll, bound }) => coll.dropIndex(name, bound));
    } catch (e) {
      if (!(e instanceof MongoServerError && e.code === INDEX_NOT_FOUND)) throw e;
    }
  }

  async listIndexes(): Promise<IndexSpec[]> {
    const internal = this.options.events ? retentionIndexName(this.options.events.timeField) : null;
    return (await this.driverIndexes())
      .filter((i) => i.name !== "_id_" && i.name !== internal)
      .map((i) => ({
        name: i.name,
        keys: i.key as Record<string, 1 | -1>,
        ...(i.unique ? { unique: true } : {}),
        ...(i.expireAfterSeconds !== undefined ? { expireAfterSeconds: i.expireAfterSeconds } : {}),
      }));
  }

  private async driverIndexes(): Promise<DriverIndex[]> {
    try {
      return (await this.read(({ coll }) => coll.listIndexes().toArray())) as DriverIndex[];
    } catch (e) {
      // listIndexes on a collection not created yet: no indexes.
      if (e instanceof MongoServerError && e.code === NAMESPACE_NOT_FOUND) return [];
      throw e;
    }
  }

  /**
   * Events are stored in a regular collection here (16 MiB documents), but the
   * port promises MongoDB's time-series limit on both engines, so that what one
   * engine accepts the other does too.
   */
  private checkEventSize(doc: Doc): void {
    if (!this.options.events) return;
    const bytes = BSON.calculateObjectSize(doc);
    if (bytes > MAX_TIMESERIES_DOCUMENT_BYTES) {
      throw new RangeError(`document ${doc._id} is ${bytes} bytes; time-series collection ${this.name} accepts at most ${MAX_TIMESERIES_DOCUMENT_BYTES}`);
    }
  }

  private refuseOnEvents(op: string): void {
    // The port keeps events insert-only on both engines (MongoDB 6.3 time-series rules).
    if (this.options.events) {
      throw new Error(`${op} is not available on time-series collection ${this.name}: events are insert-only`);
    }
  }

  /**
   * The ids of the documents among `docs` that are stored as they are: this call's own earlier
   * attempt. Another process may have stored a document under the same _id (fixed ids: the
   * default organization, a given key), which is not ours, and would make two processes each
   * believe they created it. Read from the primary with majority read concern, since a
   * secondary (a `secondaryPreferred` URI) may not have the write yet, and a "local" read can
   * confirm a write that an election later rolls back.
   */
  private async stored(coll: DriverCollection<Doc>, bound: { maxTimeMS: number }, docs: Doc[]): Promise<Set<string>> {
    const found = plain(await coll.find({ _id: { $in: docs.map((d) => d._id) } } as DriverFilter<Doc>, durableRead(bound)).toArray());
    const byId = new Map(found.map((d) => [d._id, d]));
    return new Set(docs.filter((d) => byId.has(d._id) && sameDocument(d, byId.get(d._id)!)).map((d) => d._id));
  }

  /** The driver collection a call runs on: start-up work has its own client (engine.ts clientOptions). */
  private driver(): DriverCollection<Doc> {
    return (isStartupWork() && this.options.startup) || this.coll;
  }

  private async read<R>(op: (attempt: ReadAttempt) => Promise<R>): Promise<R> {
    try {
      return await withRetry((a) => op({ ...a, coll: this.driver(), bound: { signal: a.signal, maxTimeMS: serverTimeLimit(a) } }), {
        idempotent: true,
        policy: this.options.retry,
        onRetry: (n, e) => this.warnRetry(n, e),
      });
    } catch (e) {
      throw translate(e);
    }
  }

  /**
   * A write, retried within the deadline. Non-idempotent writes are re-sent
   * only when no earlier attempt reached the wire; idempotent ones learn
   * whether an earlier attempt may have been applied.
   */
  private async write<R>(idempotent: boolean, op: (attempt: WriteAttempt) => Promise<R>): Promise<R> {
    const { tracker } = this.options;
    const tokens: string[] = [];
    try {
      return await withRetry(
        (a) => {
          const earlierMaybeSent = tokens.some((t) => tracker.sent(t));
          const comment = tracker.open();
          tokens.push(comment);
          const coll = this.driver();
          const limit = serverTimeLimit(a);
          // The URI's write concern with the time left as its wtimeout. Built field by field: a
          // WriteConcern also carries the legacy `wtimeout`, which the driver would take first.
          const writeConcern: WriteConcernSettings = { w: coll.writeConcern?.w, journal: coll.writeConcern?.journal, wtimeoutMS: limit };
          return op({ ...a, coll, earlierMaybeSent, bound: { comment, maxTimeMS: limit, writeConcern } });
        },
        {
          idempotent,
          write: true,
          wasSent: (n) => tracker.sent(tokens[n - 1]),
          policy: this.options.retry,
          onRetry: (n, e) => this.warnRetry(n, e),
        },
      );
    } catch (e) {
      throw translate(e);
    } finally {
      for (const t of tokens) tracker.close(t);
    }
  }

  private warnRetry(attempt: number, e: unknown): void {
    this.options.onWarning?.(`MongoDB operation on ${this.name} failed (attempt ${attempt}); retrying`, e);
  }
}

function indexOptions(spec: IndexSpec): Document {
  return {
    name: spec.name,
    ...(spec.unique ? { unique: true } : {}),
    ...(spec.expireAfterSeconds !== undefined ? { expireAfterSeconds: spec.expireAfterSeconds } : {}),
  };
}

function sameKeys(a: Record<string, unknown>, b: Record<string, unknown>): boolean {
  const ea = Object.entries(a);
  const eb = Object.entries(b);
  return ea.length === eb.length && ea.every(([k, v], i) => eb[i][0] === k && Number(eb[i][1]) === Number(v));
}

function driverFind(options: FindOptions): Document {
  const out: Document = {};
  if (options.sort) out.sort = options.sort;
  if (options.skip) out.skip = options.skip;
  if (options.limit) out.limit = options.limit;
  if (options.projection) out.projection = options.projection;
  return out;
}

/**
 * Whether a document read back is the one written: the same fields and values in any order (the
 * server puts _id first), undefined stored as null (the driver's default, ignoreUndefined off).
 */
function sameDocument(written: Doc, stored: Doc): boolean {
  return BSON.EJSON.stringify(canonical(written)) === BSON.EJSON.stringify(canonical(stored));
}

function canonical(value: unknown): unknown {
  if (value === undefined) return null;
  if (Array.isArray(value)) return value.map(canonical);
  if (value !== null && typeof value === "object" && [Object.prototype, null].includes(Object.getPrototypeOf(value) as object | null)) {
    return Object.fromEntries(
      Object.entries(value)
        .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
        .map(([k, v]) => [k, canonical(v)]),
    );
  }
  return value;
}

/** Reads that may confirm an earlier attempt's write: from the primary, majority-committed (stored() says why). */
function durableRead(bound: { maxTimeMS: number }): { readPreference: "primary"; readConcern: { level: "majority" }; maxTimeMS: number } {
  return { readPreference: "primary", readConcern: { level: "majority" }, maxTimeMS: bound.maxTimeMS };
}

/** What a conditional update found already applied reports: its own earlier attempt matched. */
const APPLIED_UPDATE = { acknowledged: true, matchedCount: 1, modifiedCount: 1, upsertedCount: 0, upsertedId: null };

/**
 * For an update whose filter tests a field the update changes: the filter that finds the document
 * as the update leaves it, or null when none can be built (operators other than $set/$unset, or
 * a filter with top-level operators), in which case the update is not re-sent once sent.
 * Undefined when the update is not conditional.
 */
function conditional(filter: Filter, update: Update): Document | null | undefined {
  const changed = Object.entries(update)
    .filter(([op]) => op !== "$setOnInsert")
    .flatMap(([, fields]) => Object.keys(fields ?? {}));
  const overlaps = (k: string) => changed.some((f) => f === k || f.startsWith(`${k}.`) || k.startsWith(`${f}.`));
  const tested = Object.keys(filter).filter((k) => !k.startsWith("$") && overlaps(k));
  // Fields tested inside $or, $and, $nor: the document as the update leaves it cannot be described.
  const nested = Object.entries(filter)
    .filter(([k]) => k.startsWith("$"))
    .some(([, clauses]) => ([] as unknown[]).concat(clauses).some((c) => typeof c === "object" && c !== null && conditional(c as Filter, update) !== undefined));
  if (!nested && tested.length === 0) return undefined;
  if (!isIdempotent(update) || nested || Object.keys(update).some((op) => op !== "$set" && op !== "$unset" && op !== "$setOnInsert")) return null;
  const look: Document = Object.fromEntries(Object.entries(filter).filter(([k]) => !tested.includes(k)));
  for (const [k, v] of Object.entries((update.$set ?? {}) as Record<string, unknown>)) look[k] = v;
  for (const k of Object.keys(update.$unset ?? {})) look[k] = { $exists: false };
  return look;
}

function isIdempotent(update: Update): boolean {
  return Object.keys(update).every((op) => IDEMPOTENT_OPERATORS.has(op));
}

/** Upserts get a string _id (the driver would make an ObjectId), unless the filter or update fixes one. */
function withUpsertId(filter: Filter, update: Update, upsert: boolean | undefined): Document {
  if (!upsert) return update;
  const keys = Object.keys(update);
  if (keys.length === 0 || !keys.every((k) => k.startsWith("$"))) return update; // the driver reports it
  if (filter._id !== undefined) return update;
  const sets = ["$set", "$setOnInsert"].some((op) => (update[op] as Record<string, unknown> | undefined)?._id !== undefined);
  if (sets) return update;
  const setOnInsert = { ...((update.$setOnInsert as Record<string, unknown> | undefined) ?? {}), _id: newDocumentId() };
  return { ...update, $setOnInsert: setOnInsert };
}

function isDuplicate(e: unknown): boolean {
  return e instanceof MongoServerError && e.code === 11000;
}

/** The first per-document failure of an ordered insertMany, if the server reported one. */
function firstWriteError(e: unknown): { index: number; code: number } | null {
  if (!(e instanceof MongoBulkWriteError)) return null;
  // The driver types writeErrors as one error or a list, depending on how many failed.
  const errors = ([] as WriteError[]).concat(e.writeErrors);
  const first = errors.filter((w) => w && typeof w.index === "number").sort((a, b) => a.index - b.index)[0];
  return first ? { index: first.index, code: Number(first.code) } : null;
}

/**
 * Documents as stored: the BSON reader turns every object with `$ref` and `$id` keys into a DBRef
 * instance, which user data (metadata) may hold as a plain object, and the embedded engine hands
 * back as one. Replaced in place, only where one occurs.
 */
function plain<V>(value: V): V {
  if (value instanceof BSON.DBRef) {
    return { $ref: value.collection, $id: plain(value.oid), ...(value.db ? { $db: value.db } : {}), ...plain(value.fields) } as V;
  }
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) value[i] = plain(value[i] as unknown);
  } else if (value !== null && typeof value === "object" && !(value instanceof Date) && Object.getPrototypeOf(value) === Object.prototype) {
    for (const [k, v] of Object.entries(value)) if (v !== null && typeof v === "object") (value as Record<string, unknown>)[k] = plain(v);
  }
  return value;
}

/** A document BSON cannot hold (a key with a NUL character) as UnstorableDocumentError, naming it; other errors as they are. */
function unstorable(e: unknown, docs: Doc[]): unknown {
  // insertMany's serialization runs inside the bulk write, which wraps what it throws (retry.ts unwrapBulk).
  const inner: unknown = e instanceof MongoBulkWriteError && e.errorResponse instanceof Error ? e.errorResponse : e;
  if (!(inner instanceof BSON.BSONError && /must not contain null bytes/.test(inner.message))) return e;
  const bad = docs.find((d) => hasNulKey(d)) ?? docs[0];
  return new UnstorableDocumentError(`document ${bad._id} cannot be stored on MongoDB: ${inner.message} (BSON keys cannot hold NUL characters)`, bad._id);
}

function hasNulKey(value: unknown): boolean {
  if (Array.isArray(value)) return value.some(hasNulKey);
  if (value === null || typeof value !== "object" || value instanceof Date) return false;
  return Object.entries(value).some(([k, v]) => k.includes("\0") || hasNulKey(v));
}

function translate(e: unknown): unknown {
  if (e instanceof MongoServerError && e.code === 11000) return new DuplicateKeyError(e.message);
  return e;
}
