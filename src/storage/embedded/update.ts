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

/** The update applied to a copy of doc; `modified` false when nothing changed (no write needed). */
export function applyUpdate(doc: Doc, update: Update): { doc: Doc; modified: boolean } {
  const { $setOnInsert: _ignored, ...ops } = update;
  const next = structuredClone(doc);
  if (Object.keys(ops).length === 0) return { doc: next, modified: false };
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
    withInsert.$set = { ...((ops.$set as Record<string, unknown> | undefined) ?? {}), ...($setOnInsert as Record<string, unknown>) };
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
