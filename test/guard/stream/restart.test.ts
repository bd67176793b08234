// A REST stream session across a server restart (docs/streaming.md#restarts):
// sessions live in the process that opened them. A graceful stop logs each
// open session as it stands; after the restart its id answers 404 saying the
// session was lost, and the client opens a new one.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { startApp, type App } from "../../../src/app.js";
import { loadConfig } from "../../../src/config.js";
import { createLogger } from "../../../src/observability/logger.js";
import { spawnServer, waitReady, freePort } from "../../support/child-server.js";

const screeningKey = "psk_stream_restart_000000000000000000000";
const platformKey = "ppk_stream_restart_000000000000000000000";
let dataDir: string;
beforeAll(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), "parapet-stream-restart-"));
});
afterAll(async () => {
  await rm(dataDir, { recursive: true, force: true });
});

const env = () => ({
  HOST: "127.0.0.1",
  PORT: "0",
  PARAPET_DATA_DIR: dataDir,
  PARAPET_BOOTSTRAP_PLATFORM_KEY: platformKey,
  PARAPET_BOOTSTRAP_SCREENING_KEY: screeningKey,
});

async function post(base: string, p: string, body: unknown, key = screeningKey) {
  const res = await fetch(base + p, { method: "POST", headers: { authorization: `Bearer ${key}`, "content-type": "application/json" }, body: JSON.stringify(body) });
  return { status: res.status, body: await res.json() };
}

async function logsContaining(base: string, marker: string) {
  const res = await post(
    base,
    "/v1-beta/logs",
    { start_time: new Date(Date.now() - 600_000).toISOString(), end_time: new Date(Date.now() + 1000).toISOString() },
    platformKey,
  );
  expect(res.status).toBe(200);
  return res.body.logs.filter((l: any) => l.messages.some((m: any) => m.content.includes(marker)));
}

it("a graceful restart logs the open session once; its id then answers 404 'lost', and a new session works", async () => {
  let app: App | undefined = await startApp(loadConfig(env()), createLogger("silent"));
  try {
    const base = `http://127.0.0.1:${app.port}`;
    const marker = `restart-${Date.now()}`;
    const opened = await post(base, "/v2/guard/streams", { messages: [{ role: "user", content: "Tell me about shipping." }] });
    expect(opened.status).toBe(200);
    const id = opened.body.stream_id;
    expect((await post(base, `/v2/guard/streams/${id}/deltas`, { text: `Shipping takes two days. ${marker}` })).status).toBe(200);
    await app.close();
    app = await startApp(loadConfig(env()), createLogger("silent"));
    const base2 = `http://127.0.0.1:${app.port}`;
    const lost = await post(base2, `/v2/guard/streams/${id}/deltas`, { text: " More." });
    expect(lost.status).toBe(404);
    expect(lost.body).toMatchObject({ status: "error", error: "not_found", code: 404 });
    expect(lost.body.message).toMatch(/lost in a server restart/);
    expect((await post(base2, `/v2/guard/streams/${id}/close`, {})).status).toBe(404);
    const logs = await logsContaining(base2, marker);
    expect(logs).toHaveLength(1);
    expect(logs[0].messages[1]).toMatchObject({ role: "assistant", content: `Shipping takes two days. ${marker}` });
    // Resuming: a new session, opened with the text released so far as its first delta.
    const again = await post(base2, "/v2/guard/streams", { messages: [{ role: "user", content: "Tell me about shipping." }] });
    const resumed = await post(base2, `/v2/guard/streams/${again.body.stream_id}/deltas`, { text: `Shipping takes two days. ${marker} More.` });
    expect(resumed.status).toBe(200);
    expect((await post(base2, `/v2/guard/streams/${again.body.stream_id}/close`, {})).body.closed).toBe(true);
  } finally {
    await app?.close();
  }
});

it("a crash loses the open session: 404 'lost' from the restarted process, and nothing half-written", async () => {
  const dir = await mkdtemp(path.join(tmpdir(), "parapet-stream-crash-"));
  const childEnv = { PARAPET_DATA_DIR: dir, PARAPET_BOOTSTRAP_PLATFORM_KEY: platformKey, PARAPET_BOOTSTRAP_SCREENING_KEY: screeningKey };
  try {
    const port = await freePort();
    const first = spawnServer(port, childEnv);
    await waitReady(first.url);
    const opened = await post(first.url, "/v2/guard/streams", { messages: [{ role: "user", content: "Hi" }] });
    expect(opened.status).toBe(200);
    expect((await post(first.url, `/v2/guard/streams/${opened.body.stream_id}/deltas`, { text: "Hello, how can I help?" })).status).toBe(200);
    first.child.kill("SIGKILL");
    await first.exited;
    const second = spawnServer(port, childEnv);
    try {
      await waitReady(second.url);
      const lost = await post(second.url, `/v2/guard/streams/${opened.body.stream_id}/deltas`, { text: " More." });
      expect(lost.status).toBe(404);
      expect(lost.body.message).toMatch(/lost in a server restart/);
    } finally {
      second.child.kill("SIGTERM");
      await second.exited;
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
