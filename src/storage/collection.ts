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
  /**
   * Makes the index named `spec.name` match `spec` (docs/storage.md#collections-and-indexes):
   * created when missing; nothing happens when it matches. An existing index is migrated, never
   * refused, because index options are configuration (retention) and keys follow the schema: a
   * new `expireAfterSeconds` is changed in place (MongoDB: `collMod`), without a moment without
   * expiry; other keys or another `unique` rebuild it (an index of other keys under this name,
   * or of these keys under another name, is dropped first; a rebuilt unique index rejects
   * existing duplicates with DuplicateKeyError). Safe when several processes run it at once.
   */
  createIndex(spec: IndexSpec): Promise<void>;
  /**
   * Drops an index; one that does not exist counts as dropped (another process may have dropped
   * it). With `keys`, only an index of that name with those keys: a migration replacing an index
   * under the same name never drops the new one that a replica already running recreated.
   */
  dropIndex(name: string, keys?: Record<string, 1 | -1>): Promise<void>;
  /** The collection's indexes, without MongoDB's implicit `_id_` and time-series indexes. */
  listIndexes(): Promise<IndexSpec[]>;
}

export interface Database {
  /** "embedded" or "mongodb": for readiness output and docs, never for branching in repositories. */
  readonly engine: "embedded" | "mongodb";
  /** Idempotent: creates the collection (and its options) on first use. */
  collection<T extends Doc = Doc>(name: string, options?: CollectionOptions): Promise<Collection<T>>;
  /** Resolves when storage is reachable; rejects otherwise (used by /readyz). */
  ping(): Promise<void>;
  /**
   * Runs a start-up migration with no other process of this store running one (MongoDB: a lease
   * document; the embedded engine has one process per store and runs `fn` as it is).
   */
  startupMigration?<R>(what: string, fn: () => Promise<R>): Promise<R>;
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
 *   updates, deleteOne and unique indexes are refused, as on MongoDB 6.3, and a
 *   document over MAX_TIMESERIES_DOCUMENT_BYTES is refused with a RangeError.
 */

/**
 * Largest document a time-series collection accepts. MongoDB limits a time-series measurement to
 * 4 MB (not the 16 MiB of other documents); the embedded engine applies the same limit, measured
 * in BSON bytes (document-size.ts), so code that fits on one engine fits on the other.
 */
export const MAX_TIMESERIES_DOCUMENT_BYTES = 4_000_000;

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
/**
 * The engine cannot store this document as it is (MongoDB: a key holding a NUL character, which
 * BSON keys cannot). Nothing of the call was written; `documentId` names the document.
 */
export class UnstorableDocumentError extends Error {
  constructor(
    message: string,
    readonly documentId: string,
  ) {
    super(message);
    this.name = "UnstorableDocumentError";
  }
}

export class StorageUnavailableError extends Error {
  /** Seconds a client should wait before trying again (the API's Retry-After). */
  readonly retryAfterSeconds: number;

  constructor(message: string, options?: { cause?: unknown; retryAfterSeconds?: number }) {
    super(message, { cause: options?.cause });
    this.name = "StorageUnavailableError";
    // A stopped embedded engine needs its process restarted, which an orchestrator does in seconds to a minute.
    this.retryAfterSeconds = options?.retryAfterSeconds ?? 30;
  }
}
