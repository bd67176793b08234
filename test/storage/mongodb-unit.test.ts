// Parts of the MongoDB engine that need no server: database name, retry policy.

import { MongoNetworkError, MongoServerError, MongoServerSelectionError } from "mongodb";
import { describe, expect, it } from "vitest";
import { StorageUnavailableError } from "../../src/storage/collection.js";
import { databaseNameFromUri } from "../../src/storage/mongodb/engine.js";
import { isTransient, MongoUnavailableError, withRetry } from "../../src/storage/mongodb/retry.js";

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
