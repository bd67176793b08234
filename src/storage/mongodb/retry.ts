// Retrying MongoDB operations through transient failures (a primary stepping
// down, a dropped connection, no reachable server for a moment).
//
// The driver already retries a read or a write once (retryReads/retryWrites).
// This adds capped exponential backoff with jitter around it, so an election
// (~10 s) does not surface as errors. Writes that are not idempotent ($inc on
// a rollup) are retried only when the driver never sent them (no server could
// be selected): re-sending one that may have been applied could count twice.

import { MongoError, MongoNetworkError, MongoServerSelectionError } from "mongodb";
import { StorageUnavailableError } from "../collection.js";

export interface RetryPolicy {
  /** Attempts in all, the first included. */
  attempts: number;
  baseDelayMs: number;
  maxDelayMs: number;
}

export const DEFAULT_RETRY: RetryPolicy = { attempts: 6, baseDelayMs: 100, maxDelayMs: 3_000 };

/** Server error codes that mean "try again": elections, shutdowns, network trouble between servers. */
const TRANSIENT_CODES = new Set([6, 7, 89, 91, 189, 262, 9001, 10107, 11600, 11602, 13435, 13436, 63, 150, 134]);

export function isTransient(e: unknown): boolean {
  if (e instanceof MongoServerSelectionError || e instanceof MongoNetworkError) return true;
  if (!(e instanceof MongoError)) return false;
  if (e.hasErrorLabel("RetryableWriteError") || e.hasErrorLabel("TransientTransactionError") || e.hasErrorLabel("ResetPool")) {
    return true;
  }
  return typeof e.code === "number" && TRANSIENT_CODES.has(e.code);
}

/** The operation certainly did not reach a server. */
function notSent(e: unknown): boolean {
  return e instanceof MongoServerSelectionError;
}

export interface RetryOptions {
  /** Safe to run twice. */
  idempotent: boolean;
  policy?: RetryPolicy;
  onRetry?: (attempt: number, error: unknown) => void;
  sleep?: (ms: number) => Promise<void>;
}

export async function withRetry<T>(op: (attempt: number) => Promise<T>, options: RetryOptions): Promise<T> {
  const policy = options.policy ?? DEFAULT_RETRY;
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms)));
  for (let attempt = 1; ; attempt++) {
    try {
      return await op(attempt);
    } catch (e) {
      if (!isTransient(e)) throw e;
      const retryable = options.idempotent || notSent(e);
      if (!retryable || attempt >= policy.attempts) {
        throw new StorageUnavailableError(`MongoDB is unavailable: ${(e as Error).message}`, { cause: e });
      }
      options.onRetry?.(attempt, e);
      const cap = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (attempt - 1));
      await sleep(cap / 2 + Math.random() * (cap / 2));
    }
  }
}
