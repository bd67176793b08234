// API keys over the API (docs/api.md#api-keys) against the real service: REST with plain fetch,
// the generated client over Connect and gRPC, and the `parapet` command while the service runs.
import { execFile } from "node:child_process";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Code, ConnectError } from "@connectrpc/connect";
import { ApiKeyService } from "../../gen/parapet/v1/api_keys_pb.js";
import { ApiKeys } from "../../src/auth/api-keys-repository.js";
import { rpcClient, startTestServer, type TestServer } from "../support/server.js";

const run = promisify(execFile);
let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server?.close();
});

async function createKey(body: unknown, key?: string) {
  const res = await server.rest("POST", "/v1-beta/api-keys", body, key);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body as { key: string; api_key: any };
}

/** Every key a REST listing shows, page by page. */
async function listAll(query = "", key?: string): Promise<any[]> {
  const out: any[] = [];
  let cursor: string | null = null;
  do {
    const res = await server.rest("GET", `/v1-beta/api-keys?limit=2${query}${cursor ? `&cursor=${cursor}` : ""}`, undefined, key);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    out.push(...res.body.api_keys);
    cursor = res.body.next_cursor;
  } while (cursor);
  return out;
}

describe("POST /v1-beta/api-keys", () => {
  it("creates a working key whose secret is shown once, in this answer only", async () => {
    const created = await createKey({ kind: "platform", scope: "read-only" });
    expect(created.key).toMatch(/^ppk_[A-Za-z0-9_-]{43}$/);
    expect(created.api_key).toMatchObject({
      kind: "platform",
      scope: "read-only",
      prefix: created.key.slice(0, 8),
      org_id: "org-default",
      revoked_at: null,
      last_used_at: null,
    });
    expect(created.api_key.id).toMatch(/^key-/);

    // The new key works at once, with its scope.
    expect((await server.rest("GET", "/v1/policies", undefined, created.key)).status).toBe(200);
    expect((await server.rest("POST", "/v1-beta/projects", { name: "x" }, created.key)).status).toBe(403);

    const listed = await listAll();
    expect(listed.map((k) => k.id)).toContain(created.api_key.id);
    expect(JSON.stringify(listed)).not.toContain(created.key);
  });

  it("creates screening keys (no scope) that screen and read-write platform keys by default", async () => {
    const screening = await createKey({ kind: "screening" });
    expect(screening.key).toMatch(/^psk_/);
    expect(screening.api_key.scope).toBeNull();
    const guard = await server.rest("POST", "/v2/guard", { messages: [{ role: "user", content: "hello" }] }, screening.key);
    expect(guard.status).toBe(200);
    const platform = await createKey({ kind: "platform" });
    expect(platform.api_key.scope).toBe("read-write");
    expect((await server.rest("POST", "/v1-beta/projects", { name: "made with a new key" }, platform.key)).status).toBe(200);
  });

  it.each([
    [{ kind: "admin" }, "kind"],
    [{}, "kind"],
    [{ kind: "platform", scope: "everything" }, "scope"],
    [{ kind: "screening", scope: "read-only" }, "scope"],
  ])("%j answers 422 naming the field", async (body, field) => {
    const res = await server.rest("POST", "/v1-beta/api-keys", body);
    expect(res.status).toBe(422);
    expect(res.body).toMatchObject({ status: "error", error: "validation_failed", code: 422 });
    expect(res.body.message).toContain(field);
  });

  it("malformed JSON answers 400", async () => {
    const res = await server.rest("POST", "/v1-beta/api-keys", '{"kind":');
    expect(res.status).toBe(400);
    expect(res.body.error).toBe("malformed_json");
  });
});

describe("key names", () => {
  it("names a key at creation, shown in its answer and in the list; blank means no name", async () => {
    const named = await createKey({ kind: "screening", name: "  checkout service, production  " });
    expect(named.api_key.name).toBe("checkout service, production");
    expect((await listAll()).find((k) => k.id === named.api_key.id).name).toBe("checkout service, production");
    expect((await createKey({ kind: "platform", name: "   " })).api_key.name).toBeNull();
    expect((await createKey({ kind: "platform" })).api_key.name).toBeNull();
  });

  it.each([
    [{ kind: "screening", name: "x".repeat(101) }, "name"],
    [{ kind: "screening", name: "two\nlines" }, "name: must not contain control characters"],
    [{ kind: "screening", name: "bell\u0007" }, "name: must not contain control characters"],
    [{ kind: "screening", name: 7 }, "name"],
  ])("%j answers 422 naming the field", async (body, says) => {
    const res = await server.rest("POST", "/v1-beta/api-keys", body);
    expect(res.status).toBe(422);
    expect(res.body.error).toBe("validation_failed");
    expect(res.body.message).toContain(says);
  });

  it("PATCH /v1-beta/api-keys/{key_id} renames a key, or clears its name, without touching its secret", async () => {
    const made = await createKey({ kind: "screening" });
    const renamed = await server.rest("PATCH", `/v1-beta/api-keys/${made.api_key.id}`, { name: "support bot" });
    expect(renamed.status, JSON.stringify(renamed.body)).toBe(200);
    expect(renamed.body.api_key).toMatchObject({ id: made.api_key.id, name: "support bot", kind: "screening", prefix: made.api_key.prefix });
    expect((await listAll()).find((k) => k.id === made.api_key.id).name).toBe("support bot");
    expect((await server.rest("POST", "/v2/guard", { messages: [{ role: "user", content: "hi" }] }, made.key)).status).toBe(200);
    const cleared = await server.rest("PATCH", `/v1-beta/api-keys/${made.api_key.id}`, { name: "" });
    expect(cleared.body.api_key.name).toBeNull();
    // A key stored before keys had names (no field at all) is listed unnamed and can be named.
    const legacy = (await server.app.db.collection("api_keys")) as any;
    await legacy.insertOne({
      _id: "key-before-names",
      org_id: "org-default",
      kind: "screening",
      scope: null,
      hash: "0".repeat(64),
      prefix: "psk_old0",
      created_at: new Date(),
      revoked_at: null,
    });
    expect((await listAll()).find((k) => k.id === "key-before-names").name).toBeNull();
    expect((await server.rest("PATCH", "/v1-beta/api-keys/key-before-names", { name: "old integration" })).body.api_key.name).toBe("old integration");
  });

  it("renaming answers 404 for another organization's key, 422 for a bad name, 403 for a read-only key", async () => {
    const other = await server.newOrg();
    const theirs = (await listAll("", other.platformKey))[0];
    const res = await server.rest("PATCH", `/v1-beta/api-keys/${theirs.id}`, { name: "mine now" });
    expect(res.status).toBe(404);
    expect((await listAll("", other.platformKey))[0].name).toBeNull();
    const made = await createKey({ kind: "screening" });
    const bad = await server.rest("PATCH", `/v1-beta/api-keys/${made.api_key.id}`, { name: "tab\there" });
    expect(bad.status).toBe(422);
    expect(bad.body.message).toContain("name");
    const ro = await server.readOnlyKey();
    expect((await server.rest("PATCH", `/v1-beta/api-keys/${made.api_key.id}`, { name: "x" }, ro)).status).toBe(403);
  });
});

describe("who may manage keys", () => {
  it("read-only platform keys may not create, list or revoke keys (403)", async () => {
    const ro = await server.readOnlyKey();
    const target = await createKey({ kind: "screening" });
    for (const [method, p, body] of [
      ["POST", "/v1-beta/api-keys", { kind: "platform" }],
      ["GET", "/v1-beta/api-keys", undefined],
      ["DELETE", `/v1-beta/api-keys/${target.api_key.id}`, undefined],
    ] as const) {
      const res = await server.rest(method, p, body, ro);
      expect(res.status, `${method} ${p}`).toBe(403);
      expect(res.body.error).toBe("forbidden");
      // Says which scope is missing, also where the endpoint only reads (listing keys).
      expect(res.body.message).toMatch(/needs a read-write platform key/);
    }
    expect((await server.rest("POST", "/v2/guard", { messages: [{ role: "user", content: "still here" }] }, target.key)).status).toBe(200);
  });

  it("screening keys and no key are refused", async () => {
    expect((await server.rest("GET", "/v1-beta/api-keys", undefined, server.screeningKey)).status).toBe(403);
    expect((await server.rest("POST", "/v1-beta/api-keys", { kind: "platform" }, server.screeningKey)).status).toBe(403);
    expect((await server.rest("GET", "/v1-beta/api-keys", undefined, null)).status).toBe(401);
  });
});

describe("GET /v1-beta/api-keys", () => {
  it("lists the organization's keys only, oldest first, with the documented fields", async () => {
    const other = await server.newOrg();
    const theirs = await listAll("", other.platformKey);
    expect(theirs).toHaveLength(2);
    expect(theirs.every((k) => k.org_id === other.orgId)).toBe(true);
    expect(Object.keys(theirs[0]).sort()).toEqual(["created_at", "id", "kind", "last_used_at", "name", "org_id", "prefix", "revoked_at", "scope"]);
    // Keys made without a name (here: with the organization) say so with null.
    expect(theirs.map((k) => k.name)).toEqual([null, null]);
    const ours = await listAll();
    expect(ours.some((k) => k.org_id !== "org-default")).toBe(false);
    const created = ours.map((k) => Date.parse(k.created_at));
    expect(created).toEqual([...created].sort((a, b) => a - b));
  });

  it("records when a key was last used", async () => {
    const made = await createKey({ kind: "platform", scope: "read-only" });
    expect((await server.rest("GET", "/v1/policies", undefined, made.key)).status).toBe(200);
    // The write does not hold up the request that used the key: poll for it.
    let listed: any;
    for (let i = 0; i < 50 && !listed?.last_used_at; i++) {
      listed = (await listAll()).find((k) => k.id === made.api_key.id);
      if (!listed.last_used_at) await new Promise((r) => setTimeout(r, 50));
    }
    expect(Date.parse(listed.last_used_at)).toBeGreaterThanOrEqual(Date.parse(made.api_key.created_at));
  });

  it.each(["limit=0", "limit=-3", "limit=1001", "limit=x", "cursor=%00", `cursor=${Buffer.from('["projects",0,"project-default"]').toString("base64url")}`])(
    "%s answers 422",
    async (q) => {
      const res = await server.rest("GET", `/v1-beta/api-keys?${q}`);
      expect(res.status).toBe(422);
      expect(res.body.error).toBe("validation_failed");
    },
  );
});

describe("DELETE /v1-beta/api-keys/{key_id}", () => {
  it("revokes: the key stops working at once on this replica; revoked keys are listed only on request", async () => {
    const made = await createKey({ kind: "screening" });
    const res = await server.rest("DELETE", `/v1-beta/api-keys/${made.api_key.id}`);
    expect(res.status).toBe(200);
    expect(res.body.api_key.id).toBe(made.api_key.id);
    expect(Date.parse(res.body.api_key.revoked_at)).toBeGreaterThan(0);
    expect((await server.rest("POST", "/v2/guard", { messages: [{ role: "user", content: "hi" }] }, made.key)).status).toBe(401);
    expect((await listAll()).map((k) => k.id)).not.toContain(made.api_key.id);
    expect((await listAll("&include_revoked=true")).map((k) => k.id)).toContain(made.api_key.id);
    // Revoking again is not an error: the key exists, revoked; the first revocation time stays.
    const again = await server.rest("DELETE", `/v1-beta/api-keys/${made.api_key.id}`);
    expect(again.status).toBe(200);
    expect(again.body.api_key.revoked_at).toBe(res.body.api_key.revoked_at);
  });

  it("another organization's key and unknown ids are 404, and the other key keeps working", async () => {
    const other = await server.newOrg();
    const theirs = (await listAll("", other.platformKey)).find((k) => k.kind === "screening");
    const res = await server.rest("DELETE", `/v1-beta/api-keys/${theirs.id}`);
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ status: "error", error: "not_found", code: 404 });
    expect((await server.rest("POST", "/v2/guard", { messages: [{ role: "user", content: "hi" }] }, other.screeningKey)).status).toBe(200);
    expect((await server.rest("DELETE", "/v1-beta/api-keys/key-nope")).status).toBe(404);
    // An id that reads as a query operator is only ever an id: nothing is revoked.
    const before = (await listAll()).length;
    expect((await server.rest("DELETE", `/v1-beta/api-keys/${encodeURIComponent('{"$ne":""}')}`)).status).toBe(404);
    expect((await server.rest("DELETE", `/v1-beta/api-keys/${"k".repeat(300)}`)).status).toBe(422);
    expect((await listAll()).length).toBe(before);
  });

  it("a key may revoke itself (rotation), and is refused from then on", async () => {
    const made = await createKey({ kind: "platform" });
    const res = await server.rest("DELETE", `/v1-beta/api-keys/${made.api_key.id}`, undefined, made.key);
    expect(res.status).toBe(200);
    expect((await server.rest("GET", "/v1-beta/api-keys", undefined, made.key)).status).toBe(401);
  });

  it("refuses to revoke the organization's last active read-write platform key (409)", async () => {
    const other = await server.newOrg();
    const self = (await listAll("", other.platformKey)).find((k) => k.kind === "platform");
    const res = await server.rest("DELETE", `/v1-beta/api-keys/${self.id}`, undefined, other.platformKey);
    expect(res.status).toBe(409);
    expect(res.body.error).toBe("conflict");
    // With a second read-write key the first may go.
    const second = await createKey({ kind: "platform" }, other.platformKey);
    expect((await server.rest("DELETE", `/v1-beta/api-keys/${self.id}`, undefined, second.key)).status).toBe(200);
    expect((await server.rest("GET", "/v1-beta/api-keys", undefined, other.platformKey)).status).toBe(401);
  });

  it("a key revoked by another process (another replica, the CLI on MongoDB) stops working within 5 s", async () => {
    const made = await createKey({ kind: "screening" });
    const guard = () => server.rest("POST", "/v2/guard", { messages: [{ role: "user", content: "hi" }] }, made.key);
    // In this replica's cache now.
    expect((await guard()).status).toBe(200);
    // A second repository on the same store has its own cache, as another replica does.
    const elsewhere = await ApiKeys.open(server.app.db);
    const revokedAt = Date.now();
    expect(await elsewhere.revoke(made.api_key.id)).toBe(true);
    // Time is read when each request starts: a request that started more than 5 s after the
    // revocation and was still let in is a stale cache, however slowly a loaded machine answers.
    let status = 200;
    let lastAccepted = revokedAt;
    while (status === 200 && Date.now() - revokedAt < 30_000) {
      const sent = Date.now();
      status = (await guard()).status;
      if (status === 200) {
        lastAccepted = sent;
        await new Promise((r) => setTimeout(r, 100));
      }
    }
    expect(status).toBe(401);
    expect(lastAccepted - revokedAt).toBeLessThan(5_000);
  });
});

describe.each(["connect-json", "grpc"] as const)("ApiKeyService over %s (generated client)", (protocol) => {
  it("creates, lists and revokes", async () => {
    const client = rpcClient(ApiKeyService, server, protocol, server.platformKey);
    const created = await client.createApiKey({ kind: "platform", scope: "read-only" });
    expect(created.key).toMatch(/^ppk_/);
    const ids: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await client.listApiKeys({ limit: 3, cursor });
      ids.push(...page.apiKeys.map((k) => k.id));
      cursor = page.nextCursor;
    } while (cursor);
    expect(ids).toContain(created.apiKey!.id);
    expect(new Set(ids).size).toBe(ids.length);
    const renamed = await client.updateApiKey({ keyId: created.apiKey!.id, name: "dashboard (read-only)" });
    expect(renamed.apiKey?.name).toBe("dashboard (read-only)");
    expect((await client.updateApiKey({ keyId: created.apiKey!.id, name: "a\u2028b" }).catch((e) => e)).code).toBe(Code.InvalidArgument);
    const revoked = await client.revokeApiKey({ keyId: created.apiKey!.id });
    expect(revoked.apiKey?.revokedAt).toBeDefined();
  });

  it("answers PermissionDenied, NotFound and InvalidArgument with the error detail", async () => {
    const ro = rpcClient(ApiKeyService, server, protocol, await server.readOnlyKey());
    const denied = await ro.createApiKey({ kind: "platform" }).catch((e) => e);
    expect(denied).toBeInstanceOf(ConnectError);
    expect(denied.code).toBe(Code.PermissionDenied);
    const client = rpcClient(ApiKeyService, server, protocol, server.platformKey);
    const other = await server.newOrg();
    const theirs = (await listAll("", other.platformKey))[0];
    expect((await client.revokeApiKey({ keyId: theirs.id }).catch((e) => e)).code).toBe(Code.NotFound);
    expect((await client.createApiKey({ kind: "screening", scope: "read-write" }).catch((e) => e)).code).toBe(Code.InvalidArgument);
    expect((await client.listApiKeys({ limit: 0 }).catch((e) => e)).code).toBe(Code.InvalidArgument);
  });
});

describe("server reflection on the real service", () => {
  it("lists ApiKeyService and its methods (buf curl, as grpcurl would)", async () => {
    const buf = path.resolve("node_modules/.bin/buf");
    const args = ["curl", "--protocol", "grpc", "--http2-prior-knowledge"];
    const services = await run(buf, [...args, "--list-services", server.url], { timeout: 30_000 });
    expect(services.stdout.split("\n")).toContain("parapet.v1.ApiKeyService");
    const methods = await run(buf, [...args, "--list-methods", server.url], { timeout: 30_000 });
    for (const m of ["CreateApiKey", "ListApiKeys", "UpdateApiKey", "RevokeApiKey"]) expect(methods.stdout).toContain(`parapet.v1.ApiKeyService/${m}`);
    expect(methods.stdout).toContain("parapet.v1.PolicyService/ListPolicies");
    expect(methods.stdout).toContain("parapet.v1.ProjectService/ListProjects");
  });
});

describe("the parapet command while the service runs", () => {
  const cli = (env: Record<string, string>, ...args: string[]) =>
    run(process.execPath, [path.resolve("bin/parapet.js"), ...args], {
      env: { ...process.env, PARAPET_DATA_DIR: server.dataDir, MONGODB_URI: "", PARAPET_URL: "", PARAPET_API_KEY: "", PARAPET_PLATFORM_KEY: "", ...env },
    });

  it("creates, lists and revokes keys through the API with --url and --key", async () => {
    const api = ["--url", server.url, "--key", server.platformKey];
    const created = await cli({}, "keys", "create", "--kind", "screening", ...api);
    const key = created.stdout.trim();
    expect(created.stdout).toBe(`${key}\n`);
    expect((await server.rest("POST", "/v2/guard", { messages: [{ role: "user", content: "hi" }] }, key)).status).toBe(200);

    const listed = (await cli({}, "keys", "list", ...api)).stdout.trim().split("\n");
    const line = listed.find((l) => l.includes(`${key.slice(0, 8)}…`))!;
    expect(line.split("\t").slice(1, 5)).toEqual(["org-default", "screening", "-", `${key.slice(0, 8)}…`]);
    const id = line.split("\t")[0];

    // The environment works as the flags do.
    expect((await cli({ PARAPET_URL: server.url, PARAPET_API_KEY: server.platformKey }, "keys", "revoke", id)).stdout).toBe(`revoked ${id}\n`);
    expect((await server.rest("POST", "/v2/guard", { messages: [{ role: "user", content: "hi" }] }, key)).status).toBe(401);
  });

  it("without --url, finds the running service; with no platform key anywhere, says where to put one (exit 1)", async () => {
    // The service's own record names where it listens, whatever HOST and PORT this shell sets;
    // this server's keys came from the environment, so there is no bootstrap keys file to use.
    const err = await cli({ HOST: "0.0.0.0", PORT: "8123" }, "keys", "list").catch((e) => e);
    expect(err.code).toBe(1);
    expect(err.stderr).toContain("the service is running");
    expect(err.stderr).toContain(`listening on ${server.url}`);
    expect(err.stderr).not.toContain("8123");
    expect(err.stderr).toMatch(/pass --key with a platform key, set PARAPET_PLATFORM_KEY, or keep the platform_key in .*bootstrap-keys\.json/);
    // With a key in the environment, the same command goes through the API.
    const listed = await cli({ PARAPET_PLATFORM_KEY: server.platformKey, PORT: "8123" }, "keys", "list");
    expect(listed.stdout).toContain("\torg-default\tplatform\tread-write\t");
    expect(listed.stderr).toContain(`keys go through its API at ${server.url}, with the PARAPET_PLATFORM_KEY`);
    const orgs = await cli({}, "orgs", "list").catch((e) => e);
    expect(orgs.code).toBe(1);
    expect(orgs.stderr).toMatch(/service is running.*stop the service/);
  });

  it("reports API errors and an unreachable service in one line (exit 1), usage errors with 2", async () => {
    const ro = await server.readOnlyKey();
    const denied = await cli({}, "keys", "list", "--url", server.url, "--key", ro).catch((e) => e);
    expect(denied.code).toBe(1);
    expect(denied.stderr).toMatch(/read-only.*\(forbidden, HTTP 403, request [0-9a-f-]{36}\)/);
    const down = await cli({}, "keys", "list", "--url", "http://127.0.0.1:9", "--key", server.platformKey).catch((e) => e);
    expect(down.code).toBe(1);
    expect(down.stderr).toContain("cannot use the API at http://127.0.0.1:9");
    const noKey = await cli({}, "keys", "list", "--url", server.url).catch((e) => e);
    expect(noKey.code).toBe(2);
    expect(noKey.stderr).toContain("--key");
    const withOrg = await cli({}, "keys", "list", "--url", server.url, "--key", server.platformKey, "--org", "org-x").catch((e) => e);
    expect(withOrg.code).toBe(2);
  });
});
