// The built-in default policy (docs/api.md#the-default-policy, docs/decisions.md#default-policy): every
// detector that needs no configuration, at every location it is built for, at
// the strictest threshold. Labels (what a tool call does) are left out: they
// describe traffic rather than judge it, and flagging every ordinary tool call
// would block every agent. It has a stable id and is never stored.
import { detectors } from "../screening/registry.js";
import type { Threshold } from "../screening/vocabulary.js";
import type { StoredDetector, StoredPolicy } from "./repository.js";

export const DEFAULT_POLICY_ID = "policy-default";

const defaultDetectors: StoredDetector[] = detectors
  .filter((d) => d.requires.length === 0 && d.role === "defense")
  .flatMap((d) => d.meaningful.map((location) => ({ type: d.type, location })));

export function defaultPolicy(orgId: string): StoredPolicy {
  return {
    _id: DEFAULT_POLICY_ID,
    org_id: orgId,
    name: "Default policy",
    version_id: 1,
    default_threshold: "l4_less_likely" satisfies Threshold,
    detectors: defaultDetectors,
    custom_guardrail_ids: [],
    created_at: new Date(0),
    updated_at: null,
  };
}
