// Index selection for the embedded engine.
//
// Only the shape Parapet's queries have is planned: equality on a prefix of an
// index's fields, optionally a range on the next field, optionally a sort on the
// fields that follow the equalities. Everything else in the filter is checked by
// mingo on each candidate, so a plan only has to return a superset of the
// matches, in sort order when it claims `sorted`. Anything else is a scan.

import type { Filter, Sort } from "../collection.js";
import { isIndexableScalar, keyValueOf, rankOf, RANK_DATE, RANK_NUMBER, RANK_STRING } from "./keys.js";
import type { Position, ProbeKey, SortedIndex } from "./sorted-index.js";

interface Bound {
  value: unknown;
  inclusive: boolean;
}

interface FieldPredicate {
  hasEq: boolean;
  eq?: unknown;
  lo?: Bound;
  hi?: Bound;
  /** Conditions on the field that the index cannot express. */
  extra: boolean;
}

interface Predicates {
  fields: Map<string, FieldPredicate>;
  /** Top-level operators other than $and ($or, $expr, ...). */
  residual: boolean;
}

export type Plan =
  | { kind: "ids"; ids: string[]; exact: boolean }
  | {
      kind: "index";
      index: SortedIndex;
      from: Position;
      to: Position;
      reverse: boolean;
      /** Rows come out in the requested sort order. */
      sorted: boolean;
      /** Every candidate matches: the filter need not be evaluated. */
      exact: boolean;
    }
  | { kind: "scan" };

const RANGE_RANKS = new Set([RANK_NUMBER, RANK_STRING, RANK_DATE]);

function extractPredicates(filter: Filter): Predicates {
  const out: Predicates = { fields: new Map(), residual: false };
  collect(filter, out);
  return out;
}

function collect(filter: Filter, out: Predicates): void {
  for (const [key, cond] of Object.entries(filter)) {
    if (key === "$and" && Array.isArray(cond)) {
      for (const part of cond) {
        if (part && typeof part === "object") collect(part as Filter, out);
        else out.residual = true;
      }
      continue;
    }
    if (key.startsWith("$")) {
      out.residual = true;
      continue;
    }
    let pred = out.fields.get(key);
    if (!pred) {
      pred = { hasEq: false, extra: false };
      out.fields.set(key, pred);
    }
    addCondition(pred, cond);
  }
}

function addCondition(pred: FieldPredicate, cond: unknown): void {
  if (isIndexableScalar(cond)) {
    setEq(pred, cond);
    return;
  }
  if (!isOperatorObject(cond)) {
    pred.extra = true;
    return;
  }
  for (const [op, value] of Object.entries(cond)) {
    if (op === "$eq" && isIndexableScalar(value)) setEq(pred, value);
    else if ((op === "$gt" || op === "$gte") && isRangeValue(value)) setBound(pred, "lo", { value, inclusive: op === "$gte" });
    else if ((op === "$lt" || op === "$lte") && isRangeValue(value)) setBound(pred, "hi", { value, inclusive: op === "$lte" });
    else pred.extra = true;
  }
}

function setEq(pred: FieldPredicate, value: unknown): void {
  if (pred.hasEq && !sameScalar(pred.eq, value)) pred.extra = true;
  else {
    pred.hasEq = true;
    pred.eq = value;
  }
}

function setBound(pred: FieldPredicate, side: "lo" | "hi", bound: Bound): void {
  if (pred[side]) pred.extra = true;
  else pred[side] = bound;
}

function sameScalar(a: unknown, b: unknown): boolean {
  const ra = rankOf(a);
  return ra === rankOf(b) && keyValueOf(a, ra) === keyValueOf(b, ra);
}

function isOperatorObject(v: unknown): v is Record<string, unknown> {
  if (!v || typeof v !== "object" || Array.isArray(v) || v instanceof Date || v instanceof RegExp) return false;
  const keys = Object.keys(v);
  return keys.length > 0 && keys.every((k) => k.startsWith("$"));
}

function isRangeValue(v: unknown): boolean {
  return RANGE_RANKS.has(rankOf(v));
}

function probeKey(v: unknown): ProbeKey {
  const rank = rankOf(v);
  return { rank, val: keyValueOf(v, rank) };
}

/** _id lookups that the table's id map answers directly. */
function idLookup(preds: Predicates): string[] | undefined {
  const p = preds.fields.get("_id");
  if (p?.hasEq && typeof p.eq === "string") return [p.eq];
  return undefined;
}

interface Candidate {
  index: SortedIndex;
  eqCount: number;
  range: boolean;
  sorted: boolean;
  reverse: boolean;
}

export function planQuery(filter: Filter, sort: Sort | undefined, indexes: readonly SortedIndex[], hasIdMap: boolean): Plan {
  const preds = extractPredicates(filter);
  const onlyIdEq = !preds.residual && preds.fields.size === 1 && !preds.fields.get("_id")?.extra;
  if (hasIdMap) {
    const ids = idLookup(preds);
    if (ids) return { kind: "ids", ids, exact: onlyIdEq && !preds.fields.get("_id")!.lo && !preds.fields.get("_id")!.hi };
  }
  const sortKeys = Object.entries(sort ?? {}).filter(([name]) => !preds.fields.get(name)?.hasEq);

  let best: Candidate | undefined;
  for (const index of indexes) {
    if (index.multikey) continue;
    const c = assess(index, preds, sortKeys);
    if (c.eqCount === 0 && !c.range && !(c.sorted && sortKeys.length > 0)) continue;
    if (!best || better(c, best, sortKeys.length > 0)) best = c;
  }
  if (!best) return { kind: "scan" };
  return positions(best, preds);
}

function assess(index: SortedIndex, preds: Predicates, sortKeys: [string, 1 | -1][]): Candidate {
  const fields = index.fields;
  let e = 0;
  while (e < fields.length && preds.fields.get(fields[e].name)?.hasEq) e++;
  const next = e < fields.length ? preds.fields.get(fields[e].name) : undefined;
  const range = !!next && !next.hasEq && (!!next.lo || !!next.hi) && rangeUsable(next);
  let sorted = sortKeys.length === 0;
  let reverse = false;
  if (!sorted && e + sortKeys.length <= fields.length) {
    reverse = sortKeys[0][1] !== fields[e].dir;
    sorted = sortKeys.every(([name, dir], k) => {
      const f = fields[e + k];
      return f.name === name && (dir === f.dir) !== reverse;
    });
  }
  return { index, eqCount: e, range, sorted, reverse };
}

function rangeUsable(p: FieldPredicate): boolean {
  // Bounds of two different types match nothing in MongoDB; leave that to mingo.
  return !(p.lo && p.hi && rankOf(p.lo.value) !== rankOf(p.hi.value));
}

function better(a: Candidate, b: Candidate, sortRequested: boolean): boolean {
  if (a.eqCount !== b.eqCount) return a.eqCount > b.eqCount;
  if (a.range !== b.range) return a.range;
  if (sortRequested && a.sorted !== b.sorted) return a.sorted;
  // Fewer fields: smaller entries to compare and no unused trailing keys.
  return a.index.fields.length < b.index.fields.length;
}

function positions(c: Candidate, preds: Predicates): Plan {
  const { index, eqCount, range } = c;
  const fields = index.fields;
  const prefix: ProbeKey[] = [];
  for (let f = 0; f < eqCount; f++) prefix.push(probeKey(preds.fields.get(fields[f].name)!.eq));
  let from: Position;
  let to: Position;
  if (!range) {
    from = index.seek(prefix, false);
    to = index.seek(prefix, true);
  } else {
    const p = preds.fields.get(fields[eqCount].name)!;
    const asc = fields[eqCount].dir === 1;
    const first = asc ? p.lo : p.hi;
    const last = asc ? p.hi : p.lo;
    const rank = rankOf((p.lo ?? p.hi)!.value);
    from = first ? index.seek([...prefix, probeKey(first.value)], !first.inclusive) : index.seek([...prefix, { rank, val: 0, edge: asc ? -1 : 1 }], false);
    to = last ? index.seek([...prefix, probeKey(last.value)], last.inclusive) : index.seek([...prefix, { rank, val: 0, edge: asc ? 1 : -1 }], false);
  }
  const used = new Set(fields.slice(0, eqCount + (range ? 1 : 0)).map((f) => f.name));
  const exact =
    !preds.residual &&
    [...preds.fields].every(([name, p]) => used.has(name) && !p.extra) &&
    [...used].every((name) => {
      const p = preds.fields.get(name)!;
      return p.hasEq ? !p.lo && !p.hi : true;
    });
  return { kind: "index", index, from, to, reverse: c.reverse, sorted: c.sorted, exact };
}
