// Time-series collections (screening events): documents stay on disk.
//
// A million events of ~800 bytes would need ~2.5 GB as JavaScript objects, far
// over the 400 MB budget. So a row is only where its record lies in a journal
// or data file (file, offset, length), a sequence number that names it in
// delete records whatever file it moves to, and its index keys. Reading a
// document is a positional read of one record plus decoding (~10 µs); the page
// cache, not the process, holds the bytes.

import type { CollectionOptions, Doc, IndexSpec } from "../collection.js";
import type { RecordFiles, RecordLocation } from "./files.js";
import { decodeBody, OP_PUT } from "./record.js";
import { dropIndexFrom, replaceIndexIn, SortedIndex, type IndexColumns } from "./sorted-index.js";

export interface DiskCapture {
  rows: number;
  file: Uint32Array;
  off: Float64Array;
  len: Uint32Array;
  seq: Float64Array;
  alive: Uint8Array;
  nextSeq: number;
  /** User indexes in declaration order, then the implicit time index. */
  indexes: IndexColumns[];
}

export class DiskTable {
  readonly kind = "disk" as const;
  readonly indexes: SortedIndex[] = [];
  /** MongoDB clusters time-series buckets by time; this plays that part for range scans and TTL. */
  readonly timeIndex: SortedIndex;
  private file = new Uint32Array(1024);
  private off = new Float64Array(1024);
  private len = new Uint32Array(1024);
  private seq = new Float64Array(1024);
  private alive = new Uint8Array(1024);
  private high = 0;
  private free: number[] = [];
  private live = 0;
  private nextSeq = 1;

  constructor(
    readonly name: string,
    public options: CollectionOptions,
    private readonly files: RecordFiles,
  ) {
    this.timeIndex = new SortedIndex({ name: "$time", keys: { [this.timeField]: 1 } });
  }

  get timeField(): string {
    return this.options.timeseries!.timeField;
  }

  get liveCount(): number {
    return this.live;
  }

  plannable(): SortedIndex[] {
    return [...this.indexes, this.timeIndex];
  }

  rowForId(): number | undefined {
    return undefined;
  }

  /** MongoDB refuses a time-series document without a valid date in the time field; so do we. */
  validate(doc: Doc): void {
    const t = doc[this.timeField];
    if (!(t instanceof Date) || Number.isNaN(t.getTime())) {
      throw new TypeError(`'${this.timeField}' must be present and contain a valid date (time-series collection ${this.name})`);
    }
  }

  insert(doc: Doc, loc: RecordLocation): number {
    const row = this.free.pop() ?? this.high++;
    this.grow(this.high);
    this.file[row] = loc.file;
    this.off[row] = loc.off;
    this.len[row] = loc.len;
    this.seq[row] = this.nextSeq++;
    this.alive[row] = 1;
    this.live++;
    for (const index of this.indexes) index.insert(row, doc);
    this.timeIndex.insert(row, doc);
    return row;
  }

  remove(row: number): void {
    for (const index of this.indexes) index.remove(row);
    this.timeIndex.remove(row);
    this.alive[row] = 0;
    this.live--;
    this.free.push(row);
  }

  isAlive(row: number): boolean {
    return row < this.high && this.alive[row] === 1;
  }

  read(row: number): Doc {
    const rec = this.files.read(this.location(row));
    if (rec.op !== OP_PUT) throw new Error(`row ${row} of ${this.name} points at a record of type ${rec.op} (internal error)`);
    return decodeBody<Doc>(rec.body);
  }

  location(row: number): RecordLocation {
    return { file: this.file[row], off: this.off[row], len: this.len[row] };
  }

  seqOf(row: number): number {
    return this.seq[row];
  }

  relocate(row: number, loc: RecordLocation): void {
    this.file[row] = loc.file;
    this.off[row] = loc.off;
    this.len[row] = loc.len;
  }

  *liveRows(): Generator<number> {
    for (let row = 0; row < this.high; row++) if (this.alive[row] === 1) yield row;
  }

  /** Row of each live sequence number: built only when replay meets a delete. */
  seqMap(): Map<number, number> {
    const map = new Map<number, number>();
    for (let row = 0; row < this.high; row++) if (this.alive[row] === 1) map.set(this.seq[row], row);
    return map;
  }

  /** Sequence number the next insert will get (replay keeps seq maps current with it). */
  get upcomingSeq(): number {
    return this.nextSeq;
  }

  addIndex(spec: IndexSpec): void {
    this.indexes.push(this.buildIndex(spec));
  }

  /** Puts spec in place of the index of the same name; rebuilt (reading every event) only when its keys differ. */
  replaceIndex(spec: IndexSpec): void {
    replaceIndexIn(this.indexes, spec, (sp) => this.buildIndex(sp));
  }

  dropIndex(name: string): boolean {
    return dropIndexFrom(this.indexes, name);
  }

  private buildIndex(spec: IndexSpec): SortedIndex {
    const index = new SortedIndex(spec);
    for (const row of this.liveRows()) index.insert(row, this.read(row));
    return index;
  }

  capture(): DiskCapture {
    const n = this.high;
    return {
      rows: n,
      file: this.file.slice(0, n),
      off: this.off.slice(0, n),
      len: this.len.slice(0, n),
      seq: this.seq.slice(0, n),
      alive: this.alive.slice(0, n),
      nextSeq: this.nextSeq,
      indexes: [...this.indexes, this.timeIndex].map((i) => i.capture(n)),
    };
  }

  /** Restores a snapshot's rows and index columns (no re-sorting, no document reads). */
  load(specs: IndexSpec[], c: DiskCapture): void {
    for (const spec of specs) this.indexes.push(new SortedIndex(spec));
    this.high = c.rows;
    // Fresh arrays (never views of the snapshot buffer, see state.ts), with room to grow.
    const cap = Math.max(1024, Math.ceil(c.rows * 1.125));
    this.file = new Uint32Array(cap);
    this.off = new Float64Array(cap);
    this.len = new Uint32Array(cap);
    this.seq = new Float64Array(cap);
    this.alive = new Uint8Array(cap);
    this.file.set(c.file);
    this.off.set(c.off);
    this.len.set(c.len);
    this.seq.set(c.seq);
    this.alive.set(c.alive);
    this.nextSeq = c.nextSeq;
    this.free = [];
    this.live = 0;
    for (let row = c.rows - 1; row >= 0; row--) {
      if (c.alive[row] === 1) this.live++;
      else this.free.push(row);
    }
    const all = [...this.indexes, this.timeIndex];
    all.forEach((index, i) => index.load(c.indexes[i]));
  }

  private grow(n: number): void {
    if (this.alive.length >= n) return;
    const cap = Math.max(n, Math.ceil(this.alive.length * 1.5));
    const widen = <A extends Uint8Array | Uint32Array | Float64Array>(old: A, make: (n: number) => A): A => {
      const next = make(cap);
      next.set(old);
      return next;
    };
    this.file = widen(this.file, (k) => new Uint32Array(k));
    this.off = widen(this.off, (k) => new Float64Array(k));
    this.len = widen(this.len, (k) => new Uint32Array(k));
    this.seq = widen(this.seq, (k) => new Float64Array(k));
    this.alive = widen(this.alive, (k) => new Uint8Array(k));
  }
}
