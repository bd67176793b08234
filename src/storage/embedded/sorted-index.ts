// A secondary index of the embedded engine: rows ordered by a compound key.
//
// Key values live in per-field columns indexed by row number, and the order is a
// list of row numbers cut into chunks of at most CHUNK_MAX (a flat sorted array
// would make every out-of-order insert move a million entries; a chunked list
// moves at most a chunk). For 1M rows an index costs about 8 bytes of order plus
// 9 bytes per field, which is what keeps the events collection under its memory
// budget (docs/storage.md).

import type { IndexSpec } from "../collection.js";
import { compareKeys, keyValueOf, rankOf, RANK_ARRAY, RANK_STRING, splitPath, valueAtPath, type KeyValue } from "./keys.js";

const CHUNK_MAX = 1024;
/**
 * Equal strings decoded from different documents are different heap objects;
 * sharing them keeps an organization id column at 8 bytes a row instead of ~50.
 * A field whose values rarely repeat (request ids) stops being interned after a
 * sample: the lookups would only cost time (5% of insert CPU, measured) and memory.
 */
const INTERN_MAX = 50_000;
const INTERN_SAMPLE = 5_000;

export interface IndexField {
  readonly name: string;
  readonly path: readonly string[];
  readonly dir: 1 | -1;
}

/** One component of a search key; edge -1/+1 stands below/above every value of the rank. */
export interface ProbeKey {
  rank: number;
  val: KeyValue;
  edge?: -1 | 1;
}

export interface Position {
  c: number;
  i: number;
}

/** Column contents as written into and read back from a snapshot. */
export interface IndexColumns {
  ranks: Uint8Array[];
  vals: KeyValue[][];
  order: Int32Array;
  multikey: boolean;
}

export class SortedIndex {
  readonly fields: IndexField[];
  /** Set once any indexed value was an array: the planner then stops using the index. */
  multikey = false;
  private ranks: Uint8Array[];
  private readonly vals: KeyValue[][];
  private chunks: number[][] = [];
  private count = 0;
  private readonly interned: (Map<string, string> | undefined)[];
  private readonly internLookups: number[];
  private readonly internHits: number[];

  /** Replaced (never mutated) when only its options change: a snapshot being written holds the old object. */
  constructor(public spec: IndexSpec) {
    this.fields = Object.entries(spec.keys).map(([name, dir]) => ({ name, path: splitPath(name), dir: dir === -1 ? -1 : 1 }));
    this.ranks = this.fields.map(() => new Uint8Array(16));
    this.vals = this.fields.map(() => []);
    this.interned = this.fields.map(() => new Map());
    this.internLookups = this.fields.map(() => 0);
    this.internHits = this.fields.map(() => 0);
  }

  get name(): string {
    return this.spec.name;
  }

  get size(): number {
    return this.count;
  }

  /** The key of doc as probe components (also used for unique checks before a row exists). */
  probeFor(doc: unknown): ProbeKey[] {
    return this.fields.map((f) => {
      const v = valueAtPath(doc, f.path);
      const rank = rankOf(v);
      return { rank, val: keyValueOf(v, rank) };
    });
  }

  /** Stores doc's key for row (without placing the row in the order). */
  setKey(row: number, doc: unknown): void {
    this.ensureCapacity(row + 1);
    for (let f = 0; f < this.fields.length; f++) {
      const v = valueAtPath(doc, this.fields[f].path);
      const rank = rankOf(v);
      if (rank === RANK_ARRAY) this.multikey = true;
      this.ranks[f][row] = rank;
      this.vals[f][row] = rank === RANK_STRING ? this.intern(f, v as string) : keyValueOf(v, rank);
    }
  }

  /** Whether doc has the key already stored for row (an update that leaves it alone skips the index). */
  keyMatches(row: number, doc: unknown): boolean {
    for (let f = 0; f < this.fields.length; f++) {
      const v = valueAtPath(doc, this.fields[f].path);
      const rank = rankOf(v);
      if (this.ranks[f][row] !== rank || this.vals[f][row] !== keyValueOf(v, rank)) return false;
    }
    return true;
  }

  insert(row: number, doc: unknown): void {
    this.setKey(row, doc);
    this.place(row);
  }

  remove(row: number): void {
    const pos = this.seekRow(row);
    const chunk = this.chunks[pos.c];
    if (!chunk || chunk[pos.i] !== row) throw new Error(`index ${this.name}: row ${row} not found (internal error)`);
    chunk.splice(pos.i, 1);
    if (chunk.length === 0) this.chunks.splice(pos.c, 1);
    this.count--;
  }

  /** First position whose entry is >= probe (after=false) or > probe (after=true), in index order. */
  seek(probe: readonly ProbeKey[], after: boolean): Position {
    const pass = (row: number) => {
      const c = this.compareToProbe(row, probe);
      return after ? c > 0 : c >= 0;
    };
    return this.firstPassing(pass);
  }

  start(): Position {
    return { c: 0, i: 0 };
  }

  end(): Position {
    return { c: this.chunks.length, i: 0 };
  }

  /** Rows in [from, to), forwards or backwards. */
  *rows(from: Position, to: Position, reverse = false): Generator<number> {
    if (!reverse) {
      let { c, i } = from;
      while (c < to.c || (c === to.c && i < to.i)) {
        const chunk = this.chunks[c];
        if (!chunk || i >= chunk.length) {
          c++;
          i = 0;
          continue;
        }
        yield chunk[i++];
      }
      return;
    }
    let c = to.c;
    let i = to.i - 1;
    for (;;) {
      if (i < 0) {
        c--;
        if (c < from.c) return;
        i = this.chunks[c].length - 1;
        continue;
      }
      if (c < from.c || (c === from.c && i < from.i)) return;
      yield this.chunks[c][i--];
    }
  }

  /** Number of entries in [from, to). */
  distance(from: Position, to: Position): number {
    if (from.c > to.c || (from.c === to.c && from.i >= to.i)) return 0;
    if (from.c === to.c) return to.i - from.i;
    let n = this.chunks[from.c].length - from.i;
    for (let c = from.c + 1; c < to.c; c++) n += this.chunks[c].length;
    return n + to.i;
  }

  /** Rows (other than self) whose key equals probe: the duplicate a unique index must refuse. */
  conflict(probe: readonly ProbeKey[], self: number): number | undefined {
    for (const row of this.rows(this.seek(probe, false), this.seek(probe, true))) {
      if (row !== self) return row;
    }
    return undefined;
  }

  /** Snapshot of the columns for rows [0, rowCount). */
  capture(rowCount: number): IndexColumns {
    const order = new Int32Array(this.count);
    let k = 0;
    for (const chunk of this.chunks) for (const row of chunk) order[k++] = row;
    return {
      ranks: this.ranks.map((r) => {
        const out = new Uint8Array(rowCount);
        out.set(r.subarray(0, Math.min(rowCount, r.length)));
        return out;
      }),
      vals: this.vals.map((v) => v.slice(0, rowCount)),
      order,
      multikey: this.multikey,
    };
  }

  /** Restores columns written by capture (no sorting: the order is stored). */
  load(cols: IndexColumns): void {
    this.ranks = cols.ranks;
    for (let f = 0; f < this.fields.length; f++) this.vals[f] = cols.vals[f];
    this.multikey = cols.multikey;
    this.chunks = [];
    const half = CHUNK_MAX >> 1;
    for (let k = 0; k < cols.order.length; k += half) this.chunks.push(Array.from(cols.order.subarray(k, k + half)));
    this.count = cols.order.length;
  }

  /** Checks the order invariant; for tests. */
  verify(): void {
    let prev = -1;
    let n = 0;
    for (const chunk of this.chunks) {
      if (chunk.length === 0) throw new Error(`index ${this.name}: empty chunk`);
      for (const row of chunk) {
        if (prev >= 0 && this.compareRows(prev, row) >= 0) throw new Error(`index ${this.name}: out of order at row ${row}`);
        prev = row;
        n++;
      }
    }
    if (n !== this.count) throw new Error(`index ${this.name}: count ${this.count} but ${n} entries`);
  }

  private place(row: number): void {
    this.count++;
    const last = this.chunks[this.chunks.length - 1];
    // Time-ordered inserts (the common case for events) append without a search.
    if (!last) {
      this.chunks.push([row]);
      return;
    }
    if (this.compareRows(last[last.length - 1], row) < 0) {
      last.push(row);
      if (last.length > CHUNK_MAX) this.split(this.chunks.length - 1);
      return;
    }
    // The last entry sorts after row, so a passing entry exists.
    const { c, i } = this.firstPassing((r) => this.compareRows(r, row) > 0);
    const chunk = this.chunks[c];
    chunk.splice(i, 0, row);
    if (chunk.length > CHUNK_MAX) this.split(c);
  }

  private split(c: number): void {
    const chunk = this.chunks[c];
    const tail = chunk.splice(chunk.length >> 1);
    this.chunks.splice(c + 1, 0, tail);
  }

  private seekRow(row: number): Position {
    return this.firstPassing((r) => this.compareRows(r, row) >= 0);
  }

  /** Binary search for the first entry passing a predicate that is monotone in index order. */
  private firstPassing(pass: (row: number) => boolean): Position {
    const chunks = this.chunks;
    let lo = 0;
    let hi = chunks.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      const chunk = chunks[mid];
      if (pass(chunk[chunk.length - 1])) hi = mid;
      else lo = mid + 1;
    }
    if (lo === chunks.length) return { c: lo, i: 0 };
    const chunk = chunks[lo];
    let a = 0;
    let b = chunk.length - 1;
    while (a < b) {
      const mid = (a + b) >> 1;
      if (pass(chunk[mid])) b = mid;
      else a = mid + 1;
    }
    return { c: lo, i: a };
  }

  private compareRows(a: number, b: number): number {
    for (let f = 0; f < this.fields.length; f++) {
      const ranks = this.ranks[f];
      const vals = this.vals[f];
      const c = compareKeys(ranks[a], vals[a], ranks[b], vals[b]);
      if (c !== 0) return c * this.fields[f].dir;
    }
    return a - b;
  }

  private compareToProbe(row: number, probe: readonly ProbeKey[]): number {
    for (let f = 0; f < probe.length; f++) {
      const p = probe[f];
      const rank = this.ranks[f][row];
      let c: number;
      if (rank !== p.rank) c = rank - p.rank;
      else if (p.edge !== undefined) c = -p.edge;
      else {
        const v = this.vals[f][row];
        c = v < p.val ? -1 : v > p.val ? 1 : 0;
      }
      if (c !== 0) return c * this.fields[f].dir;
    }
    return 0;
  }

  private intern(f: number, s: string): string {
    const map = this.interned[f];
    if (!map) return s;
    const known = map.get(s);
    const lookups = ++this.internLookups[f];
    if (known !== undefined) {
      this.internHits[f]++;
      return known;
    }
    if (lookups === INTERN_SAMPLE && this.internHits[f] < lookups / 2) {
      this.interned[f] = undefined;
      return s;
    }
    if (map.size < INTERN_MAX) map.set(s, s);
    return s;
  }

  private ensureCapacity(n: number): void {
    if (this.ranks[0].length >= n) return;
    let cap = Math.max(16, this.ranks[0].length);
    while (cap < n) cap *= 2;
    this.ranks = this.ranks.map((old) => {
      const next = new Uint8Array(cap);
      next.set(old);
      return next;
    });
  }
}

/** Same keys and uniqueness: the stored entries stay valid, only options (TTL) differ. */
export function sameStructure(a: IndexSpec, b: IndexSpec): boolean {
  return JSON.stringify(a.keys) === JSON.stringify(b.keys) && !!a.unique === !!b.unique;
}

/**
 * Puts spec in place of the index of the same name in `indexes` (a table's
 * list): only the spec changes when the structure is the same (a new TTL), the
 * index is rebuilt by `build` otherwise, and added when there is none.
 */
export function replaceIndexIn(indexes: SortedIndex[], spec: IndexSpec, build: (spec: IndexSpec) => SortedIndex): void {
  const i = indexes.findIndex((x) => x.name === spec.name);
  if (i < 0) indexes.push(build(spec));
  else if (sameStructure(indexes[i].spec, spec)) indexes[i].spec = spec;
  else indexes[i] = build(spec);
}

/** Removes the index named `name` from a table's list; false when there was none. */
export function dropIndexFrom(indexes: SortedIndex[], name: string): boolean {
  const i = indexes.findIndex((x) => x.name === name);
  if (i >= 0) indexes.splice(i, 1);
  return i >= 0;
}
