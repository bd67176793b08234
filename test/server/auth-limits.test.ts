// Authentication hardening (issue 14, requirement 6; issue 29, item 1) on the real service: failed
// authentications limited per client address and per failed key on every protocol, never the
// owner of a valid key (no lock-out by keys sharing its prefix), a revoked
// bootstrap key staying revoked across a real restart, and bootstrap keys checked at start-up.
import http from "node:http";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { Code, ConnectError } from "@connectrpc/connect";
import { PolicyService } from "../../gen/parapet/v1/policies_pb.js";
import { ErrorDetailSchema } from "../../gen/parapet/v1/errors_pb.js";
import { startApp } from "../../src/app.js";
import { loadConfig } from "../../src/config.js";
import { createLogger } from "../../src/observability/logger.js";
import { rpcClient, rpcProtocols, startTestServer, type TestServer } from "../support/server.js";

const servers: TestServer[] = [];
afterAll(async () => {
  for (const s of servers) await s.close();
});

/** A REST call from a chosen loopback address (Linux routes all of 127/8 to lo). */
function restFrom(server: TestServer, localAddress: string, key: string): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: any }> {
  return new Promise((resolve, reject) => {
    const req = http.request(`${server.url}/v1/policies/policy-default`, { localAddress, headers: { authorization: `Bearer ${key}` } }, (res) => {
      let text = "";
      res.on("data", (c: Buffer) => (text += c.toString()));
      res.on("end", () => resolve({ status: res.statusCode!, headers: res.headers, body: JSON.parse(text) }));
    });
    req.on("error", reject);
    req.end();
  });
}

describe("failed authentications", () => {
  it("are limited per client address: 429 with Retry-After and the Error object for a missing or wrong key", async () => {
    const server = await startTestServer({ PARAPET_AUTH_FAILURE_BURST: "3", PARAPET_AUTH_FAILURES_PER_MINUTE: "1" });
    servers.push(server);
    for (let i = 0; i < 3; i++) expect((await server.rest("GET", "/v1/policies/policy-default", undefined, `ppk_guess${i}_aaaaaaaaaaaaaaaaaaaa`)).status).toBe(401);
    const limited = await server.rest("GET", "/v1/policies/policy-default", undefined, "ppk_guess9_aaaaaaaaaaaaaaaaaaaa");
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    expect(limited.body).toMatchObject({ status: "error", error: "rate_limited", code: 429, request_id: expect.any(String) });
    expect((await server.rest("GET", "/v1/policies/policy-default", undefined, null)).status).toBe(429);
    // Another address is not affected.
    expect((await restFrom(server, "127.0.0.2", "ppk_guess8_aaaaaaaaaaaaaaaaaaaa")).status).toBe(401);

    for (const protocol of rpcProtocols) {
      const err = await rpcClient(PolicyService, server, protocol, "ppk_guess_rpc_aaaaaaaaaaaaaaaaaaaa")
        .getPolicy({ policyId: "policy-default" })
        .then(
          () => undefined,
          (e: unknown) => ConnectError.from(e),
        );
      expect([protocol, err?.code]).toEqual([protocol, Code.ResourceExhausted]);
      const detail = err!.findDetails(ErrorDetailSchema)[0];
      expect(detail).toMatchObject({ error: "rate_limited", httpStatus: 429 });
      expect(detail.requestId).not.toBe("");
    }
  });

  it("a valid key is served from an address whose failures are used up, on every protocol", async () => {
    const server = await startTestServer({ PARAPET_AUTH_FAILURE_BURST: "3", PARAPET_AUTH_FAILURES_PER_MINUTE: "1" });
    servers.push(server);
    // The guesser and the key's owner share an address (a NAT, or the proxy of docs/deployment.md).
    for (let i = 0; i < 4; i++) await server.rest("GET", "/v1/policies/policy-default", undefined, `ppk_guess${i}_aaaaaaaaaaaaaaaaaaaa`);
    expect((await server.rest("GET", "/v1/policies/policy-default", undefined, "ppk_guess9_aaaaaaaaaaaaaaaaaaaa")).status).toBe(429);
    expect((await server.rest("GET", "/v1/policies/policy-default")).status).toBe(200);
    for (const protocol of rpcProtocols) {
      const answer = await rpcClient(PolicyService, server, protocol, server.platformKey).getPolicy({ policyId: "policy-default" });
      expect([protocol, answer.policy?.policyId]).toEqual([protocol, "policy-default"]);
    }
    // Served, and still throttled: the address's next failure is refused as before.
    expect((await server.rest("GET", "/v1/policies/policy-default", undefined, "ppk_guessA_aaaaaaaaaaaaaaaaaaaa")).status).toBe(429);
  });

  it("wrong keys sharing a real key's 8-character prefix never lock the real key out (issue 29)", async () => {
    const server = await startTestServer({ PARAPET_AUTH_FAILURE_BURST: "20", PARAPET_AUTH_FAILURES_PER_MINUTE: "10" });
    servers.push(server);
    const prefix = server.platformKey.slice(0, 8);
    const guess = (i: number) => prefix + `guess${i}`.padEnd(server.platformKey.length - 8, "x");
    // The attack as reported: twenty failures with the shown prefix, spread over addresses so
    // that no address runs out, then one guess every few seconds.
    for (let i = 0; i < 25; i++) expect((await restFrom(server, `127.0.1.${i + 1}`, guess(i))).status).toBe(401);
    for (let i = 0; i < 5; i++) {
      expect((await restFrom(server, "127.0.2.1", server.platformKey)).status).toBe(200);
      expect((await server.rest("GET", "/v1/policies/policy-default")).status).toBe(200);
      await restFrom(server, `127.0.3.${i + 1}`, guess(100 + i));
    }
  });

  it("are limited per failed key, across addresses", async () => {
    const server = await startTestServer({ PARAPET_AUTH_FAILURE_BURST: "4", PARAPET_AUTH_FAILURES_PER_MINUTE: "1" });
    servers.push(server);
    // Four addresses, one failure each with the same key (a revoked key spread over a fleet): no address is limited, the key is.
    const revoked = "ppk_same_key_bbbbbbbbbbbbbbbbbbbbbb";
    for (let i = 2; i <= 5; i++) expect((await restFrom(server, `127.0.0.${i}`, revoked)).status).toBe(401);
    const limited = await restFrom(server, "127.0.0.9", revoked);
    expect(limited.status).toBe(429);
    expect(Number(limited.headers["retry-after"])).toBeGreaterThanOrEqual(1);
    expect(limited.body).toMatchObject({ error: "rate_limited", code: 429 });
    // Another key with the same prefix, from a fresh address, is only unknown.
    expect((await restFrom(server, "127.0.0.10", "ppk_same_key_cccccccccccccccccccccc")).status).toBe(401);
  });

  it("are not limited when the limit is off, and successes never count", async () => {
    const server = await startTestServer({ PARAPET_AUTH_FAILURE_BURST: "2", PARAPET_AUTH_FAILURES_PER_MINUTE: "0" });
    servers.push(server);
    for (let i = 0; i < 5; i++) expect((await server.rest("GET", "/v1/policies/policy-default", undefined, "ppk_wrong_dddddddddddddddddddddd")).status).toBe(401);
    const limitedOn = await startTestServer({ PARAPET_AUTH_FAILURE_BURST: "2", PARAPET_AUTH_FAILURES_PER_MINUTE: "1" });
    servers.push(limitedOn);
    for (let i = 0; i < 20; i++) expect((await limitedOn.rest("GET", "/v1/policies/policy-default")).status).toBe(200);
  });
});

describe("bootstrap keys", () => {
  it("a revoked bootstrap key stays revoked across a restart with the key still set", async () => {
    const dataDir = await mkdtemp(path.join(tmpdir(), "parapet-revoke-"));
    const env = {
      HOST: "127.0.0.1",
      PORT: "0",
      PARAPET_DATA_DIR: dataDir,
      PARAPET_BOOTSTRAP_PLATFORM_KEY: "ppk_revoke_me_000000000000000000000000",
      PARAPET_BOOTSTRAP_SCREENING_KEY: "psk_keep_me_0000000000000000000000000000",
    };
    const get = (port: number, key: string) => fetch(`http://127.0.0.1:${port}/v1/policies/policy-default`, { headers: { authorization: `Bearer ${key}` } });
    try {
      const first = await startApp(loadConfig(env), createLogger("silent"));
      expect((await get(first.port, env.PARAPET_BOOTSTRAP_PLATFORM_KEY)).status).toBe(200);
      const keyRecord = (await first.repos.keys.list("org-default")).find((k) => k.kind === "platform")!;
      // Keep a way in: a second platform key made before the revocation.
      const other = (await first.repos.keys.create("org-default", "platform", "read-write")).key;
      expect(await first.repos.keys.revoke(keyRecord._id)).toBe(true);
      await first.close();

      const second = await startApp(loadConfig(env), createLogger("silent"));
      try {
        expect((await get(second.port, env.PARAPET_BOOTSTRAP_PLATFORM_KEY)).status).toBe(401);
        expect((await get(second.port, other)).status).toBe(200);
        const platformKeys = (await second.repos.keys.list("org-default")).filter((k) => k.kind === "platform");
        expect(platformKeys.filter((k) => k.revoked_at === null)).toHaveLength(1);
        expect(platformKeys).toHaveLength(2);
      } finally {
        await second.close();
      }
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  });

  it.each([
    ["PARAPET_BOOTSTRAP_PLATFORM_KEY", "psk_wrong_kind_000000000000000000000000", /PARAPET_BOOTSTRAP_PLATFORM_KEY must start with ppk_/],
    ["PARAPET_BOOTSTRAP_SCREENING_KEY", "ppk_wrong_kind_000000000000000000000000", /PARAPET_BOOTSTRAP_SCREENING_KEY must start with psk_/],
    ["PARAPET_BOOTSTRAP_PLATFORM_KEY", "ppk_short", /PARAPET_BOOTSTRAP_PLATFORM_KEY is too short: at least 28 characters/],
    ["PARAPET_BOOTSTRAP_PLATFORM_KEY", "ppk_0000000000000000000000000000 ", /may contain only letters, digits/],
    ["PARAPET_BOOTSTRAP_SCREENING_KEY", "psk_" + "a".repeat(300), /is too long: at most 256/],
  ])("%s=%j is refused at start-up with a clear error", (name, value, message) => {
    expect(() => loadConfig({ [name]: value })).toThrow(message);
  });

  it("a well-formed key is accepted as given", () => {
    const key = "ppk_" + "A1_-".repeat(6);
    expect(loadConfig({ PARAPET_BOOTSTRAP_PLATFORM_KEY: key }).bootstrapPlatformKey).toBe(key);
  });
});
