// ListPolicyVersions (docs/api.md#policy-versions): the audit trail the
// repository keeps of every saved state of a policy, newest first.
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import type { ServiceImpl } from "@connectrpc/connect";
import type { PolicyService } from "../../gen/parapet/v1/policies_pb.js";
import { ApiError } from "../api/errors.js";
import { callerOrgWith } from "../api/tenant.js";
import type { Organizations } from "../auth/organizations.js";
import { toDetectorConfig } from "./convert.js";
import { DEFAULT_POLICY_ID, defaultPolicy } from "./default-policy.js";
import type { Policies } from "./repository.js";

const DEFAULT_VERSIONS_LIMIT = 100;

export function policyVersions(deps: { orgs: Organizations; policies: Policies }): Pick<ServiceImpl<typeof PolicyService>, "listPolicyVersions"> {
  return {
    async listPolicyVersions(req, ctx) {
      const org = await callerOrgWith(ctx, deps.orgs, "policies");
      const limit = req.limit ?? DEFAULT_VERSIONS_LIMIT;
      // The built-in default policy is never saved: it has one version, itself.
      const versions =
        req.policyId === DEFAULT_POLICY_ID
          ? [{ ...defaultPolicy(org._id), version_id: 1 }]
          : (await deps.policies.get(org._id, req.policyId))
            ? await deps.policies.versionsOf(org._id, req.policyId)
            : null;
      if (!versions) throw new ApiError("not_found", `no policy '${req.policyId}' in this organization`);
      return {
        versions: versions
          .slice()
          .sort((a, b) => b.version_id - a.version_id)
          .slice(0, limit)
          .map((v) => ({
            versionId: v.version_id,
            name: v.name,
            defaultThreshold: v.default_threshold,
            detectors: v.detectors.map(toDetectorConfig),
            customGuardrailIds: v.custom_guardrail_ids,
            createdAt: timestampFromDate(v.created_at),
          })),
      };
    },
  };
}
