// What a snapshot holds, and the compact column encoding of index keys in it.
//
// Index key columns are stored as ranks + numbers + dictionary-coded strings:
// an organization id column of 1M rows is 4 MB of codes plus a few hundred
// distinct strings, and decoding shares one string object per distinct value.

import type { CollectionOptions, Doc, IndexSpec } from "../collection.js";
import type { DiskCapture } from "./disk-table.js";
import type { FileKind } from "./files.js";
import { isStringRank, type KeyValue } from "./keys.js";
import type { IndexColumns } from "./sorted-index.js";

export interface SnapshotState {
  version: 1;
  /** First journal segment not covered by this snapshot. */
  replayFrom: number;
  nextFileNo: number;
  /** Journal and data files that still hold live time-series records. */
  files: { no: number; kind: FileKind; /** Bytes of records in a preallocated journal segment (absent before preallocation). */ bytes?: number }[];
  collections: SnapshotCollection[];
}

export type SnapshotCollection =
  | { name: string; options: CollectionOptions; indexes: IndexSpec[]; kind: "memory"; docs: Doc[] }
  | { name: string; options: CollectionOptions; indexes: IndexSpec[]; kind: "disk"; rows: EncodedDiskRows };

interface EncodedColumn {
  ranks: Uint8Array;
  nums: Float64Array | null;
  /** Positions in the table's dictionary (shared by all columns, so an _id in two indexes is one string). */
  codes: Int32Array | null;
}

interface EncodedIndex {
  columns: EncodedColumn[];
  order: Int32Array;
  multikey: boolean;
}

export type EncodedDiskRows = Omit<DiskCapture, "indexes"> & { indexes: EncodedIndex[]; dict: string[] };

export function encodeDiskRows(capture: DiskCapture): EncodedDiskRows {
  const dict: string[] = [];
  const seen = new Map<string, number>();
  const indexes = capture.indexes.map((cols) => ({
    columns: cols.ranks.map((ranks, f) => encodeColumn(ranks, cols.vals[f], capture.rows, dict, seen)),
    order: cols.order,
    multikey: cols.multikey,
  }));
  return { ...capture, indexes, dict };
}

export function decodeDiskRows(rows: EncodedDiskRows): DiskCapture {
  return {
    ...rows,
    indexes: rows.indexes.map((ix): IndexColumns => ({
      // Copies: node's v8.deserialize returns typed arrays that are views into the
      // whole snapshot buffer, which would otherwise stay alive (100+ MB at 1M events).
      ranks: ix.columns.map((c) => c.ranks.slice()),
      vals: ix.columns.map((c) => decodeColumn(c, rows.rows, rows.dict)),
      order: ix.order,
      multikey: ix.multikey,
    })),
  };
}

function encodeColumn(ranks: Uint8Array, vals: KeyValue[], n: number, dict: string[], seen: Map<string, number>): EncodedColumn {
  let strings = 0;
  for (let r = 0; r < n; r++) if (isStringRank(ranks[r])) strings++;
  const nums = strings < n ? new Float64Array(n) : null;
  const codes = strings > 0 ? new Int32Array(n).fill(-1) : null;
  for (let r = 0; r < n; r++) {
    const v = vals[r];
    if (isStringRank(ranks[r])) {
      const s = String(v);
      let code = seen.get(s);
      if (code === undefined) {
        code = dict.length;
        dict.push(s);
        seen.set(s, code);
      }
      codes![r] = code;
    } else if (nums) {
      nums[r] = typeof v === "number" ? v : 0;
    }
  }
  return { ranks: ranks.subarray(0, n), nums, codes };
}

function decodeColumn(c: EncodedColumn, n: number, dict: string[]): KeyValue[] {
  if (!c.codes) {
    // All numbers (dates, counts): a packed double array, 8 bytes a row.
    return Array.from(c.nums ?? new Float64Array(n));
  }
  const out: KeyValue[] = new Array<KeyValue>(n);
  const { codes, nums, ranks } = c;
  for (let r = 0; r < n; r++) out[r] = isStringRank(ranks[r]) ? dict[codes[r]] : (nums?.[r] ?? 0);
  return out;
}
