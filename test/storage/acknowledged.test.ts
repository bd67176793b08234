// No acknowledged write lost silently (docs/storage.md#journal-segments): preallocated segments
// let recovery tell a truncated file from an interrupted write, discarded tails are logged with
// their size, the operator's explicit decision is needed to start anyway, older directories
// still open, and the data directory is private.

import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { EmbeddedDatabase } from "../../src/storage/embedded/engine.js";
import type { StorageLog } from "../../src/storage/embedded/files.js";
import { encodeRecord, HEADER_BYTES, OP_CREATE_COLLECTION, OP_PUT, OP_SEGMENT_START } from "../../src/storage/embedded/record.js";
import { tempDirsOfFile } from "./engines.js";

const freshDir = tempDirsOfFile();

interface Entry {
  level: "info" | "warn" | "error";
  fields: Record<string, unknown>;
  message: string;
}
function capture(): { log: StorageLog; entries: Entry[] } {
  const entries: Entry[] = [];
  const at = (level: Entry["level"]) => (fields: object, message: string) => entries.push({ level, fields: fields as Record<string, unknown>, message });
  return { log: { info: at("info"), warn: at("warn"), error: at("error") }, entries };
}

const SEGMENT = 1 << 20;
const open = (dataDir: string, extra: Partial<Parameters<typeof EmbeddedDatabase.open>[0]> = {}) =>
  EmbeddedDatabase.open({ dataDir, ttlSweepIntervalMs: 0, onWarning: () => undefined, log: capture().log, segmentBytes: SEGMENT, ...extra });

/** What kill -9 leaves: files as written, no close-time snapshot. */
function abandon(db: EmbeddedDatabase): void {
  (db as unknown as { lock: { release(): void } }).lock.release();
  (db as unknown as { files: { closeAll(): void } }).files.closeAll();
}

async function writeAndAbandon(dir: string, n: number, extra: Partial<Parameters<typeof EmbeddedDatabase.open>[0]> = {}): Promise<void> {
  const db = await open(dir, extra);
  const c = await db.collection("things");
  for (let i = 0; i < n; i++) await c.insertOne({ _id: `d${i}`, i, text: "x".repeat(50) });
  abandon(db);
}

function journals(dir: string): string[] {
  return fs
    .readdirSync(dir)
    .filter((f) => /^journal-\d+\.log$/.test(f))
    .sort()
    .map((f) => path.join(dir, f));
}

function recordOffsets(buf: Buffer): number[] {
  const offs: number[] = [];
  for (let off = 0; off + HEADER_BYTES <= buf.length && buf.readUInt32LE(off) > 0; off += HEADER_BYTES + buf.readUInt32LE(off)) offs.push(off);
  return offs;
}

describe("a journal segment shorter than what was acknowledged", () => {
  it("an empty last segment (truncated to 0 bytes) refuses to start; PARAPET_ACCEPT_JOURNAL_LOSS starts it, logged", async () => {
    const dir = freshDir();
    await writeAndAbandon(dir, 200);
    const [file] = journals(dir);
    fs.truncateSync(file, 0);
    await expect(open(dir)).rejects.toThrow(`journal ${file} is corrupt at byte offset 0 (the file is 0 bytes and does not begin with its segment start record)`);
    await expect(open(dir)).rejects.toThrow(`PARAPET_ACCEPT_JOURNAL_LOSS=${path.basename(file)}`);
    // A setting naming another file accepts nothing.
    await expect(open(dir, { acceptJournalLoss: ["journal-00000099.log"] })).rejects.toThrow(/corrupt at byte offset 0/);

    const { log, entries } = capture();
    const db = await open(dir, { acceptJournalLoss: [path.basename(file)], log });
    expect(entries).toContainEqual(expect.objectContaining({ level: "warn", fields: expect.objectContaining({ file, bytes: 0 }) }));
    const c = await db.collection("things");
    expect(await c.countDocuments({})).toBe(0);
    await c.insertOne({ _id: "after" });
    abandon(db);
    // The decision was for that start: the next one needs no setting and keeps the new write.
    const again = await open(dir);
    expect(await (await again.collection("things")).countDocuments({})).toBe(1);
    await again.close();
  });

  it.each([
    ["inside its records", (recordsEnd: number) => recordsEnd - 300],
    ["to its start record", (_end: number, startEnd: number) => startEnd],
    ["after its records, inside the preallocated space", (recordsEnd: number) => recordsEnd + 1000],
  ])("a last segment truncated %s refuses to start, naming the file and the offset", async (_what, cutAt) => {
    const dir = freshDir();
    await writeAndAbandon(dir, 50);
    const [file] = journals(dir);
    const buf = fs.readFileSync(file);
    const offs = recordOffsets(buf);
    const end = offs[offs.length - 1] + HEADER_BYTES + buf.readUInt32LE(offs[offs.length - 1]);
    const at = cutAt(end, offs[1]);
    fs.truncateSync(file, at);
    await expect(open(dir)).rejects.toThrow(`journal ${file} is corrupt at byte offset ${at} (the file is ${at} bytes but was created with ${SEGMENT}`);
    const { log, entries } = capture();
    const db = await open(dir, { acceptJournalLoss: [path.basename(file)], log });
    expect(entries.some((e) => e.level === "warn" && e.fields.file === file)).toBe(true);
    expect(await (await db.collection("things")).countDocuments({})).toBeLessThanOrEqual(50);
    // Given its size back, the segment passes the check again at the next start.
    expect(fs.statSync(file).size).toBe(SEGMENT);
    abandon(db);
    const again = await open(dir);
    await again.close();
  });

  it("a torn tail of an unacknowledged write is still cut, and logged with its size", async () => {
    const dir = freshDir();
    await writeAndAbandon(dir, 20);
    const [file] = journals(dir);
    const buf = fs.readFileSync(file);
    const offs = recordOffsets(buf);
    const last = offs[offs.length - 1];
    const end = last + HEADER_BYTES + buf.readUInt32LE(last);
    buf.fill(0, last + 9, end);
    buf[last + 8] = 0x01;
    fs.writeFileSync(file, buf);
    const { log, entries } = capture();
    const db = await open(dir, { log });
    expect(db.recovery.discardedTailBytes).toBe(9);
    expect(entries).toContainEqual({
      level: "warn",
      fields: { file, offset: last, bytes: 9 },
      message: "journal: discarded the torn tail of an interrupted, unacknowledged write",
    });
    expect(await (await db.collection("things")).countDocuments({})).toBe(19);
    await db.close();
  });
});

describe("a damaged last record (issue 29)", () => {
  /** The last record's offset and end in a segment written by writeAndAbandon. */
  function lastRecord(file: string): { buf: Buffer; last: number; end: number } {
    const buf = fs.readFileSync(file);
    const offs = recordOffsets(buf);
    const last = offs[offs.length - 1];
    return { buf, last, end: last + HEADER_BYTES + buf.readUInt32LE(last) };
  }

  it.each([
    ["a payload byte", (_buf: Buffer, last: number, end: number) => Math.floor((last + HEADER_BYTES + end) / 2)],
    ["a checksum byte", (_buf: Buffer, last: number) => last + 5],
    ["its record type", (_buf: Buffer, last: number) => last + HEADER_BYTES],
    ["the low byte of its length", (_buf: Buffer, last: number) => last],
    ["the high byte of its length", (_buf: Buffer, last: number) => last + 3],
  ])("%s flipped in a record written whole refuses to start, naming the way out; PARAPET_ACCEPT_JOURNAL_LOSS starts without it", async (_what, at) => {
    const dir = freshDir();
    await writeAndAbandon(dir, 20);
    const [file] = journals(dir);
    const { buf, last, end } = lastRecord(file);
    buf[at(buf, last, end)] ^= 0x01;
    fs.writeFileSync(file, buf);
    // Acknowledged data damaged, not an interrupted write: never dropped with a warning only.
    await expect(open(dir)).rejects.toThrow(`journal ${file} is corrupt at byte offset ${last}`);
    await expect(open(dir)).rejects.toThrow(/complete on disk .* written whole and may have been acknowledged/);
    await expect(open(dir)).rejects.toThrow(`start once with PARAPET_ACCEPT_JOURNAL_LOSS=${path.basename(file)}`);

    const { log, entries } = capture();
    const db = await open(dir, { acceptJournalLoss: [path.basename(file)], log });
    expect(entries).toContainEqual(expect.objectContaining({ level: "warn", fields: { file, offset: last } }));
    const c = await db.collection("things");
    expect(await c.countDocuments({})).toBe(19);
    await c.insertOne({ _id: "after" });
    abandon(db);
    const again = await open(dir);
    expect(await (await again.collection("things")).countDocuments({})).toBe(20);
    await again.close();
  });

  it("a last record missing a sector in its middle (pages reach the disk in any order) is a torn write: cut, and logged", async () => {
    const dir = freshDir();
    const db = await open(dir);
    const c = await db.collection("things");
    for (let i = 0; i < 5; i++) await c.insertOne({ _id: `d${i}`, text: "x".repeat(50) });
    await c.insertOne({ _id: "big", text: "y".repeat(3000) });
    abandon(db);
    const [file] = journals(dir);
    const { buf, last, end } = lastRecord(file);
    const sector = Math.ceil((last + HEADER_BYTES) / 512) * 512;
    expect(sector + 512).toBeLessThan(end);
    buf.fill(0, sector, sector + 512);
    fs.writeFileSync(file, buf);
    const { log, entries } = capture();
    const again = await open(dir, { log });
    expect(again.recovery.discardedTailBytes).toBe(end - last);
    expect(entries).toContainEqual(expect.objectContaining({ level: "warn", message: "journal: discarded the torn tail of an interrupted, unacknowledged write" }));
    expect(await (await again.collection("things")).countDocuments({})).toBe(5);
    await again.close();
  });
});

describe("a deleted newest journal segment (issue 29)", () => {
  it("the only segment deleted refuses to start instead of starting empty; PARAPET_ACCEPT_JOURNAL_LOSS starts, logged", async () => {
    const dir = freshDir();
    await writeAndAbandon(dir, 20);
    const [file] = journals(dir);
    fs.rmSync(file);
    await expect(open(dir)).rejects.toThrow(`journal ${file} is corrupt at byte offset 0 (journal-head names this segment as the newest and it is missing (deleted?)`);
    await expect(open(dir)).rejects.toThrow(`start once with PARAPET_ACCEPT_JOURNAL_LOSS=${path.basename(file)}`);
    const { log, entries } = capture();
    const db = await open(dir, { acceptJournalLoss: [path.basename(file)], log });
    expect(entries).toContainEqual(expect.objectContaining({ level: "warn", fields: { file } }));
    const c = await db.collection("things");
    expect(await c.countDocuments({})).toBe(0);
    await c.insertOne({ _id: "after" });
    abandon(db);
    const again = await open(dir);
    expect(await (await again.collection("things")).countDocuments({})).toBe(1);
    await again.close();
  });

  it("the segment a snapshot continues in, deleted, is recoverable with the same decision", async () => {
    const dir = freshDir();
    const first = await open(dir);
    const c = await first.collection("things");
    for (let i = 0; i < 10; i++) await c.insertOne({ _id: `s${i}` });
    await first.close(); // a snapshot, and a new segment it continues in
    await writeAndAbandon(dir, 5);
    const files = journals(dir);
    const newest = files[files.length - 1];
    fs.rmSync(newest);
    await expect(open(dir)).rejects.toThrow(`journal ${newest} is corrupt at byte offset 0 (snapshot`);
    await expect(open(dir)).rejects.toThrow(`PARAPET_ACCEPT_JOURNAL_LOSS=${path.basename(newest)}`);
    const db = await open(dir, { acceptJournalLoss: [path.basename(newest)] });
    // The snapshot's ten documents; the five written after it were in the deleted segment.
    expect(await (await db.collection("things")).countDocuments({})).toBe(10);
    expect(fs.statSync(newest).size).toBe(SEGMENT);
    await db.close();
    await (await open(dir)).close();
  });

  it("the newest of several segments deleted refuses to start; accepted, the others replay", async () => {
    const dir = freshDir();
    const db = await open(dir, { compactionThresholdBytes: 1 << 30 });
    const c = await db.collection("things");
    for (let i = 0; i < 1500; i++) await c.insertOne({ _id: `d${i}`, text: "y".repeat(1000) });
    abandon(db);
    const files = journals(dir);
    expect(files).toHaveLength(2);
    const kept = await countIn(files[0]);
    fs.rmSync(files[1]);
    await expect(open(dir)).rejects.toThrow(`journal ${files[1]} is corrupt at byte offset 0`);
    const again = await open(dir, { acceptJournalLoss: [path.basename(files[1])] });
    expect(await (await again.collection("things")).countDocuments({})).toBe(kept);
    await again.close();
  });

  it("more than the newest segment deleted cannot be accepted in place", async () => {
    const dir = freshDir();
    const db = await open(dir, { compactionThresholdBytes: 1 << 30 });
    const c = await db.collection("things");
    for (let i = 0; i < 2500; i++) await c.insertOne({ _id: `d${i}`, text: "y".repeat(1000) });
    abandon(db);
    const files = journals(dir);
    expect(files).toHaveLength(3);
    fs.rmSync(files[1]);
    fs.rmSync(files[2]);
    const accepting = open(dir, { acceptJournalLoss: files.map((f) => path.basename(f)) });
    await expect(accepting).rejects.toThrow(`journal ${files[2]} is corrupt at byte offset 0`);
    await expect(open(dir)).rejects.toThrow(/and so is segment 2 before it/);
  });
});

/** Documents replayed from the segment `file` alone, in a directory of its own. */
async function countIn(file: string): Promise<number> {
  const copy = freshDir();
  fs.copyFileSync(file, path.join(copy, path.basename(file)));
  const db = await open(copy);
  const n = await (await db.collection("things")).countDocuments({});
  await db.close();
  return n;
}

describe("segments filled to their size", () => {
  it("continue in new segments, each linked to the one before, and all of them replay", async () => {
    const dir = freshDir();
    // No compaction: 3000 documents of ~1 KiB fill three 1 MiB segments.
    const db = await open(dir, { compactionThresholdBytes: 1 << 30 });
    const c = await db.collection("things");
    await Promise.all(Array.from({ length: 3000 }, (_, i) => c.insertOne({ _id: `d${i}`, text: "y".repeat(1000) })));
    // A record larger than a segment gets a segment of its own size.
    await c.insertOne({ _id: "big", text: "z".repeat(3 << 20) });
    abandon(db);
    const files = journals(dir);
    expect(files.length).toBeGreaterThanOrEqual(4);
    expect(fs.statSync(files[files.length - 1]).size).toBeGreaterThan(3 << 20);
    const again = await open(dir);
    expect(await (await again.collection("things")).countDocuments({})).toBe(3001);
    expect(again.recovery.discardedTailBytes).toBe(0);
    await again.close();
  });

  it("a torn tail in an earlier segment with records after it is damage, not an interrupted write", async () => {
    const dir = freshDir();
    const db = await open(dir, { compactionThresholdBytes: 1 << 30 });
    const c = await db.collection("things");
    for (let i = 0; i < 1500; i++) await c.insertOne({ _id: `d${i}`, text: "y".repeat(1000) });
    abandon(db);
    const [first] = journals(dir);
    const buf = fs.readFileSync(first);
    const offs = recordOffsets(buf);
    const last = offs[offs.length - 1];
    buf.fill(0, last + 20, last + 200);
    fs.writeFileSync(first, buf);
    await expect(open(dir)).rejects.toThrow(`journal ${first} is corrupt at byte offset ${last}`);
    await expect(open(dir)).rejects.toThrow(/later segments depend on this one/);
  });
});

describe("older data directories", () => {
  it("a directory written before preallocation opens, keeps its data, and new writes go to a new segment", async () => {
    const dir = freshDir();
    // The previous format: a segment of exactly its records, the start record naming only the previous segment.
    const records = [
      encodeRecord(OP_SEGMENT_START, "", { previous: 0 }),
      encodeRecord(OP_CREATE_COLLECTION, "things", {}),
      ...Array.from({ length: 10 }, (_, i) => encodeRecord(OP_PUT, "things", { _id: `old${i}`, at: new Date(Date.UTC(2025, 0, 1)) })),
    ];
    const legacy = path.join(dir, "journal-00000001.log");
    const torn = encodeRecord(OP_PUT, "things", { _id: "torn" }).subarray(0, 12);
    fs.writeFileSync(legacy, Buffer.concat([...records, torn]), { mode: 0o644 });
    const { log, entries } = capture();
    const db = await open(dir, { log });
    expect(db.recovery.discardedTailBytes).toBe(12);
    expect(entries.some((e) => e.fields.bytes === 12 && e.fields.file === legacy)).toBe(true);
    const c = await db.collection("things");
    expect(await c.countDocuments({})).toBe(10);
    expect(await c.findOne({ _id: "old3" })).toEqual({ _id: "old3", at: new Date(Date.UTC(2025, 0, 1)) });
    await c.insertOne({ _id: "new" });
    abandon(db);
    // The old segment was cut to its records, not extended; the write is in a new, preallocated one.
    expect(fs.statSync(legacy).size).toBe(Buffer.concat(records).length);
    expect(journals(dir).map((f) => path.basename(f))).toEqual(["journal-00000001.log", "journal-00000002.log"]);
    expect(fs.statSync(path.join(dir, "journal-00000002.log")).size).toBe(SEGMENT);
    const again = await open(dir);
    expect(await (await again.collection("things")).countDocuments({})).toBe(11);
    await again.close();
  });
});

describe("permissions", () => {
  it("a new data directory is 0700 and its files 0600", async () => {
    const dir = path.join(freshDir(), "nested", "data");
    const db = await open(dir);
    await (await db.collection("things")).insertOne({ _id: "a" });
    await db.close(); // writes a snapshot too
    expect(fs.statSync(dir).mode & 0o777).toBe(0o700);
    const names = fs.readdirSync(dir);
    expect(names.some((n) => n.endsWith(".snap"))).toBe(true);
    for (const name of names) expect([name, fs.statSync(path.join(dir, name)).mode & 0o777]).toEqual([name, 0o600]);
  });

  it("an existing 0755 directory with 0644 files is tightened at start, and each change logged", async () => {
    const dir = freshDir();
    const db = await open(dir);
    await (await db.collection("things")).insertOne({ _id: "a" });
    await db.close();
    fs.chmodSync(dir, 0o755);
    for (const name of fs.readdirSync(dir)) fs.chmodSync(path.join(dir, name), 0o644);
    fs.writeFileSync(path.join(dir, "bootstrap-keys.json"), "{}", { mode: 0o644 });
    const { log, entries } = capture();
    const again = await open(dir, { log });
    await again.close();
    expect(fs.statSync(dir).mode & 0o777).toBe(0o700);
    expect(fs.statSync(path.join(dir, "bootstrap-keys.json")).mode & 0o777).toBe(0o600);
    expect(entries).toContainEqual({ level: "info", fields: { path: dir, from: "755", to: "700" }, message: "data directory permissions tightened" });
    expect(entries).toContainEqual(expect.objectContaining({ fields: { path: path.join(dir, "bootstrap-keys.json"), from: "644", to: "600" } }));
  });
});
