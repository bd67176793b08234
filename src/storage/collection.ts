// The narrow, driver-shaped storage port (docs/storage.md#the-port).
//
// Every repository is written against these two interfaces only. They are the
// subset of the `mongodb` driver's Collection/Db API the project uses, with the
// same filter, update and pipeline documents, so the MongoDB engine is a thin
// pass-through and the embedded engine evaluates the same documents with mingo.

export type Doc = { _id: string } & Record<string, unknown>;
export type Filter = Record<string, unknown>;
export type Update = Record<string, unknown>;
export type Sort = Record<string, 1 | -1>;

export interface FindOptions {
  sort?: Sort;
  skip?: number;
  limit?: number;
  projection?: Record<string, 0 | 1>;
}

export interface UpdateOptions {
  upsert?: boolean;
}

export interface FindOneAndUpdateOptions extends UpdateOptions {
  /** "after" returns the document as updated (MongoDB's returnDocument). */
  returnDocument?: "before" | "after";
}

export interface UpdateResult {
  matchedCount: number;
  modifiedCount: number;
  upsertedId: string | null;
}

export interface IndexSpec {
  name: string;
  keys: Record<string, 1 | -1>;
  unique?: boolean;
  /** TTL index: documents expire this many seconds after the date in the (single) key. */
  expireAfterSeconds?: number;
}

export interface CollectionOptions {
  /**
   * Time-series collection (MongoDB >= 6.3). Insert-only in practice: no unique
   * indexes, updates only on the meta field. The embedded engine stores it like
   * any other collection but keeps the same restrictions so code stays portable.
   */
  timeseries?: { timeField: string; metaField: string; granularity?: "seconds" | "minutes" | "hours" };
  /** Retention for time-series collections. */
  expireAfterSeconds?: number;
}

export interface Collection<T extends Doc = Doc> {
  readonly name: string;
  insertOne(doc: T): Promise<void>;
  insertMany(docs: T[]): Promise<void>;
  findOne(filter: Filter, options?: FindOptions): Promise<T | null>;
  find(filter: Filter, options?: FindOptions): Promise<T[]>;
  countDocuments(filter: Filter): Promise<number>;
  updateOne(filter: Filter, update: Update, options?: UpdateOptions): Promise<UpdateResult>;
  /** Added after the first draft (backwards compatible): same document shapes as updateOne. */
  updateMany(filter: Filter, update: Update, options?: UpdateOptions): Promise<UpdateResult>;
  findOneAndUpdate(filter: Filter, update: Update, options?: FindOneAndUpdateOptions): Promise<T | null>;
  deleteOne(filter: Filter): Promise<number>;
  deleteMany(filter: Filter): Promise<number>;
  aggregate<R = Record<string, unknown>>(pipeline: Record<string, unknown>[]): Promise<R[]>;
  createIndex(spec: IndexSpec): Promise<void>;
}

export interface Database {
  /** "embedded" or "mongodb": for readiness output and docs, never for branching in repositories. */
  readonly engine: "embedded" | "mongodb";
  /** Idempotent: creates the collection (and its options) on first use. */
  collection<T extends Doc = Doc>(name: string, options?: CollectionOptions): Promise<Collection<T>>;
  /** Resolves when storage is reachable; rejects otherwise (used by /readyz). */
  ping(): Promise<void>;
  /** Flushes pending writes and releases files, locks and connections. */
  close(): Promise<void>;
}

/**
 * Semantics both engines keep (the conformance suite in test/storage checks them):
 * - writes resolve only once durable (embedded: fsynced journal; MongoDB: the
 *   driver's default write concern), and reject with an Error otherwise;
 * - returned documents are copies: mutating them never changes stored data;
 * - Date values round-trip as Date objects;
 * - updates must use operators ($set, $inc, $setOnInsert, ...): a replacement
 *   document is rejected, as the driver's updateOne does;
 * - an upsert without an _id in the filter or update gets a generated string _id
 *   (never an ObjectId, so `Doc._id: string` holds on both engines);
 * - time-series collections accept inserts, reads, aggregations and deleteMany;
 *   updates, deleteOne and unique indexes are refused, as on MongoDB 6.3.
 */

/** Thrown on a unique-index violation, by both engines (MongoDB code 11000). */
export class DuplicateKeyError extends Error {
  readonly code = 11000;
  constructor(message: string) {
    super(message);
    this.name = "DuplicateKeyError";
  }
}

/**
 * Storage cannot serve the request right now: the embedded engine stopped after
 * a failed write (restart the process), or MongoDB stayed unreachable through
 * every retry. Servers map it to 503 and readiness to "not ready".
 */
export class StorageUnavailableError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "StorageUnavailableError";
  }
}
