// PolicyService handlers (docs/api.md#policies): translate between messages and the
// repositories, apply the organization's switches and limits.
import { create } from "@bufbuild/protobuf";
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import type { ServiceImpl } from "@connectrpc/connect";
import { PolicyResponseSchema, type PolicyService } from "../../gen/parapet/v1/policies_pb.js";
import { ApiError } from "../api/errors.js";
import { decodeCursor, DEFAULT_PAGE_LIMIT, isAfter, pageOf } from "../api/paging.js";
import { callerOrgWith } from "../api/tenant.js";
import type { Organization, Organizations } from "../auth/organizations-repository.js";
import { customPolicyOf, policyInputOf, toDetectorConfig, type PolicyProject } from "./convert.js";
import { DEFAULT_POLICY_ID, defaultPolicy } from "./default-policy.js";
import { DuplicatePolicyName, type Policies } from "./repository.js";

/** Where each custom guardrail id runs, for ids that exist in the organization. */
export type GuardrailLocations = (orgId: string, ids: string[]) => Promise<Map<string, string[]>>;

/** Projects whose requests a policy screens; projects name their policy, so they are asked. */
export type ProjectsScreenedBy = (org: Organization, policyId: string) => Promise<PolicyProject[]>;

/** Versions ListPolicyVersions answers when the request names no limit. */
const DEFAULT_VERSIONS_LIMIT = 100;

export interface PolicyServiceDeps {
  orgs: Organizations;
  policies: Policies;
  projectsScreenedBy: ProjectsScreenedBy;
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

// eslint-disable-next-line max-lines-per-function -- the service's six handlers in one object, each short; the factory is their list
export function policyService(deps: PolicyServiceDeps): ServiceImpl<typeof PolicyService> {
  const { orgs, policies, projectsScreenedBy } = deps;
  const enabledOrg = (ctx: Parameters<typeof callerOrgWith>[0]) => callerOrgWith(ctx, orgs, "policies");

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
      const using = await projectsScreenedBy(org, stored._id);
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

    async listPolicies(req, ctx) {
      const org = await enabledOrg(ctx);
      const limit = req.limit ?? DEFAULT_PAGE_LIMIT;
      const after = decodeCursor("policies", req.cursor);
      // The built-in default policy is readable by id, so it is listed too: first, as its created time is the epoch.
      const builtIn = defaultPolicy(org._id);
      const head = isAfter({ created: builtIn.created_at, id: builtIn._id }, after) ? [builtIn] : [];
      // One more than asked tells whether a next page exists.
      const stored = await policies.page(org._id, after, limit + 1 - head.length);
      const page = pageOf("policies", [...head, ...stored], limit, (p) => ({ created: p.created_at, id: p._id }));
      const locations = await deps.guardrailLocations(org._id, [...new Set(page.items.flatMap((p) => p.custom_guardrail_ids))]);
      // One indexed query per listed policy (org_policy index): an empty `projects` would read as "unused".
      const using = await Promise.all(page.items.map((p) => projectsScreenedBy(org, p._id)));
      return { policies: page.items.map((p, i) => customPolicyOf(p, using[i], locations)), nextCursor: page.nextCursor };
    },

    async deletePolicy(req, ctx) {
      const org = await enabledOrg(ctx);
      if (req.policyId === DEFAULT_POLICY_ID) throw readOnlyDefault();
      if (!(await policies.get(org._id, req.policyId))) {
        throw new ApiError("not_found", `no policy '${req.policyId}' in this organization`);
      }
      const using = await projectsScreenedBy(org, req.policyId);
      if (using.length > 0) {
        throw new ApiError(
          "policy_in_use",
          `policy '${req.policyId}' is assigned to ${using.length} project(s): ${using.map((p) => p._id).join(", ")}; assign them another policy first`,
        );
      }
      await policies.delete(org._id, req.policyId);
      return ok("policy deleted", req.policyId);
    },

    // The audit trail the repository keeps of every saved state of a policy, newest first (docs/api.md#policy-versions).
    async listPolicyVersions(req, ctx) {
      const org = await enabledOrg(ctx);
      const limit = req.limit ?? DEFAULT_VERSIONS_LIMIT;
      // The built-in default policy is never saved: it has one version, itself.
      const versions =
        req.policyId === DEFAULT_POLICY_ID
          ? [{ ...defaultPolicy(org._id), version_id: 1 }]
          : (await policies.get(org._id, req.policyId))
            ? await policies.versionsOf(org._id, req.policyId)
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
