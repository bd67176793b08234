// A screening worker thread (see worker-pool.ts): loads the detectors once,
// then screens the jobs the pool sends it, one at a time.
import { parentPort, workerData } from "node:worker_threads";
import type { StoredGuardrail } from "../custom-guardrails/repository.js";
import { DeadlineExceededError, GuardrailLimitError, screen, type Screening, type ScreeningPolicy } from "../screening/engine.js";
import { GUARDRAIL_LIMITS } from "../screening/limits.js";
import { ModelDeadlineError } from "../screening/models/host.js";
import { detectFnOf } from "../screening/registry.js";
import type { Part } from "../screening/parts.js";
import { loadDetectors, prepareDetectors, type DetectorOptions } from "../screening/registry.js";
import { GuardrailCache } from "./guardrail-cache.js";

export interface WorkerJob {
  id: number;
  policy: ScreeningPolicy;
  guardrails: StoredGuardrail[];
  parts: Part[];
  /** Epoch milliseconds: the engine stops between detectors after it. */
  deadline: number;
}

export interface WorkerData {
  detectors: DetectorOptions;
  /** Jobs this worker finished, counted here as each finishes: the pool reads it before the answer arrives. */
  finished: Int32Array;
}

export type WorkerReply = { ready: true } | { id: number; screening: Screening } | { id: number; error: string; kind: "deadline" | "limit" | "error"; limit?: number };

const port = parentPort!;
const cache = new GuardrailCache();
const { detectors, finished } = workerData as WorkerData;
await loadDetectors(detectors);
const reply = (m: WorkerReply) => port.postMessage(m);
async function run(job: WorkerJob): Promise<void> {
  let answer: WorkerReply;
  try {
    await prepareDetectors(job.parts, job.policy.detectors, job.deadline);
    answer = { id: job.id, screening: screen(job.policy, cache.active(job.guardrails), job.parts, detectFnOf, { deadline: job.deadline }) };
  } catch (err) {
    const kind = err instanceof DeadlineExceededError || err instanceof ModelDeadlineError ? "deadline" : err instanceof GuardrailLimitError ? "limit" : "error";
    answer = { id: job.id, error: err instanceof Error ? err.message : String(err), kind, limit: kind === "limit" ? GUARDRAIL_LIMITS.scannedChars : undefined };
  }
  Atomics.add(finished, 0, 1);
  reply(answer);
}
// One job at a time, in the order sent: the pool may send the next job before this one answered.
let last = Promise.resolve();
port.on("message", (job: WorkerJob) => {
  last = last.then(() => run(job));
});
reply({ ready: true });
