// Fault injection for the MongoDB engine's retries (docs/storage.md#mongodb-retries).
//
// Why a test double: no MongoDB server can run on the project's machines, and the
// driver has no wire-level fake. The faults are therefore injected at the boundary
// Parapet calls, the driver's Collection object: FaultyCollection stores documents
// in memory and, per call, fails the way the driver does (the real driver error
// classes), before sending, after the server applied the write but the reply was
// lost, or in the middle of an ordered batch. It marks a command "sent" exactly
// where the driver emits commandStarted. The code under test (MongoCollection,
// withRetry, CommandTracker) is the production code, unchanged. With MONGODB_URI
// set, test/storage/mongodb-server.test.ts runs the same engine on a real server.

import {
  BSON,
  MongoBulkWriteError,
  MongoError,
  MongoNetworkError,
  MongoServerError,
  MongoServerSelectionError,
  type Collection as DriverCollection,
  type Document,
} from "mongodb";
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { SharedBuckets } from "../../src/auth/shared-buckets.js";
import { DuplicateKeyError, UnstorableDocumentError, type Database, type Doc } from "../../src/storage/collection.js";
import { EmbeddedDatabase } from "../../src/storage/embedded/engine.js";
import { exportDataDir, importInto } from "../../src/storage/transfer.js";
import { tempDir } from "./engines.js";
import { MongoCollection } from "../../src/storage/mongodb/collection.js";
import { CommandTracker } from "../../src/storage/mongodb/engine.js";
import { MongoUnavailableError, type RetryPolicy } from "../../src/storage/mongodb/retry.js";
import { bulkDuplicate, bulkWrapped } from "./fixtures/driver-errors.js";

type Fault =
  /** No server selectable: nothing sent. */
  | "before-send"
  /** Applied by the server; the connection dropped before the reply. */
  | "lost-reply"
  /** Sent and applied; the driver's own retry then found no primary (the case). */
  | "reselect-after-send"
  /** Sent, and the connection dropped before the server applied it; `meanwhile` then runs (another process). */
  | "sent-not-applied"
  /** insertMany: the first `n` documents applied, then the connection dropped. */
  | { midBatch: number };

const FAST: RetryPolicy = { attempts: 6, baseDelayMs: 1, maxDelayMs: 2, budgetMs: 5_000 };

/** A document as the driver reads it: through BSON, which turns {$ref, $id} objects into DBRef. */
function fromServer(doc: Doc): Doc {
  return BSON.deserialize(BSON.serialize(doc)) as Doc;
}

class FaultyCollection {
  readonly docs = new Map<string, Doc>();
  readonly faults: Fault[] = [];
  /** Commands that reached the "wire", by name. */
  readonly sends: string[] = [];
  readonly indexes: { name: string; key: Record<string, number>; expireAfterSeconds?: number; unique?: boolean }[] = [{ name: "_id_", key: { _id: 1 } }];
  readonly commands: Document[] = [];
  collectionName = "faulty";
  /** What another process does while a "sent-not-applied" attempt is lost. */
  meanwhile: () => void = () => undefined;

  constructor(private readonly tracker: CommandTracker) {}

  private send(name: string, comment: unknown): void {
    this.sends.push(name);
    this.tracker.started({ command: { comment } } as never);
  }

  /** Runs `apply` as the server would, failing as the next fault says. */
  private async call<R>(name: string, comment: unknown, apply: () => R): Promise<R> {
    const fault = this.faults.shift();
    if (fault === "before-send") throw new MongoServerSelectionError("Server selection timed out after 5000 ms", { type: "Unknown", servers: new Map() } as never);
    this.send(name, comment);
    if (fault === "sent-not-applied") {
      this.meanwhile();
      throw new MongoNetworkError("connection 4 to 10.0.0.1:27017 closed");
    }
    const result = apply();
    if (fault === "lost-reply") throw new MongoNetworkError("connection 3 to 10.0.0.1:27017 closed");
    if (fault === "reselect-after-send")
      throw new MongoServerSelectionError("Server selection timed out after 5000 ms", { type: "ReplicaSetNoPrimary", servers: new Map() } as never);
    return result;
  }

  private insertDoc(doc: Doc): void {
    if (this.docs.has(doc._id))
      throw new MongoServerError({ message: `E11000 duplicate key error collection: t.faulty index: _id_ dup key: { _id: "${doc._id}" }`, code: 11000 });
    this.docs.set(doc._id, structuredClone(doc));
  }

  async insertOne(doc: Doc, options: { comment?: string }) {
    // The driver serializes the command before it selects a connection: a key BSON cannot hold fails here.
    BSON.serialize(doc);
    return this.call("insert", options.comment, () => {
      this.insertDoc(doc);
      return { acknowledged: true, insertedId: doc._id };
    });
  }

  /** Driver 6.22 runs insertMany as a bulk write: every failure surfaces as a MongoBulkWriteError. */
  async insertMany(docs: Doc[], options: { comment?: string }) {
    try {
      for (const d of docs) BSON.serialize(d);
    } catch (e) {
      throw bulkWrapped(e as BSON.BSONError, 0); // serialized inside the bulk write, which wraps the error
    }
    const fault = this.faults[0];
    if (typeof fault === "object") {
      this.faults.shift();
      this.send("insert", options.comment);
      for (const d of docs.slice(0, fault.midBatch)) this.insertDoc(d);
      throw bulkWrapped(new MongoNetworkError("connection closed in the middle of a batch"), 0);
    }
    let inserted = 0;
    try {
      return await this.call("insert", options.comment, () => {
        // Ordered: stop at the first failure; what came before stays inserted.
        for (let i = 0; i < docs.length; i++) {
          if (this.docs.has(docs[i]._id)) throw bulkDuplicate(i, docs[i]._id);
          this.insertDoc(docs[i]);
          inserted++;
        }
        return { acknowledged: true, insertedCount: docs.length };
      });
    } catch (e) {
      if (e instanceof MongoBulkWriteError || !(e instanceof MongoError)) throw e;
      throw bulkWrapped(e, inserted);
    }
  }

  /** Top-level equality, as the filters under test use (null matches a missing field). */
  private matches(doc: Doc | undefined, filter: Document): doc is Doc {
    if (!doc) return false;
    return Object.entries(filter).every(([k, v]) => {
      if (v === null) return doc[k] == null;
      if (v instanceof Date) return doc[k] instanceof Date && doc[k].getTime() === v.getTime();
      if (typeof v === "object" && !Array.isArray(v)) {
        const x = doc[k] as number;
        const { $lt, $lte, $gte } = v as { $lt?: number; $lte?: number; $gte?: number };
        return x !== undefined && ($lt === undefined || x < $lt) && ($lte === undefined || x <= $lte) && ($gte === undefined || x >= $gte);
      }
      return doc[k] === v;
    });
  }

  async findOne(filter: Document) {
    const found = [...this.docs.values()].find((d) => this.matches(d, filter));
    return found ? fromServer(found) : null;
  }

  private applyUpdate(filter: Document, update: Document, upsert: boolean | undefined): { matched: number; upserted: string | null; doc: Doc | null } {
    const byId = this.docs.get(filter._id as string);
    const existing = this.matches(byId, filter) ? byId : undefined;
    if (byId && !existing && upsert) {
      throw new MongoServerError({ message: `E11000 duplicate key error collection: t.faulty index: _id_ dup key: { _id: "${byId._id}" }`, code: 11000 });
    }
    if (!existing && !upsert) return { matched: 0, upserted: null, doc: null };
    const doc: Doc = existing ?? { _id: filter._id as string, ...((update.$setOnInsert ?? {}) as Record<string, unknown>) };
    const matched = existing ? 1 : 0;
    const upserted = existing ? null : doc._id;
    for (const [k, v] of Object.entries((update.$inc ?? {}) as Record<string, number>)) doc[k] = ((doc[k] as number | undefined) ?? 0) + v;
    Object.assign(doc, update.$set ?? {});
    this.docs.set(doc._id, doc);
    return { matched, upserted, doc };
  }

  updateOne(filter: Document, update: Document, options: { upsert?: boolean; comment?: string }) {
    return this.call("update", options.comment, () => {
      const r = this.applyUpdate(filter, update, options.upsert);
      return { acknowledged: true, matchedCount: r.matched, modifiedCount: r.matched, upsertedId: r.upserted, upsertedCount: r.upserted ? 1 : 0 };
    });
  }

  findOneAndUpdate(filter: Document, update: Document, options: { upsert?: boolean; comment?: string }) {
    return this.call("findAndModify", options.comment, () => structuredClone(this.applyUpdate(filter, update, options.upsert).doc));
  }

  find(filter: Document) {
    const ids = (filter._id as { $in?: string[] }).$in ?? [];
    return { toArray: async () => ids.filter((id) => this.docs.has(id)).map((id) => fromServer(this.docs.get(id)!)) };
  }

  listIndexes() {
    return { toArray: async () => structuredClone(this.indexes) };
  }

  async createIndex(keys: Record<string, number>, options: { name: string; expireAfterSeconds?: number; unique?: boolean }) {
    const same = this.indexes.find((i) => i.name === options.name);
    if (same) {
      if (JSON.stringify(same.key) !== JSON.stringify(keys)) throw new MongoServerError({ message: "IndexKeySpecsConflict", code: 86 });
      if (same.expireAfterSeconds !== options.expireAfterSeconds || !!same.unique !== !!options.unique) {
        throw new MongoServerError({ message: `An existing index has the same name as the requested index (IndexOptionsConflict)`, code: 85 });
      }
      return options.name;
    }
    this.indexes.push({
      name: options.name,
      key: keys,
      ...(options.expireAfterSeconds !== undefined ? { expireAfterSeconds: options.expireAfterSeconds } : {}),
      ...(options.unique ? { unique: true } : {}),
    });
    return options.name;
  }

  async dropIndex(name: string) {
    const i = this.indexes.findIndex((x) => x.name === name);
    if (i < 0) throw new MongoServerError({ message: "index not found", code: 27 });
    this.indexes.splice(i, 1);
  }
}

function setup(options: { events?: boolean } = {}) {
  const tracker = new CommandTracker();
  const fake = new FaultyCollection(tracker);
  const commands: Document[] = [];
  const coll = new MongoCollection<Doc>(fake as unknown as DriverCollection<Doc>, {
    tracker,
    retry: FAST,
    events: options.events ? { timeField: "timestamp", metaField: "meta" } : undefined,
    command: async (c) => {
      commands.push(c);
      const index = c.index as { name: string; expireAfterSeconds: number };
      const target = fake.indexes.find((i) => i.name === index.name);
      if (!target) throw new MongoServerError({ message: "index not found", code: 27 });
      target.expireAfterSeconds = index.expireAfterSeconds;
      return { ok: 1 };
    },
  });
  return { fake, coll, commands };
}

const log = (i: number): Doc => ({ _id: `log-${String(i).padStart(4, "0")}`, timestamp: new Date(), meta: { org_id: "o" }, n: i });

describe("MongoDB retries under injected faults", () => {
  it("re-sends an $inc that never reached a server, and counts it once", async () => {
    const { fake, coll } = setup();
    fake.faults.push("before-send", "before-send");
    await coll.updateOne({ _id: "r1" }, { $inc: { num_requests: 1 }, $set: { org_id: "o" } }, { upsert: true });
    expect(fake.docs.get("r1")?.num_requests).toBe(1);
    expect(fake.sends).toEqual(["update"]);
  });

  it("never re-sends an $inc whose reply was lost: applied once, reported as unknown", async () => {
    for (const fault of ["lost-reply", "reselect-after-send"] as const) {
      const { fake, coll } = setup();
      await coll.updateOne({ _id: "r1" }, { $inc: { num_requests: 1 } }, { upsert: true });
      fake.faults.push(fault);
      const e = await coll.updateOne({ _id: "r1" }, { $inc: { num_requests: 1 } }, { upsert: true }).catch((err: unknown) => err);
      expect(e, fault).toBeInstanceOf(MongoUnavailableError);
      expect((e as MongoUnavailableError).outcome).toBe("unknown");
      expect((e as MongoUnavailableError).retryAfterSeconds).toBeGreaterThan(0);
      // Two requests, two increments: the lost reply did not become a third.
      expect(fake.docs.get("r1")?.num_requests, fault).toBe(2);
      expect(fake.sends).toEqual(["update", "update"]);
    }
  });

  it("does not skip a policy version when the version bump's reply is lost", async () => {
    const { fake, coll } = setup();
    fake.docs.set("p1", { _id: "p1", version_id: 1, name: "a" });
    fake.faults.push("reselect-after-send");
    await expect(coll.findOneAndUpdate({ _id: "p1" }, { $set: { name: "b" }, $inc: { version_id: 1 } }, { returnDocument: "after" })).rejects.toBeInstanceOf(
      MongoUnavailableError,
    );
    expect(fake.docs.get("p1")?.version_id).toBe(2);
    expect(fake.sends).toHaveLength(1);
  });

  it("retries idempotent updates after a lost reply", async () => {
    const { fake, coll } = setup();
    fake.faults.push("lost-reply");
    await coll.updateOne({ _id: "k" }, { $set: { revoked: true } }, { upsert: true });
    expect(fake.docs.get("k")).toEqual({ _id: "k", revoked: true });
    expect(fake.sends).toEqual(["update", "update"]);
  });

  it("reports a conditional $set whose reply was lost as applied, not as 'nothing matched' (a revoke)", async () => {
    const { fake, coll } = setup();
    fake.docs.set("k1", { _id: "k1", org_id: "o", revoked_at: null });
    fake.faults.push("lost-reply");
    const at = new Date();
    const revoked = await coll.findOneAndUpdate({ _id: "k1", org_id: "o", revoked_at: null }, { $set: { revoked_at: at } }, { returnDocument: "after" });
    expect(revoked).toEqual({ _id: "k1", org_id: "o", revoked_at: at });
    // The retry looked, found its own change, and sent nothing more.
    expect(fake.sends).toEqual(["findAndModify"]);

    fake.docs.set("v", { _id: "v", version: 1 });
    fake.faults.push("reselect-after-send");
    const r = await coll.updateOne({ _id: "v", version: 1 }, { $set: { version: 2 } });
    expect(r.matchedCount).toBe(1);
    expect(fake.docs.get("v")?.version).toBe(2);
  });

  it("counts a re-sent conditional $set that landed late as its own, and never re-sends one that returns the document before", async () => {
    const { fake, coll } = setup();
    fake.docs.set("k1", { _id: "k1", revoked_at: null });
    // The first attempt applied, its reply lost; it becomes visible only after the retry looked.
    fake.faults.push("lost-reply");
    const at = new Date();
    const realFindOne = fake.findOne.bind(fake);
    let looks = 0;
    const applied = structuredClone(fake.docs.get("k1"));
    fake.findOne = async (filter: Document) => {
      if (looks++ === 0) {
        const now = fake.docs.get("k1")!;
        fake.docs.set("k1", applied!); // not yet visible to the first look
        const r = await realFindOne(filter);
        fake.docs.set("k1", now);
        return r;
      }
      return realFindOne(filter);
    };
    const r = await coll.updateOne({ _id: "k1", revoked_at: null }, { $set: { revoked_at: at } });
    expect(r.matchedCount).toBe(1);
    expect(fake.sends).toEqual(["update", "update"]);

    fake.docs.set("k2", { _id: "k2", revoked_at: null });
    fake.faults.push("lost-reply");
    const e = await coll.findOneAndUpdate({ _id: "k2", revoked_at: null }, { $set: { revoked_at: at } }).catch((err: unknown) => err);
    expect((e as MongoUnavailableError).outcome).toBe("unknown");
    expect(fake.sends).toEqual(["update", "update", "findAndModify"]);
  });

  it("restarts a shared rate-limit bucket once when the reply of its upsert is lost: its tokens are taken once", async () => {
    const { fake, coll } = setup();
    const buckets = await SharedBuckets.open({ collection: async () => coll } as unknown as Database);
    const now = Date.now();
    fake.faults.push("lost-reply");
    expect(await buckets.take("req:k", 5, { burst: 10, perSecond: 10 }, now)).toEqual({ granted: 5, retryAfterMs: 0 });
    // 5 tokens at 100 ms each: the bucket is full again 500 ms from now, not 1,000 (taken twice).
    expect(fake.docs.get("req:k")?.tat).toBe(now + 500);
  });

  it("reads back a stored {$ref, $id} object as the plain object it was, not a DBRef", async () => {
    const { fake, coll } = setup();
    const doc = { _id: "p1", metadata: { link: { $ref: "tickets", $id: 7, note: "x" }, list: [{ $ref: "a", $id: "b" }] } };
    fake.docs.set("p1", structuredClone(doc));
    const read = await coll.findOne({ _id: "p1" });
    expect(read).toEqual(doc);
    expect(Object.getPrototypeOf((read!.metadata as { link: object }).link)).toBe(Object.prototype);
    // A retried insert of such a document recognizes it as its own.
    fake.faults.push("lost-reply");
    await coll.insertOne({ ...doc, _id: "p2" });
    expect(fake.sends).toEqual(["insert"]);
  });

  it("refuses a document with a NUL in a key by name, and an import copies everything else", async () => {
    const { coll } = setup();
    const bad = { _id: "bad", metadata: { "a\u0000b": 1 } };
    const e = await coll.insertMany([{ _id: "ok" }, bad, { _id: "ok2" }]).catch((err: unknown) => err);
    expect(e).toBeInstanceOf(UnstorableDocumentError);
    expect((e as UnstorableDocumentError).documentId).toBe("bad");

    // The embedded engine holds such a key; export, then import into the MongoDB engine.
    const dir = tempDir("parapet-nul-");
    try {
      const source = await EmbeddedDatabase.open({ dataDir: path.join(dir, "data"), ttlSweepIntervalMs: 0 });
      const projects = await source.collection("projects");
      await projects.insertMany([
        { _id: "p1", name: "a" },
        { _id: "p2", metadata: { "a\u0000b": 1 } },
        { _id: "p3", name: "c" },
      ]);
      await source.close();
      const file = path.join(dir, "export.ndjson");
      await exportDataDir(path.join(dir, "data"), file);
      const target = setup();
      const summary = await importInto({ collection: async () => target.coll } as unknown as Database, file);
      const projectsSummary = summary.collections.find((c) => c.name === "projects");
      expect(projectsSummary).toMatchObject({ documents: 2, refused: [{ id: "p2", reason: expect.stringMatching(/NUL/) as unknown }] });
      expect([...target.fake.docs.keys()].sort()).toEqual(["p1", "p3"]);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it("stores a log once when the reply of its insert is lost", async () => {
    const { fake, coll } = setup({ events: true });
    fake.faults.push("lost-reply");
    await coll.insertOne(log(1));
    expect([...fake.docs.keys()]).toEqual(["log-0001"]);
    // The retry looked before sending again, and did not send.
    expect(fake.sends).toEqual(["insert"]);
  });

  it("treats a duplicate _id met by a retry as its own earlier insert, but not on a first attempt", async () => {
    const { fake, coll } = setup();
    fake.faults.push("reselect-after-send");
    await coll.insertOne({ _id: "a", x: 1 });
    expect(fake.docs.size).toBe(1);
    await expect(coll.insertOne({ _id: "a", x: 2 })).rejects.toBeInstanceOf(DuplicateKeyError);
  });

  it("does not take another process's document under the same _id for its own lost insert", async () => {
    // Two replicas bootstrapping: each tries to create the default organization; only one may
    // believe it did (and print the bootstrap keys).
    const { fake, coll } = setup();
    fake.faults.push("sent-not-applied");
    const theirs = { _id: "org-default", name: "Default organization", created_at: new Date(Date.now() - 5) };
    fake.meanwhile = () => fake.docs.set(theirs._id, structuredClone(theirs));
    const e = await coll.insertOne({ _id: "org-default", name: "Default organization", created_at: new Date() }).catch((err: unknown) => err);
    expect(e).toBeInstanceOf(DuplicateKeyError);
    expect(fake.docs.get("org-default")).toEqual(theirs);
    // The same when the retry's look comes after the other insert: the look finds a document, but not this one.
    fake.docs.clear();
    fake.faults.push("sent-not-applied");
    const e2 = await coll.insertMany([{ _id: "org-default", name: "Default organization", created_at: new Date() }]).catch((err: unknown) => err);
    expect(e2).toBeInstanceOf(DuplicateKeyError);
  });

  it("resumes an ordered insertMany that stopped mid-batch: none twice, none dropped", async () => {
    const { fake, coll } = setup({ events: true });
    const batch = Array.from({ length: 1000 }, (_, i) => log(i));
    fake.faults.push({ midBatch: 437 }, "lost-reply");
    await coll.insertMany(batch);
    expect([...fake.docs.keys()].sort()).toEqual(batch.map((d) => d._id));
  });

  it("continues past its own documents when a retried batch meets them (duplicate at the first document)", async () => {
    const { fake, coll } = setup();
    const batch = Array.from({ length: 10 }, (_, i) => log(i));
    // First attempt: 4 applied, reply lost, and document 4 still in flight: it lands
    // just after the retry looked, so the retry's batch meets it at its first document.
    fake.faults.push({ midBatch: 4 });
    const realFind = fake.find.bind(fake);
    fake.find = (filter: Document) => ({
      toArray: async () => {
        const found = await realFind(filter).toArray();
        fake.docs.set("log-0004", structuredClone(batch[4])); // the same document, still in flight
        return found;
      },
    });
    await coll.insertMany(batch);
    expect([...fake.docs.keys()].sort()).toEqual(batch.map((d) => d._id));
  });

  it("resumes an insertMany whose batch the driver wrapped: selection failed before sending, then a lost reply", async () => {
    const { fake, coll } = setup({ events: true });
    const batch = Array.from({ length: 50 }, (_, i) => log(i));
    fake.faults.push("before-send", "reselect-after-send");
    await coll.insertMany(batch);
    expect([...fake.docs.keys()].sort()).toEqual(batch.map((d) => d._id));
    // One send: applied, its reply lost; the next attempt looked first and found every document.
    expect(fake.sends).toEqual(["insert"]);
  });

  it("reports a genuine duplicate in a first batch after inserting what came before it", async () => {
    const { fake, coll } = setup();
    fake.docs.set("log-0005", log(5));
    await expect(coll.insertMany(Array.from({ length: 10 }, (_, i) => log(i)))).rejects.toBeInstanceOf(DuplicateKeyError);
    expect([...fake.docs.keys()].sort()).toEqual(["log-0000", "log-0001", "log-0002", "log-0003", "log-0004", "log-0005"]);
  });

  it("answers within the budget when no server can be selected, and stops trying", async () => {
    const { fake, coll } = setup();
    const slow = new MongoCollection<Doc>(fake as unknown as DriverCollection<Doc>, {
      tracker: new CommandTracker(),
      retry: { attempts: 100, baseDelayMs: 20, maxDelayMs: 40, budgetMs: 300 },
      command: async () => ({}),
    });
    fake.faults.push(...Array.from({ length: 100 }, () => "before-send" as const));
    const started = Date.now();
    const e = await slow.insertOne({ _id: "x" }).catch((err: unknown) => err);
    const took = Date.now() - started;
    expect(e).toBeInstanceOf(MongoUnavailableError);
    expect((e as MongoUnavailableError).outcome).toBe("not-applied");
    // Generous for a loaded machine: a hundred attempts would take seconds.
    expect(took).toBeLessThan(2_000);
    const left = fake.faults.length;
    await new Promise((r) => setTimeout(r, 100));
    expect(fake.faults.length).toBe(left); // no attempt after the deadline
    void coll;
  });

  it("stops waiting at the deadline even when the driver call hangs", async () => {
    const { fake } = setup();
    fake.insertOne = () => new Promise(() => undefined) as never;
    const hung = new MongoCollection<Doc>(fake as unknown as DriverCollection<Doc>, {
      tracker: new CommandTracker(),
      retry: { attempts: 3, baseDelayMs: 1, maxDelayMs: 1, budgetMs: 200 },
      command: async () => ({}),
    });
    const started = Date.now();
    await expect(hung.insertOne({ _id: "x" })).rejects.toBeInstanceOf(MongoUnavailableError);
    // Generous for a loaded machine: without the deadline the call is waited for forever.
    expect(Date.now() - started).toBeLessThan(2_000);
  });

  it("changes a TTL through collMod instead of failing with IndexOptionsConflict", async () => {
    const { fake, coll, commands } = setup();
    await coll.createIndex({ name: "retention", keys: { start: 1 }, expireAfterSeconds: 30 * 86_400 });
    await coll.createIndex({ name: "retention", keys: { start: 1 }, expireAfterSeconds: 7 * 86_400 });
    expect(commands).toEqual([{ collMod: "faulty", index: { name: "retention", expireAfterSeconds: 7 * 86_400 } }]);
    expect(fake.indexes.find((i) => i.name === "retention")?.expireAfterSeconds).toBe(7 * 86_400);
    expect(await coll.listIndexes()).toEqual([{ name: "retention", keys: { start: 1 }, expireAfterSeconds: 7 * 86_400 }]);
  });

  it("rebuilds an index whose keys or uniqueness changed", async () => {
    const { fake, coll, commands } = setup();
    await coll.createIndex({ name: "org_start", keys: { org_id: 1, minute: 1 } });
    await coll.createIndex({ name: "org_start", keys: { org_id: 1, start: 1 } });
    await coll.createIndex({ name: "org_start", keys: { org_id: 1, start: 1 }, unique: true });
    expect(commands).toEqual([]);
    expect(fake.indexes.filter((i) => i.name !== "_id_")).toEqual([{ name: "org_start", key: { org_id: 1, start: 1 }, unique: true }]);
  });

  it("refuses an event above MongoDB's time-series document limit on both engines' terms", async () => {
    const { coll } = setup({ events: true });
    await expect(coll.insertOne({ ...log(1), big: "x".repeat(4_100_000) })).rejects.toBeInstanceOf(RangeError);
  });
});
