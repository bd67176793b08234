// The list order (created time, then id: docs/api.md#paging) when many items share one created
// time, as they do when created within one millisecond: only the id can then keep pages from
// repeating or skipping items. Checked on each repository's page query over the embedded engine.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { ApiKeys } from "../../src/auth/api-keys-repository.js";
import { Policies } from "../../src/policies/repository.js";
import { Projects } from "../../src/projects/repository.js";
import type { Database } from "../../src/storage/collection.js";
import { EmbeddedDatabase } from "../../src/storage/embedded/engine.js";

let dir: string;
let db: Database;

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), "parapet-list-order-"));
  db = await EmbeddedDatabase.open({ dataDir: dir, ttlSweepIntervalMs: 0 });
});
afterAll(async () => {
  await db?.close();
  await rm(dir, { recursive: true, force: true });
});
afterEach(() => {
  vi.useRealTimers();
});

type Position = { created: Date; id: string };

/** Every item, `limit` at a time, each page starting after the last item of the one before. */
async function walk<T extends { _id: string; created_at: Date }>(page: (after: Position | null, limit: number) => Promise<T[]>, limit: number): Promise<string[]> {
  const ids: string[] = [];
  let after: Position | null = null;
  for (let i = 0; i < 100; i++) {
    const items = await page(after, limit);
    ids.push(...items.map((x) => x._id));
    if (items.length < limit) return ids;
    const last = items[items.length - 1];
    after = { created: last.created_at, id: last._id };
  }
  throw new Error("paging did not end");
}

describe("items created in the same millisecond", () => {
  it("projects: every one exactly once, in id order, whatever the page size", async () => {
    const projects = await Projects.open(db);
    vi.useFakeTimers({ toFake: ["Date"], now: new Date("2026-01-01T00:00:00Z") });
    const ids: string[] = [];
    for (let i = 0; i < 9; i++) ids.push((await projects.create("org-ties", { name: `p${i}`, policy_id: null, project_metadata: {} }))._id);
    vi.useRealTimers();
    for (const limit of [1, 2, 4, 20]) {
      expect(await walk((after, n) => projects.page("org-ties", "project-default-ties", after, n), limit)).toEqual(["project-default-ties", ...ids.sort()]);
    }
  });

  it("policies: every one exactly once, in id order", async () => {
    const policies = await Policies.open(db);
    vi.useFakeTimers({ toFake: ["Date"], now: new Date("2026-01-01T00:00:00Z") });
    const ids: string[] = [];
    for (let i = 0; i < 7; i++) {
      ids.push((await policies.create("org-ties", { name: `p${i}`, default_threshold: "l1_confident", detectors: [], custom_guardrail_ids: [] }))._id);
    }
    vi.useRealTimers();
    for (const limit of [1, 3, 7, 8]) expect(await walk((after, n) => policies.page("org-ties", after, n), limit)).toEqual(ids.sort());
  });

  it("API keys: every one exactly once, revoked ones only when asked", async () => {
    const keys = await ApiKeys.open(db);
    vi.useFakeTimers({ toFake: ["Date"], now: new Date("2026-01-01T00:00:00Z") });
    const ids: string[] = [];
    for (let i = 0; i < 6; i++) ids.push((await keys.create("org-ties", "screening", null)).record._id);
    vi.useRealTimers();
    const revoked = ids.sort()[2];
    expect(await keys.revoke(revoked)).toBe(true);
    for (const limit of [1, 2, 5]) {
      expect(await walk((after, n) => keys.page("org-ties", after, n, true), limit)).toEqual(ids);
      expect(await walk((after, n) => keys.page("org-ties", after, n, false), limit)).toEqual(ids.filter((id) => id !== revoked));
    }
    // Another organization's keys never show.
    expect(await keys.page("org-other", null, 10, true)).toEqual([]);
  });
});
