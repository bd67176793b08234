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

import fs from "node:fs";
import path from "node:path";
import { StorageUnavailableError } from "../collection.js";
import { fileName, type RecordFiles, type RecordLocation } from "./files.js";
import { checkFrame, decodeRecord, encodeRecord, HEADER_BYTES, OP_SEGMENT_START, type DecodedRecord } from "./record.js";

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

  get empty(): boolean {
    return this.parts.length === 0;
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
  ) {
    this.fd = fd;
    files.pending = (file, off) => this.pendingRecord(file, off);
  }

  /** Creates segment `no` and appends its start record; the directory is synced before any record in it is acknowledged. */
  static create(dir: string, files: RecordFiles, io: JournalIo, no: number, previous: number, overwrite = false): Journal {
    const fd = fs.openSync(path.join(dir, fileName("journal", no)), overwrite ? "w+" : "wx+");
    files.register(no, "journal", fd);
    const journal = new Journal(dir, files, io, no, fd, 0);
    journal.current.dirSync = true;
    journal.append(encodeRecord(OP_SEGMENT_START, "", { previous }));
    return journal;
  }

  get failed(): StorageUnavailableError | undefined {
    return this.failure;
  }

  /** Queues a record; throws once the journal has failed. Durable when `durable()` resolves. */
  append(rec: Buffer): RecordLocation {
    if (this.failure) throw this.failure;
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

  /** Starts segment `no`; later appends go there. */
  rotate(no: number): void {
    if (this.failure) throw this.failure;
    const previous = this.segment;
    const fd = fs.openSync(path.join(this.dir, fileName("journal", no)), "wx+");
    this.files.register(no, "journal", fd);
    this.segment = no;
    this.fd = fd;
    this.size = 0;
    this.current.dirSync = true;
    this.append(encodeRecord(OP_SEGMENT_START, "", { previous }));
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
    try {
      for (const part of group.parts) await this.writeAll(part);
      for (const part of group.parts) await this.io.fdatasync(part.fd);
      if (group.dirSync) await this.io.fsyncDir(this.dir);
      group.resolve();
    } catch (e) {
      const err = e as NodeJS.ErrnoException;
      const file = path.join(this.dir, fileName("journal", group.parts[0]?.file ?? this.segment));
      this.failure = new StorageUnavailableError(
        `embedded storage stopped: writing ${file} failed (${err.code ?? err.message}). ` +
          "Writes acknowledged before this are on disk; nothing else will be acknowledged. " +
          "Fix the cause (disk full? I/O error?) and restart the process.",
        { cause: e },
      );
      group.reject(this.failure);
      this.current.reject(this.failure);
    } finally {
      this.inflight = undefined;
      if (!this.failure && !this.current.empty) this.schedule();
    }
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
    reason: string,
  ) {
    super(
      `journal ${file} is corrupt at byte offset ${offset} (${reason}) and valid records follow, ` +
        "so this is not an interrupted write. Refusing to start: restore the data directory from a backup, " +
        "or, accepting the loss of everything from that offset on, truncate the file to that length.",
    );
    this.name = "CorruptJournalError";
  }
}

export interface ScanResult {
  /** Offset after the last valid record. */
  end: number;
  /** Bytes of a torn last record (0 when the file ended cleanly). */
  tornBytes: number;
}

/**
 * Walks the records of one segment. A bad record with nothing valid after it is
 * a torn tail from an interrupted write: it is reported for truncation (only
 * allowed in the last segment; earlier ones were fsynced before the next was
 * created). A bad record with a valid record after it is corruption.
 */
export function scanSegment(file: string, buf: Buffer, isLast: boolean, onRecord: (rec: DecodedRecord, off: number, len: number) => void): ScanResult {
  let off = 0;
  while (off < buf.length) {
    const check = checkFrame(buf, off);
    if (!check.ok) {
      if (!isLast || validRecordAfter(buf, off)) throw new CorruptJournalError(file, off, check.reason);
      return { end: off, tornBytes: buf.length - off };
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

function validRecordAfter(buf: Buffer, bad: number): boolean {
  // The declared length usually survives a flipped payload byte: try that boundary first.
  if (buf.length - bad >= HEADER_BYTES) {
    const next = bad + HEADER_BYTES + buf.readUInt32LE(bad);
    if (next < buf.length && checkFrame(buf, next).ok) return true;
  }
  for (let off = bad + 1; off + HEADER_BYTES < buf.length; off++) {
    if (checkFrame(buf, off).ok) return true;
  }
  return false;
}
