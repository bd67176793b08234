// Projects (docs/api.md#projects, docs/decisions.md#default-project). Each organization's default project has a stable id and
// exists without being created: it reads as a built-in record until it is
// first updated, which stores it.
import { randomBytes } from "node:crypto";
import { DuplicateKeyError, type Collection, type Database, type Doc } from "../storage/collection.js";

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
