// Space reclamation for time-series records, run by compaction.
//
// Events stay in the journal segment they were written to (no copy on the hot
// path). When expiry or deletes leave a file mostly dead, its live records are
// copied into a new data file and the file is dropped once a snapshot points at
// the copies; a file with no live record left is dropped without copying. Disk
// use thus stays within about 1 / ratio of the live data.

import fs from "node:fs";
import path from "node:path";
import type { DiskCapture } from "./disk-table.js";
import { FILE_MODE, fileName, type RecordFiles, type RecordLocation } from "./files.js";

export interface MovedRow {
  table: string;
  row: number;
  seq: number;
  loc: RecordLocation;
}

export interface Relocation {
  /** The data file written (none when nothing was sparse). */
  file: number | undefined;
  rows: MovedRow[];
}

const BATCH_BYTES = 4 * 1024 * 1024;

/**
 * Copies live records out of sparse files into data file `no`, patching the
 * captures to the new locations. `exclude` is the journal segment being written.
 */
export async function relocateSparseFiles(
  dir: string,
  files: RecordFiles,
  captures: { name: string; capture: DiskCapture }[],
  ratio: number,
  exclude: number,
  no: () => number,
  fsyncDir: (dir: string) => Promise<void>,
): Promise<Relocation> {
  const live = new Map<number, number>();
  for (const { capture: c } of captures) {
    for (let r = 0; r < c.rows; r++) if (c.alive[r] === 1) live.set(c.file[r], (live.get(c.file[r]) ?? 0) + c.len[r]);
  }
  const sparse = new Set<number>();
  for (const [file, bytes] of live) {
    if (file === exclude) continue;
    const size = files.usedBytes(file);
    if (size > 0 && bytes / size < ratio) sparse.add(file);
  }
  if (sparse.size === 0) return { file: undefined, rows: [] };

  const target = no();
  const handle = await fs.promises.open(path.join(dir, fileName("data", target)), "wx", FILE_MODE);
  files.register(target, "data");
  const rows: MovedRow[] = [];
  let position = 0;
  let batch: Buffer[] = [];
  let batchBytes = 0;
  const flush = async () => {
    const buf = Buffer.concat(batch, batchBytes);
    let done = 0;
    while (done < buf.length) done += (await handle.write(buf, done, buf.length - done, position + done)).bytesWritten;
    position += buf.length;
    batch = [];
    batchBytes = 0;
  };
  try {
    for (const { name, capture: c } of captures) {
      for (let r = 0; r < c.rows; r++) {
        if (c.alive[r] !== 1 || !sparse.has(c.file[r])) continue;
        const raw = files.readRaw({ file: c.file[r], off: c.off[r], len: c.len[r] });
        const loc = { file: target, off: position + batchBytes, len: raw.length };
        batch.push(raw);
        batchBytes += raw.length;
        c.file[r] = loc.file;
        c.off[r] = loc.off;
        rows.push({ table: name, row: r, seq: c.seq[r], loc });
        if (batchBytes >= BATCH_BYTES) await flush();
      }
    }
    if (batchBytes > 0) await flush();
    await handle.sync();
  } catch (e) {
    await handle.close().catch(() => undefined);
    files.remove(target);
    throw e;
  }
  await handle.close();
  await fsyncDir(dir);
  return { file: target, rows };
}
