// A screening worker thread (see worker-pool.ts): loads the detectors once,
// then screens the jobs the pool sends it, one at a time.
import { parentPort, workerData } from "node:worker_threads";
import type { StoredGuardrail } from "../custom-guardrails/repository.js";
import { DeadlineExceededError, GuardrailLimitError, screen, type Screening, type ScreeningPolicy } from "../screening/engine.js";
import { GUARDRAIL_LIMITS } from "../screening/limits.js";
import type { MessagePort } from "node:worker_threads";
import { ModelDeadlineError, ModelUnavailableError } from "../screening/models/host.js";
import { detectFnOf } from "../screening/registry.js";
import type { Part } from "../screening/parts.js";
import { loadDetectors, prepareDetectors, reconnectDetectors, type DetectorOptions } from "../screening/registry.js";
import { markNativeCalls, type NativeCallWord } from "../screening/native-calls.js";
import { GuardrailCache } from "./guardrail-cache.js";

export interface WorkerJob {
  id: number;
  policy: ScreeningPolicy;
  guardrails: StoredGuardrail[];
  parts: Part[];
  /** Epoch milliseconds: the engine stops between detectors after it. */
  deadline: number;
}

/** A job, or a new port to the model thread after it restarted. */
export type WorkerMessage = WorkerJob | { modelPort: MessagePort };

export interface WorkerData {
  detectors: DetectorOptions;
  /** Jobs this worker finished, counted here as each finishes: the pool reads it before the answer arrives. */
  finished: Int32Array;
  /** Marks this worker's native calls, so that the pool ends it only between them (src/screening/native-calls.ts). */
  nativeCalls: NativeCallWord;
}

export type WorkerReply =
  | { ready: true }
  | { id: number; screening: Screening }
  | { id: number; error: string; kind: "deadline" | "limit" | "unavailable" | "error"; limit?: number; retryAfterS?: number };

const port = parentPort!;
const cache = new GuardrailCache();
const { detectors, finished, nativeCalls } = workerData as WorkerData;
markNativeCalls(nativeCalls);
await loadDetectors(detectors);
const reply = (m: WorkerReply) => port.postMessage(m);
async function run(job: WorkerJob): Promise<void> {
  let answer: WorkerReply;
  try {
    await prepareDetectors(job.parts, job.policy.detectors, job.deadline);
    answer = { id: job.id, screening: screen(job.policy, cache.active(job.guardrails), job.parts, detectFnOf, { deadline: job.deadline }) };
  } catch (err) {
    const kind = err instanceof DeadlineExceededError || err instanceof ModelDeadlineError ? "deadline" : err instanceof GuardrailLimitError ? "limit" : "error";
    const error = err instanceof Error ? err.message : String(err);
    if (err instanceof ModelUnavailableError) answer = { id: job.id, error, kind: "unavailable", retryAfterS: err.retryAfterS };
    else answer = { id: job.id, error, kind, limit: kind === "limit" ? GUARDRAIL_LIMITS.scannedChars : undefined };
  }
  Atomics.add(finished, 0, 1);
  reply(answer);
}
// One job at a time, in the order sent: the pool may send the next job before this one answered.
let last = Promise.resolve();
port.on("message", (m: WorkerMessage) => {
  // A new port is taken at once, not behind the jobs: the jobs after it use it.
  if ("modelPort" in m) reconnectDetectors(m.modelPort);
  else last = last.then(() => run(m));
});
reply({ ready: true });
