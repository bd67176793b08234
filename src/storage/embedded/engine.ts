// The embedded engine: one data directory, one process, durability from the
// journal, start-up from the latest snapshot plus the journal after it.
//
// Every change follows the same order, synchronously, in one turn of the event
// loop: validate, encode the record, append it to the journal, apply it in
// memory. The caller's promise then waits for the group commit. So memory and
// journal see changes in the same order, and replaying the journal rebuilds
// exactly the state that was acknowledged (plus, possibly, writes that were
// written but not yet acknowledged when the process died, which is allowed).

import fs from "node:fs";
import path from "node:path";
import {
  type Collection,
  type CollectionOptions,
  type Database,
  type Doc,
  type IndexSpec,
} from "../collection.js";
import { EmbeddedCollection } from "./collection.js";
import { DiskTable } from "./disk-table.js";
import { fileName, parseFileName, RecordFiles, type FileKind, type RecordLocation } from "./files.js";
import { CorruptJournalError, Journal, nodeJournalIo, scanSegment, type JournalIo } from "./journal.js";
import { acquireLock, type DirectoryLock, type LockOptions } from "./lock.js";
import { RANK_DATE } from "./keys.js";
import { MemoryTable } from "./memory-table.js";
import type { Table } from "./query.js";
import { relocateSparseFiles, type Relocation } from "./relocation.js";
import type { DiskCapture } from "./disk-table.js";
import type { SortedIndex } from "./sorted-index.js";
import {
  decodeBody,
  encodeRecord,
  OP_CREATE_COLLECTION,
  OP_CREATE_INDEX,
  OP_DELETE,
  OP_PUT,
  OP_SEGMENT_START,
  OP_SET_OPTIONS,
  OP_TS_DELETE,
  type DecodedRecord,
} from "./record.js";
import { readSnapshot, writeSnapshot } from "./snapshot.js";
import { decodeDiskRows, encodeDiskRows, type SnapshotState } from "./state.js";

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
  /** Non-fatal problems (a failed compaction or TTL sweep). Default: console.warn. */
  onWarning?: (message: string, error: unknown) => void;
}

export interface RecoveryReport {
  snapshot: string | null;
  replayedSegments: number;
  replayedRecords: number;
  /** Bytes of a torn last record that were cut off. */
  discardedTailBytes: number;
  durationMs: number;
}

export interface CollectionDescription {
  name: string;
  options: CollectionOptions;
  indexes: IndexSpec[];
  count: number;
}

const DEFAULT_THRESHOLD = 64 * 1024 * 1024;
const COMPACTION_RETRY_MS = 30_000;

interface ReplayState {
  previousJournal: number;
  seqMaps: Map<string, Map<number, number>>;
}

export class EmbeddedDatabase implements Database {
  readonly engine = "embedded" as const;
  recovery!: RecoveryReport;
  private readonly tables = new Map<string, Table>();
  private readonly handles = new Map<string, EmbeddedCollection<Doc>>();
  private readonly files: RecordFiles;
  private journal!: Journal;
  private replayFrom = 0;
  private nextFileNo = 1;
  private snapshotNo = 0;
  private replayBytes = 0;
  private lastSnapshotBytes = 0;
  private compacting: Promise<void> | undefined;
  private compactionBlockedUntil = 0;
  private closed = false;
  private ttlTimer: NodeJS.Timeout | undefined;
  private readonly threshold: number;
  private readonly warn: (message: string, error: unknown) => void;

  private constructor(
    readonly dataDir: string,
    private readonly options: EmbeddedOptions,
    private readonly lock: DirectoryLock,
  ) {
    this.files = new RecordFiles(dataDir);
    this.threshold = options.compactionThresholdBytes ?? DEFAULT_THRESHOLD;
    this.warn = options.onWarning ?? ((message, error) => console.warn(`parapet storage: ${message}`, error));
  }

  static async open(options: EmbeddedOptions): Promise<EmbeddedDatabase> {
    const dir = path.resolve(options.dataDir);
    fs.mkdirSync(dir, { recursive: true });
    const lock = acquireLock(dir, options.lock);
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
      if (
        existing.options.timeseries &&
        options.expireAfterSeconds !== undefined &&
        options.expireAfterSeconds !== existing.options.expireAfterSeconds
      ) {
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
      await this.compacting?.catch(() => undefined);
      if (!this.journal.failed) {
        await this.journal.durable();
        // A snapshot on the way out makes the next start-up a snapshot load with no replay.
        if (this.replayBytes > 0) await this.runCompaction().catch((e: unknown) => this.warn("compaction at close failed", e));
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
    this.compacting ??= this.runCompaction().finally(() => {
      this.compacting = undefined;
    });
    return this.compacting;
  }

  /** Deletes documents whose TTL passed at `now`; returns how many. The timer calls it every ttlSweepIntervalMs. */
  async sweepExpired(now: Date = new Date()): Promise<number> {
    this.assertUsable();
    let removed = 0;
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
        const [from, to] =
          index.fields[0].dir === 1
            ? [index.seek(edge, false), index.seek(cutoff, false)]
            : [index.seek(cutoff, true), index.seek(edge, false)];
        for (const row of index.rows(from, to)) expired.add(row);
      }
      if (expired.size > 0) {
        this.deleteRows(table, [...expired]);
        removed += expired.size;
      }
    }
    if (removed > 0) await this.journal.durable();
    return removed;
  }

  /** Collections with their options and indexes, for export and migration. */
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
          const loc = this.append(encodeRecord(OP_PUT, table.name, doc));
          table.insert(doc, loc);
        }
      }
    } catch (e) {
      // Earlier documents of the batch are in the journal; wait for them before reporting.
      return this.journal.durable().then(
        () => Promise.reject(e),
        () => Promise.reject(e),
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
    if (same) {
      if (sameIndex(same.spec, spec)) return;
      throw new Error(`an index named ${spec.name} already exists on ${table.name} with a different specification`);
    }
    const sameKeys = table.indexes.find((i) => JSON.stringify(i.spec.keys) === JSON.stringify(spec.keys));
    if (sameKeys) throw new Error(`index ${sameKeys.spec.name} on ${table.name} already has keys ${JSON.stringify(spec.keys)}`);
    const own = structuredClone(spec);
    table.addIndex(own); // throws DuplicateKeyError before anything is journaled
    this.append(encodeRecord(OP_CREATE_INDEX, table.name, own));
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
    this.replayBytes += rec.length;
    return loc;
  }

  private maybeCompact(): void {
    if (this.compacting || this.closed || this.journal.failed) return;
    if (this.replayBytes < Math.max(this.threshold, this.lastSnapshotBytes)) return;
    if (Date.now() < this.compactionBlockedUntil) return;
    this.compact().catch((e: unknown) => {
      this.compactionBlockedUntil = Date.now() + COMPACTION_RETRY_MS;
      this.warn("compaction failed; the journal keeps growing until the next attempt", e);
    });
  }

  private async runCompaction(): Promise<void> {
    const covered = this.replayBytes;
    const replayFrom = this.nextFileNo++;
    this.journal.rotate(replayFrom);
    const collections = this.captureCollections();
    // The snapshot may only cover what is on disk: its disk rows point into these segments.
    await this.journal.durable();

    const disk = collections.flatMap((c) => (c.kind === "disk" ? [{ name: c.name, capture: c.capture }] : []));
    const moved: Relocation = await relocateSparseFiles(
      this.dataDir,
      this.files,
      disk,
      this.options.relocateBelowLiveRatio ?? 0.5,
      this.journal.segment,
      () => this.nextFileNo++,
      (this.options.io ?? nodeJournalIo).fsyncDir,
    );
    const referenced = referencedFiles(disk, this.files);
    const snapshotNo = this.nextFileNo++;
    const state: SnapshotState = {
      version: 1,
      replayFrom,
      nextFileNo: this.nextFileNo,
      files: referenced,
      collections: collections.map((c) =>
        c.kind === "disk"
          ? { name: c.name, options: c.options, indexes: c.indexes, kind: "disk", rows: encodeDiskRows(c.capture) }
          : c,
      ),
    };
    let written: { file: string; bytes: number };
    try {
      written = await writeSnapshot(this.dataDir, snapshotNo, state);
    } catch (e) {
      if (moved.file !== undefined) this.files.remove(moved.file);
      throw e;
    }
    // The new snapshot is durable: what it supersedes can go.
    const previousSnapshot = this.snapshotNo;
    this.snapshotNo = snapshotNo;
    this.replayFrom = replayFrom;
    this.replayBytes -= covered;
    this.lastSnapshotBytes = written.bytes;
    for (const m of moved.rows) {
      const table = this.tables.get(m.table);
      if (table?.kind === "disk" && table.isAlive(m.row) && table.seqOf(m.row) === m.seq) table.relocate(m.row, m.loc);
    }
    if (previousSnapshot) fs.rmSync(path.join(this.dataDir, fileName("snapshot", previousSnapshot)), { force: true });
    const keep = new Set(referenced.map((f) => f.no));
    for (const no of this.files.numbers()) {
      if (keep.has(no)) continue;
      const kind = this.files.kindOf(no);
      if (kind === "data" || (kind === "journal" && no < replayFrom)) this.files.remove(no);
    }
  }

  private captureCollections(): CapturedCollection[] {
    return [...this.tables.values()].map((t): CapturedCollection => {
      const base = { name: t.name, options: structuredClone(t.options), indexes: t.indexes.map((i) => i.spec) };
      return t.kind === "memory" ? { ...base, kind: "memory", docs: t.capture() } : { ...base, kind: "disk", capture: t.capture() };
    });
  }

  private recover(): void {
    const started = performance.now();
    const dir = this.dataDir;
    const entries = fs.readdirSync(dir);
    for (const name of entries) if (name.endsWith(".tmp") && !name.startsWith("LOCK")) fs.rmSync(path.join(dir, name), { force: true });
    const parsed = entries.map((n) => parseFileName(n)).filter((p): p is { kind: FileKind; no: number } => !!p);
    const snapshots = parsed.filter((p) => p.kind === "snapshot").sort((a, b) => b.no - a.no);

    let state: SnapshotState | undefined;
    let snapshotFile: string | null = null;
    if (snapshots.length > 0) {
      snapshotFile = path.join(dir, fileName("snapshot", snapshots[0].no));
      state = readSnapshot<SnapshotState>(snapshotFile);
      this.snapshotNo = snapshots[0].no;
      this.lastSnapshotBytes = fs.statSync(snapshotFile).size;
      this.loadState(state, snapshotFile);
      for (const old of snapshots.slice(1)) fs.rmSync(path.join(dir, fileName("snapshot", old.no)), { force: true });
    }
    this.replayFrom = state?.replayFrom ?? 0;
    const referenced = new Set((state?.files ?? []).map((f) => f.no));
    for (const f of state?.files ?? []) {
      const file = path.join(dir, fileName(f.kind, f.no));
      if (!fs.existsSync(file)) throw new CorruptJournalError(file, 0, `snapshot ${snapshotFile} references this file and it is missing`);
    }

    const journals = parsed.filter((p) => p.kind === "journal" && p.no >= this.replayFrom).sort((a, b) => a.no - b.no);
    if (state && journals[0]?.no !== state.replayFrom) {
      const file = path.join(dir, fileName("journal", state.replayFrom));
      throw new CorruptJournalError(file, 0, `snapshot ${snapshotFile} continues in this journal segment and it is missing`);
    }
    // Without a snapshot the first segment must be the very first one (it follows "journal 0").
    const replay: ReplayState = { previousJournal: state ? -1 : 0, seqMaps: new Map() };
    let replayedRecords = 0;
    let discardedTailBytes = 0;
    let lastEnd = 0;
    journals.forEach((j, i) => {
      const file = path.join(dir, fileName("journal", j.no));
      const isLast = i === journals.length - 1;
      if (!this.files.has(j.no)) this.files.register(j.no, "journal");
      let first = true;
      const result = scanSegment(file, fs.readFileSync(file), isLast, (rec, off, len) => {
        if (first) {
          first = false;
          if (rec.op !== OP_SEGMENT_START) throw new CorruptJournalError(file, off, "segment does not begin with its start record");
          const { previous } = decodeBody<{ previous: number }>(rec.body);
          if (replay.previousJournal >= 0 && previous !== replay.previousJournal) {
            throw new CorruptJournalError(file, off, `segment follows journal ${previous}, but the segment before it on disk is ${replay.previousJournal}: a segment is missing`);
          }
          return;
        }
        this.applyRecord(rec, { file: j.no, off, len }, replay);
        this.replayBytes += len;
        replayedRecords++;
      });
      replay.previousJournal = j.no;
      if (result.tornBytes > 0) {
        discardedTailBytes += result.tornBytes;
        truncateDurably(file, result.end);
      }
      if (isLast) lastEnd = result.end;
    });

    // Left by an interrupted compaction: covered by the snapshot and holding no live record.
    for (const p of parsed) {
      const unneeded = (p.kind === "journal" && p.no < this.replayFrom) || p.kind === "data";
      if (unneeded && !referenced.has(p.no)) fs.rmSync(path.join(dir, fileName(p.kind, p.no)), { force: true });
    }
    this.nextFileNo = Math.max(state?.nextFileNo ?? 1, ...parsed.map((p) => p.no + 1));

    const io = this.options.io ?? nodeJournalIo;
    const last = journals[journals.length - 1];
    if (last && lastEnd > 0) {
      const fd = fs.openSync(path.join(dir, fileName("journal", last.no)), "r+");
      this.files.register(last.no, "journal", fd);
      this.journal = new Journal(dir, this.files, io, last.no, fd, lastEnd);
    } else if (last) {
      // Created but not even its start record survived: start it again under the same number,
      // which the snapshot may name as its continuation.
      const previous = journals.length > 1 ? journals[journals.length - 2].no : 0;
      this.journal = Journal.create(dir, this.files, io, last.no, previous, true);
    } else {
      this.journal = Journal.create(dir, this.files, io, this.nextFileNo++, 0);
    }
    this.recovery = {
      snapshot: snapshotFile,
      replayedSegments: journals.length,
      replayedRecords,
      discardedTailBytes,
      durationMs: performance.now() - started,
    };
  }

  private loadState(state: SnapshotState, file: string): void {
    if (state.version !== 1) throw new Error(`snapshot ${file}: unsupported state version ${String(state.version)}`);
    for (const f of state.files) this.files.register(f.no, f.kind);
    for (const c of state.collections) {
      const table = this.createTable(c.name, c.options);
      if (table.kind === "memory" && c.kind === "memory") {
        for (const spec of c.indexes) table.addIndex(spec);
        for (const doc of c.docs) table.insert(doc);
      } else if (table.kind === "disk" && c.kind === "disk") {
        table.load(c.indexes, decodeDiskRows(c.rows));
      } else {
        throw new Error(`snapshot ${file}: collection ${c.name} has inconsistent kind`);
      }
    }
  }

  private applyRecord(rec: DecodedRecord, loc: RecordLocation, replay: ReplayState): void {
    const name = rec.collection;
    switch (rec.op) {
      case OP_CREATE_COLLECTION:
        if (!this.tables.has(name)) this.createTable(name, decodeBody<CollectionOptions>(rec.body));
        return;
      case OP_SET_OPTIONS:
        this.tableOrThrow(name).options = decodeBody<CollectionOptions>(rec.body);
        return;
      case OP_CREATE_INDEX: {
        const table = this.tableOrThrow(name);
        const spec = decodeBody<IndexSpec>(rec.body);
        if (!table.indexes.some((i) => i.spec.name === spec.name)) table.addIndex(spec);
        return;
      }
      case OP_PUT: {
        const table = this.tableOrThrow(name);
        const doc = decodeBody<Doc>(rec.body);
        if (table.kind === "memory") table.put(doc);
        else {
          const seq = table.upcomingSeq;
          const row = table.insert(doc, loc);
          replay.seqMaps.get(name)?.set(seq, row);
        }
        return;
      }
      case OP_DELETE: {
        const table = this.tableOrThrow(name);
        if (table.kind !== "memory") throw new Error(`delete-by-id record for time-series collection ${name}`);
        for (const id of decodeBody<string[]>(rec.body)) {
          const row = table.rowForId(id);
          if (row !== undefined) table.remove(row);
        }
        return;
      }
      case OP_TS_DELETE: {
        const table = this.tableOrThrow(name);
        if (table.kind !== "disk") throw new Error(`time-series delete record for collection ${name}`);
        let map = replay.seqMaps.get(name);
        if (!map) {
          map = table.seqMap();
          replay.seqMaps.set(name, map);
        }
        for (const seq of decodeBody<number[]>(rec.body)) {
          const row = map.get(seq);
          if (row !== undefined) {
            table.remove(row);
            map.delete(seq);
          }
        }
        return;
      }
      case OP_SEGMENT_START:
        throw new Error("segment start record in the middle of a segment");
      default:
        throw new Error(`unknown record type ${rec.op}`);
    }
  }
}

type CapturedCollection =
  | { name: string; options: CollectionOptions; indexes: IndexSpec[]; kind: "memory"; docs: Doc[] }
  | { name: string; options: CollectionOptions; indexes: IndexSpec[]; kind: "disk"; capture: DiskCapture };

function referencedFiles(disk: { capture: DiskCapture }[], files: RecordFiles): { no: number; kind: FileKind }[] {
  const seen = new Set<number>();
  for (const { capture: c } of disk) {
    for (let r = 0; r < c.rows; r++) if (c.alive[r] === 1) seen.add(c.file[r]);
  }
  return [...seen].sort((a, b) => a - b).map((no) => ({ no, kind: files.kindOf(no) ?? "journal" }));
}

function truncateDurably(file: string, length: number): void {
  const fd = fs.openSync(file, "r+");
  try {
    fs.ftruncateSync(fd, length);
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
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
  return (
    JSON.stringify(a.keys) === JSON.stringify(b.keys) &&
    !!a.unique === !!b.unique &&
    a.expireAfterSeconds === b.expireAfterSeconds
  );
}
