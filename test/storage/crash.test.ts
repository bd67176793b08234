// Crash tests in child processes (docs/storage.md#tests): kill -9 in the middle of a
// stream of writes, a torn tail, a corrupt record in the middle, a full disk.

import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { EmbeddedDatabase } from "../../src/storage/embedded/engine.js";
import { freePort, spawnServer } from "../support/child-server.js";
import { eventDoc, itemDoc } from "./fixtures/payload.js";
import { tempDir } from "./engines.js";

const here = path.dirname(fileURLToPath(import.meta.url));
const writer = path.join(here, "fixtures", "writer.ts");
const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
});

interface Run {
  child: ChildProcess;
  lines: string[];
  exited: Promise<number | null>;
  waitFor(pred: (lines: string[]) => boolean, timeoutMs: number): Promise<void>;
}

function runWriter(dir: string, mode: string, start = 0, env: Record<string, string> = {}): Run {
  const child = spawn(process.execPath, ["--import", "tsx", writer, dir, mode, String(start)], {
    stdio: ["ignore", "pipe", "pipe"],
    env: { ...process.env, ...env },
  });
  const lines: string[] = [];
  let partial = "";
  const waiters: (() => void)[] = [];
  child.stdout.on("data", (chunk: Buffer) => {
    const text = partial + chunk.toString("utf8");
    const parts = text.split("\n");
    partial = parts.pop()!;
    lines.push(...parts);
    for (const w of waiters.splice(0)) w();
  });
  let stderr = "";
  child.stderr.on("data", (c: Buffer) => (stderr += c.toString()));
  // "close", not "exit": only then has every line the child printed been read.
  const exited = new Promise<number | null>((resolve) => child.on("close", (code) => resolve(code)));
  return {
    child,
    lines,
    exited,
    async waitFor(pred, timeoutMs) {
      const deadline = Date.now() + timeoutMs;
      while (!pred(lines)) {
        if (Date.now() > deadline) throw new Error(`child did not get there in ${timeoutMs} ms; stderr: ${stderr}; last: ${lines.slice(-3).join(" | ")}`);
        if (child.exitCode !== null) throw new Error(`child exited ${child.exitCode}; stderr: ${stderr}`);
        await new Promise<void>((r) => {
          waiters.push(r);
          setTimeout(r, 50);
        });
      }
    },
  };
}

function acked(lines: string[], kind: string): number[] {
  const prefix = `ack ${kind} `;
  return lines.filter((l) => l.startsWith(prefix)).map((l) => Number(l.slice(prefix.length)));
}

async function verifyAfterCrash(dir: string, lines: string[]) {
  const db = await EmbeddedDatabase.open({ dataDir: dir, ttlSweepIntervalMs: 0 });
  try {
    const items = await db.collection("items");
    const events = await db.collection("events");
    const counters = await db.collection("counters");
    for (const n of acked(lines, "item")) expect(await items.findOne({ _id: `item-${n}` })).toEqual(itemDoc(n));
    for (const n of acked(lines, "event")) {
      const [found] = await events.find({ "meta.org_id": `org-${n % 7}`, timestamp: new Date(eventDoc(n).timestamp), _id: `event-${n}` });
      expect(found).toEqual(eventDoc(n));
    }
    // Nothing half-written: every document present is whole (acknowledged or not).
    for (const doc of await items.find({})) expect(doc).toEqual(itemDoc(doc.key as number));
    for (const doc of await events.find({})) expect(doc).toEqual(eventDoc(Number(String(doc._id).slice(6))));
    const counter = (await counters.findOne({ _id: "c" }))?.n ?? 0;
    const maxAcked = Math.max(0, ...acked(lines, "counter"));
    expect(counter).toBeGreaterThanOrEqual(maxAcked);
    return { db, items: await items.countDocuments({}), events: await events.countDocuments({}) };
  } catch (e) {
    await db.close();
    throw e;
  }
}

describe("crash safety of the embedded engine (child processes)", () => {
  it("keeps every acknowledged write through repeated kill -9 mid-stream", async () => {
    const dir = tempDir();
    dirs.push(dir);
    let total = 0;
    for (let round = 0; round < 3; round++) {
      const run = runWriter(dir, "stream", round * 1_000_000);
      // Kill at a different point each round, always with writes (and compactions) in flight.
      const target = 1500 + round * 1700;
      await run.waitFor((l) => acked(l, "item").length >= target, 30_000);
      run.child.kill("SIGKILL");
      await run.exited;
      const { db, items } = await verifyAfterCrash(dir, run.lines);
      const ackedItems = acked(run.lines, "item").length;
      expect(items).toBeGreaterThanOrEqual(total + ackedItems);
      total = items;
      await db.close();
    }
  });

  it("a second process opening the same directory fails fast, naming the directory and owner", async () => {
    const dir = tempDir();
    dirs.push(dir);
    const holder = runWriter(dir, "hold");
    try {
      await holder.waitFor((l) => l.includes("ready"), 20_000);
      const started = Date.now();
      await expect(EmbeddedDatabase.open({ dataDir: dir })).rejects.toThrow(new RegExp(`${dir}.*pid ${holder.child.pid}`));
      // At once, not after the 10 s wait for an owner that is exiting (generous for a loaded machine).
      expect(Date.now() - started).toBeLessThan(5_000);
    } finally {
      holder.child.kill("SIGKILL");
      await holder.exited;
    }
    // The holder died without releasing: its lock is stale and is taken over.
    const db = await EmbeddedDatabase.open({ dataDir: dir, ttlSweepIntervalMs: 0 });
    await db.close();
  });

  it("the service does not start on a LOCK naming a live, unrelated process, and its log says which and what to do (issue 29)", async () => {
    const dir = tempDir();
    dirs.push(dir);
    const other = spawn("sleep", ["300"], { stdio: "ignore" });
    try {
      await new Promise((resolve) => other.once("spawn", resolve));
      const lock = path.join(dir, "LOCK");
      fs.writeFileSync(lock, JSON.stringify({ pid: other.pid, host: os.hostname(), startedAt: "2026-01-01T00:00:00.000Z" }));
      const server = spawnServer(await freePort(), { PARAPET_DATA_DIR: dir });
      expect((await server.exited).code).toBe(1);
      const failed = server.logLines().find((l) => l.msg === "start-up failed");
      expect(failed?.err).toContain(`held by pid ${other.pid} on host ${os.hostname()}`);
      expect(failed?.err).toContain(`pid ${other.pid} is running: sleep 300`);
      expect(failed?.err).toContain(`remove ${lock} and start again`);
      // Nothing was touched: the lock is as it was, and no journal was created.
      expect(fs.readdirSync(dir)).toEqual(["LOCK"]);
    } finally {
      other.kill("SIGKILL");
    }
  });

  it("a restart right after kill -9 takes the lock over while the dead owner is not yet reaped", async () => {
    const dir = tempDir();
    dirs.push(dir);
    // The writer runs under a shell that execs `sleep`, which never reaps: once killed, the
    // writer stays a zombie, its pid still answering kill(pid, 0), as a not-yet-reaped process does.
    const cmd = `${process.execPath} --import tsx ${writer} ${dir} hold & exec sleep 60`;
    const parent = spawn("sh", ["-c", cmd], { stdio: ["ignore", "pipe", "inherit"] });
    try {
      await new Promise<void>((resolve, reject) => {
        let out = "";
        parent.stdout.on("data", (c: Buffer) => {
          out += c.toString();
          if (out.includes("ready")) resolve();
        });
        setTimeout(() => reject(new Error("holder did not start")), 20_000);
      });
      const owner = (JSON.parse(fs.readFileSync(path.join(dir, "LOCK"), "utf8")) as { pid: number }).pid;
      process.kill(owner, "SIGKILL");
      const zombie = async () => fs.readFileSync(`/proc/${owner}/stat`, "utf8").split(") ")[1]?.startsWith("Z");
      const deadline = Date.now() + 5000;
      while (!(await zombie()) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
      expect(await zombie()).toBe(true);
      const started = Date.now();
      const db = await EmbeddedDatabase.open({ dataDir: dir, ttlSweepIntervalMs: 0 });
      // Taken over at once, not after the 10 s wait for an owner still exiting (generous for a loaded machine).
      expect(Date.now() - started).toBeLessThan(5_000);
      await db.close();
    } finally {
      parent.kill("SIGKILL");
    }
  });

  it("a full disk surfaces as an error and nothing more is acknowledged", async (ctx) => {
    const mnt = tempDir("parapet-tmpfs-");
    dirs.push(mnt);
    const mounted = spawnSync("mount", ["-t", "tmpfs", "-o", "size=2m", "tmpfs", mnt], { encoding: "utf8" });
    if (mounted.status !== 0)
      ctx.skip(`cannot mount a small tmpfs here (${(mounted.stderr || String(mounted.error)).trim()}); ENOSPC is covered by the injected-fault tests`);
    try {
      const run = runWriter(mnt, "fill", 0, { COMPACTION_BYTES: String(64 * 1024 * 1024) });
      const code = await run.exited;
      expect(code).toBe(3);
      const error = run.lines.find((l) => l.startsWith("error "));
      expect(error).toMatch(/ENOSPC/);
      expect(run.lines).toContain("refused after failure");
      expect(run.lines).not.toContain("ack after failure");
      // Make room, then every acknowledged write must be there.
      spawnSync("mount", ["-o", "remount,size=16m", mnt]);
      const { db } = await verifyAfterCrash(mnt, run.lines);
      await db.close();
    } finally {
      spawnSync("umount", [mnt]);
    }
  });
});
