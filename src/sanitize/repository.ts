// The vault: placeholder -> original mappings of reversible sanitizations
// (docs/sanitize.md#vault), one encrypted entry per request, scoped to the
// organization and removed by a TTL index once expired.
import { randomBytes } from "node:crypto";
import type { Collection, Database, Doc } from "../storage/collection.js";
import type { PlaceholderMap } from "./placeholders.js";
import { VaultCipher, type Sealed } from "./vault-crypto.js";

const VAULT_COLLECTION = "sanitize_vault";

interface VaultRecord extends Doc, Sealed {
  org_id: string;
  created_at: Date;
  /** The TTL index removes the entry after this date; reads refuse it from this date on. */
  expires_at: Date;
}

/** Sealed entries above this are refused: a document must stay far below MongoDB's 16 MiB. */
const MAX_SEALED_BYTES = 8 * 1024 * 1024;

/** The mapping does not fit in one vault entry. */
export class VaultEntryTooLargeError extends Error {
  constructor() {
    super(`the placeholders' originals exceed ${MAX_SEALED_BYTES / (1024 * 1024)} MiB, more than one vault entry holds; send less text per request`);
    this.name = "VaultEntryTooLargeError";
  }
}

const VAULT_ID_PATTERN = /^vlt_[A-Za-z0-9_-]{32}$/;

export class Vault {
  private constructor(
    private readonly entries: Collection<VaultRecord>,
    private readonly cipher: VaultCipher | undefined,
    private readonly now: () => number,
  ) {}

  /** `key` undefined: reversible sanitization is off, and `enabled` says so. */
  static async open(db: Database, key: Buffer | undefined, options: { now?: () => number } = {}): Promise<Vault> {
    const entries = await db.collection<VaultRecord>(VAULT_COLLECTION);
    await entries.createIndex({ name: "expiry", keys: { expires_at: 1 }, expireAfterSeconds: 0 });
    return new Vault(entries, key ? new VaultCipher(key) : undefined, options.now ?? Date.now);
  }

  get enabled(): boolean {
    return this.cipher !== undefined;
  }

  /** Stores `map` for `ttlSeconds`; resolves once durable, with the entry's id and expiry. */
  async put(orgId: string, map: PlaceholderMap, ttlSeconds: number): Promise<{ id: string; expiresAt: Date }> {
    if (!this.cipher) throw new Error("the vault has no key (internal error: callers check `enabled`)");
    const id = `vlt_${randomBytes(24).toString("base64url")}`;
    const sealed = this.cipher.seal(orgId, id, JSON.stringify([...map]));
    if (sealed.sealed.length > MAX_SEALED_BYTES) throw new VaultEntryTooLargeError();
    const created = new Date(this.now());
    const expiresAt = new Date(created.getTime() + ttlSeconds * 1000);
    await this.entries.insertOne({ _id: id, org_id: orgId, created_at: created, expires_at: expiresAt, ...sealed });
    return { id, expiresAt };
  }

  /** The entry's mapping; null when unknown, another organization's, expired or sealed with another key. */
  async get(orgId: string, id: string): Promise<Map<string, string> | null> {
    if (!this.cipher || !VAULT_ID_PATTERN.test(id)) return null;
    const record = await this.entries.findOne({ _id: id, org_id: orgId });
    // The TTL sweep runs periodically; an entry past its date is gone for readers at once.
    if (!record || record.expires_at.getTime() <= this.now()) return null;
    const plaintext = this.cipher.open(orgId, id, record);
    if (plaintext === null) return null;
    try {
      return new Map(JSON.parse(plaintext) as [string, string][]);
    } catch {
      // JSON.parse quotes the text it fails on: never let vault contents reach an error log.
      throw new Error(`vault entry ${id} does not decode`);
    }
  }
}
