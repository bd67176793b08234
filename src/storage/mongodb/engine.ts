// The MongoDB engine (MONGODB_URI set). Port time-series collections (events)
// are stored as regular collections with a TTL index, so that a logs page is an
// index scan in (time, _id) order (docs/storage.md#mongodb-log-paging).
// Minimum server 6.3 (docs/storage.md#mongodb-operator-notes says why).

import { randomUUID } from "node:crypto";
import { MongoClient, MongoServerError, type CommandStartedEvent, type Db, type MongoClientOptions } from "mongodb";
import type { Collection, CollectionOptions, Database, Doc } from "../collection.js";
import { StorageUnavailableError } from "../collection.js";
import { MongoCollection, retentionIndexName, type SendTracker } from "./collection.js";
import { withStartupWork } from "../deadline.js";
import { convertTimeseries, stagingName } from "./convert-timeseries.js";
import { StartupLease, type HeldLease, type LeaseOptions } from "./lease.js";
import { DEFAULT_RETRY, withRetry, type Attempt, type RetryPolicy } from "./retry.js";

const MIN_SERVER_VERSION: [number, number] = [6, 3];
const DEFAULT_DATABASE = "parapet";

export interface MongoEngineOptions {
  retry?: RetryPolicy;
  /** How long a readiness ping may take before storage counts as unreachable. */
  pingTimeoutMs?: number;
  /** Server selection timeout for each attempt; by default long enough for an election, within the retry budget. */
  serverSelectionTimeoutMS?: number;
  onWarning?: (message: string, error: unknown) => void;
  /** The start-up lease's timing (lease.ts); tests shorten it. */
  lease?: Pick<LeaseOptions, "ttlMs" | "pollMs">;
}

/** The database named in the URI path (`mongodb://host/NAME?...`), or "parapet". */
export function databaseNameFromUri(uri: string): string {
  const m = /^mongodb(?:\+srv)?:\/\/[^/?#]*\/([^?#]*)/.exec(uri);
  const name = m ? decodeURIComponent(m[1]) : "";
  return name || DEFAULT_DATABASE;
}

/** Marks the comment tokens of commands the driver started (see SendTracker). */
export class CommandTracker implements SendTracker {
  private readonly pending = new Map<string, boolean>();

  open(): string {
    const token = `parapet:${randomUUID()}`;
    this.pending.set(token, false);
    return token;
  }

  started(event: CommandStartedEvent): void {
    const comment: unknown = event.command?.comment;
    if (typeof comment === "string" && this.pending.has(comment)) this.pending.set(comment, true);
  }

  sent(token: string): boolean {
    // An unknown token is one already closed: say "sent", the answer that never re-sends a write.
    return this.pending.get(token) ?? true;
  }

  close(token: string): void {
    this.pending.delete(token);
  }
}

/** MongoDB error code of creating a collection that exists (several replicas may start at once). */
const NAMESPACE_EXISTS = 48;
const LEASE_COLLECTION = "startup_lease";

/** The longest election the driver waits out within one call: MongoDB's median is about 12 s. */
export const ELECTION_MS = 15_000;

/**
 * The driver's settings, which override the URI's own (docs/storage.md#mongodb-operator-notes).
 * Driver 6.22 ignores timeoutMS outside its experimental CSOT mode, so each bound is set itself:
 * selection outlasts an election, a checkout waits no longer than a call may, and a socket
 * is given up once no call could still be waiting for its reply. Start-up work (index builds,
 * conversions, migrations) has its own client, whose sockets wait as long as its budget.
 */
export function clientOptions(role: "requests" | "startup", retry: RetryPolicy, options: MongoEngineOptions = {}): MongoClientOptions {
  const callMs = role === "requests" ? retry.budgetMs : (retry.startupBudgetMs ?? DEFAULT_RETRY.startupBudgetMs!);
  return {
    appName: role === "requests" ? "parapet" : "parapet-startup",
    serverSelectionTimeoutMS: options.serverSelectionTimeoutMS ?? Math.min(ELECTION_MS, retry.budgetMs),
    waitQueueTimeoutMS: retry.budgetMs,
    socketTimeoutMS: callMs + SOCKET_GRACE_MS,
    retryWrites: true,
    retryReads: true,
    // commandStarted tells whether a write reached the wire (retry.ts, watchSends).
    monitorCommands: true,
    // The start-up client keeps no connection once start-up is over.
    ...(role === "startup" ? { minPoolSize: 0, maxIdleTimeMS: 30_000 } : {}),
  };
}

/** A reply arrives within maxTimeMS of the server starting the work; this is the time for it to travel. */
const SOCKET_GRACE_MS = 10_000;

/**
 * Marks, from the driver's commandStarted events, which write attempts reached the wire.
 * Without it no attempt would ever look sent, and a retry would re-send an $inc whose reply
 * was lost, counting it twice: test/storage/mongodb-deadlines.test.ts checks the wiring.
 */
export function watchSends(client: MongoClient, tracker: CommandTracker): MongoClient {
  client.on("commandStarted", (e) => tracker.started(e));
  return client;
}

export class MongoDatabase implements Database {
  readonly engine = "mongodb" as const;
  private readonly handles = new Map<string, MongoCollection<Doc>>();
  /** One per process and database: its calls take turns, and nested ones run under the lease held. */
  private lease: StartupLease | undefined;

  private constructor(
    private readonly client: MongoClient,
    private readonly startupClient: MongoClient,
    readonly db: Db,
    private readonly startupDb: Db,
    private readonly tracker: CommandTracker,
    private readonly options: MongoEngineOptions,
  ) {}

  static async connect(uri: string, options: MongoEngineOptions = {}): Promise<MongoDatabase> {
    const retry = options.retry ?? DEFAULT_RETRY;
    const tracker = new CommandTracker();
    const client = watchSends(new MongoClient(uri, clientOptions("requests", retry, options)), tracker);
    const startupClient = watchSends(new MongoClient(uri, clientOptions("startup", retry, options)), tracker);
    // A database that starts with Parapet (one compose file) gets a minute, not a request's budget.
    await withRetry(() => client.connect(), {
      idempotent: true,
      policy: { ...retry, budgetMs: Math.max(retry.budgetMs, 60_000) },
      onRetry: (attempt, e) => options.onWarning?.(`connecting to MongoDB failed (attempt ${attempt}); retrying`, e),
    });
    const name = databaseNameFromUri(uri);
    const db = client.db(name);
    try {
      await assertServerVersion(db);
    } catch (e) {
      await client.close();
      throw e;
    }
    return new MongoDatabase(client, startupClient, db, startupClient.db(name), tracker, options);
  }

  async collection<T extends Doc = Doc>(name: string, options: CollectionOptions = {}): Promise<Collection<T>> {
    const cached = this.handles.get(name);
    if (cached) return cached as unknown as Collection<T>;
    const [info] = await this.idempotent(() => this.db.listCollections({ name }).toArray());
    if (info?.type === "timeseries" && !options.timeseries) {
      throw new Error(`collection ${name} is a MongoDB time-series collection; Parapet expects a regular one`);
    }
    const ts = options.timeseries;
    if (ts && (info?.type === "timeseries" || (await this.exists(stagingName(name))))) {
      await this.startupMigration(`convert:${name}`, (lease) =>
        convertTimeseries(this.startupDb, name, {
          timeField: ts.timeField,
          run: (op) => this.idempotent(op),
          held: () => lease.held(),
          log: (message) => this.options.onWarning?.(message, null),
        }),
      );
    }
    if (!info || info.type === "timeseries") {
      try {
        await this.idempotent(() => this.db.createCollection(name));
      } catch (e) {
        // Another process created it between our check and our create, or the conversion did: fine.
        if (!(e instanceof MongoServerError && e.code === NAMESPACE_EXISTS)) throw e;
      }
    }
    const handle = new MongoCollection<Doc>(this.db.collection<Doc>(name), {
      startup: this.startupDb.collection<Doc>(name),
      events: ts ? { timeField: ts.timeField, metaField: ts.metaField } : undefined,
      tracker: this.tracker,
      command: (command) => this.startupDb.command(command),
      retry: this.options.retry,
      onWarning: this.options.onWarning,
    });
    if (ts && options.expireAfterSeconds !== undefined) {
      // Events live in a regular collection (docs/storage.md#mongodb-log-paging):
      // retention is a TTL index on the time field, changed in place by collMod.
      await handle.createIndex({ name: retentionIndexName(ts.timeField), keys: { [ts.timeField]: 1 }, expireAfterSeconds: options.expireAfterSeconds });
    }
    this.handles.set(name, handle);
    return handle as unknown as Collection<T>;
  }

  /**
   * Runs a start-up migration step holding the database's start-up lease, as start-up work
   * (its own budget, not a request's): replicas starting together take turns, and the
   * later ones find the work done (docs/storage.md#mongodb-start-up-work).
   */
  async startupMigration<R>(what: string, fn: (lease: HeldLease) => Promise<R>): Promise<R> {
    this.lease ??= new StartupLease(this.startupDb.collection(LEASE_COLLECTION), "startup", {
      ...this.options.lease,
      log: (message) => this.options.onWarning?.(message, null),
    });
    const lease = this.lease;
    return withStartupWork(() => lease.run(fn, what));
  }

  private async exists(name: string): Promise<boolean> {
    return (await this.idempotent(() => this.db.listCollections({ name }, { nameOnly: true }).toArray())).length > 0;
  }

  private idempotent<R>(op: (attempt: Attempt) => Promise<R>): Promise<R> {
    return withRetry(op, { idempotent: true, policy: this.options.retry });
  }

  async ping(): Promise<void> {
    const timeout = this.options.pingTimeoutMs ?? 2_000;
    try {
      // Any reachable member answers: an election (no primary for ~10 s) is not a
      // reason to take every replica out of the load balancer at once, since
      // writes wait for the new primary within their own budget.
      await this.db.command({ ping: 1 }, { readPreference: "primaryPreferred", signal: AbortSignal.timeout(timeout) });
    } catch (e) {
      if (e instanceof DOMException && e.name === "TimeoutError") {
        throw new StorageUnavailableError(`MongoDB did not answer a ping within ${timeout} ms`, { cause: e });
      }
      throw new StorageUnavailableError(`MongoDB is unreachable: ${(e as Error).message}`, { cause: e });
    }
  }

  async close(): Promise<void> {
    await Promise.all([this.client.close(), this.startupClient.close()]);
  }
}

async function assertServerVersion(db: Db): Promise<void> {
  const info = await db.admin().command({ buildInfo: 1 });
  const version = String(info.version ?? "0.0");
  const [major, minor] = version.split(".").map((n) => Number.parseInt(n, 10));
  const [needMajor, needMinor] = MIN_SERVER_VERSION;
  if (major < needMajor || (major === needMajor && minor < needMinor)) {
    throw new Error(`MongoDB ${version} is too old: Parapet needs ${needMajor}.${needMinor} or later (see docs/storage.md, MongoDB: operator notes)`);
  }
}
