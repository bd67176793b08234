// Replicas starting together on one empty store (docs/configuration.md#bootstrap-keys): two
// bootstraps race on the same real store, each with its own repositories as two processes
// would have; keys are shown exactly once, whatever happens to the keys file.
import fs from "node:fs";
import path from "node:path";
import { afterAll, afterEach, beforeEach, describe, expect, it } from "vitest";
import { ApiKeys } from "../../src/auth/api-keys-repository.js";
import { ABANDONED_AFTER_MS, bootstrap } from "../../src/auth/bootstrap.js";
import { DEFAULT_ORG_ID, Organizations } from "../../src/auth/organizations-repository.js";
import { loadConfig } from "../../src/config.js";
import { createLogger } from "../../src/observability/logger.js";
import { EmbeddedDatabase } from "../../src/storage/embedded/engine.js";
import { tempDir } from "../storage/engines.js";

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
});

let db: EmbeddedDatabase;
let shown: string[];
beforeEach(async () => {
  const dir = tempDir("parapet-bootstrap-");
  dirs.push(dir);
  db = await EmbeddedDatabase.open({ dataDir: dir, ttlSweepIntervalMs: 0 });
  shown = [];
});
afterEach(async () => {
  await db.close();
});

/** An interactive terminal, the only place generated keys are printed (test/server/operator-bootstrap.test.ts covers the others). */
const terminal = { write: (text: string) => shown.push(text) };

/** What one replica has: its own repository objects (and caches) on the shared store. */
async function replica() {
  return { orgs: await Organizations.open(db), keys: await ApiKeys.open(db) };
}

const log = createLogger("silent");

describe("bootstrap on one store from two replicas at once", () => {
  it("one default organization, one pair of generated keys, shown once; neither start fails", async () => {
    const [a, b] = [await replica(), await replica()];
    const file = path.join(db.dataDir, "bootstrap-keys.json");
    await Promise.all([bootstrap(a.orgs, a.keys, { keysFile: file, terminal }, log), bootstrap(b.orgs, b.keys, { keysFile: file, terminal }, log)]);
    expect((await a.orgs.list()).map((o) => o._id)).toEqual(["org-default"]);
    const keys = await a.keys.list("org-default");
    expect(keys.map((k) => k.kind).sort()).toEqual(["platform", "screening"]);
    const banners = shown.filter((s) => s.includes("shown once"));
    expect(banners).toHaveLength(1);
    const saved = JSON.parse(fs.readFileSync(file, "utf8")) as { platform_key: string };
    expect(banners[0]).toContain(saved.platform_key);
    expect(await a.keys.verify(saved.platform_key)).not.toBeNull();
  });

  it("a start that died between the organization and its keys is finished by the next one, after a grace period", async () => {
    const a = await replica();
    expect(await a.orgs.createIfAbsent("Default organization", DEFAULT_ORG_ID)).toBe(true); // then the process died
    await bootstrap(a.orgs, a.keys, { terminal }, log);
    expect(shown).toEqual([]); // young: another replica may still be creating the keys
    const orgs = await db.collection<{ _id: string; created_at: Date }>("organizations");
    await orgs.updateOne({ _id: DEFAULT_ORG_ID }, { $set: { created_at: new Date(Date.now() - ABANDONED_AFTER_MS - 1000) } });
    const b = await replica();
    await bootstrap(b.orgs, b.keys, { terminal }, log);
    expect(shown.join("")).toMatch(/platform_key: ppk_/);
    const [key] = await b.keys.list(DEFAULT_ORG_ID);
    expect(key.kind).toBeDefined();
    // Keys the operator revoked are not replaced.
    for (const k of await b.keys.list(DEFAULT_ORG_ID)) await b.keys.revoke(k._id);
    shown = [];
    const c = await replica();
    await bootstrap(c.orgs, c.keys, { terminal }, log);
    expect(shown).toEqual([]);
  });

  it("keys given in the environment are registered once by whichever replica wins", async () => {
    const [a, b] = [await replica(), await replica()];
    const given = { platformKey: `ppk_${"a".repeat(40)}`, screeningKey: `psk_${"b".repeat(40)}` };
    await Promise.all([bootstrap(a.orgs, a.keys, { ...given, terminal }, log), bootstrap(b.orgs, b.keys, { ...given, terminal }, log)]);
    expect((await a.keys.list()).map((k) => k.prefix).sort()).toEqual(["ppk_aaaa", "psk_bbbb"]);
    expect(shown.filter((s) => s.includes("shown once"))).toEqual([]);
  });

  it("without a keys file (MongoDB) the keys are shown and nothing is written; an unwritable file does not stop start-up", async () => {
    const a = await replica();
    await bootstrap(a.orgs, a.keys, { terminal }, log);
    expect(shown.filter((s) => s.includes("shown once"))).toHaveLength(1);
    expect(shown[0]).not.toContain("saved to");
    expect(fs.readdirSync(db.dataDir)).not.toContain("bootstrap-keys.json");

    // A fresh store whose keys file cannot be written (its directory is a file).
    await db.close();
    const dir = tempDir("parapet-bootstrap-");
    dirs.push(dir);
    db = await EmbeddedDatabase.open({ dataDir: dir, ttlSweepIntervalMs: 0 });
    fs.writeFileSync(path.join(dir, "not-a-dir"), "");
    const b = await replica();
    shown = [];
    await bootstrap(b.orgs, b.keys, { keysFile: path.join(dir, "not-a-dir", "keys.json"), terminal }, log);
    expect(shown.filter((s) => s.includes("shown once"))).toHaveLength(1);
    expect(await b.keys.list("org-default")).toHaveLength(2);
  });
});

describe("PARAPET_BOOTSTRAP_KEYS_FILE", () => {
  it("defaults to the data directory for the embedded engine, to none under MongoDB, and is used as given", () => {
    expect(loadConfig({ PARAPET_DATA_DIR: "/srv/parapet" }).bootstrapKeysFile).toBe("/srv/parapet/bootstrap-keys.json");
    expect(loadConfig({ PARAPET_DATA_DIR: "/srv/parapet", MONGODB_URI: "mongodb://db/parapet" }).bootstrapKeysFile).toBeUndefined();
    expect(loadConfig({ MONGODB_URI: "mongodb://db/parapet", PARAPET_BOOTSTRAP_KEYS_FILE: "/run/secrets/keys.json" }).bootstrapKeysFile).toBe("/run/secrets/keys.json");
  });
});
