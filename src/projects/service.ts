// ProjectService handlers (docs/api.md#projects). Error statuses the contract leaves open
// are listed in docs/api.md: 404 unknown id, 422 invalid body or a policy_id
// that names no policy of the organization, 409 deleting the default project.
import { create } from "@bufbuild/protobuf";
import type { HandlerContext, ServiceImpl } from "@connectrpc/connect";
import { ProjectSchema, type Project, type ProjectService } from "../../gen/parapet/v1/projects_pb.js";
import { ApiError, validationFailed } from "../api/errors.js";
import { decodeCursor, DEFAULT_PAGE_LIMIT, pageOf } from "../api/paging.js";
import { callerOrg } from "../api/tenant.js";
import type { Organization, Organizations } from "../auth/organizations-repository.js";
import { DEFAULT_POLICY_ID } from "../policies/default-policy.js";
import type { Policies } from "../policies/repository.js";
import type { ProjectAction, ProjectInput, Projects, StoredProject } from "./repository.js";

export interface ProjectServiceDeps {
  orgs: Organizations;
  policies: Policies;
  projects: Projects;
}

function projectMessage(p: StoredProject): Project {
  return create(ProjectSchema, {
    id: p._id,
    name: p.name,
    policyId: p.policy_id ?? undefined,
    projectMetadata: p.project_metadata,
    action: p.action,
  });
}

/** Projects whose requests a policy screens: the default policy's include every project that names none. */
export async function projectsScreenedBy(projects: Projects, org: Organization, policyId: string): Promise<StoredProject[]> {
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

export function projectService(deps: ProjectServiceDeps): ServiceImpl<typeof ProjectService> {
  const { orgs, policies, projects } = deps;

  async function inputOf(org: Organization, p: Project): Promise<ProjectInput> {
    const policyId = p.policyId ?? null;
    if (policyId !== null && policyId !== DEFAULT_POLICY_ID && !(await policies.get(org._id, policyId))) {
      throw validationFailed([{ field: "policy_id", message: `no policy '${policyId}' in this organization`, rule: "" }]);
    }
    return {
      name: p.name.trim(),
      policy_id: policyId,
      project_metadata: { ...p.projectMetadata },
      action: p.action as ProjectAction | undefined,
    };
  }

  async function existing(org: Organization, id: string): Promise<StoredProject> {
    const found = await projects.get(org._id, id, org.default_project_id);
    if (!found) throw new ApiError("not_found", `no project '${id}' in this organization`);
    return found;
  }

  const orgOf = (ctx: HandlerContext) => callerOrg(ctx, orgs);

  return {
    async createProject(req, ctx) {
      const org = await orgOf(ctx);
      return projectMessage(await projects.create(org._id, await inputOf(org, req.project!)));
    },

    async getProject(req, ctx) {
      const org = await orgOf(ctx);
      return projectMessage(await existing(org, req.projectId));
    },

    async updateProject(req, ctx) {
      const org = await orgOf(ctx);
      await existing(org, req.projectId);
      const updated = await projects.update(org._id, req.projectId, await inputOf(org, req.project!), org.default_project_id);
      if (!updated) throw new ApiError("not_found", `no project '${req.projectId}' in this organization`);
      return projectMessage(updated);
    },

    async listProjects(req, ctx) {
      const org = await orgOf(ctx);
      const limit = req.limit ?? DEFAULT_PAGE_LIMIT;
      // One more than asked tells whether a next page exists.
      const found = await projects.page(org._id, org.default_project_id, decodeCursor("projects", req.cursor), limit + 1);
      const page = pageOf("projects", found, limit, (p) => ({ created: p.created_at, id: p._id }));
      return { projects: page.items.map(projectMessage), nextCursor: page.nextCursor };
    },

    async deleteProject(req, ctx) {
      const org = await orgOf(ctx);
      if (req.projectId === org.default_project_id) {
        throw new ApiError("conflict", "the organization's default project cannot be deleted");
      }
      if (!(await projects.delete(org._id, req.projectId))) {
        throw new ApiError("not_found", `no project '${req.projectId}' in this organization`);
      }
      return {};
    },
  };
}
