// Which policy screens a request: project -> policy, no project -> the
// organization's default project, no policy -> the built-in default policy.
import { ApiError } from "../api/errors.js";
import type { Organization } from "../auth/organizations-repository.js";
import type { CustomGuardrails, StoredGuardrail } from "../custom-guardrails/repository.js";
import { DEFAULT_POLICY_ID, defaultPolicy } from "../policies/default-policy.js";
import type { Policies, StoredPolicy } from "../policies/repository.js";
import type { Projects, StoredProject } from "../projects/repository.js";

export interface Resolved {
  project: StoredProject;
  policy: StoredPolicy;
  /** The built-in default policy applies (no policy assigned, or the assigned one is gone). */
  isDefault: boolean;
  /** The project names a policy that no longer exists (screened with the default policy). */
  danglingPolicyId: string | null;
  guardrails: StoredGuardrail[];
}

export interface ResolveDeps {
  policies: Policies;
  projects: Projects;
  guardrails: CustomGuardrails;
}

/**
 * A policy of the organization chosen by id rather than through a project
 * (detailed results' `policy_id`): the default project stands in for the
 * project, since results name one.
 */
export async function resolvePolicyById(deps: ResolveDeps, org: Organization, policyId: string): Promise<Resolved> {
  const project = await deps.projects.get(org._id, org.default_project_id, org.default_project_id);
  if (!project) throw new ApiError("not_found", `no project '${org.default_project_id}' in this organization`);
  const isDefault = policyId === DEFAULT_POLICY_ID;
  const policy = isDefault ? defaultPolicy(org._id) : await deps.policies.get(org._id, policyId);
  if (!policy) throw new ApiError("not_found", `no policy '${policyId}' in this organization`);
  const guardrails = await deps.guardrails.many(org._id, policy.custom_guardrail_ids);
  return { project, policy, isDefault, danglingPolicyId: null, guardrails };
}

/**
 * The `project_id` screening clients send for "no particular project": Lakera
 * Guard's examples and several integrations' settings default to it. Project
 * ids are always assigned by the service (`project-...`), so no project can be
 * named this (docs/decisions.md#project-id-default).
 */
const DEFAULT_PROJECT_ALIAS = "default";

export async function resolvePolicy(deps: ResolveDeps, org: Organization, projectId: string | undefined): Promise<Resolved> {
  const id = projectId === undefined || projectId === DEFAULT_PROJECT_ALIAS ? org.default_project_id : projectId;
  const project = await deps.projects.get(org._id, id, org.default_project_id);
  if (!project) throw new ApiError("not_found", `no project '${id}' in this organization`);
  let policy: StoredPolicy | null = null;
  let danglingPolicyId: string | null = null;
  if (project.policy_id && project.policy_id !== DEFAULT_POLICY_ID) {
    policy = await deps.policies.get(org._id, project.policy_id);
    // A policy deleted under a project (a race with delete's 409 check) must
    // not open the gate: fall back to the strictest, built-in policy.
    if (!policy) danglingPolicyId = project.policy_id;
  }
  const isDefault = policy === null;
  const effective = policy ?? defaultPolicy(org._id);
  const guardrails = await deps.guardrails.many(org._id, effective.custom_guardrail_ids);
  return { project, policy: effective, isDefault, danglingPolicyId, guardrails };
}
