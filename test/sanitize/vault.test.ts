// The vault repository on every storage engine (MongoDB when MONGODB_URI is
// set): entries round-trip, stay in their organization, expire, survive a
// reopen, and are stored sealed.
import { randomBytes } from "node:crypto";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { Vault } from "../../src/sanitize/repository.js";
import type { Database } from "../../src/storage/collection.js";
import { EmbeddedDatabase } from "../../src/storage/embedded/engine.js";
import { engines } from "../storage/engines.js";

const SECRET = "jane.doe@example.com";

for (const engine of engines) {
  describe.skipIf(!engine.available)(`vault on ${engine.name}`, () => {
    let db: Database;
    let now = Date.now();
    const key = randomBytes(32);
    beforeEach(async () => {
      db = await engine.create();
      now = Date.now();
    });
    afterEach(async () => {
      await engine.destroy(db);
    });

    it("round-trips a mapping for its organization only, across a reopen", async () => {
      const vault = await Vault.open(db, key);
      const { id, expiresAt } = await vault.put("org-a", new Map([["[EMAIL_1]", SECRET]]), 3600);
      expect(expiresAt.getTime()).toBeGreaterThan(Date.now() + 3_500_000);
      expect(await vault.get("org-a", id)).toEqual(new Map([["[EMAIL_1]", SECRET]]));
      expect(await vault.get("org-b", id)).toBeNull();
      expect(await vault.get("org-a", "vlt_" + "x".repeat(32))).toBeNull();
      db = await engine.reopen(db);
      expect(await (await Vault.open(db, key)).get("org-a", id)).toEqual(new Map([["[EMAIL_1]", SECRET]]));
      expect(await (await Vault.open(db, randomBytes(32))).get("org-a", id)).toBeNull();
    });

    it("stores only sealed bytes", async () => {
      const vault = await Vault.open(db, key);
      const { id } = await vault.put("org-a", new Map([["[EMAIL_1]", SECRET]]), 3600);
      const raw = await (await db.collection("sanitize_vault")).findOne({ _id: id });
      expect(Object.keys(raw!).sort()).toEqual(["_id", "created_at", "expires_at", "key_id", "org_id", "sealed"]);
      expect(JSON.stringify(raw)).not.toContain(SECRET);
      expect(JSON.stringify(raw)).not.toContain("EMAIL_1");
    });

    it("refuses an entry past its expiry, and the TTL index removes it", async () => {
      const vault = await Vault.open(db, key, { now: () => now });
      const { id } = await vault.put("org-a", new Map([["[EMAIL_1]", SECRET]]), 60);
      now += 61_000;
      expect(await vault.get("org-a", id)).toBeNull();
      expect(await (await db.collection("sanitize_vault")).listIndexes()).toContainEqual({ name: "expiry", keys: { expires_at: 1 }, expireAfterSeconds: 0 });
      expect(db instanceof EmbeddedDatabase).toBe(engine.name === "embedded");
      if (db instanceof EmbeddedDatabase) {
        expect(await db.sweepExpired(new Date(now))).toBe(1);
        expect(await (await db.collection("sanitize_vault")).countDocuments({})).toBe(0);
      }
    });
  });
}
