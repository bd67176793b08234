// Custom guardrails: named sets of RE2 expressions a policy enables by id
// (a Parapet extension, docs/custom-guardrails.md).
import { randomBytes } from "node:crypto";
import { builtinGuardrail } from "../screening/detectors/pii/national-ids/pack.js";
import type { Collection, Database, Doc } from "../storage/collection.js";

export interface StoredGuardrail extends Doc {
  _id: string;
  org_id: string;
  name: string;
  patterns: string[];
  labels: string[];
  locations: string[];
  /** A policy in words a gpt-oss-safeguard judge applies (docs/judges.md#custom-guardrails-in-words); absent on pattern-only guardrails. */
  judge_policy?: string;
  created_at: Date;
  updated_at: Date;
}

/** When the built-in guardrails appeared: their `created_at` and `updated_at`. */
const BUILTIN_SINCE = new Date("2026-11-27T00:00:00Z");

/**
 * A built-in guardrail as the organization sees it (docs/custom-guardrails.md#built-in-guardrails):
 * never stored, the same in every organization, read-only.
 */
export function builtinRecord(orgId: string, id: string): StoredGuardrail | null {
  const b = builtinGuardrail(id);
  if (!b) return null;
  return {
    _id: b.id,
    org_id: orgId,
    name: b.name,
    patterns: [],
    labels: [...b.labels],
    locations: [...b.locations],
    created_at: BUILTIN_SINCE,
    updated_at: BUILTIN_SINCE,
  };
}

export type GuardrailInput = Pick<StoredGuardrail, "name" | "patterns" | "labels" | "locations" | "judge_policy">;

export class CustomGuardrails {
  private constructor(private readonly guardrails: Collection<StoredGuardrail>) {}

  static async open(db: Database): Promise<CustomGuardrails> {
    const guardrails = await db.collection<StoredGuardrail>("custom_guardrails");
    await guardrails.createIndex({ name: "org", keys: { org_id: 1, _id: 1 } });
    return new CustomGuardrails(guardrails);
  }

  async create(orgId: string, input: GuardrailInput): Promise<StoredGuardrail> {
    const now = new Date();
    const doc: StoredGuardrail = { _id: `custom-guardrail-${randomBytes(12).toString("base64url")}`, org_id: orgId, ...input, created_at: now, updated_at: now };
    await this.guardrails.insertOne(doc);
    return doc;
  }

  async get(orgId: string, id: string): Promise<StoredGuardrail | null> {
    return builtinRecord(orgId, id) ?? this.guardrails.findOne({ _id: id, org_id: orgId });
  }

  async list(orgId: string): Promise<StoredGuardrail[]> {
    return this.guardrails.find({ org_id: orgId }, { sort: { created_at: 1 } });
  }

  /** The guardrails among `ids` that exist in the organization, built-in ones included. */
  async many(orgId: string, ids: string[]): Promise<StoredGuardrail[]> {
    if (ids.length === 0) return [];
    const builtins = ids.flatMap((id) => builtinRecord(orgId, id) ?? []);
    const stored = ids.length > builtins.length ? await this.guardrails.find({ org_id: orgId, _id: { $in: ids } }) : [];
    return builtins.length ? [...builtins, ...stored] : stored;
  }

  async update(orgId: string, id: string, input: GuardrailInput): Promise<StoredGuardrail | null> {
    return this.guardrails.findOneAndUpdate({ _id: id, org_id: orgId }, { $set: { ...input, updated_at: new Date() } }, { returnDocument: "after" });
  }

  async delete(orgId: string, id: string): Promise<boolean> {
    return (await this.guardrails.deleteOne({ _id: id, org_id: orgId })) === 1;
  }
}
