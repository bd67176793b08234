// A stored policy as the screening engine takes it.
import type { StoredPolicy } from "../policies/repository.js";
import type { ScreeningPolicy } from "../screening/engine.js";

/** The engine's view of a policy: its id, default threshold and detectors (a draft has no stored id: it passes its own). */
export function screeningPolicyOf(policy: Pick<StoredPolicy, "_id" | "default_threshold" | "detectors">): ScreeningPolicy {
  return { id: policy._id, threshold: policy.default_threshold, detectors: policy.detectors };
}
