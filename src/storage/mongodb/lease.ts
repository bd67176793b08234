// One replica at a time runs start-up migrations on a MongoDB database
// (docs/storage.md#mongodb-start-up-work). Each step is idempotent, but steps that drop a
// collection are not safe to interleave: a replica that copied an old collection and then
// drops "the old one" may drop what another replica already put in its place. The lease is
// a document with an owner and an expiry, renewed while its holder works, so that a replica
// killed half-way hands over after the expiry instead of blocking start-up for ever.

import { AsyncLocalStorage } from "node:async_hooks";
import { randomUUID } from "node:crypto";
import { MongoServerError, type Collection as DriverCollection, type Document } from "mongodb";

export interface LeaseOptions {
  /** How long the lease outlives its holder's last renewal. */
  ttlMs?: number;
  /** How often a waiting replica looks again. */
  pollMs?: number;
  log?: (message: string) => void;
  now?: () => number;
}

interface LeaseDoc extends Document {
  _id: string;
  owner: string;
  expires_at: Date;
}

/** A held lease; `held()` turns false once a renewal found another owner (expired and taken over). */
export interface HeldLease {
  held(): boolean;
}

const DUPLICATE_KEY = 11000;

export class StartupLease {
  private readonly owner = `${process.pid}:${randomUUID()}`;
  private readonly ttlMs: number;
  private readonly pollMs: number;
  private readonly now: () => number;
  private readonly inside = new AsyncLocalStorage<HeldLease>();
  private queue: Promise<void> = Promise.resolve();

  constructor(
    private readonly coll: DriverCollection<LeaseDoc>,
    private readonly id: string,
    private readonly options: LeaseOptions = {},
  ) {
    this.ttlMs = options.ttlMs ?? 60_000;
    this.pollMs = options.pollMs ?? 1_000;
    this.now = options.now ?? Date.now;
  }

  /**
   * Runs `fn` holding the lease, waiting for another holder to finish or to expire. Calls of one
   * process take turns too, and a call made inside `fn` (a migration opening a collection that
   * needs converting) runs at once under the lease already held instead of waiting for itself.
   */
  async run<R>(fn: (lease: HeldLease) => Promise<R>, what = "start-up migration"): Promise<R> {
    const current = this.inside.getStore();
    if (current) return fn(current);
    const turn = this.queue.then(() => this.holding(fn, what));
    this.queue = turn.then(
      () => undefined,
      () => undefined,
    );
    return turn;
  }

  private async holding<R>(fn: (lease: HeldLease) => Promise<R>, what: string): Promise<R> {
    let announced = false;
    while (!(await this.tryAcquire())) {
      if (!announced) this.options.log?.(`waiting for another replica's start-up migration (lease ${this.id}): ${what}`);
      announced = true;
      await new Promise((r) => setTimeout(r, this.pollMs));
    }
    let held = true;
    const timer = setInterval(() => {
      this.renew().then(
        (ok) => (held &&= ok),
        () => undefined, // a failed renewal leaves the lease as it was: the next one tries again
      );
    }, this.ttlMs / 3);
    timer.unref();
    const lease: HeldLease = { held: () => held };
    try {
      return await this.inside.run(lease, () => fn(lease));
    } finally {
      clearInterval(timer);
      await this.coll.deleteOne({ _id: this.id, owner: this.owner }).catch(() => undefined);
    }
  }

  private async tryAcquire(): Promise<boolean> {
    const now = this.now();
    try {
      await this.coll.updateOne(
        { _id: this.id, $or: [{ owner: this.owner }, { expires_at: { $lt: new Date(now) } }] },
        { $set: { owner: this.owner, expires_at: new Date(now + this.ttlMs) } },
        { upsert: true, writeConcern: { w: "majority" } },
      );
      return true;
    } catch (e) {
      // The filter missed because another owner holds an unexpired lease, and the upsert met its _id.
      if (e instanceof MongoServerError && e.code === DUPLICATE_KEY) return false;
      throw e;
    }
  }

  private async renew(): Promise<boolean> {
    const r = await this.coll.updateOne(
      { _id: this.id, owner: this.owner },
      { $set: { expires_at: new Date(this.now() + this.ttlMs) } },
      { writeConcern: { w: "majority" } },
    );
    return r.matchedCount > 0;
  }
}
