// Update documents on the embedded engine: mingo's update operators, plus what
// mingo lacks for MongoDB parity ($setOnInsert, upsert seeding from the filter,
// refusing replacement documents as the driver's updateOne does).

import { update as mingoUpdate } from "mingo";
import type { Doc, Filter, Update } from "../collection.js";
import { newDocumentId } from "../ids.js";
import { isIndexableScalar } from "./keys.js";

export function assertOperatorUpdate(update: Update): void {
  const keys = Object.keys(update);
  if (keys.length === 0 || !keys.every((k) => k.startsWith("$"))) {
    throw new TypeError("update document requires atomic operators ($set, $inc, ...); replacement documents are not supported");
  }
}

type Flat = string | number | boolean | null | Date;

function isFlatValue(v: unknown): v is Flat {
  return v === null || v instanceof Date || ["string", "number", "boolean"].includes(typeof v);
}

function sameFlat(a: unknown, b: Flat): boolean {
  return a instanceof Date && b instanceof Date ? a.getTime() === b.getTime() : Object.is(a, b);
}

/**
 * $set of scalars and $inc on top-level fields, applied directly. Counter
 * updates (analytics rollups, one per screening request) are the hot path,
 * and mingo's general updater costs more than the rest of the write; anything
 * else (dotted paths, arrays, other operators) goes to mingo.
 */
function applyFlat(next: Doc, ops: Record<string, unknown>): boolean | null {
  const keys = Object.keys(ops);
  if (!keys.every((k) => k === "$set" || k === "$inc")) return null;
  const set = (ops.$set ?? {}) as Record<string, unknown>;
  const inc = (ops.$inc ?? {}) as Record<string, unknown>;
  for (const [k, v] of Object.entries(set)) if (k.includes(".") || k.startsWith("$") || k === "_id" || !isFlatValue(v)) return null;
  for (const [k, v] of Object.entries(inc)) {
    const cur = next[k];
    if (k.includes(".") || k.startsWith("$") || k in set || typeof v !== "number" || (cur !== undefined && typeof cur !== "number")) return null;
  }
  let modified = false;
  const target = next as Record<string, unknown>;
  for (const [k, v] of Object.entries(set)) {
    if (!(k in target) || !sameFlat(target[k], v as Flat)) modified = true;
    target[k] = v instanceof Date ? new Date(v.getTime()) : v;
  }
  for (const [k, v] of Object.entries(inc)) {
    if (v !== 0 || !(k in target)) modified = true;
    target[k] = ((target[k] as number | undefined) ?? 0) + (v as number);
  }
  return modified;
}

/** The update applied to a copy of doc; `modified` false when nothing changed (no write needed). */
export function applyUpdate(doc: Doc, update: Update): { doc: Doc; modified: boolean } {
  const { $setOnInsert: _ignored, ...ops } = update;
  const next = structuredClone(doc);
  if (Object.keys(ops).length === 0) return { doc: next, modified: false };
  const flat = applyFlat(next, ops);
  if (flat !== null) return { doc: next, modified: flat };
  const changed = mingoUpdate(next, ops as Parameters<typeof mingoUpdate>[1], undefined, undefined, { cloneMode: "deep" });
  return { doc: next, modified: changed.length > 0 };
}

/** The document an upsert inserts: equality fields of the filter, then the update with $setOnInsert applied as $set. */
export function buildUpsert(filter: Filter, update: Update): Doc {
  const seed: Record<string, unknown> = {};
  seedFromFilter(filter, seed);
  const { $setOnInsert, ...ops } = update;
  const withInsert: Record<string, unknown> = { ...ops };
  if ($setOnInsert && typeof $setOnInsert === "object") {
    withInsert.$set = { ...(ops.$set ?? {}), ...($setOnInsert as Record<string, unknown>) };
  }
  const doc = seed as Doc;
  if (Object.keys(withInsert).length > 0) {
    mingoUpdate(doc, withInsert as Parameters<typeof mingoUpdate>[1], undefined, undefined, { cloneMode: "deep" });
  }
  if (doc._id === undefined) doc._id = newDocumentId();
  if (typeof doc._id !== "string") throw new TypeError("_id must be a string");
  // _id first, as MongoDB stores it.
  const { _id, ...rest } = doc;
  return { _id, ...rest };
}

function seedFromFilter(filter: Filter, out: Record<string, unknown>): void {
  for (const [key, cond] of Object.entries(filter)) {
    if (key === "$and" && Array.isArray(cond)) {
      for (const part of cond) if (part && typeof part === "object") seedFromFilter(part as Filter, out);
      continue;
    }
    if (key.startsWith("$")) continue;
    let value: unknown;
    if (isIndexableScalar(cond)) value = cond;
    else if (cond && typeof cond === "object" && !Array.isArray(cond) && !(cond instanceof RegExp)) {
      const keys = Object.keys(cond);
      if (keys.length === 1 && keys[0] === "$eq") value = (cond as { $eq: unknown }).$eq;
      else if (keys.some((k) => k.startsWith("$"))) continue;
      else value = cond;
    } else if (Array.isArray(cond)) value = cond;
    else continue;
    setPath(out, key.split("."), structuredClone(value));
  }
}

function setPath(target: Record<string, unknown>, path: string[], value: unknown): void {
  let cur = target;
  for (let i = 0; i < path.length - 1; i++) {
    const next = cur[path[i]];
    if (!next || typeof next !== "object") cur[path[i]] = {};
    cur = cur[path[i]] as Record<string, unknown>;
  }
  cur[path[path.length - 1]] = value;
}
