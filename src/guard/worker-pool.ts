// Screening off the event loop (docs/decisions.md#worker-threads). Detectors are synchronous CPU work:
// a 50,000-character conversation takes tens of milliseconds, during which a
// single-threaded server answers nothing else. Requests over a size threshold
// are screened on worker threads instead, so small requests keep their latency.
// Small requests stay inline: a thread hop costs more than they do.
//
// Jobs wait in the pool, not in a worker's message queue, so that the pool
// decides what runs next (docs/operations.md#limits):
// - fairly per organization: organizations take turns, and one organization
//   runs on at most all workers but one, so a flood of large requests from one
//   tenant cannot hold every worker;
// - boundedly: past the queue limits, or a wait longer than allowed, a job is
//   refused at once with 503 and Retry-After instead of answering a late 504;
// - within its deadline: the engine stops between detectors past the deadline,
//   and a worker still busy a grace period later (one detector call that does
//   not return) is terminated and replaced, so an overrun frees its CPU.
//
// Small requests come here too when the main thread has several at once and a
// worker has room (request-screener.ts): they are sent ahead to a worker
// still busy with one job, so the worker starts the next one without waiting
// for the main thread to take its answer (docs/decisions.md#worker-threads).
import { Worker } from "node:worker_threads";
import { ApiError } from "../api/errors.js";
import type { StoredGuardrail } from "../custom-guardrails/repository.js";
import type { Metrics } from "../observability/metrics.js";
import { DeadlineExceededError, GuardrailLimitError, type Screening, type ScreeningPolicy } from "../screening/engine.js";
import type { Part } from "../screening/parts.js";
import { onModelThread } from "../screening/models/runtime.js";
import { nativeCallWord, terminateBetweenNativeCalls, type NativeCallWord } from "../screening/native-calls.js";
import { detectorLink, type DetectorOptions } from "../screening/registry.js";
import type { WorkerData, WorkerJob, WorkerMessage, WorkerReply } from "./worker.js";

// Compiled (dist/, `npm start`) the worker loads its JavaScript directly; from
// the TypeScript sources (tests, tsx) it first registers tsx's loader.
const WORKER_ENTRY = import.meta.url.endsWith(".js") ? new URL("./worker.js", import.meta.url) : new URL("./worker-entry.mjs", import.meta.url);

export interface PoolLimits {
  /** Jobs waiting for a worker, over all organizations. */
  maxQueue: number;
  /** Jobs one organization may have waiting. */
  maxQueuePerOrg: number;
  /** A job that waited this long for a worker is refused (503) rather than screened late. */
  maxWaitMs: number;
  /** A worker still running a job this long after its deadline is terminated and replaced. */
  overrunGraceMs: number;
}

export const defaultPoolLimits: PoolLimits = { maxQueue: 256, maxQueuePerOrg: 64, maxWaitMs: 5_000, overrunGraceMs: 1_000 };

interface Job {
  id: number;
  org: string;
  /** Sent only when a worker had room (`hasRoom`): may go ahead to a worker that runs one job already. */
  extra: boolean;
  message: WorkerJob;
  deadline: number;
  queuedAt: number;
  resolve: (s: Screening) => void;
  reject: (e: Error) => void;
}

interface Slot {
  worker: Worker;
  ready: Promise<void>;
  loaded: boolean;
  /** Jobs sent to the worker and not yet answered here, in the order it runs them. */
  jobs: Job[];
  /** Jobs posted to the worker, and (written by the worker as it finishes each) jobs it finished. */
  sent: number;
  finished: Int32Array;
  nativeCalls: NativeCallWord;
  /** Fires when the running job overran its deadline by the grace period. */
  watchdog?: NodeJS.Timeout;
}

/** Jobs a worker holds at most when extra jobs are sent ahead: the one it runs and those waiting in its port. */
const WORKER_DEPTH = 2;

/**
 * Jobs the worker has not finished, from its own count: the main thread reads its answers late
 * when it is busy, which is when extra jobs are sent, and `jobs` would overstate the backlog.
 */
function backlog(slot: Slot): number {
  return slot.sent - Atomics.load(slot.finished, 0);
}

/**
 * A worker an extra (small) job may go ahead to: room behind what it runs, and only small jobs
 * there. Behind a large job (a request at the body limit screens for a second or more) a small
 * one would wait that long, which is what sending it to a worker was meant to avoid.
 */
function takesExtra(slot: Slot): boolean {
  const left = backlog(slot);
  if (!slot.loaded || left >= WORKER_DEPTH) return false;
  // The jobs it has not finished are the last `left` ones: those it finished may still await the main thread here.
  for (let i = slot.jobs.length - left; i < slot.jobs.length; i++) if (!slot.jobs[i].extra) return false;
  return true;
}

/** The 503 an overloaded pool answers; Retry-After in whole seconds. */
function overloaded(why: string, retryAfterS: number): ApiError {
  return new ApiError("unavailable", `screening is overloaded (${why}); retry later`, { "retry-after": String(retryAfterS) });
}

/** A worker's failed job as the error the request answers. */
function errorOf(m: Extract<WorkerReply, { error: string }>): Error {
  if (m.kind === "deadline") return new DeadlineExceededError();
  if (m.kind === "limit") return new GuardrailLimitError(m.limit ?? 0);
  // The model thread crashed or restarts: retryable, as an overloaded pool answers.
  if (m.kind === "unavailable") return new ApiError("unavailable", m.error, { "retry-after": String(m.retryAfterS ?? 1) });
  return new Error(`screening worker: ${m.error}`);
}

export class ScreeningPool {
  private readonly slots: Slot[] = [];
  /** Waiting jobs by organization; Map order is the round-robin order. */
  private readonly queues = new Map<string, Job[]>();
  private readonly runningByOrg = new Map<string, number>();
  private queued = 0;
  private nextId = 1;
  private closed = false;
  /** Workers terminated because a job overran its deadline (tests and metrics read it). */
  replaced = 0;
  /** Stops following the model thread's restarts. */
  private readonly unwatch: () => void;

  constructor(
    size: number,
    private readonly metrics?: Metrics,
    /** Handed to each worker, which loads its own detectors. */
    private readonly detectorOptions: DetectorOptions = {},
    private readonly limits: PoolLimits = defaultPoolLimits,
  ) {
    for (let i = 0; i < size; i++) this.slots.push(this.spawn());
    // A restarted model thread: every worker's port went with the old one (docs/learned-detectors.md#when-the-model-thread-crashes).
    this.unwatch = detectorOptions.models?.slots.length ? onModelThread((e) => e.kind === "restarted" && this.reconnect()) : () => {};
  }

  /** Hands each worker a port to the model thread that now runs. */
  private reconnect(): void {
    for (const slot of this.slots) {
      const port = detectorLink()?.port;
      if (port) slot.worker.postMessage({ modelPort: port } satisfies WorkerMessage, [port]);
    }
  }

  /** Resolves when every worker has loaded its detectors. */
  async ready(): Promise<void> {
    await Promise.all(this.slots.map((s) => s.ready));
  }

  private spawn(): Slot {
    const finished = new Int32Array(new SharedArrayBuffer(4));
    const nativeCalls = nativeCallWord();
    // Each worker reaches the model thread on a port of its own (docs/decisions.md#model-runtime); none while the thread
    // restarts, and a port once it runs again (reconnect).
    const modelLink = this.detectorOptions.models?.slots.length ? detectorLink() : undefined;
    const worker = new Worker(WORKER_ENTRY, {
      workerData: { detectors: { ...this.detectorOptions, modelLink }, finished, nativeCalls } satisfies WorkerData,
      transferList: modelLink?.port ? [modelLink.port] : [],
    });
    let markReady: () => void;
    const ready = new Promise<void>((resolve) => (markReady = resolve));
    const slot: Slot = { worker, ready, loaded: false, jobs: [], sent: 0, finished, nativeCalls };
    worker.on("message", (m: WorkerReply) => {
      if ("ready" in m) {
        slot.loaded = true;
        markReady();
        return this.dispatch();
      }
      const job = slot.jobs[0];
      if (!job || job.id !== m.id) return;
      this.finish(slot);
      if ("screening" in m) job.resolve(m.screening);
      else job.reject(errorOf(m));
      this.dispatch();
    });
    const fail = (err: Error) => {
      const job = slot.jobs[0];
      if (job) {
        this.finish(slot);
        job.reject(err);
      }
      // A crashed worker is replaced so the pool keeps its size; what it had not started runs elsewhere.
      this.requeue(slot);
      this.replace(slot);
      this.dispatch();
    };
    worker.on("error", fail);
    worker.on("exit", (code) => {
      if (!this.closed && this.slots.includes(slot)) fail(new Error(`screening worker exited with code ${code}`));
    });
    return slot;
  }

  private replace(slot: Slot): void {
    const i = this.slots.indexOf(slot);
    if (i < 0 || this.closed) return;
    this.slots[i] = this.spawn();
  }

  /** The running job of `slot` is done: the next one it holds starts, under its own watchdog. */
  private finish(slot: Slot): void {
    const job = slot.jobs.shift()!;
    clearTimeout(slot.watchdog);
    this.release(job);
    const next = slot.jobs[0];
    if (next) this.watch(slot, next);
  }

  private release(job: Job): void {
    const n = (this.runningByOrg.get(job.org) ?? 1) - 1;
    if (n > 0) this.runningByOrg.set(job.org, n);
    else this.runningByOrg.delete(job.org);
  }

  private watch(slot: Slot, job: Job): void {
    slot.watchdog = setTimeout(() => this.overrun(slot, job), Math.max(0, job.deadline - Date.now()) + this.limits.overrunGraceMs);
  }

  /** Jobs a lost worker held but had not started go back to the front of their organizations' queues. */
  private requeue(slot: Slot): void {
    for (const job of slot.jobs.splice(0).reverse()) {
      this.release(job);
      const queue = this.queues.get(job.org) ?? [];
      queue.unshift(job);
      this.queues.set(job.org, queue);
      this.queued++;
    }
  }

  /** Most workers one organization may hold at once: all but one, so another tenant always finds one. */
  private get perOrg(): number {
    return Math.max(1, this.slots.length - 1);
  }

  private dispatch(): void {
    const now = Date.now();
    // Idle workers first; then extra jobs go ahead to workers running one.
    for (const ahead of [false, true]) {
      for (const slot of this.slots) {
        while (ahead ? slot.jobs.length > 0 && takesExtra(slot) : slot.jobs.length === 0) {
          const job = this.take(now, ahead);
          if (!job) break;
          slot.jobs.push(job);
          this.runningByOrg.set(job.org, (this.runningByOrg.get(job.org) ?? 0) + 1);
          if (!ahead) this.watch(slot, job);
          slot.sent++;
          slot.worker.postMessage(job.message);
        }
      }
    }
    this.metrics?.screeningQueue.set(this.queued);
  }

  /**
   * The next job to run: organizations in turn, skipping those at their worker share; stale jobs
   * are refused. `ahead`: only an extra job, to send ahead to a busy worker. The share does not
   * apply to extra jobs: they are small and sent only while nothing waits, so another
   * organization's job waits for at most the two a worker holds.
   */
  private take(now: number, ahead: boolean): Job | undefined {
    for (const [org, queue] of this.queues) {
      if (!ahead && !queue[0]?.extra && (this.runningByOrg.get(org) ?? 0) >= this.perOrg) continue;
      while (queue.length && (!ahead || queue[0].extra)) {
        const job = queue.shift()!;
        this.queued--;
        if (now > job.deadline) job.reject(new DeadlineExceededError());
        else if (now - job.queuedAt > this.limits.maxWaitMs) job.reject(overloaded(`waited ${now - job.queuedAt} ms for a worker`, 1));
        else {
          // The organization goes to the back of the turn order.
          this.queues.delete(org);
          if (queue.length) this.queues.set(org, queue);
          return job;
        }
      }
      if (!queue.length) this.queues.delete(org);
    }
    return undefined;
  }

  /** A job still running after its deadline and the grace period: its worker is stuck in one call. */
  private overrun(slot: Slot, job: Job): void {
    if (slot.jobs[0] !== job || this.closed) return;
    clearTimeout(slot.watchdog);
    slot.jobs.shift();
    this.release(job);
    job.reject(new DeadlineExceededError());
    this.requeue(slot);
    this.replaced++;
    this.replace(slot);
    void terminateBetweenNativeCalls(slot.worker, slot.nativeCalls);
    this.dispatch();
  }

  /**
   * Screens on a worker. `org` is the fairness key; `deadline` (epoch ms) the
   * request's. Rejects with an `unavailable` ApiError (503, Retry-After) when
   * the queue is full, and with DeadlineExceededError past the deadline. `extra`: a job sent
   * because `hasRoom()` said so, which may go ahead to a busy worker.
   */
  run(policy: ScreeningPolicy, guardrails: StoredGuardrail[], parts: Part[], org = "", deadline = Date.now() + 30_000, extra = false): Promise<Screening> {
    if (this.closed) return Promise.reject(overloaded("shutting down", 1));
    const queue = this.queues.get(org) ?? [];
    // Retry-After: roughly the time the jobs ahead need, at least a second.
    const retry = Math.max(1, Math.ceil(this.limits.maxWaitMs / 1000));
    if (this.queued >= this.limits.maxQueue) return Promise.reject(overloaded(`${this.queued} requests waiting`, retry));
    if (queue.length >= this.limits.maxQueuePerOrg) return Promise.reject(overloaded(`${queue.length} requests of this organization waiting`, retry));
    const id = this.nextId++;
    return new Promise<Screening>((resolve, reject) => {
      queue.push({ id, org, extra, deadline, queuedAt: Date.now(), message: { id, policy, guardrails, parts, deadline }, resolve, reject });
      if (!this.queues.has(org)) this.queues.set(org, queue);
      this.queued++;
      this.dispatch();
    });
  }

  /** Jobs waiting for a worker, and jobs running. */
  load(): { queued: number; running: number } {
    return { queued: this.queued, running: this.slots.filter((s) => s.jobs.length).length };
  }

  /** Nothing waits and a loaded worker can take a small job now, at once or right after the small one it runs. */
  hasRoom(): boolean {
    return this.queued === 0 && this.slots.some(takesExtra);
  }

  async close(): Promise<void> {
    this.closed = true;
    this.unwatch();
    for (const queue of this.queues.values()) for (const job of queue) job.reject(overloaded("shutting down", 1));
    this.queues.clear();
    for (const s of this.slots) clearTimeout(s.watchdog);
    await Promise.all(this.slots.map((s) => terminateBetweenNativeCalls(s.worker, s.nativeCalls)));
  }
}
