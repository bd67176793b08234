// Vault configuration: without PARAPET_VAULT_KEY reversible mode is refused
// with a message naming it (mask mode still works); key and expiry are checked
// at start-up; the configured expiry is what entries get.
import { randomBytes } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Code, ConnectError } from "@connectrpc/connect";
import { GuardService } from "../../gen/parapet/v1/guard_pb.js";
import { startApp } from "../../src/app.js";
import { loadConfig } from "../../src/config.js";
import { createLogger } from "../../src/observability/logger.js";
import { rpcClient, startTestServer, type TestServer } from "../support/server.js";
import { expectError, guard, restore, startVaultServer } from "./support.js";

const EMAIL = "jane.doe@example.com";

describe("no vault key", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(async () => {
    await server?.close();
  });

  it("reversible sanitize and restore answer 403 feature_disabled naming PARAPET_VAULT_KEY", async () => {
    const g = await guard(server, { sanitize: { mode: "reversible" }, messages: [{ role: "user", content: `mail ${EMAIL}` }] });
    expectError(g, 403, "feature_disabled");
    expect(g.body.message).toContain("PARAPET_VAULT_KEY");
    const r = await restore(server, { vault_id: "vlt_" + "A".repeat(32), text: "[EMAIL_1]" });
    expectError(r, 403, "feature_disabled");
    expect(r.body.message).toContain("PARAPET_VAULT_KEY");
  });

  it("the same over gRPC", async () => {
    const client = rpcClient(GuardService, server, "grpc", server.screeningKey);
    const err = await client.guard({ sanitize: { mode: "reversible" }, messages: [{ role: "user", content: EMAIL }] }).then(
      () => undefined,
      (e) => ConnectError.from(e),
    );
    expect(err?.code).toBe(Code.PermissionDenied);
    expect(err?.rawMessage).toContain("PARAPET_VAULT_KEY");
  });

  it("mask mode needs no key", async () => {
    const g = await guard(server, { sanitize: { mode: "mask" }, messages: [{ role: "user", content: `mail ${EMAIL}` }] });
    expect(g.status).toBe(200);
    expect(g.body.sanitized_messages[0].content).toBe("mail [EMAIL_1]");
  });
});

describe("PARAPET_VAULT_TTL_SECONDS", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startVaultServer({ PARAPET_VAULT_TTL_SECONDS: "600" });
  });
  afterAll(async () => {
    await server?.close();
  });

  it("sets the entries' expiry", async () => {
    const g = await guard(server, { sanitize: { mode: "reversible" }, messages: [{ role: "user", content: `mail ${EMAIL}` }] });
    const expires = Date.parse(g.body.vault_expires_at);
    expect(Math.abs(expires - (Date.now() + 600_000))).toBeLessThan(5_000);
  });
});

describe("configuration errors", () => {
  const base = { PARAPET_DATA_DIR: "/tmp/unused" };
  it.each([
    ["not base64", "not base64 at all!"],
    ["16 bytes", randomBytes(16).toString("base64")],
    ["33 bytes", randomBytes(33).toString("base64")],
  ])("PARAPET_VAULT_KEY %s is refused without echoing the value", (_, value) => {
    expect(() => loadConfig({ ...base, PARAPET_VAULT_KEY: value })).toThrow(/^PARAPET_VAULT_KEY must be 32 random bytes in base64/);
    try {
      loadConfig({ ...base, PARAPET_VAULT_KEY: value });
    } catch (e) {
      expect(String(e)).not.toContain(value);
    }
  });

  it("a good key is accepted", () => {
    const key = randomBytes(32);
    expect(loadConfig({ ...base, PARAPET_VAULT_KEY: key.toString("base64") }).vaultKey).toEqual(key);
  });

  it.each(["0", "59", "86401", "1.5", "day"])("PARAPET_VAULT_TTL_SECONDS=%s is refused: at most 24 h", (value) => {
    expect(() => loadConfig({ ...base, PARAPET_VAULT_TTL_SECONDS: value })).toThrow("PARAPET_VAULT_TTL_SECONDS must be an integer from 60 to 86400");
  });

  it("defaults to 24 h", () => {
    expect(loadConfig(base).vaultTtlSeconds).toBe(86_400);
  });
});

describe("the service log", () => {
  it("never holds a masked value, at the most verbose level, through sanitize, restore and their errors", async () => {
    const lines: string[] = [];
    const dataDir = await mkdtemp(path.join(tmpdir(), "parapet-sanitize-log-"));
    const screeningKey = `psk_test_${randomBytes(12).toString("hex")}`;
    const config = loadConfig({
      HOST: "127.0.0.1",
      PORT: "0",
      PARAPET_DATA_DIR: dataDir,
      PARAPET_BOOTSTRAP_SCREENING_KEY: screeningKey,
      PARAPET_VAULT_KEY: randomBytes(32).toString("base64"),
    });
    const app = await startApp(config, createLogger("trace", { write: (line: string) => void lines.push(line) }));
    try {
      const url = `http://127.0.0.1:${app.port}`;
      const post = (p: string, body: unknown) =>
        fetch(url + p, { method: "POST", headers: { authorization: `Bearer ${screeningKey}` }, body: JSON.stringify(body) }).then((r) => r.json());
      const g = await post("/v2/guard", { sanitize: { mode: "reversible" }, messages: [{ role: "user", content: `mail ${EMAIL}` }] });
      expect((await post("/v2/guard/restore", { vault_id: g.vault_id, text: "[EMAIL_1]".repeat(3) })).text).toBe(EMAIL.repeat(3));
      expect((await post("/v2/guard/restore", { vault_id: "vlt_" + "Z".repeat(32), text: "[EMAIL_1]" })).error).toBe("not_found");
      expect(lines.length).toBeGreaterThan(3); // the check reads real log lines
      expect(lines.join("\n")).toContain(g.metadata.request_uuid);
      expect(lines.join("\n")).not.toContain(EMAIL);
    } finally {
      await app.close();
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});
