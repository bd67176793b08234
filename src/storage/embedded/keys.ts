// Index key values and their order.
//
// An index key is stored as (rank, value): rank is MongoDB's cross-type sort
// order (null < numbers < strings < objects < arrays < booleans < dates), value is
// a number or a string, so a column of dates or numbers stays a packed double
// array in V8 (8 bytes a row) instead of an array of boxed objects.

const RANK_NULL = 1; // null and missing, as MongoDB indexes them
export const RANK_NUMBER = 2;
export const RANK_STRING = 3;
const RANK_OBJECT = 4;
export const RANK_ARRAY = 5;
const RANK_BOOL = 8;
export const RANK_DATE = 9;
const RANK_OTHER = 10;

export type KeyValue = number | string;

/** Ranks whose value is kept as a string (the rest are numbers). */
export function isStringRank(rank: number): boolean {
  return rank === RANK_STRING || rank === RANK_OBJECT || rank === RANK_ARRAY || rank === RANK_OTHER;
}

export function splitPath(path: string): string[] {
  return path.split(".");
}

/**
 * The value at a dotted path. Arrays met on the way are returned as such (the
 * caller treats them as multikey); missing fields give undefined.
 */
export function valueAtPath(doc: unknown, path: readonly string[]): unknown {
  let cur: unknown = doc;
  for (const part of path) {
    if (cur === null || typeof cur !== "object") return undefined;
    if (Array.isArray(cur)) return cur;
    cur = (cur as Record<string, unknown>)[part];
  }
  return cur;
}

export function rankOf(v: unknown): number {
  if (v === null || v === undefined) return RANK_NULL;
  switch (typeof v) {
    case "number":
    case "bigint":
      return RANK_NUMBER;
    case "string":
      return RANK_STRING;
    case "boolean":
      return RANK_BOOL;
    case "object":
      if (v instanceof Date) return RANK_DATE;
      if (Array.isArray(v)) return RANK_ARRAY;
      if (v instanceof RegExp || ArrayBuffer.isView(v)) return RANK_OTHER;
      return RANK_OBJECT;
    default:
      return RANK_OTHER;
  }
}

/**
 * The comparable value for a rank. Objects and arrays compare by their JSON text:
 * exact for equality (MongoDB compares embedded documents field by field, in
 * order, as JSON text does), approximate for range order, which no Parapet query
 * asks of an embedded document.
 */
export function keyValueOf(v: unknown, rank: number): KeyValue {
  switch (rank) {
    case RANK_NULL:
      return 0;
    case RANK_NUMBER: {
      const n = Number(v);
      // NaN sorts first among numbers in MongoDB; -Infinity keeps comparisons total.
      return Number.isNaN(n) ? -Infinity : n;
    }
    case RANK_STRING:
      return v as string;
    case RANK_BOOL:
      return v ? 1 : 0;
    case RANK_DATE:
      return (v as Date).getTime();
    default:
      return JSON.stringify(v) ?? "";
  }
}

export function compareKeys(rankA: number, valA: KeyValue, rankB: number, valB: KeyValue): number {
  if (rankA !== rankB) return rankA - rankB;
  return valA < valB ? -1 : valA > valB ? 1 : 0;
}

/** A value scalar enough to be looked up through an index by equality or range. */
export function isIndexableScalar(v: unknown): boolean {
  const t = typeof v;
  return v === null || t === "string" || t === "number" || t === "boolean" || v instanceof Date;
}
