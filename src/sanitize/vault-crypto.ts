// Encryption of vault entries at rest (docs/sanitize.md#encryption): AES-256-GCM
// under a per-organization key derived with HKDF-SHA256 from PARAPET_VAULT_KEY.
// The organization and the entry id are authenticated data, so a record copied
// to another organization or id does not decrypt.
import { createCipheriv, createDecipheriv, createHash, hkdfSync, randomBytes } from "node:crypto";

export interface Sealed {
  /** base64: 12-byte nonce, ciphertext, 16-byte tag. */
  sealed: string;
  /** Which master key sealed it: the first 16 hex digits of its SHA-256, never the key. */
  key_id: string;
}

const SALT = Buffer.from("parapet vault v1");

export class VaultCipher {
  readonly keyId: string;
  private readonly subkeys = new Map<string, Buffer>();

  constructor(private readonly master: Buffer) {
    if (master.length !== 32) throw new Error("the vault key must be 32 bytes");
    this.keyId = createHash("sha256").update(master).digest("hex").slice(0, 16);
  }

  private subkey(orgId: string): Buffer {
    let key = this.subkeys.get(orgId);
    if (!key) {
      key = Buffer.from(hkdfSync("sha256", this.master, SALT, `org:${orgId}`, 32));
      // Organizations are few; the bound only keeps a pathological process from growing without end.
      if (this.subkeys.size >= 10_000) this.subkeys.clear();
      this.subkeys.set(orgId, key);
    }
    return key;
  }

  seal(orgId: string, entryId: string, plaintext: string): Sealed {
    const nonce = randomBytes(12);
    const cipher = createCipheriv("aes-256-gcm", this.subkey(orgId), nonce);
    cipher.setAAD(Buffer.from(`${orgId}\n${entryId}`));
    const body = Buffer.concat([cipher.update(plaintext, "utf8"), cipher.final()]);
    return { sealed: Buffer.concat([nonce, body, cipher.getAuthTag()]).toString("base64"), key_id: this.keyId };
  }

  /** The plaintext, or null when the record was not sealed by this key for this organization and id. */
  open(orgId: string, entryId: string, s: Sealed): string | null {
    if (s.key_id !== this.keyId) return null;
    const raw = Buffer.from(s.sealed, "base64");
    if (raw.length < 28) return null;
    try {
      const decipher = createDecipheriv("aes-256-gcm", this.subkey(orgId), raw.subarray(0, 12));
      decipher.setAAD(Buffer.from(`${orgId}\n${entryId}`));
      decipher.setAuthTag(raw.subarray(raw.length - 16));
      return Buffer.concat([decipher.update(raw.subarray(12, raw.length - 16)), decipher.final()]).toString("utf8");
    } catch {
      return null;
    }
  }
}
