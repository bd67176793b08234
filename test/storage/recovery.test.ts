// Start-up after damage, failed writes, compaction and TTL on the embedded engine.

import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { StorageUnavailableError } from "../../src/storage/collection.js";
import { EmbeddedDatabase } from "../../src/storage/embedded/engine.js";
import { nodeJournalIo, type JournalIo } from "../../src/storage/embedded/journal.js";
import { HEADER_BYTES } from "../../src/storage/embedded/record.js";
import { tempDirsOfFile } from "./engines.js";

const freshDir = tempDirsOfFile();
// Small segments (1 MiB, preallocated) keep these tests fast; the size does not change the rules.
const open = (dataDir: string, extra: Partial<Parameters<typeof EmbeddedDatabase.open>[0]> = {}) =>
  EmbeddedDatabase.open({ dataDir, ttlSweepIntervalMs: 0, onWarning: () => undefined, segmentBytes: 1 << 20, ...extra });

/** Offsets of the records in a journal file (they end where the preallocated zeros begin). */
function recordOffsets(file: string): number[] {
  const buf = fs.readFileSync(file);
  const offs: number[] = [];
  for (let off = 0; off + HEADER_BYTES <= buf.length && buf.readUInt32LE(off) > 0; off += HEADER_BYTES + buf.readUInt32LE(off)) offs.push(off);
  return offs;
}

/** Where the records of a journal file end. */
function recordsEnd(file: string): number {
  const offs = recordOffsets(file);
  const buf = fs.readFileSync(file);
  const lastOff = offs[offs.length - 1];
  return lastOff + HEADER_BYTES + buf.readUInt32LE(lastOff);
}

function journals(dir: string): string[] {
  return fs
    .readdirSync(dir)
    .filter((f) => f.startsWith("journal-"))
    .sort()
    .map((f) => path.join(dir, f));
}

/** Writes docs and "crashes": the lock is released but nothing is compacted, as after kill -9. */
async function writeAndAbandon(dir: string, n: number): Promise<void> {
  const db = await open(dir);
  const c = await db.collection("things");
  for (let i = 0; i < n; i++) await c.insertOne({ _id: `d${i}`, i, text: "x".repeat(50) });
  abandon(db);
}

function abandon(db: EmbeddedDatabase): void {
  // What kill -9 leaves: files as written, no close-time snapshot. Only the in-process lock registry needs clearing.
  (db as unknown as { lock: { release(): void } }).lock.release();
  (db as unknown as { files: { closeAll(): void } }).files.closeAll();
}

describe("embedded recovery", () => {
  it("discards a torn last record and keeps everything before it", async () => {
    const dir = freshDir();
    await writeAndAbandon(dir, 20);
    const [file] = journals(dir);
    const offs = recordOffsets(file);
    // A torn write: the first bytes of the last record reached the disk, the rest did not.
    const last = offs[offs.length - 1];
    const bytes = fs.readFileSync(file);
    bytes.fill(0, last + 5, recordsEnd(file));
    bytes[last + 4] = 0xab;
    fs.writeFileSync(file, bytes);
    const db = await open(dir);
    expect(db.recovery.discardedTailBytes).toBe(5);
    const c = await db.collection("things");
    expect(await c.countDocuments({})).toBe(19);
    expect(await c.findOne({ _id: "d18" })).toMatchObject({ i: 18 });
    // Appending continues after the cut, and survives another restart.
    await c.insertOne({ _id: "after" });
    abandon(db);
    const again = await open(dir);
    expect(await (await again.collection("things")).countDocuments({})).toBe(20);
    await again.close();
  });

  it("refuses to start on a corrupt record in the middle, naming the file and offset", async () => {
    const dir = freshDir();
    await writeAndAbandon(dir, 20);
    const [file] = journals(dir);
    const offs = recordOffsets(file);
    const victim = offs[5];
    const bytes = fs.readFileSync(file);
    bytes[victim + HEADER_BYTES + 20] ^= 0xff;
    fs.writeFileSync(file, bytes);
    await expect(open(dir)).rejects.toThrow(`journal ${file} is corrupt at byte offset ${victim}`);
    // The failed start released the lock: fixing the file makes it start again.
    bytes[victim + HEADER_BYTES + 20] ^= 0xff;
    fs.writeFileSync(file, bytes);
    const db = await open(dir);
    expect(await (await db.collection("things")).countDocuments({})).toBe(20);
    await db.close();
  });

  it("refuses to start when a record's length field is damaged mid-file", async () => {
    const dir = freshDir();
    await writeAndAbandon(dir, 20);
    const [file] = journals(dir);
    const victim = recordOffsets(file)[3];
    const bytes = fs.readFileSync(file);
    bytes.writeUInt32LE(7, victim);
    fs.writeFileSync(file, bytes);
    await expect(open(dir)).rejects.toThrow(new RegExp(`corrupt at byte offset ${victim}`));
  });

  it("refuses to start on a damaged snapshot", async () => {
    const dir = freshDir();
    const db = await open(dir);
    await (await db.collection("things")).insertOne({ _id: "a" });
    await db.close();
    const snap = fs.readdirSync(dir).find((f) => f.endsWith(".snap"))!;
    const bytes = fs.readFileSync(path.join(dir, snap));
    bytes[bytes.length - 3] ^= 0x01;
    fs.writeFileSync(path.join(dir, snap), bytes);
    await expect(open(dir)).rejects.toThrow(/snapshot .* is unreadable \(checksum mismatch\)/);
  });

  it("refuses to start when a journal segment in the chain is missing", async () => {
    const dir = freshDir();
    const db = await open(dir, { compactionThresholdBytes: 1 });
    const c = await db.collection("things");
    for (let i = 0; i < 5; i++) await c.insertOne({ _id: `d${i}` });
    await db.compact();
    await c.insertOne({ _id: "x" });
    abandon(db);
    // Remove the snapshot so that every journal must be replayed, then a middle one.
    for (const f of fs.readdirSync(dir)) if (f.endsWith(".snap")) fs.rmSync(path.join(dir, f));
    const all = journals(dir);
    if (all.length >= 2) {
      fs.rmSync(all[0]);
      await expect(open(dir)).rejects.toThrow(/missing/);
    }
  });
});

describe("failed writes (injected EIO / ENOSPC)", () => {
  function failingIo(kind: "write" | "fdatasync", code: string): { io: JournalIo; arm(): void } {
    let armed = false;
    const fail = () => Object.assign(new Error(`${code}: injected`), { code });
    return {
      arm: () => {
        armed = true;
      },
      io: {
        ...nodeJournalIo,
        write: (...args) => (kind === "write" && armed ? Promise.reject(fail()) : nodeJournalIo.write(...args)),
        fdatasync: (fd) => (kind === "fdatasync" && armed ? Promise.reject(fail()) : nodeJournalIo.fdatasync(fd)),
      },
    };
  }

  for (const [kind, code] of [
    ["write", "ENOSPC"],
    ["fdatasync", "EIO"],
  ] as const) {
    it(`a failed ${kind} (${code}) rejects the write, stops the engine, and keeps what was acknowledged`, async () => {
      const dir = freshDir();
      const fault = failingIo(kind, code);
      const logged: { fields: Record<string, unknown>; message: string }[] = [];
      const log = {
        info: () => undefined,
        warn: () => undefined,
        error: (fields: object, message: string) => logged.push({ fields: fields as Record<string, unknown>, message }),
      };
      const db = await open(dir, { io: fault.io, log });
      const c = await db.collection("things");
      for (let i = 0; i < 5; i++) await c.insertOne({ _id: `ok${i}` });
      fault.arm();
      const results = await Promise.allSettled(Array.from({ length: 30 }, (_, i) => c.insertOne({ _id: `d${i}` })));
      for (const r of results) {
        expect(r.status).toBe("rejected");
        expect((r as PromiseRejectedResult).reason).toBeInstanceOf(StorageUnavailableError);
        expect(String((r as PromiseRejectedResult).reason.message)).toContain(code);
      }
      // The cause is logged once, with the code and the file, where the 503s begin.
      expect(logged).toEqual([
        {
          fields: expect.objectContaining({ code, path: expect.stringMatching(new RegExp(`^${dir}/journal-\\d{8}\\.log$`)) }),
          message: expect.stringContaining("answers 503"),
        },
      ]);
      // Failed state: no more acknowledgements, no reads, readiness fails.
      await expect(c.insertOne({ _id: "later" })).rejects.toBeInstanceOf(StorageUnavailableError);
      await expect(c.findOne({ _id: "ok0" })).rejects.toBeInstanceOf(StorageUnavailableError);
      await expect(db.ping()).rejects.toBeInstanceOf(StorageUnavailableError);
      await db.close();
      const again = await open(dir);
      const things = await again.collection("things");
      for (let i = 0; i < 5; i++) expect(await things.findOne({ _id: `ok${i}` })).not.toBeNull();
      expect(await things.findOne({ _id: "later" })).toBeNull();
      if (kind === "write") expect(await things.countDocuments({})).toBe(5);
      await again.close();
    });
  }
});

describe("compaction", () => {
  it("keeps the journal bounded under a stream of updates", async () => {
    const dir = freshDir();
    const db = await open(dir, { compactionThresholdBytes: 64 * 1024 });
    const c = await db.collection("rollups");
    for (let i = 0; i < 3000; i++) await c.updateOne({ _id: `r${i % 10}` }, { $inc: { n: 1 }, $set: { pad: "y".repeat(100) } }, { upsert: true });
    // Disk actually used: segments are preallocated sparse files, their size is not their use.
    const sizes = fs.readdirSync(dir).map((f) => fs.statSync(path.join(dir, f)).blocks * 512);
    expect(sizes.reduce((a, b) => a + b, 0)).toBeLessThan(400 * 1024);
    await db.close();
    const again = await open(dir);
    expect(again.recovery.replayedRecords).toBe(0);
    expect(await (await again.collection("rollups")).find({}, { sort: { _id: 1 }, limit: 1 })).toEqual([{ _id: "r0", n: 300, pad: "y".repeat(100) }]);
    await again.close();
  });

  it("reclaims files whose events expired or were deleted, relocating the live remainder", async () => {
    const dir = freshDir();
    const db = await open(dir, { compactionThresholdBytes: 1 << 30 });
    const logs = await db.collection("logs", { timeseries: { timeField: "t", metaField: "meta" }, expireAfterSeconds: 3600 });
    const T0 = Date.UTC(2025, 0, 1);
    const batch = (from: number, org: string) =>
      Array.from({ length: 500 }, (_, i) => ({ _id: `${org}-${from + i}`, t: new Date(T0 + (from + i) * 1000), meta: { org }, body: "z".repeat(300) }));
    await logs.insertMany(batch(0, "keep"));
    await logs.insertMany(batch(0, "drop"));
    await db.compact(); // events now live in a sealed segment
    expect(await logs.deleteMany({ "meta.org": "drop" })).toBe(500);
    await db.compact(); // < 50% live: relocated into a data file, segment dropped
    const files = fs.readdirSync(dir);
    expect(files.some((f) => f.startsWith("data-"))).toBe(true);
    expect(await logs.countDocuments({ "meta.org": "keep" })).toBe(500);
    expect(await logs.findOne({ _id: "keep-250", "meta.org": "keep" })).toMatchObject({ body: "z".repeat(300) });
    // TTL then empties it entirely, and the files go.
    expect(await db.sweepExpired(new Date(T0 + 3600_000 + 1_000_000))).toBe(500);
    await db.compact();
    expect(fs.readdirSync(dir).filter((f) => f.startsWith("data-"))).toEqual([]);
    await db.close();
    const again = await open(dir);
    expect(await (await again.collection("logs")).countDocuments({})).toBe(0);
    await again.close();
  });
});

describe("TTL", () => {
  it("expires documents by a TTL index and by a time-series retention", async () => {
    const dir = freshDir();
    const db = await open(dir);
    const now = Date.UTC(2025, 5, 1);
    const rollups = await db.collection("rollups");
    await rollups.createIndex({ name: "retention", keys: { minute: 1 }, expireAfterSeconds: 60 });
    await rollups.insertMany([
      { _id: "old", minute: new Date(now - 120_000) },
      { _id: "new", minute: new Date(now - 30_000) },
      { _id: "not-a-date", minute: "2020-01-01" },
    ]);
    const logs = await db.collection("logs", { timeseries: { timeField: "t", metaField: "m" }, expireAfterSeconds: 10 });
    await logs.insertMany([
      { _id: "l1", t: new Date(now - 20_000), m: {} },
      { _id: "l2", t: new Date(now - 5_000), m: {} },
    ]);
    expect(await db.sweepExpired(new Date(now))).toBe(2);
    expect((await rollups.find({}, { sort: { _id: 1 } })).map((d) => d._id)).toEqual(["new", "not-a-date"]);
    expect((await logs.find({})).map((d) => d._id)).toEqual(["l2"]);
    // Retention is configuration: reopening with another value applies it.
    await db.collection("logs", { timeseries: { timeField: "t", metaField: "m" }, expireAfterSeconds: 1 });
    expect(await db.sweepExpired(new Date(now))).toBe(1);
    await db.close();
  });
});

describe("lock", () => {
  it("takes over a lock left by a dead process", async () => {
    const dir = freshDir();
    fs.writeFileSync(path.join(dir, "LOCK"), JSON.stringify({ pid: 2 ** 22 + 12345, host: os.hostname(), startedAt: "x" }));
    const db = await open(dir);
    await db.close();
    expect(fs.existsSync(path.join(dir, "LOCK"))).toBe(false);
  });

  it("a lock naming a live, unrelated process says which process it is and how to go on safely (issue 29)", async () => {
    const dir = freshDir();
    // Another program that got the pid of a Parapet process that died (a restarted container, a reboot).
    const other = spawn("sleep", ["300"], { stdio: "ignore" });
    try {
      await new Promise((resolve) => other.once("spawn", resolve));
      const lock = path.join(dir, "LOCK");
      fs.writeFileSync(lock, JSON.stringify({ pid: other.pid, host: os.hostname(), startedAt: "2026-01-01T00:00:00.000Z" }));
      const opening = open(dir);
      await expect(opening).rejects.toThrow(
        `data directory ${dir} is in use: held by pid ${other.pid} on host ${os.hostname()}, started 2026-01-01T00:00:00.000Z; pid ${other.pid} is running: sleep 300.`,
      );
      await expect(open(dir)).rejects.toThrow(
        `If it is not (its pid was reused after a crash or a restart), make sure no Parapet process uses ${dir}, remove ${lock} and start again`,
      );
      // Refused, not taken over: a start time compared with the lock's cannot prove the owner gone.
      expect(JSON.parse(fs.readFileSync(lock, "utf8"))).toMatchObject({ pid: other.pid });
      // The way out the message gives.
      fs.rmSync(lock);
      await (await open(dir)).close();
    } finally {
      other.kill("SIGKILL");
    }
  });

  it("fails fast on a fresh lock from another host", async () => {
    const dir = freshDir();
    fs.writeFileSync(path.join(dir, "LOCK"), JSON.stringify({ pid: 1, host: "elsewhere", startedAt: "x" }));
    await expect(open(dir)).rejects.toThrow(/in use: held by pid 1 on host elsewhere/);
  });
});
