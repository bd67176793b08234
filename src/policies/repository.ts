// Policies and their versions. The only code that knows the collections and
// query documents for policies (storage behind a port: docs/storage.md#the-port).
//
// `policies` holds the latest version of each policy; `policy_versions` keeps
// every version for audit. An update bumps `version_id` with one atomic
// findOneAndUpdate, so concurrent updates get distinct versions and none is
// lost; the version copy is written right after (if the process dies between
// the two writes, the latest state is still in `policies`).
import { randomBytes } from "node:crypto";
import type { Collection, Database, Doc, Filter } from "../storage/collection.js";
import { DuplicateKeyError } from "../storage/collection.js";
import type { DetectorSettings } from "../screening/vocabulary.js";

/** A policy's detector entry is stored as the engine runs it. */
export type StoredDetector = DetectorSettings;

export interface PolicyInput {
  name: string;
  // A Threshold once validated; stored versions are read back as they were written.
  default_threshold: string;
  detectors: StoredDetector[];
  custom_guardrail_ids: string[];
}

export interface StoredPolicy extends Doc, PolicyInput {
  _id: string;
  org_id: string;
  version_id: number;
  created_at: Date;
  updated_at: Date | null;
}

interface PolicyVersion extends Doc, PolicyInput {
  policy_id: string;
  org_id: string;
  version_id: number;
  created_at: Date;
}

export class DuplicatePolicyName extends Error {}

export class Policies {
  private constructor(
    private readonly policies: Collection<StoredPolicy>,
    private readonly versions: Collection<PolicyVersion>,
  ) {}

  static async open(db: Database): Promise<Policies> {
    const policies = await db.collection<StoredPolicy>("policies");
    // Names are unique within an organization (docs/api.md#policy-request); the index makes
    // concurrent creates/renames race-free on both engines.
    await policies.createIndex({ name: "org_name_unique", keys: { org_id: 1, name: 1 }, unique: true });
    // GET /v1/policies pages in (created time, id) order (docs/api.md#paging) without a sort in memory.
    await policies.createIndex({ name: "org_created", keys: { org_id: 1, created_at: 1, _id: 1 } });
    const versions = await db.collection<PolicyVersion>("policy_versions");
    await versions.createIndex({ name: "policy_version", keys: { policy_id: 1, version_id: 1 } });
    return new Policies(policies, versions);
  }

  async count(orgId: string): Promise<number> {
    return this.policies.countDocuments({ org_id: orgId });
  }

  async get(orgId: string, id: string): Promise<StoredPolicy | null> {
    return this.policies.findOne({ _id: id, org_id: orgId });
  }

  /** Up to `limit` policies after the position `after` (exclusive), in (created time, id) order. */
  async page(orgId: string, after: { created: Date; id: string } | null, limit: number): Promise<StoredPolicy[]> {
    const filter: Filter = { org_id: orgId };
    if (after) filter.$or = [{ created_at: { $gt: after.created } }, { created_at: after.created, _id: { $gt: after.id } }];
    return this.policies.find(filter, { sort: { created_at: 1, _id: 1 }, limit });
  }

  async create(orgId: string, input: PolicyInput): Promise<StoredPolicy> {
    const now = new Date();
    const doc: StoredPolicy = {
      _id: `policy-${randomBytes(12).toString("base64url")}`,
      org_id: orgId,
      ...input,
      version_id: 1,
      created_at: now,
      updated_at: now,
    };
    try {
      await this.policies.insertOne(doc);
    } catch (err) {
      if (err instanceof DuplicateKeyError) throw new DuplicatePolicyName(input.name);
      throw err;
    }
    await this.saveVersion(doc);
    return doc;
  }

  /** Full replacement; returns the new version, or null when the policy does not exist. */
  async update(orgId: string, id: string, input: PolicyInput): Promise<StoredPolicy | null> {
    let updated: StoredPolicy | null;
    try {
      updated = await this.policies.findOneAndUpdate(
        { _id: id, org_id: orgId },
        { $set: { ...input, updated_at: new Date() }, $inc: { version_id: 1 } },
        { returnDocument: "after" },
      );
    } catch (err) {
      if (err instanceof DuplicateKeyError) throw new DuplicatePolicyName(input.name);
      throw err;
    }
    if (updated) await this.saveVersion(updated);
    return updated;
  }

  async delete(orgId: string, id: string): Promise<boolean> {
    return (await this.policies.deleteOne({ _id: id, org_id: orgId })) === 1;
  }

  /** Every stored version, oldest first (audit trail). */
  async versionsOf(orgId: string, id: string): Promise<PolicyVersion[]> {
    return this.versions.find({ policy_id: id, org_id: orgId }, { sort: { version_id: 1 } });
  }

  private async saveVersion(p: StoredPolicy): Promise<void> {
    const version: PolicyVersion = {
      _id: `${p._id}@${p.version_id}`,
      policy_id: p._id,
      org_id: p.org_id,
      version_id: p.version_id,
      name: p.name,
      default_threshold: p.default_threshold,
      detectors: p.detectors,
      custom_guardrail_ids: p.custom_guardrail_ids,
      created_at: p.updated_at ?? p.created_at,
    };
    await this.versions.insertOne(version);
  }
}
