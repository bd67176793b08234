// The first-generation /v1-beta/policies endpoints (docs/api.md#retired-endpoints): always 410,
// naming the /v1/policies operation that replaces each one.
import type { ServiceImpl } from "@connectrpc/connect";
import type { RetiredPolicyService } from "../../gen/parapet/v1/retired_policies_pb.js";
import { ApiError } from "../api/errors.js";

function retired(old: string, replacement: string): never {
  throw new ApiError("endpoint_retired", `${old} is retired; use ${replacement} instead`);
}

export const retiredPolicyService: ServiceImpl<typeof RetiredPolicyService> = {
  createPolicyV1Beta: () => retired("POST /v1-beta/policies", "POST /v1/policies"),
  getPolicyV1Beta: () => retired("GET /v1-beta/policies/{policyId}", "GET /v1/policies/{policyId}"),
  updatePolicyV1Beta: () => retired("PUT /v1-beta/policies/{policyId}", "PUT /v1/policies/{policyId}"),
  deletePolicyV1Beta: () => retired("DELETE /v1-beta/policies/{policyId}", "DELETE /v1/policies/{policyId}"),
};
