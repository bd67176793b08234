// Organizations: the tenant boundary. Every stored resource carries an org id
// and every query filters on it, so ids of another organization behave as unknown.
import { randomBytes } from "node:crypto";
import { LRUCache } from "lru-cache";
import { DuplicateKeyError, type Collection, type Database, type Doc } from "../storage/collection.js";

export interface Features {
  /** Policies V2: every policy endpoint answers 403 when off (docs/api.md#organizations). */
  policies: boolean;
  /** Logs and analytics endpoints ("available only to selected organizations"). */
  logs_analytics: boolean;
  /** Agentic detectors and the tool_access_control log filter. */
  agentic: boolean;
}

export interface Organization extends Doc {
  _id: string;
  name: string;
  default_project_id: string;
  max_policies: number;
  features: Features;
  created_at: Date;
}

export const DEFAULT_ORG_ID = "org-default";
const DEFAULT_MAX_POLICIES = 100;
const allFeatures: Features = { policies: true, logs_analytics: true, agentic: true };

/** The default project of an organization has a stable id derived from the org id. */
function defaultProjectIdOf(orgId: string): string {
  return orgId === DEFAULT_ORG_ID ? "project-default" : `project-default-${orgId.replace(/^org-/, "")}`;
}

/** Changes made by another process (the CLI) are seen within this time. */
const CACHE_TTL_MS = 5_000;

export class Organizations {
  // Every authenticated request reads its organization (features, limits).
  private readonly cache = new LRUCache<string, Organization>({ max: 10_000, ttl: CACHE_TTL_MS });

  private constructor(private readonly orgs: Collection<Organization>) {}

  static async open(db: Database): Promise<Organizations> {
    return new Organizations(await db.collection<Organization>("organizations"));
  }

  async get(id: string): Promise<Organization | null> {
    const hit = this.cache.get(id);
    if (hit) return hit;
    const org = await this.orgs.findOne({ _id: id });
    if (org) this.cache.set(id, org);
    return org;
  }

  async list(): Promise<Organization[]> {
    return this.orgs.find({}, { sort: { created_at: 1 } });
  }

  async count(): Promise<number> {
    return this.orgs.countDocuments({});
  }

  async create(name: string, id = `org-${randomBytes(9).toString("base64url")}`): Promise<Organization> {
    const org: Organization = {
      _id: id,
      name,
      default_project_id: defaultProjectIdOf(id),
      max_policies: DEFAULT_MAX_POLICIES,
      features: { ...allFeatures },
      created_at: new Date(),
    };
    await this.orgs.insertOne(org);
    return org;
  }

  /**
   * Creates the organization unless one with this id exists; true when this call created it.
   * Replicas starting together race here: the one whose insert wins bootstraps (src/auth/bootstrap.ts).
   */
  async createIfAbsent(name: string, id: string): Promise<boolean> {
    try {
      await this.create(name, id);
      return true;
    } catch (err) {
      if (err instanceof DuplicateKeyError) return false;
      throw err;
    }
  }

  async update(id: string, change: { name?: string; max_policies?: number; features?: Partial<Features> }) {
    const set: Record<string, unknown> = {};
    if (change.name !== undefined) set.name = change.name;
    if (change.max_policies !== undefined) set.max_policies = change.max_policies;
    for (const [k, v] of Object.entries(change.features ?? {})) set[`features.${k}`] = v;
    const updated = await this.orgs.findOneAndUpdate({ _id: id }, { $set: set }, { returnDocument: "after" });
    this.cache.delete(id);
    return updated;
  }
}
