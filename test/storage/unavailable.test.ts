// A storage outage reaches clients as 503 `unavailable` with Retry-After: the
// embedded engine's default wait, or what the MongoDB retry budget computed.
import { Code } from "@connectrpc/connect";
import { describe, expect, it } from "vitest";
import { toConnectError } from "../../src/api/errors.js";
import { StorageUnavailableError } from "../../src/storage/collection.js";
import { MongoUnavailableError } from "../../src/storage/mongodb/retry.js";

describe("storage unavailable", () => {
  it("answers unavailable with Retry-After", () => {
    const embedded = toConnectError(new StorageUnavailableError("journal write failed"), "req-1");
    expect(embedded.code).toBe(Code.Unavailable);
    expect(embedded.metadata.get("retry-after")).toBe("30");
    expect(embedded.rawMessage).not.toContain("journal"); // the cause stays in the service log
    const mongo = toConnectError(new MongoUnavailableError("no primary", { retryAfterSeconds: 7, outcome: "unknown" }), "req-2");
    expect(mongo.code).toBe(Code.Unavailable);
    expect(mongo.metadata.get("retry-after")).toBe("7");
  });
});
