// A decision, once logged, counted in the metrics and named on the access log line of the call
// that logged it (docs/operations.md#metrics, docs/operations.md#logs): /v2/guard and a stream's end alike.
import type { StoredLog } from "../logs/repository.js";
import type { GuardDeps } from "./deps.js";

export function observeDecision(deps: Pick<GuardDeps, "metrics" | "access">, log: StoredLog): void {
  const projectId = log.meta.project_id;
  deps.metrics?.recordDecision({ projectId, flagged: log.flagged, fired: log.fired });
  deps.access?.note(log._id, { project_id: projectId, decision: log.flagged ? "flagged" : "not_flagged" });
}
