// The MongoDB engine (MONGODB_URI set). Requires MongoDB 6.3 or later: the
// first release whose time-series collections take secondary indexes on
// measurement fields together with deletes by meta field, and create a
// (meta, time) index by themselves.

import { MongoClient, MongoServerError, type Db } from "mongodb";
import type { Collection, CollectionOptions, Database, Doc } from "../collection.js";
import { StorageUnavailableError } from "../collection.js";
import { MongoCollection } from "./collection.js";
import { DEFAULT_RETRY, withRetry, type RetryPolicy } from "./retry.js";

const MIN_SERVER_VERSION: [number, number] = [6, 3];
const DEFAULT_DATABASE = "parapet";

export interface MongoEngineOptions {
  retry?: RetryPolicy;
  /** How long a readiness ping may take before storage counts as unreachable. */
  pingTimeoutMs?: number;
  /** Server selection timeout for each attempt (the driver's default of 30 s would stall readiness). */
  serverSelectionTimeoutMS?: number;
  onWarning?: (message: string, error: unknown) => void;
}

/** The database named in the URI path (`mongodb://host/NAME?...`), or "parapet". */
export function databaseNameFromUri(uri: string): string {
  const m = /^mongodb(?:\+srv)?:\/\/[^/?#]*\/([^?#]*)/.exec(uri);
  const name = m ? decodeURIComponent(m[1]) : "";
  return name || DEFAULT_DATABASE;
}

export class MongoDatabase implements Database {
  readonly engine = "mongodb" as const;
  private readonly handles = new Map<string, MongoCollection<Doc>>();

  private constructor(
    private readonly client: MongoClient,
    readonly db: Db,
    private readonly options: MongoEngineOptions,
  ) {}

  static async connect(uri: string, options: MongoEngineOptions = {}): Promise<MongoDatabase> {
    const client = new MongoClient(uri, {
      appName: "parapet",
      serverSelectionTimeoutMS: options.serverSelectionTimeoutMS ?? 5_000,
      retryWrites: true,
      retryReads: true,
    });
    const retry = options.retry ?? DEFAULT_RETRY;
    await withRetry(() => client.connect(), {
      idempotent: true,
      policy: retry,
      onRetry: (attempt, e) => options.onWarning?.(`connecting to MongoDB failed (attempt ${attempt}); retrying`, e),
    });
    const db = client.db(databaseNameFromUri(uri));
    try {
      await assertServerVersion(db);
    } catch (e) {
      await client.close();
      throw e;
    }
    return new MongoDatabase(client, db, options);
  }

  async collection<T extends Doc = Doc>(name: string, options: CollectionOptions = {}): Promise<Collection<T>> {
    const cached = this.handles.get(name);
    if (cached) return cached as unknown as Collection<T>;
    const retry = { idempotent: true, policy: this.options.retry };
    const [info] = await withRetry(() => this.db.listCollections({ name }).toArray(), retry);
    const isTimeseries = info?.type === "timeseries";
    if (!info) {
      try {
        await withRetry(
          () =>
            this.db.createCollection(name, {
              ...(options.timeseries ? { timeseries: options.timeseries } : {}),
              ...(options.expireAfterSeconds !== undefined ? { expireAfterSeconds: options.expireAfterSeconds } : {}),
            }),
          retry,
        );
      } catch (e) {
        // Another process created it between our check and our create: fine (NamespaceExists).
        if (!(e instanceof MongoServerError && e.code === 48)) throw e;
      }
    } else {
      if (options.timeseries && !isTimeseries) throw new Error(`collection ${name} exists and is not a time-series collection`);
      const current = (info as { options?: { expireAfterSeconds?: number } }).options?.expireAfterSeconds;
      if (isTimeseries && options.expireAfterSeconds !== undefined && current !== options.expireAfterSeconds) {
        // Retention is configuration: follow it on every start.
        await withRetry(() => this.db.command({ collMod: name, expireAfterSeconds: options.expireAfterSeconds }), retry);
      }
    }
    const handle = new MongoCollection<Doc>(this.db.collection<Doc>(name), {
      timeseries: !!options.timeseries || isTimeseries,
      retry: this.options.retry,
      onWarning: this.options.onWarning,
    });
    this.handles.set(name, handle);
    return handle as unknown as Collection<T>;
  }

  async ping(): Promise<void> {
    const timeout = this.options.pingTimeoutMs ?? 2_000;
    let timer: NodeJS.Timeout | undefined;
    try {
      await Promise.race([
        this.db.command({ ping: 1 }),
        new Promise((_, reject) => {
          timer = setTimeout(() => reject(new StorageUnavailableError(`MongoDB did not answer a ping within ${timeout} ms`)), timeout);
        }),
      ]);
    } catch (e) {
      if (e instanceof StorageUnavailableError) throw e;
      throw new StorageUnavailableError(`MongoDB is unreachable: ${(e as Error).message}`, { cause: e });
    } finally {
      clearTimeout(timer);
    }
  }

  async close(): Promise<void> {
    await this.client.close();
  }
}

async function assertServerVersion(db: Db): Promise<void> {
  const info = await db.admin().command({ buildInfo: 1 });
  const version = String(info.version ?? "0.0");
  const [major, minor] = version.split(".").map((n) => Number.parseInt(n, 10));
  const [needMajor, needMinor] = MIN_SERVER_VERSION;
  if (major < needMajor || (major === needMajor && minor < needMinor)) {
    throw new Error(`MongoDB ${version} is too old: Parapet needs ${needMajor}.${needMinor} or later (time-series collections with secondary indexes and deletes)`);
  }
}
