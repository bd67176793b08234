// Screening off the event loop (docs/decisions.md#worker-threads). Detectors are synchronous CPU work:
// a 50,000-character conversation takes tens of milliseconds, during which a
// single-threaded server answers nothing else. Requests over a size threshold
// are screened on worker threads instead, so small requests keep their latency.
// Small requests stay inline: a thread hop costs more than they do.
import { Worker } from "node:worker_threads";
import type { StoredGuardrail } from "../custom-guardrails/repository.js";
import type { Metrics } from "../observability/metrics.js";
import type { Screening, ScreeningPolicy } from "../screening/engine.js";
import type { Part } from "../screening/parts.js";
import type { DetectorOptions } from "../screening/registry.js";
import type { WorkerJob } from "./worker.js";

// Compiled (dist/, `npm start`) the worker loads its JavaScript directly; from
// the TypeScript sources (tests, tsx) it first registers tsx's loader.
const WORKER_ENTRY = import.meta.url.endsWith(".js") ? new URL("./worker.js", import.meta.url) : new URL("./worker-entry.mjs", import.meta.url);

interface Pending {
  resolve: (s: Screening) => void;
  reject: (e: Error) => void;
}

interface Slot {
  worker: Worker;
  ready: Promise<void>;
  pending: Map<number, Pending>;
}

export class ScreeningPool {
  private readonly slots: Slot[] = [];
  private nextId = 1;
  private closed = false;

  constructor(
    size: number,
    private readonly metrics?: Metrics,
    /** Handed to each worker, which loads its own detectors. */
    private readonly detectorOptions: DetectorOptions = {},
  ) {
    for (let i = 0; i < size; i++) this.slots.push(this.spawn());
  }

  /** Resolves when every worker has loaded its detectors. */
  async ready(): Promise<void> {
    await Promise.all(this.slots.map((s) => s.ready));
  }

  private spawn(): Slot {
    const worker = new Worker(WORKER_ENTRY, { workerData: this.detectorOptions });
    const pending = new Map<number, Pending>();
    let markReady: () => void;
    const ready = new Promise<void>((resolve) => (markReady = resolve));
    const slot: Slot = { worker, ready, pending };
    worker.on("message", (m: { ready?: true; id?: number; screening?: Screening; error?: string }) => {
      if (m.ready) return markReady();
      const p = pending.get(m.id!);
      if (!p) return;
      pending.delete(m.id!);
      this.updateQueue();
      if (m.error !== undefined) p.reject(new Error(`screening worker: ${m.error}`));
      else p.resolve(m.screening!);
    });
    const fail = (err: Error) => {
      for (const p of pending.values()) p.reject(err);
      pending.clear();
      this.updateQueue();
      // A crashed worker is replaced so the pool keeps its size.
      const i = this.slots.indexOf(slot);
      if (i >= 0 && !this.closed) this.slots[i] = this.spawn();
    };
    worker.on("error", fail);
    worker.on("exit", (code) => {
      if (!this.closed) fail(new Error(`screening worker exited with code ${code}`));
    });
    return slot;
  }

  private updateQueue(): void {
    // Each worker runs one job at a time; the rest are waiting.
    const waiting = this.slots.reduce((n, s) => n + Math.max(0, s.pending.size - 1), 0);
    this.metrics?.screeningQueue.set(waiting);
  }

  run(policy: ScreeningPolicy, guardrails: StoredGuardrail[], parts: Part[]): Promise<Screening> {
    const slot = this.slots.reduce((a, b) => (b.pending.size < a.pending.size ? b : a));
    const id = this.nextId++;
    const job: WorkerJob = { id, policy, guardrails, parts };
    return new Promise<Screening>((resolve, reject) => {
      slot.pending.set(id, { resolve, reject });
      this.updateQueue();
      slot.worker.postMessage(job);
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    await Promise.all(this.slots.map((s) => s.worker.terminate()));
  }
}
