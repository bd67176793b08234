// A screening worker thread (see worker-pool.ts): loads the detectors once,
// then screens the jobs the pool sends it, one at a time.
import { parentPort, workerData } from "node:worker_threads";
import type { StoredGuardrail } from "../custom-guardrails/repository.js";
import { DeadlineExceededError, GuardrailLimitError, screen, type Screening, type ScreeningPolicy } from "../screening/engine.js";
import { GUARDRAIL_LIMITS } from "../screening/limits.js";
import { detectFnOf } from "../screening/registry.js";
import type { Part } from "../screening/parts.js";
import { loadDetectors, prepareDetectors, type DetectorOptions } from "../screening/registry.js";
import { GuardrailCache } from "./resolve.js";

export interface WorkerJob {
  id: number;
  policy: ScreeningPolicy;
  guardrails: StoredGuardrail[];
  parts: Part[];
  /** Epoch milliseconds: the engine stops between detectors after it. */
  deadline: number;
}

export type WorkerReply = { ready: true } | { id: number; screening: Screening } | { id: number; error: string; kind: "deadline" | "limit" | "error"; limit?: number };

const port = parentPort!;
const cache = new GuardrailCache();
await loadDetectors(workerData as DetectorOptions);
const reply = (m: WorkerReply) => port.postMessage(m);
port.on("message", async (job: WorkerJob) => {
  try {
    await prepareDetectors(job.parts);
    reply({ id: job.id, screening: screen(job.policy, cache.active(job.guardrails), job.parts, detectFnOf, { deadline: job.deadline }) });
  } catch (err) {
    const kind = err instanceof DeadlineExceededError ? "deadline" : err instanceof GuardrailLimitError ? "limit" : "error";
    reply({ id: job.id, error: err instanceof Error ? err.message : String(err), kind, limit: kind === "limit" ? GUARDRAIL_LIMITS.scannedChars : undefined });
  }
});
reply({ ready: true });
