// What bounds each MongoDB call besides Parapet's own retries (docs/storage.md#mongodb-deadlines):
// the server's limits (maxTimeMS, the write concern's wtimeout) cut to the time the call has left,
// the driver's selection, pool-wait and socket timeouts, the send-tracking wiring, and the
// "is it already stored?" check that reads durable data from the primary. Without a server: a
// recording double of the driver's Collection, failing with the driver's own error classes.

import { MongoClient, MongoServerError, MongoWriteConcernError, type Collection as DriverCollection, type Document } from "mongodb";
import { describe, expect, it } from "vitest";
import type { Doc } from "../../src/storage/collection.js";
import { withStorageDeadline } from "../../src/storage/deadline.js";
import { MongoCollection } from "../../src/storage/mongodb/collection.js";
import { clientOptions, CommandTracker, ELECTION_MS, watchSends } from "../../src/storage/mongodb/engine.js";
import { DEFAULT_RETRY, MongoUnavailableError, type RetryPolicy } from "../../src/storage/mongodb/retry.js";
import { waitQueueTimeout } from "./fixtures/driver-errors.js";

const POLICY: RetryPolicy = { attempts: 4, baseDelayMs: 1, maxDelayMs: 2, budgetMs: 10_000 };

/** A driver collection that records the options of each call and answers with `answer`. */
function recording(answer: (op: string) => unknown = () => undefined) {
  const calls: { op: string; options: Document }[] = [];
  const respond = (op: string, options: Document, value: unknown) => {
    calls.push({ op, options });
    const a = answer(op);
    if (a instanceof Error) throw a;
    return a ?? value;
  };
  const driver = {
    collectionName: "logs",
    writeConcern: { w: "majority", journal: true, wtimeoutMS: 0, wtimeout: 0 },
    findOne: async (_f: unknown, o: Document) => respond("findOne", o, null),
    find: (_f: unknown, o: Document) => ({ toArray: async () => respond("find", o, []) }),
    countDocuments: async (_f: unknown, o: Document) => respond("countDocuments", o, 0),
    aggregate: (_p: unknown, o: Document) => ({ toArray: async () => respond("aggregate", o, []) }),
    updateOne: async (_f: unknown, _u: unknown, o: Document) => respond("updateOne", o, { matchedCount: 1, modifiedCount: 1, upsertedId: null }),
    insertOne: async (_d: unknown, o: Document) => respond("insertOne", o, { acknowledged: true }),
  };
  const tracker = new CommandTracker();
  const coll = new MongoCollection<Doc>(driver as unknown as DriverCollection<Doc>, { tracker, retry: POLICY, command: async () => ({}) });
  return { calls, coll, tracker };
}

describe("MongoDB calls bounded by the time they have left", () => {
  it("gives every read a server time limit no longer than the request has left", async () => {
    const { calls, coll } = recording();
    await withStorageDeadline(Date.now() + 1_000, async () => {
      await coll.findOne({ _id: "a" });
      await coll.find({ flagged: true }, { skip: 100_000, limit: 101 });
      await coll.countDocuments({});
      await coll.aggregate([{ $match: {} }]);
    });
    expect(calls.map((c) => c.op)).toEqual(["findOne", "find", "countDocuments", "aggregate"]);
    for (const { op, options } of calls) {
      expect(options.maxTimeMS, op).toBeGreaterThan(0);
      expect(options.maxTimeMS, op).toBeLessThanOrEqual(1_000);
    }
  });

  it("gives every write maxTimeMS and a wtimeout from the time left, keeping the URI's write concern", async () => {
    const { calls, coll } = recording();
    await withStorageDeadline(Date.now() + 2_000, () => coll.updateOne({ _id: "r" }, { $inc: { n: 1 } }, { upsert: true }));
    const [{ options }] = calls;
    expect(options.maxTimeMS).toBeGreaterThan(0);
    expect(options.maxTimeMS).toBeLessThanOrEqual(2_000);
    expect(options.writeConcern).toEqual({ w: "majority", journal: true, wtimeoutMS: options.maxTimeMS });
    // The legacy field would win over wtimeoutMS in the driver's WriteConcern.fromOptions.
    expect(options.writeConcern).not.toHaveProperty("wtimeout");
  });

  it("answers 503 when the server stopped the work at maxTimeMS, and does not retry it", async () => {
    const { calls, coll } = recording(() => new MongoServerError({ message: "operation exceeded time limit", code: 50, codeName: "MaxTimeMSExpired" }));
    const e = await coll.find({ flagged: true }, { skip: 100_000 }).catch((err: unknown) => err);
    expect(e).toBeInstanceOf(MongoUnavailableError);
    expect(calls).toHaveLength(1);
  });

  it("reports a write whose write concern timed out as possibly applied", async () => {
    const wce = new MongoWriteConcernError({
      writeConcernError: { code: 64, errmsg: "waiting for replication timed out", errInfo: { wtimeout: true } },
    } as never);
    const { calls, coll } = recording((op) => (op === "updateOne" ? wce : undefined));
    const e = await coll.updateOne({ _id: "k" }, { $set: { revoked: true } }).catch((err: unknown) => err);
    expect(e).toBeInstanceOf(MongoUnavailableError);
    expect((e as MongoUnavailableError).outcome).toBe("unknown");
    expect(calls).toHaveLength(1);
  });

  it("answers 503 at once when no pooled connection came free, without queueing again", async () => {
    const { calls, coll } = recording(() => waitQueueTimeout());
    const e = await coll.findOne({ _id: "a" }).catch((err: unknown) => err);
    expect(e).toBeInstanceOf(MongoUnavailableError);
    expect(calls).toHaveLength(1);
  });

  it("reports an idempotent write that was sent, then failed for good, as possibly applied", async () => {
    let sends = 0;
    const { coll, tracker } = recording((op) => {
      if (op !== "updateOne") return undefined;
      // Each attempt reaches the server (commandStarted), and its reply is lost.
      if (sends++ === 0) tracker.started({ command: { comment: latestComment } } as never);
      return new MongoServerError({ message: "not primary", code: 10107 });
    });
    let latestComment = "";
    const open = tracker.open.bind(tracker);
    tracker.open = () => (latestComment = open());
    const e = await coll.updateOne({ _id: "k" }, { $set: { revoked: true } }).catch((err: unknown) => err);
    expect(e).toBeInstanceOf(MongoUnavailableError);
    expect((e as MongoUnavailableError).outcome).toBe("unknown");
  });

  it("looks for an earlier attempt's insert on the primary, with majority read concern", async () => {
    let inserts = 0;
    const { calls, coll, tracker } = recording((op) => {
      if (op !== "insertOne" || inserts++ > 0) return undefined;
      tracker.started({ command: { comment: latestComment } } as never);
      return new MongoServerError({ message: "connection reset", code: 6 });
    });
    let latestComment = "";
    const open = tracker.open.bind(tracker);
    tracker.open = () => (latestComment = open());
    await coll.insertOne({ _id: "log-1" });
    const check = calls.find((c) => c.op === "find");
    expect(check?.options).toMatchObject({ readPreference: "primary", readConcern: { level: "majority" } });
  });
});

describe("MongoDB driver settings", () => {
  it("waits out an election within the call's budget, and bounds pool waits and sockets", () => {
    const requests = clientOptions("requests", DEFAULT_RETRY);
    // MongoDB's median election is about 12 s; the 5 s of earlier versions failed the driver's one safe retry.
    expect(requests.serverSelectionTimeoutMS).toBeGreaterThanOrEqual(ELECTION_MS);
    expect(ELECTION_MS).toBeGreaterThan(12_000);
    expect(requests.serverSelectionTimeoutMS).toBeLessThanOrEqual(DEFAULT_RETRY.budgetMs);
    expect(requests.waitQueueTimeoutMS).toBeGreaterThan(0);
    expect(requests.waitQueueTimeoutMS).toBeLessThanOrEqual(DEFAULT_RETRY.budgetMs);
    expect(requests.socketTimeoutMS).toBeGreaterThan(DEFAULT_RETRY.budgetMs);
    // Start-up work's single commands (an index build) may run for hours: its own client waits for them.
    const startup = clientOptions("startup", DEFAULT_RETRY);
    expect(startup.socketTimeoutMS).toBeGreaterThan(DEFAULT_RETRY.startupBudgetMs!);
  });

  it("keeps command monitoring on and wired to the send tracker: without it a lost $inc reply would be re-sent", () => {
    for (const role of ["requests", "startup"] as const) {
      const options = clientOptions(role, DEFAULT_RETRY);
      expect(options.monitorCommands, role).toBe(true);
      const tracker = new CommandTracker();
      const client = watchSends(new MongoClient("mongodb://127.0.0.1:1/parapet", options), tracker);
      expect(client.options.monitorCommands, role).toBe(true);
      const token = tracker.open();
      expect(tracker.sent(token)).toBe(false);
      client.emit("commandStarted", { command: { comment: token } } as never);
      expect(tracker.sent(token), role).toBe(true);
    }
  });
});
