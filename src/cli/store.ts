// The store as the command opens it directly, and what it says when the running service holds
// the embedded engine's data directory: which process, where it listens, and how to proceed.
import { loadConfig } from "../config.js";
import { readServiceRecord } from "../server/service-record.js";
import type { Database } from "../storage/collection.js";
import { openDatabase } from "../storage/open.js";
import { shown } from "./find-service.js";

/** The data directory is held by another live process (the running service). */
export class StoreLocked extends Error {
  constructor(
    readonly dataDir: string,
    readonly ownerPid: number | undefined,
    readonly lockMessage: string,
  ) {
    super(lockMessage);
  }

  /** "the service is running on ./data (pid 123, listening on http://127.0.0.1:8080)": how the user finds it. */
  describeService(): string {
    const record = readServiceRecord(this.dataDir);
    const pid = record?.pid ?? this.ownerPid;
    const at = record ? `listening on ${record.url}` : "on the port it was started with, which its 'parapet listening' log line names: it left no service record";
    return `the service is running on ${shown(this.dataDir)} (${pid !== undefined ? `pid ${pid}, ` : ""}${at})`;
  }

  /**
   * How to free the data directory: stop the service, run the command, start it again. `kill PID`
   * only when the service record names that pid: otherwise the lock's pid may belong to another
   * program by now (reused after a crash or a restart), and the lock's own message says which
   * program it is and how to go on safely.
   */
  stopHint(runsAlongsideOnMongo = true): string {
    const confirmed = this.ownerPid !== undefined && readServiceRecord(this.dataDir)?.pid === this.ownerPid;
    const pid = confirmed ? `, or kill ${this.ownerPid}` : "";
    const mongo = runsAlongsideOnMongo ? "; with MongoDB (MONGODB_URI) the command runs alongside the service" : "";
    return `stop the service (Ctrl-C where it runs${pid}), run the command, then start it again${mongo}.${confirmed ? "" : ` ${this.lockMessage}`}`;
  }
}

/** Thrown by the embedded engine when another process holds the data directory. */
function lockedOf(err: unknown, dataDir: string): StoreLocked | undefined {
  if (!(err instanceof Error) || err.name !== "DataDirectoryLockedError") return undefined;
  const owner = (err as Error & { owner?: { pid?: unknown } }).owner;
  return new StoreLocked(dataDir, typeof owner?.pid === "number" ? owner.pid : undefined, err.message);
}

/** Runs `fn` on the configured store; a data directory held by the running service throws StoreLocked. */
export async function withStore<T>(fn: (db: Database) => Promise<T>): Promise<T> {
  const config = loadConfig();
  let db: Database;
  try {
    db = await openDatabase({ mongodbUri: config.mongodbUri, dataDir: config.dataDir });
  } catch (err) {
    throw lockedOf(err, config.dataDir) ?? err;
  }
  try {
    return await fn(db);
  } finally {
    await db.close();
  }
}

/** `fn` on the embedded data directory without opening it as a store (export, migrate): the same lock report. */
export async function onDataDir<T>(fn: (dataDir: string) => Promise<T>): Promise<T> {
  const { dataDir } = loadConfig();
  try {
    return await fn(dataDir);
  } catch (err) {
    throw lockedOf(err, dataDir) ?? err;
  }
}
