// Snapshot files: the whole state as of a journal position, written atomically.
//
//   "PRPTSNAP" | u32 format version | u32 CRC-32 of body | u64 body length | body (V8 serialization)
//
// Written to a temporary name, fsynced, renamed over, then the directory is
// fsynced: after a crash either the old or the new snapshot is complete, never
// a mix. Only then may the journal segments it covers be deleted.

import fs from "node:fs";
import path from "node:path";
import v8 from "node:v8";
import { crc32 } from "node:zlib";
import { FILE_MODE, fileName, fsyncDir } from "./files.js";

const MAGIC = Buffer.from("PRPTSNAP");
const FORMAT_VERSION = 1;
const HEADER_BYTES = 24;

class CorruptSnapshotError extends Error {
  constructor(
    readonly file: string,
    reason: string,
  ) {
    super(
      `snapshot ${file} is unreadable (${reason}). It was complete when renamed into place, so the disk or ` +
        "something outside Parapet changed it. Refusing to start: restore the data directory from a backup.",
    );
    this.name = "CorruptSnapshotError";
  }
}

export async function writeSnapshot(dir: string, no: number, state: unknown): Promise<{ file: string; bytes: number }> {
  const body = v8.serialize(state);
  const header = Buffer.alloc(HEADER_BYTES);
  MAGIC.copy(header, 0);
  header.writeUInt32LE(FORMAT_VERSION, 8);
  header.writeUInt32LE(crc32(body), 12);
  header.writeBigUInt64LE(BigInt(body.length), 16);
  const file = path.join(dir, fileName("snapshot", no));
  const tmp = `${file}.tmp`;
  const handle = await fs.promises.open(tmp, "w", FILE_MODE);
  try {
    await writeFully(handle, header, 0);
    await writeFully(handle, body, HEADER_BYTES);
    await handle.sync();
  } catch (e) {
    await handle.close().catch(() => undefined);
    await fs.promises.rm(tmp, { force: true });
    throw e;
  }
  await handle.close();
  await fs.promises.rename(tmp, file);
  await fsyncDir(dir);
  return { file, bytes: HEADER_BYTES + body.length };
}

async function writeFully(handle: fs.promises.FileHandle, buf: Buffer, position: number): Promise<void> {
  let done = 0;
  while (done < buf.length) {
    const { bytesWritten } = await handle.write(buf, done, buf.length - done, position + done);
    if (bytesWritten <= 0) throw new Error("write returned 0 bytes");
    done += bytesWritten;
  }
}

export function readSnapshot<T>(file: string): T {
  const buf = fs.readFileSync(file);
  if (buf.length < HEADER_BYTES || !buf.subarray(0, 8).equals(MAGIC)) throw new CorruptSnapshotError(file, "bad header");
  const version = buf.readUInt32LE(8);
  if (version !== FORMAT_VERSION) throw new CorruptSnapshotError(file, `unsupported format version ${version}`);
  const length = Number(buf.readBigUInt64LE(16));
  if (HEADER_BYTES + length !== buf.length) throw new CorruptSnapshotError(file, `length ${length} does not match the file size`);
  const body = buf.subarray(HEADER_BYTES);
  if (crc32(body) !== buf.readUInt32LE(12)) throw new CorruptSnapshotError(file, "checksum mismatch");
  return v8.deserialize(body) as T;
}
