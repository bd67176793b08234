// PolicyService handlers (spec 4.1-4.4): translate between messages and the
// repositories, apply the organization's switches and limits.
import { create } from "@bufbuild/protobuf";
import type { ServiceImpl } from "@connectrpc/connect";
import { PolicyResponseSchema, type PolicyService } from "../../gen/parapet/v1/policies_pb.js";
import { ApiError } from "../api/errors.js";
import { callerOrg } from "../api/tenant.js";
import type { Organization, Organizations } from "../auth/organizations.js";
import type { Projects, StoredProject } from "../projects/repository.js";
import { customPolicyOf, policyInputOf } from "./convert.js";
import { DEFAULT_POLICY_ID, defaultPolicy } from "./default-policy.js";
import { DuplicatePolicyName, type Policies } from "./repository.js";

/** Where each custom guardrail id runs, for ids that exist in the organization. */
export type GuardrailLocations = (orgId: string, ids: string[]) => Promise<Map<string, string[]>>;

export interface PolicyServiceDeps {
  orgs: Organizations;
  policies: Policies;
  projects: Projects;
  guardrailLocations: GuardrailLocations;
}

function ok(message: string, id: string) {
  return create(PolicyResponseSchema, { status: "ok", message, id });
}

function duplicateName(name: string): ApiError {
  return new ApiError("duplicate_name", `a policy named '${name}' already exists in this organization`);
}

function readOnlyDefault(): ApiError {
  return new ApiError("forbidden", `${DEFAULT_POLICY_ID} is the built-in default policy and cannot be changed or deleted`);
}

export function policyService(deps: PolicyServiceDeps): ServiceImpl<typeof PolicyService> {
  const { orgs, policies, projects } = deps;

  async function enabledOrg(ctx: Parameters<typeof callerOrg>[0]): Promise<Organization> {
    const org = await callerOrg(ctx, orgs);
    if (!org.features.policies) throw new ApiError("feature_disabled", "Policies V2 is not enabled for this organization");
    return org;
  }

  /** Projects whose requests this policy screens. */
  async function projectsUsing(org: Organization, policyId: string): Promise<StoredProject[]> {
    if (policyId !== DEFAULT_POLICY_ID) return projects.usingPolicy(org._id, policyId);
    const explicit = await projects.usingPolicy(org._id, DEFAULT_POLICY_ID);
    const implicit = await projects.usingPolicy(org._id, null);
    const all = [...implicit, ...explicit];
    if (!all.some((p) => p._id === org.default_project_id)) {
      const stored = await projects.get(org._id, org.default_project_id, org.default_project_id);
      if (stored && (stored.policy_id === null || stored.policy_id === DEFAULT_POLICY_ID)) all.unshift(stored);
    }
    return all;
  }

  return {
    async createPolicy(req, ctx) {
      const org = await enabledOrg(ctx);
      if ((await policies.count(org._id)) >= org.max_policies) {
        throw new ApiError("policy_limit_reached", `this organization has reached its maximum of ${org.max_policies} policies`);
      }
      const input = policyInputOf(req.policy!);
      try {
        const created = await policies.create(org._id, input);
        return ok("policy created", created._id);
      } catch (err) {
        if (err instanceof DuplicatePolicyName) throw duplicateName(input.name);
        throw err;
      }
    },

    async getPolicy(req, ctx) {
      const org = await enabledOrg(ctx);
      const stored = req.policyId === DEFAULT_POLICY_ID ? defaultPolicy(org._id) : await policies.get(org._id, req.policyId);
      if (!stored) throw new ApiError("not_found", `no policy '${req.policyId}' in this organization`);
      const using = await projectsUsing(org, stored._id);
      const locations = await deps.guardrailLocations(org._id, stored.custom_guardrail_ids);
      return { policy: customPolicyOf(stored, using, locations) };
    },

    async updatePolicy(req, ctx) {
      const org = await enabledOrg(ctx);
      if (req.policyId === DEFAULT_POLICY_ID) throw readOnlyDefault();
      const input = policyInputOf(req.policy!);
      try {
        const updated = await policies.update(org._id, req.policyId, input);
        if (!updated) throw new ApiError("not_found", `no policy '${req.policyId}' in this organization`);
        return ok(`policy updated to version ${updated.version_id}`, updated._id);
      } catch (err) {
        if (err instanceof DuplicatePolicyName) throw duplicateName(input.name);
        throw err;
      }
    },

    async deletePolicy(req, ctx) {
      const org = await enabledOrg(ctx);
      if (req.policyId === DEFAULT_POLICY_ID) throw readOnlyDefault();
      if (!(await policies.get(org._id, req.policyId))) {
        throw new ApiError("not_found", `no policy '${req.policyId}' in this organization`);
      }
      const using = await projects.usingPolicy(org._id, req.policyId);
      if (using.length > 0) {
        throw new ApiError(
          "policy_in_use",
          `policy '${req.policyId}' is assigned to ${using.length} project(s): ${using.map((p) => p._id).join(", ")}; assign them another policy first`,
        );
      }
      await policies.delete(org._id, req.policyId);
      return ok("policy deleted", req.policyId);
    },
  };
}
