// A screening worker thread (see worker-pool.ts): loads the detectors once,
// then screens the jobs the pool sends it.
import { parentPort } from "node:worker_threads";
import { screen, type ScreeningPolicy } from "./engine.js";
import type { Part } from "./parts.js";
import { detectorRegistry, loadDetectors, prepareDetectors } from "./registry.js";
import { GuardrailCache } from "./resolve.js";
import type { StoredGuardrail } from "../custom-guardrails/repository.js";

export interface WorkerJob {
  id: number;
  policy: ScreeningPolicy;
  guardrails: StoredGuardrail[];
  parts: Part[];
}

const port = parentPort!;
const cache = new GuardrailCache();
await loadDetectors();
port.on("message", async (job: WorkerJob) => {
  try {
    await prepareDetectors(job.parts);
    port.postMessage({ id: job.id, screening: screen(job.policy, cache.active(job.guardrails), job.parts, detectorRegistry) });
  } catch (err) {
    port.postMessage({ id: job.id, error: err instanceof Error ? err.message : String(err) });
  }
});
port.postMessage({ ready: true });
