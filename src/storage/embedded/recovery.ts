// Start-up: the newest snapshot, then the journal segments after it, checked
// link by link so that a missing segment or a damaged record stops start-up
// instead of silently losing acknowledged writes. Only a torn last record of
// the last segment (an interrupted write) is cut off.

import fs from "node:fs";
import path from "node:path";
import type { CollectionOptions, Doc, IndexSpec } from "../collection.js";
import type { DirectoryPosition } from "./compaction.js";
import { fileName, parseFileName, type FileKind, type RecordFiles, type RecordLocation } from "./files.js";
import { CorruptJournalError, Journal, scanSegment, type JournalIo } from "./journal.js";
import type { Table } from "./query.js";
import { decodeBody, OP_CREATE_COLLECTION, OP_CREATE_INDEX, OP_DELETE, OP_PUT, OP_SEGMENT_START, OP_SET_OPTIONS, OP_TS_DELETE, type DecodedRecord } from "./record.js";
import { readSnapshot } from "./snapshot.js";
import { decodeDiskRows, type SnapshotState } from "./state.js";

export interface RecoveryReport {
  snapshot: string | null;
  replayedSegments: number;
  replayedRecords: number;
  /** Bytes of a torn last record that were cut off. */
  discardedTailBytes: number;
  durationMs: number;
}

/** The engine's collections, as recovery rebuilds them. */
export interface RecoveryTables {
  has(name: string): boolean;
  tableOrThrow(name: string): Table;
  createTable(name: string, options: CollectionOptions): Table;
}

export interface Recovered {
  /** Open for appending, positioned after the last valid record. */
  journal: Journal;
  position: DirectoryPosition;
  report: RecoveryReport;
}

interface ReplayState {
  previousJournal: number;
  seqMaps: Map<string, Map<number, number>>;
}

/** Loads the data directory into `tables` and reopens its journal. */
export function recoverDirectory(dir: string, files: RecordFiles, io: JournalIo, tables: RecoveryTables): Recovered {
  const started = performance.now();
  const position: DirectoryPosition = { snapshotNo: 0, replayFrom: 0, nextFileNo: 1, replayBytes: 0, lastSnapshotBytes: 0 };
  const entries = fs.readdirSync(dir);
  for (const name of entries) if (name.endsWith(".tmp") && !name.startsWith("LOCK")) fs.rmSync(path.join(dir, name), { force: true });
  const parsed = entries.map((n) => parseFileName(n)).filter((p): p is { kind: FileKind; no: number } => !!p);
  const snapshots = parsed.filter((p) => p.kind === "snapshot").sort((a, b) => b.no - a.no);

  let state: SnapshotState | undefined;
  let snapshotFile: string | null = null;
  if (snapshots.length > 0) {
    snapshotFile = path.join(dir, fileName("snapshot", snapshots[0].no));
    state = readSnapshot<SnapshotState>(snapshotFile);
    position.snapshotNo = snapshots[0].no;
    position.lastSnapshotBytes = fs.statSync(snapshotFile).size;
    loadState(state, snapshotFile, files, tables);
    for (const old of snapshots.slice(1)) fs.rmSync(path.join(dir, fileName("snapshot", old.no)), { force: true });
  }
  position.replayFrom = state?.replayFrom ?? 0;
  const referenced = new Set((state?.files ?? []).map((f) => f.no));
  for (const f of state?.files ?? []) {
    const file = path.join(dir, fileName(f.kind, f.no));
    if (!fs.existsSync(file)) throw new CorruptJournalError(file, 0, `snapshot ${snapshotFile} references this file and it is missing`);
  }

  const journals = parsed.filter((p) => p.kind === "journal" && p.no >= position.replayFrom).sort((a, b) => a.no - b.no);
  if (state && journals[0]?.no !== state.replayFrom) {
    const file = path.join(dir, fileName("journal", state.replayFrom));
    throw new CorruptJournalError(file, 0, `snapshot ${snapshotFile} continues in this journal segment and it is missing`);
  }
  // Without a snapshot the first segment must be the very first one (it follows "journal 0").
  const replay: ReplayState = { previousJournal: state ? -1 : 0, seqMaps: new Map() };
  let replayedRecords = 0;
  let discardedTailBytes = 0;
  let lastEnd = 0;
  journals.forEach((j, i) => {
    const file = path.join(dir, fileName("journal", j.no));
    const isLast = i === journals.length - 1;
    if (!files.has(j.no)) files.register(j.no, "journal");
    let first = true;
    const result = scanSegment(file, fs.readFileSync(file), isLast, (rec, off, len) => {
      if (first) {
        first = false;
        if (rec.op !== OP_SEGMENT_START) throw new CorruptJournalError(file, off, "segment does not begin with its start record");
        const { previous } = decodeBody<{ previous: number }>(rec.body);
        if (replay.previousJournal >= 0 && previous !== replay.previousJournal) {
          throw new CorruptJournalError(
            file,
            off,
            `segment follows journal ${previous}, but the segment before it on disk is ${replay.previousJournal}: a segment is missing`,
          );
        }
        return;
      }
      applyRecord(rec, { file: j.no, off, len }, replay, tables);
      position.replayBytes += len;
      replayedRecords++;
    });
    replay.previousJournal = j.no;
    if (result.tornBytes > 0) {
      discardedTailBytes += result.tornBytes;
      truncateDurably(file, result.end);
    }
    if (isLast) lastEnd = result.end;
  });

  // Left by an interrupted compaction: covered by the snapshot and holding no live record.
  for (const p of parsed) {
    const unneeded = (p.kind === "journal" && p.no < position.replayFrom) || p.kind === "data";
    if (unneeded && !referenced.has(p.no)) fs.rmSync(path.join(dir, fileName(p.kind, p.no)), { force: true });
  }
  position.nextFileNo = Math.max(state?.nextFileNo ?? 1, ...parsed.map((p) => p.no + 1));

  let journal: Journal;
  const last = journals[journals.length - 1];
  if (last && lastEnd > 0) {
    const fd = fs.openSync(path.join(dir, fileName("journal", last.no)), "r+");
    files.register(last.no, "journal", fd);
    journal = new Journal(dir, files, io, last.no, fd, lastEnd);
  } else if (last) {
    // Created but not even its start record survived: start it again under the same number,
    // which the snapshot may name as its continuation.
    const previous = journals.length > 1 ? journals[journals.length - 2].no : 0;
    journal = Journal.create(dir, files, io, last.no, previous, true);
  } else {
    journal = Journal.create(dir, files, io, position.nextFileNo++, 0);
  }
  return {
    journal,
    position,
    report: {
      snapshot: snapshotFile,
      replayedSegments: journals.length,
      replayedRecords,
      discardedTailBytes,
      durationMs: performance.now() - started,
    },
  };
}

function loadState(state: SnapshotState, file: string, files: RecordFiles, tables: RecoveryTables): void {
  if (state.version !== 1) throw new Error(`snapshot ${file}: unsupported state version ${String(state.version)}`);
  for (const f of state.files) files.register(f.no, f.kind);
  for (const c of state.collections) {
    const table = tables.createTable(c.name, c.options);
    if (table.kind === "memory" && c.kind === "memory") {
      for (const spec of c.indexes) table.addIndex(spec);
      for (const doc of c.docs) table.insert(doc);
    } else if (table.kind === "disk" && c.kind === "disk") {
      table.load(c.indexes, decodeDiskRows(c.rows));
    } else {
      throw new Error(`snapshot ${file}: collection ${c.name} has inconsistent kind`);
    }
  }
}

function applyRecord(rec: DecodedRecord, loc: RecordLocation, replay: ReplayState, tables: RecoveryTables): void {
  const name = rec.collection;
  switch (rec.op) {
    case OP_CREATE_COLLECTION:
      if (!tables.has(name)) tables.createTable(name, decodeBody<CollectionOptions>(rec.body));
      return;
    case OP_SET_OPTIONS:
      tables.tableOrThrow(name).options = decodeBody<CollectionOptions>(rec.body);
      return;
    case OP_CREATE_INDEX: {
      const table = tables.tableOrThrow(name);
      const spec = decodeBody<IndexSpec>(rec.body);
      if (!table.indexes.some((i) => i.spec.name === spec.name)) table.addIndex(spec);
      return;
    }
    case OP_PUT: {
      const table = tables.tableOrThrow(name);
      const doc = decodeBody<Doc>(rec.body);
      if (table.kind === "memory") table.put(doc);
      else {
        const seq = table.upcomingSeq;
        const row = table.insert(doc, loc);
        replay.seqMaps.get(name)?.set(seq, row);
      }
      return;
    }
    case OP_DELETE: {
      const table = tables.tableOrThrow(name);
      if (table.kind !== "memory") throw new Error(`delete-by-id record for time-series collection ${name}`);
      for (const id of decodeBody<string[]>(rec.body)) {
        const row = table.rowForId(id);
        if (row !== undefined) table.remove(row);
      }
      return;
    }
    case OP_TS_DELETE: {
      const table = tables.tableOrThrow(name);
      if (table.kind !== "disk") throw new Error(`time-series delete record for collection ${name}`);
      let map = replay.seqMaps.get(name);
      if (!map) {
        map = table.seqMap();
        replay.seqMaps.set(name, map);
      }
      for (const seq of decodeBody<number[]>(rec.body)) {
        const row = map.get(seq);
        if (row !== undefined) {
          table.remove(row);
          map.delete(seq);
        }
      }
      return;
    }
    case OP_SEGMENT_START:
      throw new Error("segment start record in the middle of a segment");
    default:
      throw new Error(`unknown record type ${rec.op}`);
  }
}

function truncateDurably(file: string, length: number): void {
  const fd = fs.openSync(file, "r+");
  try {
    fs.ftruncateSync(fd, length);
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
}
