// Hostile run, part 3 (docs/operations.md#hostile-run): kill -9 under write
// load. Clients screen requests and create and delete policies against the
// compiled service, recording every write it acknowledged; the service is
// killed with SIGKILL at a seeded random moment and restarted on the same data
// directory, several times. After each restart every acknowledged write is
// there: each answered request's log (once), each created policy, and no
// policy whose deletion was acknowledged.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, expect, it } from "vitest";
import { freePort, spawnServer, waitReady, type ChildServer } from "../support/child-server.js";
import { scale, seed, seededRandom, summary } from "./settings.js";

const SCREENING = "psk_hostile_kill_key_000000000000000000000";
const PLATFORM = "ppk_hostile_kill_key_000000000000000000000";
const ROUNDS = 3 * scale;
const GUARD_CLIENTS = 12;
const POLICY_CLIENTS = 3;

const children: ChildServer[] = [];
let dataDir = "";
afterAll(async () => {
  for (const c of children) c.child.kill("SIGKILL");
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

const env = () => ({
  PARAPET_DATA_DIR: dataDir,
  PARAPET_BOOTSTRAP_SCREENING_KEY: SCREENING,
  PARAPET_BOOTSTRAP_PLATFORM_KEY: PLATFORM,
  PARAPET_RATE_LIMIT_RPS: "0",
  PARAPET_WARMUP_MS: "0",
});

async function call(url: string, method: string, route: string, key: string, body?: unknown): Promise<{ status: number; body: any } | null> {
  try {
    const res = await fetch(url + route, {
      method,
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(30_000),
    });
    return { status: res.status, body: await res.json() };
  } catch {
    // Cut off by the kill: not acknowledged.
    return null;
  }
}

async function loggedIds(url: string): Promise<string[]> {
  const ids: string[] = [];
  const start = new Date(Date.now() - 3_600_000).toISOString();
  const end = new Date(Date.now() + 3_600_000).toISOString();
  for (let offset = 0; ; offset += 1000) {
    const page = await call(url, "POST", "/v1-beta/logs", PLATFORM, { start_time: start, end_time: end, limit: 1000, offset });
    if (page?.status !== 200) throw new Error(`listing logs answered ${page?.status}`);
    ids.push(...(page.body.logs as { request_uuid: string }[]).map((l) => l.request_uuid));
    if (!page.body.has_more) return ids;
  }
}

interface Acknowledged {
  guards: string[];
  /** Policy id → name, for each acknowledged creation whose deletion was not sent. */
  policies: Map<string, string>;
  deleted: Set<string>;
}

/** Policies alive at once, well under an organization's 100: old ones are deleted as new ones come. */
const LIVE_POLICIES = 40;

/** Write load until `stop()` says so: screenings, and policy creations with the oldest policies deleted again. */
async function writeLoad(url: string, round: number, acked: Acknowledged, stop: () => boolean): Promise<void> {
  let seq = 0;
  const guardClient = async () => {
    while (!stop()) {
      const res = await call(url, "POST", "/v2/guard", SCREENING, {
        messages: [{ role: "user", content: `round ${round} request ${seq++}: mail me at user@example.com` }],
      });
      if (res?.status === 200) acked.guards.push(res.body.metadata.request_uuid as string);
      else if (!res) return;
    }
  };
  const policyClient = async (client: number) => {
    for (let n = 0; !stop(); n++) {
      const name = `hostile ${round}-${client}-${n}`;
      const created = await call(url, "POST", "/v1/policies", PLATFORM, {
        name,
        default_threshold: "l1_confident",
        detectors: [{ type: "pii/email", location: "user::content" }],
      });
      if (!created) return;
      if (created.status !== 200) throw new Error(`creating policy "${name}" answered ${created.status}: ${JSON.stringify(created.body)}`);
      acked.policies.set(created.body.id as string, name);
      if (acked.policies.size <= LIVE_POLICIES) continue;
      const [oldest] = acked.policies.keys();
      // Sent: whether it applied is known only from its answer.
      acked.policies.delete(oldest);
      const deleted = await call(url, "DELETE", `/v1/policies/${oldest}`, PLATFORM);
      if (deleted?.status === 200) acked.deleted.add(oldest);
      else if (!deleted) return;
      else throw new Error(`deleting policy ${oldest} answered ${deleted.status}: ${JSON.stringify(deleted.body)}`);
    }
  };
  await Promise.all([...Array.from({ length: GUARD_CLIENTS }, guardClient), ...Array.from({ length: POLICY_CLIENTS }, (_, i) => policyClient(i))]);
}

/** Deletes the policies whose creation or deletion the kill cut off (either may have applied), so rounds never reach the organization's limit. */
async function dropUncertain(url: string, acked: Acknowledged): Promise<void> {
  const list = await call(url, "GET", "/v1/policies?limit=100", PLATFORM);
  if (list?.status !== 200) throw new Error(`listing policies answered ${list?.status}`);
  for (const p of list.body.policies as { policy_id: string; name: string }[]) {
    if (p.name.startsWith("hostile ") && !acked.policies.has(p.policy_id)) await call(url, "DELETE", `/v1/policies/${p.policy_id}`, PLATFORM);
  }
}

/** What a restarted service lost of the acknowledged writes. */
async function lost(url: string, acked: Acknowledged): Promise<string[]> {
  const problems: string[] = [];
  const ids = await loggedIds(url);
  const logged = new Set(ids);
  if (logged.size !== ids.length) problems.push(`${ids.length - logged.size} request logs duplicated`);
  for (const id of acked.guards) if (!logged.has(id)) problems.push(`acknowledged screening ${id} has no log`);
  for (const [id, name] of acked.policies) {
    const got = await call(url, "GET", `/v1/policies/${id}`, PLATFORM);
    if (got?.status !== 200 || got.body.policy?.name !== name)
      problems.push(`acknowledged policy ${id} (${name}): GET answers ${got?.status} ${JSON.stringify(got?.body).slice(0, 200)}`);
  }
  for (const id of acked.deleted) {
    const got = await call(url, "GET", `/v1/policies/${id}`, PLATFORM);
    if (got?.status !== 404) problems.push(`policy ${id}: deletion acknowledged, but GET answers ${got?.status}`);
  }
  return problems;
}

it("every acknowledged write survives kill -9 at a random moment under write load", { timeout: 180_000 * scale }, async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), "parapet-hostile-kill-"));
  const random = seededRandom(seed);
  const port = await freePort();
  const acked: Acknowledged = { guards: [], policies: new Map(), deleted: new Set() };
  const violations: string[] = [];
  const killedAfter: number[] = [];
  const started = Date.now();
  let server = spawnServer(port, env());
  children.push(server);
  await waitReady(server.url);
  for (let round = 1; round <= ROUNDS; round++) {
    let killed = false;
    const load = writeLoad(server.url, round, acked, () => killed);
    const delay = Math.round(1000 + random() * 4000);
    killedAfter.push(delay);
    await new Promise((r) => setTimeout(r, delay));
    server.child.kill("SIGKILL");
    killed = true;
    await server.exited;
    try {
      await load;
    } catch (err) {
      violations.push(`round ${round}: ${(err as Error).message}`);
    }
    server = spawnServer(port, env());
    children.push(server);
    await waitReady(server.url);
    for (const problem of await lost(server.url, acked)) violations.push(`after kill ${round} (${delay} ms into the load): ${problem}`);
    await dropUncertain(server.url, acked);
  }
  server.child.kill("SIGTERM");
  const exit = await server.exited;
  if (exit.code !== 0) violations.push(`the last restart did not stop cleanly on SIGTERM: ${JSON.stringify(exit)}`);
  summary(
    "kill -9",
    `${ROUNDS} kills (after ${killedAfter.join(", ")} ms of load) in ${((Date.now() - started) / 1000).toFixed(0)} s; ${acked.guards.length} acknowledged screenings, ${acked.policies.size + acked.deleted.size} policies created and ${acked.deleted.size} deleted, checked after every restart`,
    violations,
  );
  expect(violations.length, "violations (printed above)").toBe(0);
});
