// The Collection port on the embedded engine.
//
// Each write runs its read-modify-write synchronously up to the journal append
// (no await in between), so concurrent calls cannot interleave inside one: a
// findOneAndUpdate with $inc is atomic, and a unique index sees every insert.

import { aggregate as mingoAggregate, find as mingoFind } from "mingo";
import type { Collection, Doc, Filter, FindOneAndUpdateOptions, FindOptions, IndexSpec, Update, UpdateOptions, UpdateResult } from "../collection.js";
import type { MemoryTable } from "./memory-table.js";
import { countDocs, findDocs, findRows, type FindSpec, type Table } from "./query.js";
import { applyUpdate, assertOperatorUpdate, buildUpsert } from "./update.js";

/**
 * What a collection asks of its database (EmbeddedDatabase, engine.ts): the
 * writes go through the database, which owns the journal and its ordering.
 * Declared here so the database can hand itself to its collections without an
 * import cycle.
 */
export interface TableStore {
  assertUsable(): void;
  tableOrThrow(name: string): Table;
  insertDocs(table: Table, docs: Doc[]): Promise<void>;
  replaceDoc(table: MemoryTable, row: number, doc: Doc): Promise<void>;
  deleteRows(table: Table, rows: number[]): Promise<void>;
  createIndex(table: Table, spec: IndexSpec): Promise<void>;
  dropIndex(table: Table, name: string, keys?: Record<string, 1 | -1>): Promise<void>;
}

export class EmbeddedCollection<T extends Doc = Doc> implements Collection<T> {
  constructor(
    private readonly db: TableStore,
    readonly name: string,
  ) {}

  private table(): Table {
    this.db.assertUsable();
    return this.db.tableOrThrow(this.name);
  }

  async insertOne(doc: T): Promise<void> {
    await this.db.insertDocs(this.table(), [doc]);
  }

  async insertMany(docs: T[]): Promise<void> {
    await this.db.insertDocs(this.table(), docs);
  }

  async findOne(filter: Filter, options: FindOptions = {}): Promise<T | null> {
    const [doc] = await this.find(filter, { ...options, limit: 1 });
    return doc ?? null;
  }

  async find(filter: Filter, options: FindOptions = {}): Promise<T[]> {
    const table = this.table();
    const docs = findDocs(table, filter, options);
    return this.output(table, docs, options.projection);
  }

  async countDocuments(filter: Filter): Promise<number> {
    return countDocs(this.table(), filter);
  }

  async updateOne(filter: Filter, update: Update, options: UpdateOptions = {}): Promise<UpdateResult> {
    const { result } = await this.updateFirst(filter, update, options);
    return result;
  }

  async updateMany(filter: Filter, update: Update, options: UpdateOptions = {}): Promise<UpdateResult> {
    assertOperatorUpdate(update);
    const table = this.writableTable("updateMany");
    const rows = findRows(table, filter);
    if (rows.length === 0) {
      if (!options.upsert) return { matchedCount: 0, modifiedCount: 0, upsertedId: null };
      const doc = buildUpsert(filter, update);
      await this.db.insertDocs(table, [doc]);
      return { matchedCount: 0, modifiedCount: 0, upsertedId: doc._id };
    }
    let modified = 0;
    const pending: Promise<void>[] = [];
    try {
      for (const row of rows) {
        const next = applyUpdate(table.read(row), update);
        if (!next.modified) continue;
        pending.push(this.db.replaceDoc(table, row, next.doc));
        modified++;
      }
    } finally {
      // Like MongoDB, documents updated before an error stay updated; wait for them either way.
      await Promise.all(pending);
    }
    return { matchedCount: rows.length, modifiedCount: modified, upsertedId: null };
  }

  async findOneAndUpdate(filter: Filter, update: Update, options: FindOneAndUpdateOptions = {}): Promise<T | null> {
    const { before, after } = await this.updateFirst(filter, update, options);
    const doc = options.returnDocument === "after" ? after : before;
    return doc ? (structuredClone(doc) as T) : null;
  }

  async deleteOne(filter: Filter): Promise<number> {
    const table = this.table();
    if (table.kind === "disk") {
      throw new Error(`deleteOne is not available on time-series collection ${this.name} (MongoDB 6.3 refuses it); use deleteMany on the meta field`);
    }
    const rows = findRows(table, filter, 1);
    await this.db.deleteRows(table, rows);
    return rows.length;
  }

  async deleteMany(filter: Filter): Promise<number> {
    const table = this.table();
    if (table.kind === "disk") assertMetaOnly(filter, table.options.timeseries!.metaField, this.name);
    const rows = findRows(table, filter);
    await this.db.deleteRows(table, rows);
    return rows.length;
  }

  async aggregate<R = Record<string, unknown>>(pipeline: Record<string, unknown>[]): Promise<R[]> {
    const table = this.table();
    // A leading $match/$sort/$skip/$limit is a find: it can use an index instead of feeding every document to mingo.
    const spec: FindSpec = {};
    let filter: Filter = {};
    let k = 0;
    if (pipeline[k]?.$match) filter = pipeline[k++].$match as Filter;
    if (pipeline[k]?.$sort) spec.sort = pipeline[k++].$sort as FindSpec["sort"];
    if (typeof pipeline[k]?.$skip === "number") spec.skip = pipeline[k++].$skip as number;
    if (typeof pipeline[k]?.$limit === "number") spec.limit = pipeline[k++].$limit as number;
    const docs = this.output(table, findDocs(table, filter, spec));
    const rest = pipeline.slice(k);
    return (rest.length === 0 ? docs : mingoAggregate(docs, rest)) as R[];
  }

  async createIndex(spec: IndexSpec): Promise<void> {
    await this.db.createIndex(this.table(), spec);
  }

  async dropIndex(name: string, keys?: Record<string, 1 | -1>): Promise<void> {
    await this.db.dropIndex(this.table(), name, keys);
  }

  async listIndexes(): Promise<IndexSpec[]> {
    return this.table().indexes.map((i) => structuredClone(i.spec));
  }

  private writableTable(op: string): MemoryTable {
    const table = this.table();
    if (table.kind === "disk") {
      throw new Error(`${op} is not available on time-series collection ${this.name}: events are insert-only (MongoDB 6.3 allows updates on the meta field only)`);
    }
    return table;
  }

  private async updateFirst(filter: Filter, update: Update, options: UpdateOptions): Promise<{ result: UpdateResult; before: Doc | null; after: Doc | null }> {
    assertOperatorUpdate(update);
    const table = this.writableTable("update");
    const [row] = findRows(table, filter, 1);
    if (row !== undefined) {
      const before = table.read(row);
      const next = applyUpdate(before, update);
      if (!next.modified) return { result: { matchedCount: 1, modifiedCount: 0, upsertedId: null }, before, after: before };
      await this.db.replaceDoc(table, row, next.doc);
      return { result: { matchedCount: 1, modifiedCount: 1, upsertedId: null }, before, after: next.doc };
    }
    if (!options.upsert) return { result: { matchedCount: 0, modifiedCount: 0, upsertedId: null }, before: null, after: null };
    const doc = buildUpsert(filter, update);
    await this.db.insertDocs(table, [doc]);
    return { result: { matchedCount: 0, modifiedCount: 0, upsertedId: doc._id }, before: null, after: doc };
  }

  private output(table: Table, docs: Doc[], projection?: Record<string, 0 | 1>): T[] {
    // Memory tables hand out copies; disk rows were decoded for this call already.
    const own = table.kind === "memory" ? docs.map((d) => structuredClone(d)) : docs;
    if (!projection || Object.keys(projection).length === 0) return own as T[];
    return mingoFind(own, {}, projection).all() as T[];
  }
}

/** MongoDB 6.3 deletes from a time-series collection only by meta field; refusing the rest keeps code portable. */
function assertMetaOnly(filter: Filter, metaField: string, collection: string): void {
  const visit = (f: unknown): void => {
    if (!f || typeof f !== "object") return;
    for (const [key, value] of Object.entries(f as Record<string, unknown>)) {
      if (key === "$and" || key === "$or" || key === "$nor") {
        if (Array.isArray(value)) value.forEach(visit);
        continue;
      }
      if (key !== metaField && !key.startsWith(`${metaField}.`)) {
        throw new Error(`deleteMany on time-series collection ${collection} may only filter on the meta field "${metaField}" (MongoDB 6.3); got "${key}"`);
      }
    }
  };
  visit(filter);
}
