// Compaction: a snapshot of the whole state, after which the journal segments
// and data files it covers are deleted. It bounds both the disk the journal
// takes and the replay a start-up does; writes go on while it runs.

import fs from "node:fs";
import path from "node:path";
import type { CollectionOptions, Doc, IndexSpec } from "../collection.js";
import type { DiskCapture } from "./disk-table.js";
import { fileName, type FileKind, type RecordFiles } from "./files.js";
import { nodeJournalIo, type Journal, type JournalIo } from "./journal.js";
import type { Table } from "./query.js";
import { relocateSparseFiles, type Relocation } from "./relocation.js";
import { writeSnapshot } from "./snapshot.js";
import { encodeDiskRows, type SnapshotState } from "./state.js";

/** Where the data directory stands between snapshots: recovery finds it, each compaction moves it on. */
export interface DirectoryPosition {
  /** The current snapshot's file number, 0 before the first one. */
  snapshotNo: number;
  /** First journal segment the current snapshot does not cover. */
  replayFrom: number;
  nextFileNo: number;
  /** Journal bytes written since the snapshot: what a start-up would replay. */
  replayBytes: number;
  lastSnapshotBytes: number;
}

type CapturedCollection =
  | { name: string; options: CollectionOptions; indexes: IndexSpec[]; kind: "memory"; docs: Doc[] }
  | { name: string; options: CollectionOptions; indexes: IndexSpec[]; kind: "disk"; capture: DiskCapture };

/** The engine's options compaction reads (EmbeddedOptions; documented there). */
export interface CompactionOptions {
  compactionThresholdBytes?: number;
  relocateBelowLiveRatio?: number;
  io?: JournalIo;
}

const DEFAULT_THRESHOLD = 64 * 1024 * 1024;
const COMPACTION_RETRY_MS = 30_000;

export class Compactor {
  private compacting: Promise<void> | undefined;
  private compactionBlockedUntil = 0;
  private readonly threshold: number;

  constructor(
    private readonly dataDir: string,
    private readonly files: RecordFiles,
    private readonly tables: ReadonlyMap<string, Table>,
    private readonly journal: Journal,
    private readonly position: DirectoryPosition,
    private readonly options: CompactionOptions,
    private readonly warn: (message: string, error: unknown) => void,
  ) {
    this.threshold = options.compactionThresholdBytes ?? DEFAULT_THRESHOLD;
  }

  /** The compaction in progress, if any. */
  get running(): Promise<void> | undefined {
    return this.compacting;
  }

  get replayBytes(): number {
    return this.position.replayBytes;
  }

  /** Counts a record appended to the journal. */
  appended(bytes: number): void {
    this.position.replayBytes += bytes;
  }

  /** Starts a compaction, or joins the one running. */
  start(): Promise<void> {
    this.compacting ??= this.run().finally(() => {
      this.compacting = undefined;
    });
    return this.compacting;
  }

  /** After a write: compacts when the journal has grown past the threshold. */
  maybeStart(): void {
    if (this.compacting || this.journal.failed) return;
    if (this.position.replayBytes < Math.max(this.threshold, this.position.lastSnapshotBytes)) return;
    if (Date.now() < this.compactionBlockedUntil) return;
    this.start().catch((e: unknown) => {
      this.compactionBlockedUntil = Date.now() + COMPACTION_RETRY_MS;
      this.warn("compaction failed; the journal keeps growing until the next attempt", e);
    });
  }

  /** One compaction, outside the scheduling (close runs it directly). */
  async run(): Promise<void> {
    const at = this.position;
    const covered = at.replayBytes;
    const replayFrom = at.nextFileNo++;
    this.journal.rotate(replayFrom);
    const collections = this.captureCollections();
    // The snapshot may only cover what is on disk: its disk rows point into these segments.
    await this.journal.durable();

    const disk = collections.flatMap((c) => (c.kind === "disk" ? [{ name: c.name, capture: c.capture }] : []));
    const moved: Relocation = await relocateSparseFiles(
      this.dataDir,
      this.files,
      disk,
      this.options.relocateBelowLiveRatio ?? 0.5,
      this.journal.segment,
      () => at.nextFileNo++,
      (dir) => (this.options.io ?? nodeJournalIo).fsyncDir(dir),
    );
    const referenced = referencedFiles(disk, this.files);
    const snapshotNo = at.nextFileNo++;
    const state: SnapshotState = {
      version: 1,
      replayFrom,
      nextFileNo: at.nextFileNo,
      files: referenced,
      collections: collections.map((c) =>
        c.kind === "disk" ? { name: c.name, options: c.options, indexes: c.indexes, kind: "disk", rows: encodeDiskRows(c.capture) } : c,
      ),
    };
    let written: { file: string; bytes: number };
    try {
      written = await writeSnapshot(this.dataDir, snapshotNo, state);
    } catch (e) {
      if (moved.file !== undefined) this.files.remove(moved.file);
      throw e;
    }
    // The new snapshot is durable: what it supersedes can go.
    const previousSnapshot = at.snapshotNo;
    at.snapshotNo = snapshotNo;
    at.replayFrom = replayFrom;
    at.replayBytes -= covered;
    at.lastSnapshotBytes = written.bytes;
    for (const m of moved.rows) {
      const table = this.tables.get(m.table);
      if (table?.kind === "disk" && table.isAlive(m.row) && table.seqOf(m.row) === m.seq) table.relocate(m.row, m.loc);
    }
    if (previousSnapshot) fs.rmSync(path.join(this.dataDir, fileName("snapshot", previousSnapshot)), { force: true });
    const keep = new Set(referenced.map((f) => f.no));
    for (const no of this.files.numbers()) {
      if (keep.has(no)) continue;
      const kind = this.files.kindOf(no);
      if (kind === "data" || (kind === "journal" && no < replayFrom)) this.files.remove(no);
    }
  }

  private captureCollections(): CapturedCollection[] {
    return [...this.tables.values()].map((t): CapturedCollection => {
      const base = { name: t.name, options: structuredClone(t.options), indexes: t.indexes.map((i) => i.spec) };
      return t.kind === "memory" ? { ...base, kind: "memory", docs: t.capture() } : { ...base, kind: "disk", capture: t.capture() };
    });
  }
}

function referencedFiles(disk: { capture: DiskCapture }[], files: RecordFiles): { no: number; kind: FileKind; bytes: number }[] {
  const seen = new Set<number>();
  for (const { capture: c } of disk) {
    for (let r = 0; r < c.rows; r++) if (c.alive[r] === 1) seen.add(c.file[r]);
  }
  return [...seen].sort((a, b) => a - b).map((no) => ({ no, kind: files.kindOf(no) ?? "journal", bytes: files.usedBytes(no) }));
}
