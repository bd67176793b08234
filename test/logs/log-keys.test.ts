// Which key made a logged request (docs/api.md#log-entry): the key's id stored with the log of
// /v2/guard and of a stream, and its name as it is now, over REST and Connect, for read-only keys too.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LogService } from "../../gen/parapet/v1/logs_pb.js";
import { rpcClient, startTestServer, type TestServer } from "../support/server.js";

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server?.close();
});

async function newKey(name?: string): Promise<{ key: string; id: string }> {
  const res = await server.rest("POST", "/v1-beta/api-keys", { kind: "screening", ...(name === undefined ? {} : { name }) });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return { key: res.body.key, id: res.body.api_key.id };
}

const window = () => ({ start_time: new Date(Date.now() - 60_000).toISOString(), end_time: new Date(Date.now() + 1000).toISOString(), limit: 1000 });

async function logOf(uuid: string, key = server.platformKey) {
  const res = await server.rest("POST", "/v1-beta/logs", window(), key);
  expect(res.status).toBe(200);
  const log = res.body.logs.find((l: { request_uuid: string }) => l.request_uuid === uuid);
  expect(log).toBeDefined();
  return log;
}

async function screen(key: string): Promise<string> {
  const g = await server.rest("POST", "/v2/guard", { messages: [{ role: "user", content: "hello" }] }, key);
  expect(g.status).toBe(200);
  return g.body.metadata.request_uuid;
}

describe("the key of a logged request", () => {
  it("is logged by id and shown with its name as it is now", async () => {
    const named = await newKey("checkout service");
    const uuid = await screen(named.key);
    expect(await logOf(uuid)).toMatchObject({ api_key_id: named.id, api_key_name: "checkout service" });
    // Renamed later: the old logs show the new name.
    expect((await server.rest("PATCH", `/v1-beta/api-keys/${named.id}`, { name: "checkout, production" })).status).toBe(200);
    expect((await logOf(uuid)).api_key_name).toBe("checkout, production");
    // A read-only key, which may not list keys, still sees which key made the request.
    expect(await logOf(uuid, await server.readOnlyKey())).toMatchObject({ api_key_id: named.id, api_key_name: "checkout, production" });
    // Over Connect with the generated client too.
    const client = rpcClient(LogService, server, "connect-json", server.platformKey);
    const w = window();
    const rpc = await client.getLogs({ startTime: w.start_time, endTime: w.end_time, limit: 1000 });
    const log = rpc.logs.find((l) => l.requestUuid === uuid);
    expect(log?.apiKeyId).toBe(named.id);
    expect(log?.apiKeyName).toBe("checkout, production");
  });

  it("an unnamed key's logs carry its id and no name", async () => {
    const unnamed = await newKey();
    const log = await logOf(await screen(unnamed.key));
    expect(log.api_key_id).toBe(unnamed.id);
    expect(log).not.toHaveProperty("api_key_name");
  });

  it("a stream's log names the key that opened it", async () => {
    const named = await newKey("streaming bot");
    const open = await server.rest("POST", "/v2/guard/streams", { messages: [{ role: "user", content: "hi" }] }, named.key);
    expect(open.status, JSON.stringify(open.body)).toBe(200);
    const id = open.body.stream_id as string;
    expect((await server.rest("POST", `/v2/guard/streams/${id}/deltas`, { text: "Hello there" }, named.key)).status).toBe(200);
    const closed = await server.rest("POST", `/v2/guard/streams/${id}/close`, {}, named.key);
    expect(closed.status, JSON.stringify(closed.body)).toBe(200);
    const res = await server.rest("POST", "/v1-beta/logs", window());
    const log = res.body.logs.find((l: { api_key_id?: string }) => l.api_key_id === named.id);
    expect(log).toMatchObject({ api_key_name: "streaming bot" });
    expect(log.messages.at(-1).content).toBe("Hello there");
  });
});
