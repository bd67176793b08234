// Names of the files in a data directory, and positional reads of stored records.
//
//   LOCK                    owner pid, host and heartbeat (lock.ts)
//   snapshot-NNNNNNNN.snap  full state as of a journal position (snapshot.ts)
//   journal-NNNNNNNN.log    journal segments; the ones the snapshot does not cover are replayed
//   data-NNNNNNNN.log       time-series records copied out of sparse segments by compaction
//
// Journal and data files share one number sequence, so a record's location is
// (file number, offset, length) whatever kind of file holds it.

import fs from "node:fs";
import path from "node:path";
import { checkFrame, decodeRecord, type DecodedRecord } from "./record.js";

export type FileKind = "journal" | "data" | "snapshot";

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
    if (entry.fd >= 0) fs.closeSync(entry.fd);
    fs.rmSync(this.pathOf(no, entry.kind), { force: true });
  }

  closeAll(): void {
    for (const entry of this.fds.values()) if (entry.fd >= 0) fs.closeSync(entry.fd);
    this.fds.clear();
  }
}
