// Engine selection (docs/decisions.md#storage-engines): MongoDB when a URI is configured,
// otherwise the embedded engine in the data directory.

import type { Database } from "./collection.js";
import type { StorageLog } from "./embedded/files.js";

export interface StorageConfig {
  /** MONGODB_URI. When set, MongoDB is used and dataDir is ignored. */
  mongodbUri?: string;
  /** PARAPET_DATA_DIR for the embedded engine (default ./data). */
  dataDir: string;
  /** Embedded engine: journal bytes that trigger a snapshot (default 64 MiB). */
  compactionThresholdBytes?: number;
  /** Embedded engine: TTL sweep period in ms (default 60 000). */
  ttlSweepIntervalMs?: number;
  /** Non-fatal storage problems (failed compaction, retried connection errors). */
  onWarning?: (message: string, error: unknown) => void;
  /** Embedded engine: recovery notes and write failures, with their cause. */
  log?: StorageLog;
  /** Embedded engine: PARAPET_ACCEPT_JOURNAL_LOSS, journal segments whose damage the operator accepts. */
  acceptJournalLoss?: string[];
  /** Embedded engine: PARAPET_LOCK_WAIT_MS, how long to wait for the previous owner of the directory to exit. */
  lockWaitMs?: number;
}

const DEFAULT_DATA_DIR = "./data";

export async function openDatabase(config: StorageConfig): Promise<Database> {
  if (config.mongodbUri) {
    // Loaded on demand: the driver costs start-up time that embedded users need not pay.
    const { MongoDatabase } = await import("./mongodb/engine.js");
    return MongoDatabase.connect(config.mongodbUri, { onWarning: config.onWarning });
  }
  const { EmbeddedDatabase } = await import("./embedded/engine.js");
  return EmbeddedDatabase.open({
    dataDir: config.dataDir || DEFAULT_DATA_DIR,
    compactionThresholdBytes: config.compactionThresholdBytes,
    ttlSweepIntervalMs: config.ttlSweepIntervalMs,
    onWarning: config.onWarning,
    log: config.log,
    acceptJournalLoss: config.acceptJournalLoss,
    lock: { waitMs: config.lockWaitMs },
  });
}
