// Query execution over a table: the planner picks the candidate rows, mingo
// decides what matches (unless the plan is exact) and how to sort what the
// index did not order.

import { find as mingoFind, Query } from "mingo";
import type { Doc, Filter, Sort } from "../collection.js";
import type { DiskTable } from "./disk-table.js";
import type { MemoryTable } from "./memory-table.js";
import { planQuery, type Plan } from "./planner.js";

export type Table = MemoryTable | DiskTable;

interface Candidates {
  rows: Iterable<number>;
  sorted: boolean;
  exact: boolean;
  plan: Plan;
}

function candidates(table: Table, filter: Filter, sort?: Sort): Candidates {
  const plan = planQuery(filter, sort, table.plannable(), table.kind === "memory");
  const wantsSort = !!sort && Object.keys(sort).length > 0;
  switch (plan.kind) {
    case "ids": {
      const rows: number[] = [];
      for (const id of plan.ids) {
        const row = table.rowForId(id);
        if (row !== undefined) rows.push(row);
      }
      return { rows, sorted: rows.length <= 1 || !wantsSort, exact: plan.exact, plan };
    }
    case "index":
      return { rows: plan.index.rows(plan.from, plan.to, plan.reverse), sorted: plan.sorted, exact: plan.exact, plan };
    case "scan":
      return { rows: table.liveRows(), sorted: !wantsSort, exact: Object.keys(filter).length === 0, plan };
  }
}

function isPlainScalar(v: unknown): v is string | number | boolean {
  return typeof v === "string" || typeof v === "number" || typeof v === "boolean";
}

function matcher(filter: Filter, exact: boolean): ((doc: Doc) => boolean) | undefined {
  if (exact) return undefined;
  const entries = Object.entries(filter);
  // Top-level equality on scalars (`{_id, org_id}` lookups on every request):
  // compare directly instead of compiling a mingo query each time. Arrays
  // (where MongoDB equality also matches an element) still go to mingo.
  if (entries.length > 0 && entries.every(([k, v]) => !k.startsWith("$") && !k.includes(".") && isPlainScalar(v))) {
    let query: Query | undefined;
    return (doc) => {
      const record = doc as Record<string, unknown>;
      if (entries.some(([k]) => Array.isArray(record[k]))) return (query ??= new Query(filter)).test(doc);
      return entries.every(([k, v]) => record[k] === v);
    };
  }
  const query = new Query(filter);
  return (doc) => query.test(doc);
}

export interface FindSpec {
  sort?: Sort;
  skip?: number;
  limit?: number;
}

/** Matching documents as stored (memory tables: shared objects the caller must copy before handing out). */
export function findDocs(table: Table, filter: Filter, spec: FindSpec = {}): Doc[] {
  const c = candidates(table, filter, spec.sort);
  const test = matcher(filter, c.exact);
  const skip = Math.max(0, spec.skip ?? 0);
  const limit = spec.limit && spec.limit > 0 ? spec.limit : Infinity;
  const out: Doc[] = [];
  if (c.sorted) {
    let skipped = 0;
    for (const row of c.rows) {
      // An exact plan needs no document to know a row matches: skipped rows
      // are never read (deep log pages would otherwise read every row they skip).
      if (!test && skipped < skip) {
        skipped++;
        continue;
      }
      const doc = table.read(row);
      if (test && !test(doc)) continue;
      if (skipped < skip) {
        skipped++;
        continue;
      }
      out.push(doc);
      if (out.length >= limit) break;
    }
    return out;
  }
  const matched: Doc[] = [];
  for (const row of c.rows) {
    const doc = table.read(row);
    if (!test || test(doc)) matched.push(doc);
  }
  let cursor = mingoFind(matched, {}).sort(spec.sort ?? {});
  if (skip > 0) cursor = cursor.skip(skip);
  if (limit !== Infinity) cursor = cursor.limit(limit);
  return cursor.all() as Doc[];
}

/** Rows of the matching documents, at most `limit` (writes collect rows before changing anything). */
export function findRows(table: Table, filter: Filter, limit = Infinity): number[] {
  const c = candidates(table, filter);
  const test = matcher(filter, c.exact);
  const rows: number[] = [];
  for (const row of c.rows) {
    if (test && !test(table.read(row))) continue;
    rows.push(row);
    if (rows.length >= limit) break;
  }
  return rows;
}

export function countDocs(table: Table, filter: Filter): number {
  const c = candidates(table, filter);
  if (c.exact) {
    if (c.plan.kind === "index") return c.plan.index.distance(c.plan.from, c.plan.to);
    if (c.plan.kind === "scan") return table.liveCount;
  }
  const test = matcher(filter, c.exact);
  let n = 0;
  for (const row of c.rows) if (!test || test(table.read(row))) n++;
  return n;
}
