// LintPolicyDraft (docs/api.md#policy-drafts): the policy health lint of a
// policy that is not saved yet, so an editor can show warnings while typing.
import type { ServiceImpl } from "@connectrpc/connect";
import type { PolicyDraftService } from "../../gen/parapet/v1/policy_drafts_pb.js";
import { ApiError } from "../api/errors.js";
import { callerOrgWith } from "../api/tenant.js";
import type { Organizations } from "../auth/organizations.js";
import type { CustomGuardrails } from "../custom-guardrails/repository.js";
import { lintPolicy } from "./lint.js";
import type { Resolved } from "./resolve.js";
import { policyInputOf } from "../policies/convert.js";

export function draftLint(deps: { orgs: Organizations; guardrails: CustomGuardrails }): Pick<ServiceImpl<typeof PolicyDraftService>, "lintPolicyDraft"> {
  return {
    async lintPolicyDraft(req, ctx) {
      const org = await callerOrgWith(ctx, deps.orgs, "policies");
      if (!req.policy) throw new ApiError("validation_failed", "validation failed: policy is required");
      const draft = policyInputOf(req.policy);
      const guardrails = await deps.guardrails.many(org._id, draft.custom_guardrail_ids);
      // The lint reads the policy and its guardrails only; a draft has no project and no stored identity.
      const resolved = {
        project: null,
        policy: { ...draft, _id: "draft", org_id: org._id, version_id: 0, created_at: new Date(), updated_at: null },
        isDefault: false,
        danglingPolicyId: null,
        guardrails,
      } as unknown as Resolved;
      const items = lintPolicy(resolved);
      return { lint: { passed: !items.some((i) => i.severity === "error"), errors: items } };
    },
  };
}
