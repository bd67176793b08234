// Collections held as documents in memory: organizations, keys, policies,
// projects, rollups. Small by nature; every document is an immutable object
// (updates build a new one), so a snapshot can take references without copying.

import { DuplicateKeyError, type CollectionOptions, type Doc, type IndexSpec } from "../collection.js";
import { valueAtPath } from "./keys.js";
import { dropIndexFrom, replaceIndexIn, SortedIndex } from "./sorted-index.js";

export class MemoryTable {
  readonly kind = "memory" as const;
  readonly indexes: SortedIndex[] = [];
  private readonly docs: (Doc | undefined)[] = [];
  private readonly ids = new Map<string, number>();
  private readonly free: number[] = [];

  constructor(
    readonly name: string,
    public options: CollectionOptions,
  ) {}

  get liveCount(): number {
    return this.ids.size;
  }

  plannable(): SortedIndex[] {
    return this.indexes;
  }

  rowForId(id: string): number | undefined {
    return this.ids.get(id);
  }

  /** The stored document: callers must not mutate it (the collection layer copies what it returns). */
  read(row: number): Doc {
    const doc = this.docs[row];
    if (!doc) throw new Error(`row ${row} of ${this.name} is empty (internal error)`);
    return doc;
  }

  *liveRows(): Generator<number> {
    for (const row of this.ids.values()) yield row;
  }

  /** Throws DuplicateKeyError if doc would collide with another row (self excluded). */
  checkUnique(doc: Doc, self = -1): void {
    const existing = this.ids.get(doc._id);
    if (existing !== undefined && existing !== self) {
      throw duplicateKey(this.name, "_id_", { _id: doc._id });
    }
    for (const index of this.indexes) {
      if (!index.spec.unique) continue;
      if (self >= 0 && index.keyMatches(self, doc)) continue;
      const other = index.conflict(index.probeFor(doc), self);
      if (other !== undefined) throw duplicateKey(this.name, index.name, keyOf(index, doc));
    }
  }

  /** Inserts or replaces by _id (the journal holds after-images, so replay is the same call). */
  put(doc: Doc): number {
    const row = this.ids.get(doc._id);
    if (row === undefined) return this.insert(doc);
    this.replace(row, doc);
    return row;
  }

  insert(doc: Doc): number {
    const row = this.free.pop() ?? this.docs.length;
    this.docs[row] = doc;
    this.ids.set(doc._id, row);
    for (const index of this.indexes) index.insert(row, doc);
    return row;
  }

  replace(row: number, doc: Doc): void {
    for (const index of this.indexes) {
      if (index.keyMatches(row, doc)) continue;
      index.remove(row);
      index.insert(row, doc);
    }
    this.docs[row] = doc;
  }

  remove(row: number): void {
    const doc = this.read(row);
    for (const index of this.indexes) index.remove(row);
    this.ids.delete(doc._id);
    this.docs[row] = undefined;
    this.free.push(row);
  }

  /** Builds a new index over the existing rows; a unique violation leaves the table unchanged. */
  addIndex(spec: IndexSpec): void {
    this.indexes.push(this.buildIndex(spec));
  }

  /** Puts spec in place of the index of the same name; rebuilt only when keys or uniqueness differ. */
  replaceIndex(spec: IndexSpec): void {
    replaceIndexIn(this.indexes, spec, (sp) => this.buildIndex(sp));
  }

  dropIndex(name: string): boolean {
    return dropIndexFrom(this.indexes, name);
  }

  private buildIndex(spec: IndexSpec): SortedIndex {
    const index = new SortedIndex(spec);
    for (const row of this.ids.values()) {
      const doc = this.read(row);
      if (spec.unique) {
        const other = index.conflict(index.probeFor(doc), row);
        if (other !== undefined) throw duplicateKey(this.name, spec.name, keyOf(index, doc));
      }
      index.insert(row, doc);
    }
    return index;
  }

  capture(): Doc[] {
    const out: Doc[] = [];
    for (const row of this.ids.values()) out.push(this.read(row));
    return out;
  }
}

function keyOf(index: SortedIndex, doc: Doc): Record<string, unknown> {
  const key: Record<string, unknown> = {};
  for (const f of index.fields) key[f.name] = valueAtPath(doc, f.path) ?? null;
  return key;
}

/** MongoDB's wording, so logs read the same whichever engine runs. */
function duplicateKey(collection: string, index: string, key: Record<string, unknown>): DuplicateKeyError {
  const shown = Object.entries(key)
    .map(([k, v]) => `${k}: ${JSON.stringify(v instanceof Date ? v.toISOString() : v)}`)
    .join(", ");
  return new DuplicateKeyError(`E11000 duplicate key error collection: ${collection} index: ${index} dup key: { ${shown} }`);
}
