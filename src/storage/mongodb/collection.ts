// The Collection port on the MongoDB driver: a pass-through plus the few
// adaptations both engines promise (collection.ts): string ids for upserts,
// DuplicateKeyError, retries, and time-series restrictions reported the same way.

import { MongoServerError, type Collection as DriverCollection, type Document, type Filter as DriverFilter } from "mongodb";
import {
  DuplicateKeyError,
  type Collection,
  type Doc,
  type Filter,
  type FindOneAndUpdateOptions,
  type FindOptions,
  type IndexSpec,
  type Update,
  type UpdateOptions,
  type UpdateResult,
} from "../collection.js";
import { newDocumentId } from "../ids.js";
import { withRetry, type RetryPolicy } from "./retry.js";

/** Update operators whose second application changes nothing, so a retry is harmless. */
const IDEMPOTENT_OPERATORS = new Set(["$set", "$unset", "$setOnInsert", "$addToSet", "$pull", "$pullAll", "$min", "$max"]);

export interface MongoCollectionOptions {
  timeseries: boolean;
  retry?: RetryPolicy;
  onWarning?: (message: string, error: unknown) => void;
}

export class MongoCollection<T extends Doc = Doc> implements Collection<T> {
  constructor(
    private readonly coll: DriverCollection<Doc>,
    private readonly options: MongoCollectionOptions,
  ) {}

  get name(): string {
    return this.coll.collectionName;
  }

  async insertOne(doc: T): Promise<void> {
    await this.run(true, async (attempt) => {
      try {
        await this.coll.insertOne({ ...doc } as Doc);
      } catch (e) {
        // A retried insert that finds its own _id was applied by the attempt that lost its reply.
        if (attempt > 1 && isDuplicateId(e)) return;
        throw e;
      }
    });
  }

  async insertMany(docs: T[]): Promise<void> {
    if (docs.length === 0) return;
    await this.run(true, async (attempt) => {
      try {
        await this.coll.insertMany(
          docs.map((d) => ({ ...d }) as Doc),
          { ordered: true },
        );
      } catch (e) {
        if (attempt > 1 && isDuplicateId(e)) return;
        throw e;
      }
    });
  }

  async findOne(filter: Filter, options: FindOptions = {}): Promise<T | null> {
    return (await this.run(true, () => this.coll.findOne(filter as DriverFilter<Doc>, driverFind(options)))) as T | null;
  }

  async find(filter: Filter, options: FindOptions = {}): Promise<T[]> {
    return (await this.run(true, () => this.coll.find(filter as DriverFilter<Doc>, driverFind(options)).toArray())) as unknown as T[];
  }

  async countDocuments(filter: Filter): Promise<number> {
    return this.run(true, () => this.coll.countDocuments(filter as DriverFilter<Doc>));
  }

  async updateOne(filter: Filter, update: Update, options: UpdateOptions = {}): Promise<UpdateResult> {
    this.refuseOnTimeseries("update");
    const u = withUpsertId(filter, update, options.upsert);
    const r = await this.run(isIdempotent(update), () => this.coll.updateOne(filter as DriverFilter<Doc>, u, { upsert: options.upsert }));
    return { matchedCount: r.matchedCount, modifiedCount: r.modifiedCount, upsertedId: r.upsertedId == null ? null : String(r.upsertedId) };
  }

  async updateMany(filter: Filter, update: Update, options: UpdateOptions = {}): Promise<UpdateResult> {
    this.refuseOnTimeseries("updateMany");
    const u = withUpsertId(filter, update, options.upsert);
    const r = await this.run(isIdempotent(update), () => this.coll.updateMany(filter as DriverFilter<Doc>, u, { upsert: options.upsert }));
    return { matchedCount: r.matchedCount, modifiedCount: r.modifiedCount, upsertedId: r.upsertedId == null ? null : String(r.upsertedId) };
  }

  async findOneAndUpdate(filter: Filter, update: Update, options: FindOneAndUpdateOptions = {}): Promise<T | null> {
    this.refuseOnTimeseries("update");
    const u = withUpsertId(filter, update, options.upsert);
    const doc = await this.run(isIdempotent(update), () =>
      this.coll.findOneAndUpdate(filter as DriverFilter<Doc>, u, {
        upsert: options.upsert,
        returnDocument: options.returnDocument ?? "before",
      }),
    );
    return doc as unknown as T | null;
  }

  async deleteOne(filter: Filter): Promise<number> {
    if (this.options.timeseries) {
      throw new Error(`deleteOne is not available on time-series collection ${this.name} (MongoDB 6.3 refuses it); use deleteMany on the meta field`);
    }
    return (await this.run(true, () => this.coll.deleteOne(filter as DriverFilter<Doc>))).deletedCount;
  }

  async deleteMany(filter: Filter): Promise<number> {
    return (await this.run(true, () => this.coll.deleteMany(filter as DriverFilter<Doc>))).deletedCount;
  }

  async aggregate<R = Record<string, unknown>>(pipeline: Record<string, unknown>[]): Promise<R[]> {
    return (await this.run(true, () => this.coll.aggregate(pipeline).toArray())) as R[];
  }

  async createIndex(spec: IndexSpec): Promise<void> {
    if (this.options.timeseries && spec.unique) {
      throw new Error(`time-series collection ${this.name} cannot have unique index ${spec.name} (MongoDB refuses them)`);
    }
    await this.run(true, () =>
      this.coll.createIndex(spec.keys, {
        name: spec.name,
        ...(spec.unique ? { unique: true } : {}),
        ...(spec.expireAfterSeconds !== undefined ? { expireAfterSeconds: spec.expireAfterSeconds } : {}),
      }),
    );
  }

  private refuseOnTimeseries(op: string): void {
    // MongoDB 6.3 only updates time-series documents by meta field; the port keeps events insert-only on both engines.
    if (this.options.timeseries) {
      throw new Error(`${op} is not available on time-series collection ${this.name}: events are insert-only`);
    }
  }

  private async run<R>(idempotent: boolean, op: (attempt: number) => Promise<R>): Promise<R> {
    try {
      return await withRetry(op, {
        idempotent,
        policy: this.options.retry,
        onRetry: (attempt, e) => this.options.onWarning?.(`MongoDB operation on ${this.name} failed (attempt ${attempt}); retrying`, e),
      });
    } catch (e) {
      throw translate(e);
    }
  }
}

function driverFind(options: FindOptions): Document {
  const out: Document = {};
  if (options.sort) out.sort = options.sort;
  if (options.skip) out.skip = options.skip;
  if (options.limit) out.limit = options.limit;
  if (options.projection) out.projection = options.projection;
  return out;
}

function isIdempotent(update: Update): boolean {
  return Object.keys(update).every((op) => IDEMPOTENT_OPERATORS.has(op));
}

/** Upserts get a string _id (the driver would make an ObjectId), unless the filter or update fixes one. */
function withUpsertId(filter: Filter, update: Update, upsert: boolean | undefined): Document {
  if (!upsert) return update;
  const keys = Object.keys(update);
  if (keys.length === 0 || !keys.every((k) => k.startsWith("$"))) return update; // the driver reports it
  if (filter._id !== undefined) return update;
  const sets = ["$set", "$setOnInsert"].some((op) => (update[op] as Record<string, unknown> | undefined)?._id !== undefined);
  if (sets) return update;
  const setOnInsert = { ...((update.$setOnInsert as Record<string, unknown> | undefined) ?? {}), _id: newDocumentId() };
  return { ...update, $setOnInsert: setOnInsert };
}

function isDuplicateId(e: unknown): boolean {
  return e instanceof MongoServerError && e.code === 11000 && /index: _id_ /.test(e.message);
}

function translate(e: unknown): unknown {
  if (e instanceof MongoServerError && e.code === 11000) return new DuplicateKeyError(e.message);
  return e;
}
