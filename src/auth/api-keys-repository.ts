// API keys (docs/api.md#authentication, docs/decisions.md#keys). A key is shown once at creation and stored only
// as a SHA-256 hash; the lookup is by hash and the final comparison is
// constant-time, so neither the store nor response timing reveals a key.
import { hash, randomBytes, timingSafeEqual } from "node:crypto";
import { LRUCache } from "lru-cache";
import type { Collection, Database, Doc, Filter } from "../storage/collection.js";

export type KeyKind = "platform" | "screening";
export type KeyScope = "read-write" | "read-only";

export interface ApiKeyRecord extends Doc {
  _id: string;
  org_id: string;
  kind: KeyKind;
  /** Only platform keys have a scope. */
  scope: KeyScope | null;
  hash: string;
  /** First characters of the key, for listings ("which key is this?"). */
  prefix: string;
  created_at: Date;
  revoked_at: Date | null;
  /** Absent on keys stored before it was recorded, and null until first used. */
  last_used_at?: Date | null;
  /** What the key is for (docs/api.md#api-keys); absent on keys stored before names existed, null when unnamed. */
  name?: string | null;
}

const kindPrefix: Record<KeyKind, string> = { platform: "ppk_", screening: "psk_" };

// One-shot: a Hash object per request is a native object whose weak handle
// every scavenge has to process (~1.5 µs each, measured with --trace-gc-nvp).
function hashOf(key: string): string {
  return hash("sha256", key, "hex");
}

/**
 * Revocations made by another process (another replica, the CLI) are seen within this time: the
 * contract of docs/api.md#api-keys is 5 s on every replica, and a key is looked up again after
 * this long, which leaves the rest of the 5 s for the lookup itself (bounded by the request's
 * deadline and the storage retry budget; a lookup that fails answers 503, never the cached key).
 * The cost is one indexed lookup per key in use per 2 s per process.
 */
export const KEY_CACHE_TTL_MS = 2_000;

/**
 * last_used_at is written at most this often per key and process: a write per request would
 * make every screening request a storage write (an fsync on the embedded engine).
 */
const LAST_USED_RESOLUTION_MS = 60_000;

export class ApiKeys {
  /** Known keys by hash, with when they were read (the age is checked here, against `now`, not by the LRU). */
  private readonly cache = new LRUCache<string, { record: ApiKeyRecord; readAt: number }>({ max: 10_000 });
  /** When this process last wrote last_used_at of a key id. */
  private readonly touched = new LRUCache<string, number>({ max: 10_000 });

  private constructor(
    private readonly keys: Collection<ApiKeyRecord>,
    /** A monotonic clock in ms (injected by tests that check the staleness bound). */
    private readonly now: () => number,
  ) {}

  static async open(db: Database, options: { now?: () => number } = {}): Promise<ApiKeys> {
    const keys = await db.collection<ApiKeyRecord>("api_keys");
    await keys.createIndex({ name: "hash_unique", keys: { hash: 1 }, unique: true });
    // A key listing pages in (created time, id) order within one organization (docs/api.md#paging).
    await keys.createIndex({ name: "org", keys: { org_id: 1, created_at: 1, _id: 1 } });
    return new ApiKeys(keys, options.now ?? (() => performance.now()));
  }

  /** Registers `key` (or a fresh random one) and returns it: the only time it is visible. */
  async create(orgId: string, kind: KeyKind, scope: KeyScope | null, key?: string, name?: string | null): Promise<{ key: string; record: ApiKeyRecord }> {
    const secret = key ?? kindPrefix[kind] + randomBytes(32).toString("base64url");
    const record: ApiKeyRecord = {
      _id: `key-${randomBytes(9).toString("base64url")}`,
      org_id: orgId,
      kind,
      scope: kind === "platform" ? (scope ?? "read-write") : null,
      hash: hashOf(secret),
      prefix: secret.slice(0, 8),
      created_at: new Date(),
      revoked_at: null,
      last_used_at: null,
      name: name || null,
    };
    await this.keys.insertOne(record);
    return { key: secret, record };
  }

  /** The active record for a presented key, or null (unknown or revoked). */
  async verify(presented: string): Promise<ApiKeyRecord | null> {
    const hash = hashOf(presented);
    const hit = this.cache.get(hash);
    let record = hit && this.now() - hit.readAt < KEY_CACHE_TTL_MS ? hit.record : null;
    if (!record) {
      const readAt = this.now();
      record = await this.keys.findOne({ hash });
      // Only known keys are cached: a key created a moment ago must work at once.
      if (record) this.cache.set(hash, { record, readAt });
      else this.cache.delete(hash);
    }
    if (!record || record.revoked_at) return null;
    const same = timingSafeEqual(Buffer.from(record.hash, "hex"), Buffer.from(hash, "hex"));
    if (!same) return null;
    this.noteUse(record);
    return record;
  }

  /** Records that a key was used, without making the request wait for the write. */
  private noteUse(record: ApiKeyRecord): void {
    const now = Date.now();
    const last = this.touched.get(record._id) ?? record.last_used_at?.getTime() ?? 0;
    if (now - last < LAST_USED_RESOLUTION_MS) return;
    this.touched.set(record._id, now);
    // A lost write only makes last_used_at older; it must never fail the request that used the key.
    this.keys.updateOne({ _id: record._id }, { $set: { last_used_at: new Date(now) } }).catch(() => this.touched.delete(record._id));
  }

  /** The stored record for a presented key, revoked or not (bootstrap must not register a revoked key again). */
  async find(presented: string): Promise<ApiKeyRecord | null> {
    return this.keys.findOne({ hash: hashOf(presented) });
  }

  async list(orgId?: string): Promise<ApiKeyRecord[]> {
    return this.keys.find(orgId ? { org_id: orgId } : {}, { sort: { created_at: 1 } });
  }

  /** Up to `limit` keys of an organization after the position `after` (exclusive), in (created time, id) order. */
  async page(orgId: string, after: { created: Date; id: string } | null, limit: number, includeRevoked: boolean): Promise<ApiKeyRecord[]> {
    const filter: Filter = { org_id: orgId };
    if (!includeRevoked) filter.revoked_at = null;
    if (after) filter.$or = [{ created_at: { $gt: after.created } }, { created_at: after.created, _id: { $gt: after.id } }];
    return this.keys.find(filter, { sort: { created_at: 1, _id: 1 }, limit });
  }

  /** The key `id`, of organization `orgId` when given (another organization's key is then unknown). */
  async get(id: string, orgId?: string): Promise<ApiKeyRecord | null> {
    return this.keys.findOne(orgId ? { _id: id, org_id: orgId } : { _id: id });
  }

  /** Names key `id` of `orgId` (null: no name); the updated record, or null when there is no such key. */
  async rename(id: string, orgId: string, name: string | null): Promise<ApiKeyRecord | null> {
    return this.keys.findOneAndUpdate({ _id: id, org_id: orgId }, { $set: { name } }, { returnDocument: "after" });
  }

  /** The names of the named keys among `ids` in `orgId` (a page of request logs names a few keys). */
  async namesOf(orgId: string, ids: string[]): Promise<Map<string, string>> {
    const names = new Map<string, string>();
    if (ids.length === 0) return names;
    for (const k of await this.keys.find({ org_id: orgId, _id: { $in: ids } })) if (k.name) names.set(k._id, k.name);
    return names;
  }

  /** Whether the organization has an active read-write platform key other than `exceptId`. */
  async hasActiveWriter(orgId: string, exceptId: string): Promise<boolean> {
    const filter: Filter = { org_id: orgId, kind: "platform", scope: "read-write", revoked_at: null, _id: { $ne: exceptId } };
    return (await this.keys.findOne(filter)) !== null;
  }

  /** Revokes an active key; false when there is no active key `id`. */
  async revoke(id: string): Promise<boolean> {
    return (await this.revokeIn(id)) !== null;
  }

  /** Revokes an active key; the revoked record, or null when there is no active key `id` (in `orgId` when given). */
  async revokeIn(id: string, orgId?: string): Promise<ApiKeyRecord | null> {
    const filter: Filter = { _id: id, revoked_at: null };
    if (orgId) filter.org_id = orgId;
    const revoked = await this.keys.findOneAndUpdate(filter, { $set: { revoked_at: new Date() } }, { returnDocument: "after" });
    // This process stops accepting the key at once; other processes within KEY_CACHE_TTL_MS.
    this.cache.clear();
    return revoked;
  }
}
