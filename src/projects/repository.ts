// Projects (docs/api.md#projects, docs/decisions.md#default-project). Each organization's default project has a stable id and
// exists without being created: it reads as a built-in record until it is
// first updated, which stores it.
import { randomBytes } from "node:crypto";
import { DuplicateKeyError, type Collection, type Database, type Doc, type Filter } from "../storage/collection.js";

export type ProjectAction = "detect" | "enforce";

export interface StoredProject extends Doc {
  _id: string;
  org_id: string;
  name: string;
  policy_id: string | null;
  project_metadata: Record<string, string>;
  action: ProjectAction;
  created_at: Date;
  updated_at: Date;
}

export interface ProjectInput {
  name: string;
  policy_id: string | null;
  project_metadata: Record<string, string>;
  /** Omitted on update: keep the stored value. */
  action?: ProjectAction;
}

export class Projects {
  private constructor(private readonly projects: Collection<StoredProject>) {}

  static async open(db: Database): Promise<Projects> {
    const projects = await db.collection<StoredProject>("projects");
    // "Projects using this policy" (policy read, delete 409) without a scan.
    await projects.createIndex({ name: "org_policy", keys: { org_id: 1, policy_id: 1 } });
    // GET /v1-beta/projects pages in (created time, id) order (docs/api.md#paging) without a sort in memory.
    await projects.createIndex({ name: "org_created", keys: { org_id: 1, created_at: 1, _id: 1 } });
    return new Projects(projects);
  }

  /** The default project as it reads before anyone has changed it. */
  static builtInDefault(orgId: string, id: string): StoredProject {
    return {
      _id: id,
      org_id: orgId,
      name: "Default project",
      policy_id: null,
      project_metadata: {},
      action: "enforce",
      created_at: new Date(0),
      updated_at: new Date(0),
    };
  }

  async get(orgId: string, id: string, defaultProjectId: string): Promise<StoredProject | null> {
    const found = await this.projects.findOne({ _id: id, org_id: orgId });
    if (found) return found;
    return id === defaultProjectId ? Projects.builtInDefault(orgId, id) : null;
  }

  /**
   * Up to `limit` projects after the position `after` (exclusive), in (created time, id) order. The
   * default project is listed while still built in: its created time is the epoch, where it also
   * stays once stored (update stores the built-in record), so its place in the order never moves.
   */
  async page(orgId: string, defaultProjectId: string, after: { created: Date; id: string } | null, limit: number): Promise<StoredProject[]> {
    const filter: Filter = { org_id: orgId };
    if (after) filter.$or = [{ created_at: { $gt: after.created } }, { created_at: after.created, _id: { $gt: after.id } }];
    const stored = await this.projects.find(filter, { sort: { created_at: 1, _id: 1 }, limit });
    // The built-in record sits at (epoch, id): is that past the cursor?
    const t = after?.created.getTime();
    const builtInOnPage = t === undefined || t < 0 || (t === 0 && defaultProjectId > after!.id);
    if (!builtInOnPage || stored.some((p) => p._id === defaultProjectId)) return stored;
    if (await this.projects.findOne({ _id: defaultProjectId, org_id: orgId })) return stored;
    const before = (a: StoredProject, b: StoredProject) => a.created_at.getTime() - b.created_at.getTime() || (a._id < b._id ? -1 : a._id > b._id ? 1 : 0);
    return [...stored, Projects.builtInDefault(orgId, defaultProjectId)].sort(before).slice(0, limit);
  }

  async create(orgId: string, input: ProjectInput): Promise<StoredProject> {
    const now = new Date();
    const doc: StoredProject = {
      _id: `project-${randomBytes(12).toString("base64url")}`,
      org_id: orgId,
      name: input.name,
      policy_id: input.policy_id,
      project_metadata: input.project_metadata,
      action: input.action ?? "enforce",
      created_at: now,
      updated_at: now,
    };
    await this.projects.insertOne(doc);
    return doc;
  }

  async update(orgId: string, id: string, input: ProjectInput, defaultProjectId: string): Promise<StoredProject | null> {
    if (id === defaultProjectId && !(await this.projects.findOne({ _id: id, org_id: orgId }))) {
      // First change of the default project: store its built-in record, then update it.
      try {
        await this.projects.insertOne(Projects.builtInDefault(orgId, id));
      } catch (err) {
        if (!(err instanceof DuplicateKeyError)) throw err;
      }
    }
    const set: Record<string, unknown> = {
      name: input.name,
      policy_id: input.policy_id,
      project_metadata: input.project_metadata,
      updated_at: new Date(),
    };
    if (input.action) set.action = input.action;
    return this.projects.findOneAndUpdate({ _id: id, org_id: orgId }, { $set: set }, { returnDocument: "after" });
  }

  async delete(orgId: string, id: string): Promise<boolean> {
    return (await this.projects.deleteOne({ _id: id, org_id: orgId })) === 1;
  }

  async usingPolicy(orgId: string, policyId: string | null): Promise<StoredProject[]> {
    return this.projects.find({ org_id: orgId, policy_id: policyId }, { sort: { created_at: 1 } });
  }
}
