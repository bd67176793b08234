// Parts of the MongoDB engine that need no server: database name, retry policy, retries inside the
// request's deadline (docs/storage.md#mongodb-deadlines).

import { Code } from "@connectrpc/connect";
import { MongoNetworkError, MongoServerError, MongoServerSelectionError, type Collection as DriverCollection } from "mongodb";
import { describe, expect, it } from "vitest";
import { ApiError, errorDetailOf, toConnectError } from "../../src/api/errors.js";
import { timeoutInterceptor } from "../../src/api/interceptors/timeout.js";
import { StorageUnavailableError, type Doc } from "../../src/storage/collection.js";
import { withStorageDeadline } from "../../src/storage/deadline.js";
import { MongoCollection } from "../../src/storage/mongodb/collection.js";
import { CommandTracker, databaseNameFromUri } from "../../src/storage/mongodb/engine.js";
import { DEADLINE_MARGIN_MS, isTransient, MongoUnavailableError, withRetry } from "../../src/storage/mongodb/retry.js";

describe("MongoDB engine without a server", () => {
  it("takes the database name from the URI, defaulting to parapet", () => {
    expect(databaseNameFromUri("mongodb://localhost:27017")).toBe("parapet");
    expect(databaseNameFromUri("mongodb://localhost:27017/")).toBe("parapet");
    expect(databaseNameFromUri("mongodb://u:p@a:1,b:2/guard?replicaSet=rs0")).toBe("guard");
    expect(databaseNameFromUri("mongodb+srv://cluster.example.net/prod%2Dx?retryWrites=true")).toBe("prod-x");
    expect(databaseNameFromUri("mongodb://h/?authSource=admin")).toBe("parapet");
  });

  it("classifies transient errors", () => {
    expect(isTransient(new MongoNetworkError("reset"))).toBe(true);
    expect(isTransient(new MongoServerError({ message: "stepped down", code: 189 }))).toBe(true);
    expect(isTransient(new MongoServerError({ message: "dup", code: 11000 }))).toBe(false);
    expect(isTransient(new Error("plain"))).toBe(false);
  });

  it("retries idempotent operations with backoff, then reports storage unavailable", async () => {
    const delays: number[] = [];
    let calls = 0;
    const result = await withRetry(
      async () => {
        if (++calls < 3) throw new MongoNetworkError("reset");
        return "ok";
      },
      { idempotent: true, sleep: async (ms) => void delays.push(ms), policy: { attempts: 5, baseDelayMs: 100, maxDelayMs: 1000, budgetMs: 60_000 } },
    );
    expect(result).toBe("ok");
    expect(delays).toHaveLength(2);
    expect(delays[1]).toBeGreaterThanOrEqual(100);
    await expect(
      withRetry(() => Promise.reject(new MongoNetworkError("down")), {
        idempotent: true,
        sleep: async () => undefined,
        policy: { attempts: 3, baseDelayMs: 1, maxDelayMs: 1, budgetMs: 60_000 },
      }),
    ).rejects.toBeInstanceOf(StorageUnavailableError);
  });

  it("retries a non-idempotent write only when it was never sent, whatever the error class", async () => {
    const selection = new MongoServerSelectionError("no primary", { type: "Unknown", servers: new Map() } as never);
    // A selection error after the driver's own retry sent the first attempt: never re-sent.
    let calls = 0;
    const e = await withRetry(
      async () => {
        calls++;
        throw selection;
      },
      { idempotent: false, wasSent: () => true, sleep: async () => undefined },
    ).catch((err: unknown) => err);
    expect(e).toBeInstanceOf(MongoUnavailableError);
    expect((e as MongoUnavailableError).outcome).toBe("unknown");
    expect(calls).toBe(1);
    // The same error class when nothing reached the wire: retried.
    calls = 0;
    await withRetry(
      async () => {
        if (++calls === 1) throw selection;
      },
      { idempotent: false, wasSent: () => false, sleep: async () => undefined },
    );
    expect(calls).toBe(2);
    // Without a tracker, a failure counts as possibly sent.
    calls = 0;
    await expect(
      withRetry(
        async () => {
          calls++;
          throw new MongoNetworkError("reset after send");
        },
        { idempotent: false, sleep: async () => undefined },
      ),
    ).rejects.toBeInstanceOf(StorageUnavailableError);
    expect(calls).toBe(1);
  });
});

describe("MongoDB retries inside the request's deadline", () => {
  const noServer = () => new MongoServerSelectionError("Server selection timed out after 5000 ms", { type: "Unknown", servers: new Map() } as never);
  const policy = { attempts: 100, baseDelayMs: 20, maxDelayMs: 40, budgetMs: 10_000 };

  it("gives up before a request deadline 300 ms away, with a storage-unavailable error, and starts no attempt after it", async () => {
    const attempts: number[] = [];
    const started = Date.now();
    const deadline = started + 300;
    const e = await withStorageDeadline(deadline, () =>
      withRetry(
        async () => {
          attempts.push(Date.now());
          await new Promise((r) => setTimeout(r, 30));
          throw noServer();
        },
        { idempotent: true, policy },
      ),
    ).catch((err: unknown) => err);
    const took = Date.now() - started;
    expect(e).toBeInstanceOf(MongoUnavailableError);
    expect((e as MongoUnavailableError).message).toMatch(/request's deadline/);
    // The policy's 10 s budget would have allowed 100 attempts; the deadline (less its margin) ended them.
    expect(took).toBeGreaterThanOrEqual(300 - DEADLINE_MARGIN_MS - 20);
    // Timers may fire late on a loaded machine: a generous bound, far below the seconds the budget allows.
    expect(took).toBeLessThan(2_000);
    expect(attempts.length).toBeGreaterThan(1);
    for (const at of attempts) expect(at).toBeLessThan(deadline - DEADLINE_MARGIN_MS);
    // The Retry-After is the outage's estimate (the policy's budget), not what this request had left.
    expect((e as MongoUnavailableError).retryAfterSeconds).toBe(10);
    const count = attempts.length;
    await new Promise((r) => setTimeout(r, 150));
    expect(attempts.length).toBe(count);
  });

  it("stops waiting for a hung attempt at the request's deadline", async () => {
    const started = Date.now();
    const e = await withStorageDeadline(started + 300, () => withRetry(() => new Promise<never>(() => undefined), { idempotent: true, policy })).catch(
      (err: unknown) => err,
    );
    expect(e).toBeInstanceOf(StorageUnavailableError);
    // Generous for a loaded machine: without the deadline the attempt is waited for forever.
    expect(Date.now() - started).toBeLessThan(2_000);
  });

  it("reports a write abandoned at the deadline as possibly applied: the driver may still send it", async () => {
    const e = await withStorageDeadline(Date.now() + 200, () =>
      withRetry(() => new Promise<never>(() => undefined), { idempotent: false, wasSent: () => false, policy }),
    ).catch((err: unknown) => err);
    expect((e as MongoUnavailableError).outcome).toBe("unknown");
  });

  it("keeps the policy's budget when the request has more time, and the sooner of nested deadlines", async () => {
    const short = { attempts: 100, baseDelayMs: 5, maxDelayMs: 5, budgetMs: 150 };
    const started = Date.now();
    await expect(withStorageDeadline(started + 30_000, () => withRetry(() => Promise.reject(noServer()), { idempotent: true, policy: short }))).rejects.toThrow(
      /150 ms budget/,
    );
    expect(Date.now() - started).toBeLessThan(1_000);
    const inner = Date.now();
    await expect(
      withStorageDeadline(inner + 200, () => withStorageDeadline(inner + 60_000, () => withRetry(() => Promise.reject(noServer()), { idempotent: true, policy }))),
    ).rejects.toThrow(/request's deadline/);
    // Generous for a loaded machine: the outer deadline or the policy's budget would take seconds.
    expect(Date.now() - inner).toBeLessThan(2_000);
  });

  it("a storage call made after the request's deadline starts no attempt", async () => {
    let calls = 0;
    const e = await withStorageDeadline(Date.now() - 1, () => withRetry(async () => void calls++, { idempotent: true, policy })).catch((err: unknown) => err);
    expect(e).toBeInstanceOf(MongoUnavailableError);
    expect(calls).toBe(0);
  });

  it("through the request timeout interceptor: 503 unavailable with Retry-After before the 504, and the work stops", async () => {
    const tracker = new CommandTracker();
    let attempts = 0;
    let afterAnswer = 0;
    let answered = false;
    // The driver's collection during an outage: every call fails server selection after a while.
    const down = {
      collectionName: "projects",
      findOne: async () => {
        attempts++;
        if (answered) afterAnswer++;
        await new Promise((r) => setTimeout(r, 40));
        throw noServer();
      },
    };
    const projects = new MongoCollection<Doc>(down as unknown as DriverCollection<Doc>, { tracker, retry: policy, command: async () => ({}) });
    const handler = timeoutInterceptor(300)((async () => {
      await projects.findOne({ _id: "project-default" });
      return { message: {} };
    }) as never);
    const started = Date.now();
    const e = await handler({} as never).catch((err: unknown) => err);
    answered = true;
    const took = Date.now() - started;
    expect(e).toBeInstanceOf(StorageUnavailableError);
    // Generous for a loaded machine: the policy's budget would retry for seconds.
    expect(took).toBeLessThan(2_000);
    const connect = toConnectError(e, "req-1");
    expect(connect.code).toBe(Code.Unavailable);
    expect(connect.metadata.get("retry-after")).toBe("10");
    expect(errorDetailOf(connect)?.httpStatus).toBe(503);
    expect(attempts).toBeGreaterThan(1);
    await new Promise((r) => setTimeout(r, 200));
    expect(afterAnswer).toBe(0);
  });

  it("a handler that overran the deadline for other reasons gets 504, and its later storage calls do not run", async () => {
    let calls = 0;
    const down = { collectionName: "logs", findOne: async () => void calls++ };
    const logs = new MongoCollection<Doc>(down as unknown as DriverCollection<Doc>, { tracker: new CommandTracker(), retry: policy, command: async () => ({}) });
    let late: unknown;
    const handler = timeoutInterceptor(100)((async () => {
      await new Promise((r) => setTimeout(r, 150)); // screening past the deadline
      late = await logs.findOne({ _id: "x" }).catch((err: unknown) => err);
      return { message: {} };
    }) as never);
    const e = await handler({} as never).catch((err: unknown) => err);
    expect(e).toBeInstanceOf(ApiError);
    expect((e as ApiError).id).toBe("timeout");
    await new Promise((r) => setTimeout(r, 100));
    expect(late).toBeInstanceOf(StorageUnavailableError);
    expect(calls).toBe(0);
  });
});
