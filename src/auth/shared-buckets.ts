// Token buckets that every replica shares, in a collection of the storage engine
// (docs/decisions.md#rate-limits-and-deadlines). Each bucket is one document holding its
// "theoretical arrival time" (GCRA, the generic cell rate algorithm): the time at which the
// bucket would be full again. Taking k tokens moves it k intervals later, allowed while it stays
// within `burst` intervals of now. That is a token bucket of the same rate and burst as the
// in-process one (token-buckets.ts), kept in a single number, so that one atomic conditional
// update (findOneAndUpdate with the limit in its filter) takes tokens without a read first, on
// MongoDB as on the embedded engine, using only the port's update operators.
//
// Times are the replicas' wall clocks: a clock that is s ms off lets that replica take up to
// s x rate tokens more or less. Replicas are expected to run NTP (docs/deployment.md).

import { DuplicateKeyError, type Collection, type Database, type Doc } from "../storage/collection.js";

interface BucketDoc extends Doc {
  /** Epoch ms when the bucket is full again; at or before now it is full. */
  tat: number;
  /** When the document may go: a full bucket is the same as no document. */
  expires_at: Date;
}

export interface BucketRate {
  /** Tokens the bucket holds when full. */
  burst: number;
  /** Tokens added per second. */
  perSecond: number;
}

export interface Grant {
  /** Tokens taken, from 0 to the number asked for. */
  granted: number;
  /** With nothing granted: ms until one token is available. */
  retryAfterMs: number;
}

/** Rounding slack on the fractional intervals, so that exactly `burst` tokens fit in a full bucket. */
const EPSILON_MS = 1e-6;

export class SharedBuckets {
  private constructor(private readonly buckets: Collection<BucketDoc>) {}

  static async open(db: Database, name = "rate_limits"): Promise<SharedBuckets> {
    const buckets = await db.collection<BucketDoc>(name);
    // Idle buckets are full ones: the TTL monitor removes them, which changes nothing but the size.
    await buckets.createIndex({ name: "expiry", keys: { expires_at: 1 }, expireAfterSeconds: 0 });
    return new SharedBuckets(buckets);
  }

  /**
   * Takes up to `want` tokens from bucket `id` at time `now` (epoch ms): all of them when they
   * are there, otherwise as many as there are, otherwise none and how long until one is.
   * `inUse` says the caller saw the bucket not full a moment ago, which decides which of the two
   * updates is tried first; either order gives the same answer.
   */
  async take(id: string, want: number, rate: BucketRate, now: number, inUse = false): Promise<Grant> {
    const interval = 1000 / rate.perSecond;
    const window = rate.burst * interval;
    let n = Math.max(1, Math.min(Math.floor(want), rate.burst));
    let tryRestart = !inUse;
    for (let round = 0; round < 3; round++) {
      if (tryRestart) {
        // A full bucket (no document, or one whose time has passed) starts again from now. The
        // upsert meets the existing _id when the bucket is in use: a duplicate, not an error.
        // updateOne, not findOneAndUpdate: its retry after a lost reply can recognize its own
        // restart (the storage engine looks for the values set), where a re-send would meet the
        // restarted bucket as "in use" and take the tokens a second time.
        try {
          await this.buckets.updateOne({ _id: id, tat: { $lt: now } }, { $set: { tat: now + n * interval, expires_at: new Date(now + n * interval) } }, { upsert: true });
          return { granted: n, retryAfterMs: 0 };
        } catch (e) {
          if (!(e instanceof DuplicateKeyError)) throw e;
        }
      }
      tryRestart = true;
      // The bucket is in use: take n if they fit, in one atomic step.
      const taken = await this.buckets.findOneAndUpdate(
        { _id: id, tat: { $gte: now, $lte: now + window - n * interval + EPSILON_MS } },
        { $inc: { tat: n * interval }, $max: { expires_at: new Date(now + window) } },
        { returnDocument: "after" },
      );
      if (taken) return { granted: n, retryAfterMs: 0 };
      const current = await this.buckets.findOne({ _id: id });
      if (!current || current.tat < now) continue; // refilled or removed meanwhile: start it again
      const available = Math.floor((now + window - current.tat + EPSILON_MS) / interval);
      if (available < 1) return { granted: 0, retryAfterMs: Math.max(1, current.tat + interval - window - now) };
      n = Math.min(n, available);
      tryRestart = false;
    }
    // Other replicas took what was there between our steps three times running: busy, not empty.
    return { granted: 0, retryAfterMs: interval };
  }
}
