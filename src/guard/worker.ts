// A screening worker thread (see worker-pool.ts): loads the detectors once,
// then screens the jobs the pool sends it.
import { parentPort, workerData } from "node:worker_threads";
import type { StoredGuardrail } from "../custom-guardrails/repository.js";
import { screen, type ScreeningPolicy } from "../screening/engine.js";
import type { Part } from "../screening/parts.js";
import { loadDetectors, prepareDetectors, type DetectorOptions } from "../screening/registry.js";
import { GuardrailCache } from "./resolve.js";

export interface WorkerJob {
  id: number;
  policy: ScreeningPolicy;
  guardrails: StoredGuardrail[];
  parts: Part[];
}

const port = parentPort!;
const cache = new GuardrailCache();
await loadDetectors(workerData as DetectorOptions);
port.on("message", async (job: WorkerJob) => {
  try {
    await prepareDetectors(job.parts);
    port.postMessage({ id: job.id, screening: screen(job.policy, cache.active(job.guardrails), job.parts) });
  } catch (err) {
    port.postMessage({ id: job.id, error: err instanceof Error ? err.message : String(err) });
  }
});
port.postMessage({ ready: true });
