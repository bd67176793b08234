// Names of the files in a data directory, and positional reads of stored records.
//
//   LOCK                    owner pid, host and heartbeat (lock.ts)
//   snapshot-NNNNNNNN.snap  full state as of a journal position (snapshot.ts)
//   journal-NNNNNNNN.log    journal segments; the ones the snapshot does not cover are replayed
//   journal-head            the newest segment, so that its deletion is noticed (journal.ts)
//   data-NNNNNNNN.log       time-series records copied out of sparse segments by compaction
//
// Journal and data files share one number sequence, so a record's location is
// (file number, offset, length) whatever kind of file holds it.

import fs from "node:fs";
import path from "node:path";
import { checkFrame, decodeRecord, type DecodedRecord } from "./record.js";

export type FileKind = "journal" | "data" | "snapshot";

/** The data directory holds screened content and PII: only the service's user may read it. */
const DIR_MODE = 0o700;
export const FILE_MODE = 0o600;

/** What the engine logs (a pino logger fits). */
export interface StorageLog {
  info(fields: object, message: string): void;
  warn(fields: object, message: string): void;
  error(fields: object, message: string): void;
}

/** Without a logger: problems to stderr, routine notes nowhere. */
export const consoleStorageLog: StorageLog = {
  info: () => undefined,
  warn: (fields, message) => console.warn(`parapet storage: ${message}`, fields),
  error: (fields, message) => console.error(`parapet storage: ${message}`, fields),
};

/**
 * Creates the data directory 0700 and tightens one made by an earlier version (0755, files
 * 0644), logging what changed. A file it cannot change (another owner) is logged, not fatal.
 */
export function secureDirectory(dir: string, log: StorageLog): void {
  fs.mkdirSync(dir, { recursive: true, mode: DIR_MODE });
  const tighten = (p: string, mode: number) => {
    const before = fs.statSync(p).mode & 0o777;
    if ((before & ~mode) === 0) return;
    try {
      fs.chmodSync(p, before & mode);
      log.info({ path: p, from: before.toString(8), to: (before & mode).toString(8) }, "data directory permissions tightened");
    } catch (e) {
      log.warn({ path: p, mode: before.toString(8), code: (e as NodeJS.ErrnoException).code }, "could not tighten permissions in the data directory");
    }
  };
  tighten(dir, DIR_MODE);
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    if (entry.isFile()) tighten(path.join(dir, entry.name), FILE_MODE);
  }
}

const PATTERN = /^(journal|data|snapshot)-(\d{8,})\.(log|snap)$/;

export function fileName(kind: FileKind, no: number): string {
  const digits = String(no).padStart(8, "0");
  return kind === "snapshot" ? `snapshot-${digits}.snap` : `${kind}-${digits}.log`;
}

export function parseFileName(name: string): { kind: FileKind; no: number } | undefined {
  const m = PATTERN.exec(name);
  if (!m) return undefined;
  const kind = m[1] as FileKind;
  if ((kind === "snapshot") !== (m[3] === "snap")) return undefined;
  return { kind, no: Number(m[2]) };
}

/** Makes renames, creations and deletions in dir durable (a file's own fsync does not). */
export async function fsyncDir(dir: string): Promise<void> {
  const handle = await fs.promises.open(dir, "r");
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

export interface RecordLocation {
  file: number;
  off: number;
  len: number;
}

/** Raised when a stored record fails its checksum when read back. */
class CorruptRecordError extends Error {
  constructor(
    readonly file: string,
    readonly offset: number,
    reason: string,
  ) {
    super(`corrupt record in ${file} at byte offset ${offset}: ${reason}`);
    this.name = "CorruptRecordError";
  }
}

/**
 * Open read handles on journal and data files. Reads are synchronous on
 * purpose: a query then runs in one turn of the event loop, so compaction can
 * never close or delete a file between finding a row and reading it.
 */
export class RecordFiles {
  private readonly fds = new Map<number, { fd: number; kind: FileKind }>();
  /** Bytes of records in a journal segment (its file is preallocated, so its size says nothing). */
  private readonly used = new Map<number, number>();
  /** Records appended but not yet written out, served from memory (journal.ts). */
  pending: (file: number, off: number) => Buffer | undefined = () => undefined;

  constructor(readonly dir: string) {}

  pathOf(no: number, kind?: FileKind): string {
    return path.join(this.dir, fileName(kind ?? this.fds.get(no)?.kind ?? "journal", no));
  }

  /** Registers a file this object may read; fd is opened lazily when omitted. */
  register(no: number, kind: FileKind, fd = -1): void {
    this.fds.set(no, { fd, kind });
  }

  setUsed(no: number, bytes: number): void {
    this.used.set(no, bytes);
  }

  /** Bytes in use in file `no`: the records of a journal segment, the size of other files. */
  usedBytes(no: number): number {
    return this.used.get(no) ?? fs.statSync(this.pathOf(no)).size;
  }

  has(no: number): boolean {
    return this.fds.has(no);
  }

  kindOf(no: number): FileKind | undefined {
    return this.fds.get(no)?.kind;
  }

  numbers(): number[] {
    return [...this.fds.keys()];
  }

  read(loc: RecordLocation): DecodedRecord {
    const pending = this.pending(loc.file, loc.off);
    const buf = pending ?? this.readRaw(loc);
    const check = checkFrame(buf, 0);
    if (!check.ok || check.length !== loc.len) {
      throw new CorruptRecordError(this.pathOf(loc.file), loc.off, check.ok ? "length differs from the index" : check.reason);
    }
    return decodeRecord(buf);
  }

  readRaw(loc: RecordLocation): Buffer {
    const entry = this.fds.get(loc.file);
    if (!entry) throw new Error(`record file ${loc.file} is not open (internal error)`);
    if (entry.fd < 0) entry.fd = fs.openSync(this.pathOf(loc.file, entry.kind), "r");
    const buf = Buffer.allocUnsafe(loc.len);
    let done = 0;
    while (done < loc.len) {
      const n = fs.readSync(entry.fd, buf, done, loc.len - done, loc.off + done);
      if (n === 0) throw new CorruptRecordError(this.pathOf(loc.file), loc.off, "file ends inside the record");
      done += n;
    }
    return buf;
  }

  /** Closes and deletes a file nothing references any more. */
  remove(no: number): void {
    const entry = this.fds.get(no);
    if (!entry) return;
    this.fds.delete(no);
    this.used.delete(no);
    if (entry.fd >= 0) fs.closeSync(entry.fd);
    fs.rmSync(this.pathOf(no, entry.kind), { force: true });
  }

  closeAll(): void {
    for (const entry of this.fds.values()) if (entry.fd >= 0) fs.closeSync(entry.fd);
    this.fds.clear();
  }
}
