// Retrying MongoDB operations through transient failures (a primary stepping
// down, a dropped connection, no reachable server for a moment), within a
// deadline, without ever applying a write twice (docs/storage.md#mongodb-retries).
//
// The driver already retries a read or a write once (retryReads/retryWrites);
// its write retry reuses the same transaction number, so the server applies it
// at most once. A retry made here is a new operation to the server. It is
// therefore safe only for operations that are idempotent as sent, or whose
// previous attempt provably never reached the wire. "Never reached the wire" is
// not the same as "the error is a MongoServerSelectionError": the driver's own
// retry selects a server again after a first attempt was sent, and a failed
// re-selection surfaces as a selection error for a write that may have been
// applied. The caller tells (wasSent) whether the driver started a command for
// this attempt, which the engine learns from the driver's commandStarted events.
//
// The time for all attempts is the policy's budget, cut to the deadline of the
// request the call serves (../deadline.ts) less a margin, so that the request
// answers 503 before its own timeout would answer 504, and no attempt of a
// request that has already been answered starts (docs/storage.md#mongodb-deadlines).

import { MongoBulkWriteError, MongoError, MongoNetworkError, MongoServerError, MongoServerSelectionError, MongoWriteConcernError } from "mongodb";
import { StorageUnavailableError } from "../collection.js";
import { isStartupWork, storageDeadline } from "../deadline.js";

export interface RetryPolicy {
  /** Attempts in all, the first included. */
  attempts: number;
  baseDelayMs: number;
  maxDelayMs: number;
  /**
   * Time for all attempts of one operation, backoff included, at most: a call made
   * for a request gets no more than the request has left (DEADLINE_MARGIN_MS
   * before it). Also the Retry-After given with the 503: about how long an
   * election or a restart keeps MongoDB away.
   */
  budgetMs: number;
  /**
   * Time for one call made as start-up work (../deadline.ts withStartupWork): a conversion
   * window, an index build on existing data, a migration step, each as long as its data needs.
   */
  startupBudgetMs?: number;
}

export const DEFAULT_RETRY: RetryPolicy = { attempts: 6, baseDelayMs: 100, maxDelayMs: 2_000, budgetMs: 20_000, startupBudgetMs: 4 * 3_600_000 };

/** The policy a call runs under: start-up work gets its own, longer budget (docs/storage.md#mongodb-start-up-work). */
function effectivePolicy(policy: RetryPolicy): RetryPolicy {
  if (!isStartupWork()) return policy;
  return { ...policy, budgetMs: Math.max(policy.budgetMs, policy.startupBudgetMs ?? DEFAULT_RETRY.startupBudgetMs ?? policy.budgetMs) };
}

/**
 * Time kept back from a request's deadline: the storage error must travel back through the
 * handler and the interceptors before the request timeout fires and turns it into a 504.
 */
export const DEADLINE_MARGIN_MS = 50;

/** Server error codes that mean "try again": elections, shutdowns, network trouble between servers. */
const TRANSIENT_CODES = new Set([6, 7, 89, 91, 189, 262, 9001, 10107, 11600, 11602, 13435, 13436, 63, 150, 134]);

/** Server code of work stopped at its maxTimeMS (the call's deadline). */
const MAX_TIME_MS_EXPIRED = 50;
/** Server code of a write concern not satisfied within its wtimeout. */
const WRITE_CONCERN_FAILED = 64;

/**
 * The driver error behind a MongoBulkWriteError. Driver 6.22 runs insertMany as a bulk write and
 * wraps any failure of a batch in MongoBulkWriteError: with per-document `writeErrors` when the
 * server answered, otherwise around the driver's own error (network, server selection), which it
 * keeps as `errorResponse` (bulk/common.ts, executeCommands). Classified as that error.
 */
function unwrapBulk(e: unknown): unknown {
  if (!(e instanceof MongoBulkWriteError)) return e;
  const writeErrors = ([] as unknown[]).concat(e.writeErrors ?? []);
  return writeErrors.length === 0 && e.errorResponse instanceof MongoError ? e.errorResponse : e;
}

/** A write the server applied, perhaps, but did not have acknowledged by enough members in time. */
function isWriteConcernTimeout(e: unknown): boolean {
  if (e instanceof MongoWriteConcernError) return true;
  if (e instanceof MongoBulkWriteError && e.err) return true;
  return e instanceof MongoServerError && e.code === WRITE_CONCERN_FAILED;
}

export function isTransient(error: unknown): boolean {
  const e = unwrapBulk(error);
  if (e instanceof MongoServerSelectionError || e instanceof MongoNetworkError) return true;
  if (!(e instanceof MongoError)) return false;
  if (e.hasErrorLabel("RetryableWriteError") || e.hasErrorLabel("TransientTransactionError") || e.hasErrorLabel("ResetPool")) {
    return true;
  }
  return typeof e.code === "number" && TRANSIENT_CODES.has(e.code);
}

/**
 * MongoDB could not serve the operation within its deadline. `outcome` says
 * whether a write may have been applied all the same ("unknown": its reply was
 * lost and it was not re-sent) or certainly was not ("not-applied").
 */
export class MongoUnavailableError extends StorageUnavailableError {
  readonly outcome: "not-applied" | "unknown";

  constructor(message: string, options: { cause?: unknown; retryAfterSeconds: number; outcome: "not-applied" | "unknown" }) {
    super(message, options);
    this.name = "MongoUnavailableError";
    this.outcome = options.outcome;
  }
}

/** What one attempt may use: the time left, and a signal that fires when it runs out. */
export interface Attempt {
  attempt: number;
  remainingMs: number;
  signal: AbortSignal;
}

export interface RetryOptions {
  /** Running it again after it was applied changes nothing. */
  idempotent: boolean;
  /** A write, whose outcome a failure reports (default: the non-idempotent ones). */
  write?: boolean;
  /**
   * Whether attempt `n` may have reached a server. Without it every failure
   * counts as possibly sent, the safe assumption for a write.
   */
  wasSent?: (attempt: number) => boolean;
  policy?: RetryPolicy;
  onRetry?: (attempt: number, error: unknown) => void;
  sleep?: (ms: number) => Promise<void>;
  now?: () => number;
  /** The caller's deadline (epoch ms); by default the one of the request this call runs in (../deadline.ts). */
  deadline?: number;
}

class DeadlineReached extends Error {}

export async function withRetry<T>(op: (attempt: Attempt) => Promise<T>, options: RetryOptions): Promise<T> {
  const requested = options.policy ?? DEFAULT_RETRY;
  const policy = effectivePolicy(requested);
  const now = options.now ?? Date.now;
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms)));
  const started = now();
  const caller = options.deadline ?? storageDeadline();
  const deadline = Math.min(started + policy.budgetMs, caller === undefined ? Infinity : caller - DEADLINE_MARGIN_MS);
  const budgetMs = Math.max(0, deadline - started);
  const cut = budgetMs < policy.budgetMs ? "the request's deadline" : `the ${policy.budgetMs} ms budget`;
  // What a client should wait before trying again is the outage's likely length, which the
  // policy's budget estimates, however little of it this request had left.
  const retryAfterSeconds = Math.max(1, Math.ceil(requested.budgetMs / 1000));
  let lastError: unknown = undefined;
  let maybeApplied = false;
  const write = options.write ?? !options.idempotent;
  const unavailable = (why: string, cause: unknown) =>
    new MongoUnavailableError(`MongoDB is unavailable (${why}): ${cause instanceof Error ? cause.message : String(cause)}`, {
      cause,
      retryAfterSeconds,
      outcome: maybeApplied ? "unknown" : "not-applied",
    });

  for (let attempt = 1; ; attempt++) {
    const remainingMs = deadline - now();
    if (remainingMs <= 0) throw unavailable(`no attempt fits before ${cut}`, lastError ?? "deadline reached");
    const controller = new AbortController();
    let timer: NodeJS.Timeout | undefined;
    // The caller stops waiting at the deadline even when the driver does not
    // (writes take no AbortSignal): the request gets its 503 on time.
    const expired = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        controller.abort(new DeadlineReached());
        reject(new DeadlineReached());
      }, remainingMs);
    });
    try {
      return await Promise.race([op({ attempt, remainingMs, signal: controller.signal }), expired]);
    } catch (e) {
      const sent = options.wasSent ? options.wasSent(attempt) : true;
      if (e instanceof DeadlineReached || controller.signal.aborted) {
        // An abandoned write is not cancelled: writes take no AbortSignal, so the driver may still
        // send it once it selects a server. Unsent now does not mean never applied.
        maybeApplied ||= write;
        throw unavailable(`${cut} reached`, lastError ?? e);
      }
      // A sent write may have been applied, whether or not it is retried: an idempotent one
      // that then fails for good is reported "unknown", never "not-applied".
      maybeApplied ||= write && sent;
      const stop = terminal(e);
      if (stop) {
        maybeApplied ||= write && stop.maybeApplied;
        throw unavailable(stop.why, e);
      }
      if (!isTransient(e)) throw e;
      lastError = e;
      if (!options.idempotent && sent) {
        // Re-sending would be a new operation that the server cannot tell from the first.
        throw unavailable("a write whose reply was lost is not re-sent", e);
      }
      if (attempt >= policy.attempts) throw unavailable(`${attempt} attempts failed`, e);
      options.onRetry?.(attempt, e);
      const cap = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (attempt - 1));
      const delay = Math.min(cap / 2 + Math.random() * (cap / 2), Math.max(0, deadline - now()));
      await sleep(delay);
    } finally {
      clearTimeout(timer);
    }
  }
}

/**
 * Failures that end the call as unavailable without a retry: the server stopped the work at
 * the deadline (maxTimeMS), the write concern's wtimeout (the deadline) passed, or no pooled
 * connection came free in time (more attempts would only queue behind the same load).
 */
function terminal(e: unknown): { why: string; maybeApplied: boolean } | null {
  const inner = unwrapBulk(e);
  if (isWriteConcernTimeout(inner)) return { why: "the write was not acknowledged by enough members before the deadline", maybeApplied: true };
  if (inner instanceof MongoServerError && inner.code === MAX_TIME_MS_EXPIRED) return { why: "the server stopped the work at the deadline", maybeApplied: true };
  // The driver does not export this class (cmap/errors.ts WaitQueueTimeoutError); its name is public.
  if (inner instanceof MongoError && inner.name === "MongoWaitQueueTimeoutError") return { why: "no pooled connection came free in time", maybeApplied: false };
  return null;
}
