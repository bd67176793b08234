// The embedded engine: one data directory, one process, durability from the
// journal, start-up from the latest snapshot plus the journal after it.
//
// Every change follows the same order, synchronously, in one turn of the event
// loop: validate, encode the record, append it to the journal, apply it in
// memory. The caller's promise then waits for the group commit. So memory and
// journal see changes in the same order, and replaying the journal rebuilds
// exactly the state that was acknowledged (plus, possibly, writes that were
// written but not yet acknowledged when the process died, which is allowed).

import path from "node:path";
import { MAX_TIMESERIES_DOCUMENT_BYTES, type Collection, type CollectionOptions, type Database, type Doc, type IndexSpec } from "../collection.js";
import { bsonDocumentBytes } from "../document-size.js";
import { EmbeddedCollection } from "./collection.js";
import { Compactor } from "./compaction.js";
import { DiskTable } from "./disk-table.js";
import { consoleStorageLog, RecordFiles, secureDirectory, type RecordLocation, type StorageLog } from "./files.js";
import { DEFAULT_SEGMENT_BYTES, nodeJournalIo, type Journal, type JournalIo } from "./journal.js";
import { acquireLock, type DirectoryLock, type LockOptions } from "./lock.js";
import { RANK_DATE } from "./keys.js";
import { MemoryTable } from "./memory-table.js";
import type { Table } from "./query.js";
import { sameStructure, type SortedIndex } from "./sorted-index.js";
import { encodeRecord, OP_CREATE_COLLECTION, OP_CREATE_INDEX, OP_DELETE, OP_DROP_INDEX, OP_PUT, OP_SET_OPTIONS, OP_TS_DELETE } from "./record.js";
import { recoverDirectory, type RecoveryReport } from "./recovery.js";

export type { RecoveryReport } from "./recovery.js";

export interface EmbeddedOptions {
  dataDir: string;
  /** Journal bytes after which a snapshot is taken (at least the last snapshot's size, to bound write amplification). Default 64 MiB. */
  compactionThresholdBytes?: number;
  /** TTL sweep period; 0 disables the timer (tests call sweepExpired). Default 60 s, as MongoDB's TTL monitor. */
  ttlSweepIntervalMs?: number;
  /** Files whose live time-series bytes fall below this share are rewritten by compaction. Default 0.5. */
  relocateBelowLiveRatio?: number;
  /** Test hook: the journal's write/fsync calls. */
  io?: JournalIo;
  lock?: LockOptions;
  /** Non-fatal problems (a failed compaction or TTL sweep). Default: `log.warn`. */
  onWarning?: (message: string, error: unknown) => void;
  /** Recovery notes (discarded tails, tightened permissions) and the cause of a write failure. Default: stderr for problems. */
  log?: StorageLog;
  /**
   * Journal segment file names whose damage (truncation, corrupt tail) the operator accepts losing
   * (PARAPET_ACCEPT_JOURNAL_LOSS, docs/storage.md#damaged-journal). Default: none, refuse to start.
   */
  acceptJournalLoss?: string[];
  /** Size of a journal segment (preallocated). Default 64 MiB. */
  segmentBytes?: number;
}

export interface CollectionDescription {
  name: string;
  options: CollectionOptions;
  indexes: IndexSpec[];
  count: number;
}

export class EmbeddedDatabase implements Database {
  readonly engine = "embedded" as const;
  recovery!: RecoveryReport;
  private readonly tables = new Map<string, Table>();
  private readonly handles = new Map<string, EmbeddedCollection<Doc>>();
  private readonly files: RecordFiles;
  private journal!: Journal;
  private compaction!: Compactor;
  private closed = false;
  private ttlTimer: NodeJS.Timeout | undefined;
  private readonly warn: (message: string, error: unknown) => void;

  private constructor(
    readonly dataDir: string,
    private readonly options: EmbeddedOptions,
    private readonly lock: DirectoryLock,
  ) {
    this.files = new RecordFiles(dataDir);
    const log = options.log ?? consoleStorageLog;
    this.warn = options.onWarning ?? ((message, error) => log.warn({ err: String(error) }, message));
  }

  static async open(options: EmbeddedOptions): Promise<EmbeddedDatabase> {
    const dir = path.resolve(options.dataDir);
    const log = options.log ?? consoleStorageLog;
    secureDirectory(dir, log);
    const lock = await acquireLock(dir, { ...options.lock, log });
    const db = new EmbeddedDatabase(dir, options, lock);
    try {
      db.recover();
    } catch (e) {
      db.files.closeAll();
      lock.release();
      throw e;
    }
    const every = options.ttlSweepIntervalMs ?? 60_000;
    if (every > 0) {
      db.ttlTimer = setInterval(() => {
        db.sweepExpired().catch((e: unknown) => db.warn("TTL sweep failed", e));
      }, every);
      db.ttlTimer.unref();
    }
    return db;
  }

  // ---- Database port -------------------------------------------------------

  async collection<T extends Doc = Doc>(name: string, options: CollectionOptions = {}): Promise<Collection<T>> {
    this.assertUsable();
    const existing = this.tables.get(name);
    if (existing) {
      // Options only matter on creation; asking for a time-series collection that is not one is a mistake to report.
      if (options.timeseries && !existing.options.timeseries) {
        throw new Error(`collection ${name} exists and is not a time-series collection`);
      }
      if (existing.options.timeseries && options.expireAfterSeconds !== undefined && options.expireAfterSeconds !== existing.options.expireAfterSeconds) {
        const next = { ...existing.options, expireAfterSeconds: options.expireAfterSeconds };
        this.append(encodeRecord(OP_SET_OPTIONS, name, next));
        existing.options = next;
        await this.journal.durable();
      }
    } else {
      validateName(name);
      if (options.timeseries && !options.timeseries.timeField) throw new TypeError("timeseries.timeField is required");
      this.append(encodeRecord(OP_CREATE_COLLECTION, name, options));
      this.createTable(name, structuredClone(options));
      await this.journal.durable();
    }
    return this.handle(name) as unknown as Collection<T>;
  }

  async ping(): Promise<void> {
    this.assertUsable();
  }

  async close(): Promise<void> {
    if (this.closed) return;
    if (this.ttlTimer) clearInterval(this.ttlTimer);
    try {
      await this.compaction.running?.catch(() => undefined);
      if (!this.journal.failed) {
        await this.journal.durable();
        // A snapshot on the way out makes the next start-up a snapshot load with no replay.
        if (this.compaction.replayBytes > 0) await this.compaction.run().catch((e: unknown) => this.warn("compaction at close failed", e));
        await this.journal.durable();
      }
    } finally {
      this.closed = true;
      this.files.closeAll();
      this.lock.release();
    }
  }

  // ---- maintenance ---------------------------------------------------------

  /** Takes a snapshot now (also triggered by journal size and on close). */
  compact(): Promise<void> {
    this.assertUsable();
    return this.compaction.start();
  }

  /** Deletes documents whose TTL passed at `now`; returns how many. The timer calls it every ttlSweepIntervalMs. */
  async sweepExpired(now: Date = new Date()): Promise<number> {
    this.assertUsable();
    let removed = 0;
    const deletions: Promise<void>[] = [];
    for (const table of this.tables.values()) {
      const rules: { index: SortedIndex; seconds: number }[] = [];
      if (table.kind === "disk" && table.options.expireAfterSeconds !== undefined) {
        rules.push({ index: table.timeIndex, seconds: table.options.expireAfterSeconds });
      }
      for (const index of table.indexes) {
        const seconds = index.spec.expireAfterSeconds;
        if (seconds !== undefined && index.fields.length === 1) rules.push({ index, seconds });
      }
      const expired = new Set<number>();
      for (const { index, seconds } of rules) {
        // Expired: a date (other types never expire, as in MongoDB) before now - seconds.
        const cutoff = [{ rank: RANK_DATE, val: now.getTime() - seconds * 1000 }];
        const edge = [{ rank: RANK_DATE, val: 0, edge: -1 as const }];
        const [from, to] = index.fields[0].dir === 1 ? [index.seek(edge, false), index.seek(cutoff, false)] : [index.seek(cutoff, true), index.seek(edge, false)];
        for (const row of index.rows(from, to)) expired.add(row);
      }
      if (expired.size > 0) {
        deletions.push(this.deleteRows(table, [...expired]));
        removed += expired.size;
      }
    }
    await Promise.all(deletions);
    return removed;
  }

  /** Collections with their options and indexes, for export and the transfer to MongoDB. */
  describe(): CollectionDescription[] {
    return [...this.tables.values()].map((t) => ({
      name: t.name,
      options: structuredClone(t.options),
      indexes: t.indexes.map((i) => structuredClone(i.spec)),
      count: t.liveCount,
    }));
  }

  /** Every document of a collection, as copies, in batches (export reads a million events this way). */
  *scan(name: string, batchSize = 1000): Generator<Doc[]> {
    const table = this.tableOrThrow(name);
    let batch: Doc[] = [];
    for (const row of table.liveRows()) {
      batch.push(table.kind === "memory" ? structuredClone(table.read(row)) : table.read(row));
      if (batch.length >= batchSize) {
        yield batch;
        batch = [];
      }
    }
    if (batch.length > 0) yield batch;
  }

  // ---- used by EmbeddedCollection -----------------------------------------

  assertUsable(): void {
    if (this.closed) throw new Error("the embedded database is closed");
    const failure = this.journal?.failed;
    if (failure) throw failure;
  }

  tableOrThrow(name: string): Table {
    const table = this.tables.get(name);
    if (!table) throw new Error(`collection ${name} does not exist (internal error)`);
    return table;
  }

  /** Inserts in order; on an error the earlier documents stay inserted, as MongoDB's ordered insertMany. */
  insertDocs(table: Table, docs: Doc[]): Promise<void> {
    this.assertUsable();
    try {
      for (const doc of docs) {
        if (!doc || typeof doc !== "object") throw new TypeError("a document must be an object");
        if (typeof doc._id !== "string") throw new TypeError(`a document for ${table.name} needs a string _id`);
        if (table.kind === "memory") {
          const own = structuredClone(doc);
          table.checkUnique(own);
          this.append(encodeRecord(OP_PUT, table.name, own));
          table.insert(own);
        } else {
          table.validate(doc);
          const bytes = bsonDocumentBytes(doc);
          if (bytes > MAX_TIMESERIES_DOCUMENT_BYTES) {
            throw new RangeError(
              `a document for time-series collection ${table.name} is ${bytes} BSON bytes; the limit is ${MAX_TIMESERIES_DOCUMENT_BYTES} (4 MB, as MongoDB)`,
            );
          }
          const loc = this.append(encodeRecord(OP_PUT, table.name, doc));
          table.insert(doc, loc);
        }
      }
    } catch (e) {
      // Earlier documents of the batch are in the journal; wait for them before reporting.
      return this.journal.durable().then(
        () => Promise.reject(e as Error),
        () => Promise.reject(e as Error),
      );
    } finally {
      this.maybeCompact();
    }
    return this.journal.durable();
  }

  replaceDoc(table: MemoryTable, row: number, doc: Doc): Promise<void> {
    this.assertUsable();
    table.checkUnique(doc, row);
    this.append(encodeRecord(OP_PUT, table.name, doc));
    table.replace(row, doc);
    this.maybeCompact();
    return this.journal.durable();
  }

  deleteRows(table: Table, rows: number[]): Promise<void> {
    this.assertUsable();
    if (rows.length === 0) return Promise.resolve();
    if (table.kind === "memory") {
      const ids = rows.map((row) => table.read(row)._id);
      this.append(encodeRecord(OP_DELETE, table.name, ids));
      for (const row of rows) table.remove(row);
    } else {
      const seqs = rows.map((row) => table.seqOf(row));
      this.append(encodeRecord(OP_TS_DELETE, table.name, seqs));
      for (const row of rows) table.remove(row);
    }
    this.maybeCompact();
    return this.journal.durable();
  }

  async createIndex(table: Table, spec: IndexSpec): Promise<void> {
    this.assertUsable();
    validateIndexSpec(table, spec);
    const same = table.indexes.find((i) => i.spec.name === spec.name);
    if (same && sameIndex(same.spec, spec)) return;
    const own = structuredClone(spec);
    // MongoDB keeps one index per key pattern: one of these keys under another name gives way (a renamed index).
    const renamed = table.indexes.find((i) => i.spec.name !== spec.name && JSON.stringify(i.spec.keys) === JSON.stringify(spec.keys));
    // Validated in memory first: a rebuilt unique index throws DuplicateKeyError before anything is journaled.
    if (same) table.replaceIndex(own);
    else table.addIndex(own);
    if (renamed) {
      table.dropIndex(renamed.spec.name);
      this.append(encodeRecord(OP_DROP_INDEX, table.name, renamed.spec.name));
    }
    // On replay an index of the same name is replaced: in place for a new TTL, rebuilt for other keys.
    this.append(encodeRecord(OP_CREATE_INDEX, table.name, own));
    await this.journal.durable();
  }

  async dropIndex(table: Table, name: string, keys?: Record<string, 1 | -1>): Promise<void> {
    this.assertUsable();
    const index = table.indexes.find((i) => i.spec.name === name);
    if (!index || (keys && JSON.stringify(index.spec.keys) !== JSON.stringify(keys))) return;
    table.dropIndex(name);
    this.append(encodeRecord(OP_DROP_INDEX, table.name, name));
    await this.journal.durable();
  }

  // ---- internals -----------------------------------------------------------

  private handle(name: string): EmbeddedCollection<Doc> {
    let h = this.handles.get(name);
    if (!h) {
      h = new EmbeddedCollection(this, name);
      this.handles.set(name, h);
    }
    return h;
  }

  private createTable(name: string, options: CollectionOptions): Table {
    const table = options.timeseries ? new DiskTable(name, options, this.files) : new MemoryTable(name, options);
    this.tables.set(name, table);
    return table;
  }

  private append(rec: Buffer): RecordLocation {
    const loc = this.journal.append(rec);
    this.compaction.appended(rec.length);
    return loc;
  }

  private maybeCompact(): void {
    if (!this.closed) this.compaction.maybeStart();
  }

  private recover(): void {
    const tables = {
      has: (name: string) => this.tables.has(name),
      tableOrThrow: (name: string) => this.tableOrThrow(name),
      createTable: (name: string, options: CollectionOptions) => this.createTable(name, options),
    };
    const { journal, position, report } = recoverDirectory(this.dataDir, this.files, this.options.io ?? nodeJournalIo, tables, {
      log: this.options.log ?? consoleStorageLog,
      acceptLoss: this.options.acceptJournalLoss ?? [],
      segmentBytes: this.options.segmentBytes ?? DEFAULT_SEGMENT_BYTES,
    });
    this.journal = journal;
    this.compaction = new Compactor(this.dataDir, this.files, this.tables, journal, position, this.options, this.warn);
    this.recovery = report;
  }
}

function validateName(name: string): void {
  if (!name || name.includes("$") || name.includes("\0") || name.startsWith("system.") || Buffer.byteLength(name) > 200) {
    throw new TypeError(`invalid collection name ${JSON.stringify(name)}`);
  }
}

function validateIndexSpec(table: Table, spec: IndexSpec): void {
  if (!spec.name || Object.keys(spec.keys).length === 0) throw new TypeError("an index needs a name and at least one key");
  if (table.kind === "disk" && spec.unique) {
    throw new Error(`time-series collection ${table.name} cannot have unique index ${spec.name} (MongoDB refuses them too)`);
  }
  if (spec.expireAfterSeconds !== undefined && Object.keys(spec.keys).length !== 1) {
    throw new TypeError(`TTL index ${spec.name} must have exactly one key`);
  }
}

function sameIndex(a: IndexSpec, b: IndexSpec): boolean {
  return sameStructure(a, b) && a.expireAfterSeconds === b.expireAfterSeconds;
}
