// The append-only journal: group commit on the write side, torn-tail and
// corruption handling on the read side.
//
// Durability contract (docs/storage.md#writes-and-durability): a write's promise resolves only
// after the write(2) of its record and an fdatasync(2) of the segment returned.
// Records appended while a flush is in flight ride the next flush, so 64
// concurrent writers share one fdatasync instead of queueing 64 of them.
//
// A failed write or fdatasync (EIO, ENOSPC, ...) is final: the pending and all
// later writes are rejected and the journal accepts nothing more. Retrying an
// fsync after a failure can report success for pages the kernel already
// dropped (the PostgreSQL "fsyncgate" lesson), so the process must restart and
// recover from what is really on disk.
//
// Segments are preallocated (docs/storage.md#journal-segments): a segment is created, under a
// temporary name, with its start record and its full size, fsynced and renamed into place, so
// the size a segment was created with is on disk before anything in it is acknowledged. A crash
// never shortens a file, so a segment shorter than the size its start record names was
// truncated: acknowledged writes may be gone, and recovery refuses to start instead of
// replaying what is left.

import fs from "node:fs";
import path from "node:path";
import { StorageUnavailableError } from "../collection.js";
import { FILE_MODE, fileName, type RecordFiles, type RecordLocation, type StorageLog } from "./files.js";
import { crc32 } from "node:zlib";
import { checkFrame, decodeBody, decodeRecord, encodeRecord, HEADER_BYTES, OP_SEGMENT_START, type DecodedRecord } from "./record.js";

/** Default size of a journal segment. Sparse where the file system allows it: unwritten space takes no disk. */
export const DEFAULT_SEGMENT_BYTES = 64 * 1024 * 1024;
const SEGMENT_ROUNDING = 1024 * 1024;

/** Body of a segment's start record. `capacity` is absent in segments written before preallocation. */
export interface SegmentStart {
  previous: number;
  capacity?: number;
}

/** Where the next segments come from: their numbers and their size. */
export interface SegmentSource {
  next(): number;
  bytes: number;
}

/** The system calls the journal makes, replaceable in tests (full disk, failing fsync). */
export interface JournalIo {
  write(fd: number, buf: Buffer, offset: number, length: number, position: number): Promise<number>;
  fdatasync(fd: number): Promise<void>;
  fsyncDir(dir: string): Promise<void>;
}

export const nodeJournalIo: JournalIo = {
  write: (fd, buf, offset, length, position) =>
    new Promise((resolve, reject) => fs.write(fd, buf, offset, length, position, (err, n) => (err ? reject(err) : resolve(n)))),
  fdatasync: (fd) => new Promise((resolve, reject) => fs.fdatasync(fd, (err) => (err ? reject(err) : resolve()))),
  fsyncDir: async (dir) => {
    const handle = await fs.promises.open(dir, "r");
    try {
      await handle.sync();
    } finally {
      await handle.close();
    }
  },
};

interface Part {
  file: number;
  fd: number;
  position: number;
  bytes: number;
  records: Buffer[];
  byOffset: Map<number, Buffer>;
}

class Group {
  readonly parts: Part[] = [];
  dirSync = false;
  readonly done: Promise<void>;
  resolve!: () => void;
  reject!: (e: Error) => void;

  constructor() {
    this.done = new Promise<void>((res, rej) => {
      this.resolve = res;
      this.reject = rej;
    });
    // Callers await `done`; this only keeps an unawaited failure from crashing the process.
    this.done.catch(() => undefined);
  }

  /** A group with no records still has work when a new segment's name must reach the disk. */
  get empty(): boolean {
    return this.parts.length === 0 && !this.dirSync;
  }
}

export class Journal {
  private current = new Group();
  private inflight: Group | undefined;
  private scheduled = false;
  private failure: StorageUnavailableError | undefined;
  private fd: number;

  constructor(
    private readonly dir: string,
    private readonly files: RecordFiles,
    private readonly io: JournalIo,
    /** Number of the segment being appended to. */
    public segment: number,
    fd: number,
    /** Bytes in the current segment, including records not yet written. */
    public size: number,
    /** Size the current segment was created with; a record that does not fit goes to a new segment. */
    private capacity: number,
    private readonly source: SegmentSource,
    private readonly log: StorageLog,
  ) {
    this.fd = fd;
    files.pending = (file, off) => this.pendingRecord(file, off);
    files.setUsed(segment, size);
  }

  /** Creates segment `no` after `previous`; the directory is synced before any record in it is acknowledged. */
  static create(dir: string, files: RecordFiles, io: JournalIo, no: number, previous: number, source: SegmentSource, log: StorageLog): Journal {
    const { fd, size, capacity } = createSegment(dir, no, previous, source.bytes);
    files.register(no, "journal", fd);
    const journal = new Journal(dir, files, io, no, fd, size, capacity, source, log);
    journal.current.dirSync = true;
    journal.schedule();
    return journal;
  }

  get failed(): StorageUnavailableError | undefined {
    return this.failure;
  }

  /** Queues a record; throws once the journal has failed. Durable when `durable()` resolves. */
  append(rec: Buffer): RecordLocation {
    if (this.failure) throw this.failure;
    if (this.size + rec.length > this.capacity) this.rotate(this.source.next(), rec.length);
    const group = this.current;
    let part = group.parts[group.parts.length - 1];
    if (!part || part.file !== this.segment) {
      part = { file: this.segment, fd: this.fd, position: this.size, bytes: 0, records: [], byOffset: new Map() };
      group.parts.push(part);
    }
    const loc = { file: this.segment, off: this.size, len: rec.length };
    part.records.push(rec);
    part.byOffset.set(loc.off, rec);
    part.bytes += rec.length;
    this.size += rec.length;
    this.files.setUsed(this.segment, this.size);
    this.schedule();
    return loc;
  }

  /** Resolves when every record appended so far is on disk. */
  durable(): Promise<void> {
    if (this.failure && this.current.empty && !this.inflight) return Promise.reject(this.failure);
    if (!this.current.empty) return this.current.done;
    if (this.inflight) return this.inflight.done;
    return Promise.resolve();
  }

  /** Starts segment `no` (large enough for a first record of `need` bytes); later appends go there. */
  rotate(no: number, need = 0): void {
    if (this.failure) throw this.failure;
    let created: { fd: number; size: number; capacity: number };
    try {
      created = createSegment(this.dir, no, this.segment, this.source.bytes, need);
    } catch (e) {
      throw this.fail(e, path.join(this.dir, fileName("journal", no)));
    }
    this.files.register(no, "journal", created.fd);
    this.segment = no;
    this.fd = created.fd;
    this.size = created.size;
    this.capacity = created.capacity;
    this.files.setUsed(no, created.size);
    this.current.dirSync = true;
    this.schedule();
  }

  private pendingRecord(file: number, off: number): Buffer | undefined {
    for (const group of [this.inflight, this.current]) {
      if (!group) continue;
      for (const part of group.parts) {
        if (part.file === file) {
          const rec = part.byOffset.get(off);
          if (rec) return rec;
        }
      }
    }
    return undefined;
  }

  private schedule(): void {
    if (this.scheduled || this.inflight) return;
    this.scheduled = true;
    // setImmediate, not nextTick: writers woken by the previous flush get to
    // append before this one starts, which is what makes the groups large.
    setImmediate(() => void this.flush());
  }

  private async flush(): Promise<void> {
    this.scheduled = false;
    const group = this.current;
    if (group.empty) return;
    this.current = new Group();
    this.inflight = group;
    let file = path.join(this.dir, fileName("journal", group.parts[0]?.file ?? this.segment));
    try {
      // One segment after the other, each synced before the next is written: a record found in
      // a later segment then proves every earlier one complete, which is what lets recovery tell
      // an interrupted rotation from damage.
      for (const part of group.parts) {
        file = path.join(this.dir, fileName("journal", part.file));
        await this.writeAll(part);
        await this.io.fdatasync(part.fd);
      }
      file = this.dir;
      if (group.dirSync) await this.io.fsyncDir(this.dir);
      group.resolve();
    } catch (e) {
      const failure = this.fail(e, file);
      group.reject(failure);
      this.current.reject(failure);
    } finally {
      this.inflight = undefined;
      if (!this.failure && !this.current.empty) this.schedule();
    }
  }

  /** Stops the journal for good, logging the cause once: every later call answers 503 because of it. */
  private fail(e: unknown, file: string): StorageUnavailableError {
    if (this.failure) return this.failure;
    const err = e as NodeJS.ErrnoException;
    this.failure = new StorageUnavailableError(
      `embedded storage stopped: writing ${file} failed (${err.code ?? err.message}). ` +
        "Writes acknowledged before this are on disk; nothing else will be acknowledged. " +
        "Fix the cause (disk full? I/O error?) and restart the process.",
      { cause: e },
    );
    this.log.error(
      { code: err.code ?? null, errno: err.errno ?? null, syscall: err.syscall ?? null, path: file, err: err.message },
      "embedded storage stopped: a journal write failed; every request needing storage answers 503 until a restart",
    );
    return this.failure;
  }

  private async writeAll(part: Part): Promise<void> {
    const buf = part.records.length === 1 ? part.records[0] : Buffer.concat(part.records, part.bytes);
    let done = 0;
    while (done < buf.length) {
      const n = await this.io.write(part.fd, buf, done, buf.length - done, part.position + done);
      if (n <= 0) throw Object.assign(new Error("write returned 0 bytes"), { code: "EIO" });
      done += n;
    }
  }
}

/** A journal problem recovery must not paper over: names the file and byte offset. */
export class CorruptJournalError extends Error {
  constructor(
    readonly file: string,
    readonly offset: number,
    readonly reason: string,
    advice = "restore the data directory from a backup",
  ) {
    super(`journal ${file} is corrupt at byte offset ${offset} (${reason}), so this is not an interrupted write. Refusing to start: ${advice}.`);
    this.name = "CorruptJournalError";
  }
}

export interface ScanResult {
  /** Offset after the last valid record. */
  end: number;
  /** Bytes of a torn last record (0 when the records ended cleanly). */
  tornBytes: number;
}

/**
 * Walks the records of one segment. A bad record with nothing valid after it in the file is
 * a torn tail from an interrupted write when part of it never reached the disk, reported for
 * the caller to judge (recovery.ts: only where nothing acknowledged can follow it). A bad
 * record written whole (its checksum fails on bytes that are all there), or one with a valid
 * record after it, is corruption. In a preallocated segment the records end where zeros begin.
 */
export function scanSegment(file: string, buf: Buffer, preallocated: boolean, onRecord: (rec: DecodedRecord, off: number, len: number) => void): ScanResult {
  let off = 0;
  while (off < buf.length) {
    const check = checkFrame(buf, off);
    if (!check.ok) {
      const dataEnd = preallocated ? lastNonZero(buf, off) + 1 : buf.length;
      if (dataEnd <= off) return { end: off, tornBytes: 0 };
      if (validRecordAfter(buf, off, dataEnd)) throw new CorruptJournalError(file, off, `${check.reason}, and valid records follow`);
      if (!(check.incomplete && !preallocated) && writtenWhole(buf, off, dataEnd)) {
        throw new CorruptJournalError(
          file,
          off,
          `${check.reason} in the last record, which is complete on disk (no part of it is missing, as an interrupted write leaves it): ` +
            "it was written whole and may have been acknowledged, so its data is damaged",
        );
      }
      return { end: off, tornBytes: dataEnd - off };
    }
    const rec = decodeRecord(buf.subarray(off, off + check.length));
    try {
      onRecord(rec, off, check.length);
    } catch (e) {
      if (e instanceof CorruptJournalError) throw e;
      throw new CorruptJournalError(file, off, `record passed its checksum but could not be applied: ${(e as Error).message}`);
    }
    off += check.length;
  }
  return { end: off, tornBytes: 0 };
}

/**
 * Unit in which a write reaches the disk: a crash or a kill mid-write leaves whole sectors (or
 * pages, which are whole sectors) of it unwritten, and unwritten space in a preallocated segment
 * reads as zeros.
 */
const SECTOR_BYTES = 512;
const zeroSector = Buffer.alloc(SECTOR_BYTES);

/**
 * Whether the failing record at `off` is all on disk, so that its failure is damage and not an
 * interrupted write (docs/storage.md#start-up). Torn, it is missing a piece: its declared end lies
 * past the written bytes (the write stopped), or a sector's share of it reads as zeros (pages
 * reach the disk in any order). Whole, its bytes are all there and still fail: a flipped bit,
 * or a damaged length field, which the checksum over the bytes actually written then confirms.
 * A record's last bytes are never zeros in practice (V8 serialization ends with a count or a
 * length), so the written bytes end where the record does.
 */
function writtenWhole(buf: Buffer, off: number, dataEnd: number): boolean {
  const whole = dataEnd - off >= HEADER_BYTES ? off + HEADER_BYTES + buf.readUInt32LE(off) : Infinity;
  if (whole > dataEnd) {
    // The length may be the damaged part: then the payload that is there still matches the checksum.
    return dataEnd - off > HEADER_BYTES + 3 && crc32(buf.subarray(off + HEADER_BYTES, dataEnd)) === buf.readUInt32LE(off + 4);
  }
  for (let sector = off - (off % SECTOR_BYTES); sector < whole; sector += SECTOR_BYTES) {
    const from = Math.max(sector, off);
    const to = Math.min(sector + SECTOR_BYTES, whole);
    if (buf.compare(zeroSector, 0, to - from, from, to) === 0) return false;
  }
  return true;
}

/** Index of the last non-zero byte at or after `from`, or from - 1. Compares natively, 64 KiB at a time. */
function lastNonZero(buf: Buffer, from: number): number {
  const zeros = Buffer.alloc(64 * 1024);
  let end = buf.length;
  while (end > from) {
    const start = Math.max(from, end - zeros.length);
    if (buf.compare(zeros, 0, end - start, start, end) !== 0) {
      for (let i = end - 1; i >= start; i--) if (buf[i] !== 0) return i;
    }
    end = start;
  }
  return from - 1;
}

/** Whether a valid record starts after `bad` and before `limit` (where the written bytes end). */
function validRecordAfter(buf: Buffer, bad: number, limit: number): boolean {
  // The declared length usually survives a flipped payload byte: try that boundary first.
  if (limit - bad >= HEADER_BYTES) {
    const next = bad + HEADER_BYTES + buf.readUInt32LE(bad);
    if (next < limit && checkFrame(buf, next).ok) return true;
  }
  for (let off = bad + 1; off + HEADER_BYTES < limit; off++) {
    if (checkFrame(buf, off).ok) return true;
  }
  return false;
}

/** The first frame of a segment, decoded, or undefined when the file does not start with a valid start record. */
export function segmentStartOf(buf: Buffer): SegmentStart | undefined {
  const check = checkFrame(buf, 0);
  if (!check.ok) return undefined;
  const rec = decodeRecord(buf.subarray(0, check.length));
  if (rec.op !== OP_SEGMENT_START) return undefined;
  return decodeBody<SegmentStart>(rec.body);
}

/**
 * The file naming the newest journal segment. Each segment names the one before it, so a
 * missing segment in the chain is found, but nothing named the newest one: deleted, it left a
 * directory that looked complete one segment earlier (or empty), and its writes were lost
 * without a word. With the head, start-up finds it missing (docs/storage.md#journal-segments).
 */
export const HEAD_FILE = "journal-head";

/** Content of the head file: the newest segment and the one before it (0: none). */
export interface JournalHead {
  segment: number;
  previous: number;
}

/** The head file's content; undefined when there is none (a directory of an earlier version) or it cannot be read. */
export function readHead(dir: string): JournalHead | undefined {
  let text: string;
  try {
    text = fs.readFileSync(path.join(dir, HEAD_FILE), "utf8");
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw e;
  }
  try {
    const head = JSON.parse(text) as Partial<JournalHead>;
    if (Number.isSafeInteger(head.segment) && Number.isSafeInteger(head.previous)) return { segment: head.segment!, previous: head.previous! };
  } catch {
    // Written whole by rename: unreadable content is damage that proves nothing, like no head at all.
  }
  return undefined;
}

/**
 * Replaces the head file (write, fsync, rename). Written after the segment it names is in
 * place, so a crash in between leaves a head naming an older segment, never a missing one.
 */
export function writeHead(dir: string, head: JournalHead): void {
  const file = path.join(dir, HEAD_FILE);
  const tmp = `${file}.tmp`;
  const fd = fs.openSync(tmp, "w", FILE_MODE);
  try {
    fs.writeSync(fd, JSON.stringify(head));
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
  fs.renameSync(tmp, file);
}

function fsyncDirSync(dir: string): void {
  const fd = fs.openSync(dir, "r");
  try {
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
}

/**
 * Creates journal segment `no` complete: start record written and full size set under a
 * temporary name, fsynced, then renamed into place, and named in the head file. Returns the
 * open descriptor (read-write).
 */
function createSegment(dir: string, no: number, previous: number, bytes: number, need = 0): { fd: number; size: number; capacity: number } {
  // 64 bytes bound the start record, whose encoded size depends on the numbers in it.
  const capacity = Math.max(bytes, Math.ceil((need + 64) / SEGMENT_ROUNDING) * SEGMENT_ROUNDING);
  const start = encodeRecord(OP_SEGMENT_START, "", { previous, capacity } satisfies SegmentStart);
  const file = path.join(dir, fileName("journal", no));
  const tmp = `${file}.tmp`;
  const fd = fs.openSync(tmp, "w+", FILE_MODE);
  try {
    let done = 0;
    while (done < start.length) done += fs.writeSync(fd, start, done, start.length - done, done);
    fs.ftruncateSync(fd, capacity);
    fs.fsyncSync(fd);
    fs.renameSync(tmp, file);
    // The segment's name on disk before the head names it; the group commit's directory fsync then makes the head durable.
    fsyncDirSync(dir);
    writeHead(dir, { segment: no, previous });
  } catch (e) {
    fs.closeSync(fd);
    fs.rmSync(tmp, { force: true });
    throw e;
  }
  return { fd, size: start.length, capacity };
}
