// Start-up: the newest snapshot, then the journal segments after it, checked
// link by link (and the newest against the head file) so that a missing segment
// or a damaged record stops start-up instead of silently losing acknowledged
// writes. Only a torn last record of the last segment (an interrupted write) is
// cut off; damage in the last segment, or its loss, is accepted only by the
// operator's decision (PARAPET_ACCEPT_JOURNAL_LOSS).

import fs from "node:fs";
import path from "node:path";
import type { CollectionOptions, Doc, IndexSpec } from "../collection.js";
import type { DirectoryPosition } from "./compaction.js";
import { fileName, parseFileName, type FileKind, type RecordFiles, type RecordLocation, type StorageLog } from "./files.js";
import { CorruptJournalError, HEAD_FILE, Journal, readHead, scanSegment, segmentStartOf, writeHead, type JournalIo, type ScanResult } from "./journal.js";
import type { Table } from "./query.js";
import {
  decodeBody,
  OP_CREATE_COLLECTION,
  OP_CREATE_INDEX,
  OP_DELETE,
  OP_DROP_INDEX,
  OP_PUT,
  OP_SEGMENT_START,
  OP_SET_OPTIONS,
  OP_TS_DELETE,
  type DecodedRecord,
} from "./record.js";
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

export interface RecoveryOptions {
  log: StorageLog;
  /** Segment file names whose damage the operator accepted (PARAPET_ACCEPT_JOURNAL_LOSS). */
  acceptLoss: string[];
  /** Size of new journal segments. */
  segmentBytes: number;
}

/** Loads the data directory into `tables` and reopens its journal. */
// eslint-disable-next-line max-lines-per-function -- one ordered procedure (snapshot, every segment, then cuts only once all are read) whose steps share the replay state; split, its ordering rules would be spread over several functions
export function recoverDirectory(dir: string, files: RecordFiles, io: JournalIo, tables: RecoveryTables, options: RecoveryOptions): Recovered {
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
  const lost = lostLastSegment(dir, journals, state && snapshotFile ? { replayFrom: state.replayFrom, file: snapshotFile } : undefined, options);
  // Without a snapshot the first segment must be the very first one (it follows "journal 0").
  const replay: ReplayState = { previousJournal: state ? -1 : 0, seqMaps: new Map() };
  let replayedRecords = 0;
  let discardedTailBytes = 0;
  const cuts: { file: string; end: number; bytes: number; preallocated: boolean }[] = [];
  /** A torn tail in a segment that is not the last: fine only if nothing was written after it. */
  let tornEarlier: { file: string; off: number } | undefined;
  let last: { no: number; end: number; capacity: number | undefined; fresh: boolean; previous: number } | undefined;
  journals.forEach((j, i) => {
    const file = path.join(dir, fileName("journal", j.no));
    // With the newest segment lost, the last one on disk may have been followed by records.
    const isLast = i === journals.length - 1 && !lost;
    const name = fileName("journal", j.no);
    const accepted = isLast && options.acceptLoss.includes(name);
    const advice = lossAdvice(name, isLast);
    if (!files.has(j.no)) files.register(j.no, "journal");
    const buf = fs.readFileSync(file);
    const start = segmentStartOf(buf);
    if (!start) {
      // Segments are created with their start record (journal.ts), so a file without one lost it.
      const reason = `the file is ${buf.length} bytes and does not begin with its segment start record`;
      if (!accepted) throw new CorruptJournalError(file, 0, reason, advice);
      options.log.warn({ file, bytes: buf.length }, "journal segment without its start record: recreated empty, as PARAPET_ACCEPT_JOURNAL_LOSS allows");
      last = { no: j.no, end: 0, capacity: undefined, fresh: true, previous: journals[i - 1]?.no ?? 0 };
      return;
    }
    if (replay.previousJournal >= 0 && start.previous !== replay.previousJournal) {
      throw new CorruptJournalError(
        file,
        0,
        `segment follows journal ${start.previous}, but the segment before it on disk is ${replay.previousJournal}: a segment is missing`,
      );
    }
    const preallocated = start.capacity !== undefined;
    if (preallocated && buf.length < start.capacity!) {
      // A crash never shortens a preallocated segment: this file was truncated after the fact.
      const reason = `the file is ${buf.length} bytes but was created with ${start.capacity}: truncated, and acknowledged writes after byte ${buf.length} may be lost`;
      if (!accepted) throw new CorruptJournalError(file, buf.length, reason, advice);
      options.log.warn(
        { file, bytes: buf.length, created_bytes: start.capacity },
        "truncated journal segment: replaying what is left, as PARAPET_ACCEPT_JOURNAL_LOSS allows",
      );
    }
    let first = true;
    let records = 0;
    let result: ScanResult;
    try {
      result = scanSegment(file, buf, preallocated, (rec, off, len) => {
        if (first) {
          first = false;
          return;
        }
        applyRecord(rec, { file: j.no, off, len }, replay, tables);
        position.replayBytes += len;
        records++;
      });
    } catch (e) {
      if (!(e instanceof CorruptJournalError)) throw e;
      if (!accepted) throw new CorruptJournalError(e.file, e.offset, e.reason, advice);
      // Accepted: everything from the damage on goes, as an operator truncating the file would.
      result = { end: e.offset, tornBytes: buf.length - e.offset };
      options.log.warn({ file, offset: e.offset }, "corrupt journal record: cutting the segment there, as PARAPET_ACCEPT_JOURNAL_LOSS allows");
    }
    if (records > 0 && tornEarlier) {
      throw new CorruptJournalError(
        tornEarlier.file,
        tornEarlier.off,
        `a record there is incomplete and ${file} holds later records`,
        lossAdvice(path.basename(tornEarlier.file), false),
      );
    }
    replayedRecords += records;
    replay.previousJournal = j.no;
    files.setUsed(j.no, result.end);
    if (result.tornBytes > 0) {
      cuts.push({ file, end: result.end, bytes: result.tornBytes, preallocated });
      if (!isLast) tornEarlier ??= { file, off: result.end };
    }
    if (isLast) last = { no: j.no, end: result.end, capacity: start.capacity, fresh: false, previous: start.previous };
  });
  // Only now, with every segment read: a tail is cut once it is known that nothing follows it.
  for (const cut of cuts) {
    cutTail(cut.file, cut.end, cut.bytes, cut.preallocated);
    discardedTailBytes += cut.bytes;
    options.log.warn({ file: cut.file, offset: cut.end, bytes: cut.bytes }, "journal: discarded the torn tail of an interrupted, unacknowledged write");
  }

  // Left by an interrupted compaction: covered by the snapshot and holding no live record.
  for (const p of parsed) {
    const unneeded = (p.kind === "journal" && p.no < position.replayFrom) || p.kind === "data";
    if (unneeded && !referenced.has(p.no)) fs.rmSync(path.join(dir, fileName(p.kind, p.no)), { force: true });
  }
  position.nextFileNo = Math.max(state?.nextFileNo ?? 1, (lost ?? 0) + 1, ...parsed.map((p) => p.no + 1));
  const source = { next: () => position.nextFileNo++, bytes: options.segmentBytes };

  let journal: Journal;
  const tail = last;
  if (lost !== undefined) {
    // Accepted loss of the deleted newest segment: created again, empty, after the last one on disk.
    journal = Journal.create(dir, files, io, lost, journals.at(-1)?.no ?? 0, source, options.log);
  } else if (tail?.fresh) {
    // Accepted loss of the whole segment: start it again under the same number, which the snapshot may name.
    journal = Journal.create(dir, files, io, tail.no, tail.previous, source, options.log);
  } else if (tail && tail.capacity !== undefined) {
    const file = path.join(dir, fileName("journal", tail.no));
    const fd = fs.openSync(file, "r+");
    // After an accepted truncation the segment gets its size back, so the check holds again.
    if (fs.fstatSync(fd).size < tail.capacity) {
      fs.ftruncateSync(fd, tail.capacity);
      fs.fsyncSync(fd);
    }
    files.register(tail.no, "journal", fd);
    journal = new Journal(dir, files, io, tail.no, fd, tail.end, tail.capacity, source, options.log);
    // A directory of an earlier version gets its head now, not only at its next segment.
    if (readHead(dir)?.segment !== tail.no) writeHead(dir, { segment: tail.no, previous: tail.previous });
  } else if (tail) {
    // A segment of the format before preallocation is read, never appended to.
    journal = Journal.create(dir, files, io, source.next(), tail.no, source, options.log);
  } else {
    journal = Journal.create(dir, files, io, source.next(), 0, source, options.log);
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

/**
 * The newest journal segment when it is missing (deleted), for the operator to accept losing:
 * the one the head file names, or the snapshot's own when nothing follows it. Throws when it is
 * missing and not accepted, and when more than the newest segment is missing (only a backup
 * restores that).
 */
function lostLastSegment(
  dir: string,
  journals: { no: number }[],
  snapshot: { replayFrom: number; file: string } | undefined,
  options: RecoveryOptions,
): number | undefined {
  const head = readHead(dir);
  const newest = journals.at(-1)?.no;
  let lost: number | undefined;
  let reason: string;
  if (snapshot && journals[0]?.no !== snapshot.replayFrom) {
    const file = path.join(dir, fileName("journal", snapshot.replayFrom));
    reason = `snapshot ${snapshot.file} continues in this journal segment and it is missing`;
    // Later segments exist, or the head names a later one: a segment in the middle of the chain is gone.
    if (journals.length > 0 || (head && head.segment > snapshot.replayFrom)) throw new CorruptJournalError(file, 0, reason);
    lost = snapshot.replayFrom;
  } else if (head && head.segment > (newest ?? 0)) {
    const file = path.join(dir, fileName("journal", head.segment));
    reason = `${HEAD_FILE} names this segment as the newest and it is missing`;
    // Only the newest may be accepted lost: the one before it must be the last on disk (or none, for the very first).
    if (head.previous !== (newest ?? 0)) throw new CorruptJournalError(file, 0, `${reason}, and so is segment ${head.previous} before it`);
    lost = head.segment;
  } else {
    return undefined;
  }
  const name = fileName("journal", lost);
  const file = path.join(dir, name);
  if (!options.acceptLoss.includes(name)) {
    throw new CorruptJournalError(file, 0, `${reason} (deleted?): the writes it held are lost with it`, lossAdvice(name, true));
  }
  options.log.warn({ file }, "missing newest journal segment: recreated empty, as PARAPET_ACCEPT_JOURNAL_LOSS allows; the writes it held are lost");
  return lost;
}

/** What the operator can do about damage in segment `name`. */
function lossAdvice(name: string, isLast: boolean): string {
  return isLast
    ? `restore the data directory from a backup, or, accepting the loss of the writes from that offset on, start once with PARAPET_ACCEPT_JOURNAL_LOSS=${name} (docs/storage.md#damaged-journal)`
    : "restore the data directory from a backup (later segments depend on this one, so its loss cannot be accepted in place; docs/storage.md#damaged-journal)";
}

function loadState(state: SnapshotState, file: string, files: RecordFiles, tables: RecoveryTables): void {
  if (state.version !== 1) throw new Error(`snapshot ${file}: unsupported state version ${String(state.version)}`);
  for (const f of state.files) {
    files.register(f.no, f.kind);
    if (f.bytes !== undefined) files.setUsed(f.no, f.bytes);
  }
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
    case OP_CREATE_INDEX:
      // An index of the same name is an option change (or the same spec again): the record's spec wins.
      tables.tableOrThrow(name).replaceIndex(decodeBody<IndexSpec>(rec.body));
      return;
    case OP_DROP_INDEX:
      tables.tableOrThrow(name).dropIndex(decodeBody<string>(rec.body));
      return;
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

/** Removes a torn tail: zeros in a preallocated segment (its size must stay), a truncation in an older one. */
function cutTail(file: string, end: number, bytes: number, preallocated: boolean): void {
  const fd = fs.openSync(file, "r+");
  try {
    if (preallocated) {
      const zeros = Buffer.alloc(bytes);
      let done = 0;
      while (done < bytes) done += fs.writeSync(fd, zeros, done, bytes - done, end + done);
    } else {
      fs.ftruncateSync(fd, end);
    }
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
}
