// Key names in the repository on every engine (MongoDB joins with MONGODB_URI): stored and
// renamed with the key, looked up by id for a page of request logs, and keys stored before
// names existed read as unnamed and can be named.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ApiKeys, type ApiKeyRecord } from "../../src/auth/api-keys-repository.js";
import type { Database } from "../../src/storage/collection.js";
import { engines } from "../storage/engines.js";

for (const engine of engines) {
  describe.skipIf(!engine.available)(`API key names: ${engine.name}`, () => {
    let db: Database;
    beforeEach(async () => {
      db = await engine.create();
    });
    afterEach(async () => {
      await engine.destroy(db);
    });

    it("stores a name with a new key and renames it; an unnamed key has null", async () => {
      const keys = await ApiKeys.open(db);
      const named = await keys.create("org-a", "screening", null, undefined, "checkout");
      expect(named.record.name).toBe("checkout");
      expect((await keys.get(named.record._id, "org-a"))?.name).toBe("checkout");
      const unnamed = await keys.create("org-a", "platform", "read-write");
      expect((await keys.get(unnamed.record._id))?.name).toBeNull();
      expect((await keys.rename(named.record._id, "org-a", "checkout v2"))?.name).toBe("checkout v2");
      expect((await keys.rename(named.record._id, "org-a", null))?.name).toBeNull();
      // Another organization's key is not renamed.
      expect(await keys.rename(named.record._id, "org-b", "stolen")).toBeNull();
      expect((await keys.get(named.record._id))?.name).toBeNull();
      // The key still verifies: a rename never touches the hash.
      expect((await keys.verify(named.key))?._id).toBe(named.record._id);
    });

    it("names the keys of a page of logs, within one organization, leaving unnamed keys out", async () => {
      const keys = await ApiKeys.open(db);
      const a = await keys.create("org-a", "screening", null, undefined, "first");
      const b = await keys.create("org-a", "screening", null);
      const c = await keys.create("org-b", "screening", null, undefined, "elsewhere");
      const names = await keys.namesOf("org-a", [a.record._id, b.record._id, c.record._id, "key-unknown"]);
      expect([...names]).toEqual([[a.record._id, "first"]]);
      expect((await keys.namesOf("org-a", [])).size).toBe(0);
    });

    it("reads a key stored before names existed as unnamed, and can name it", async () => {
      const keys = await ApiKeys.open(db);
      const raw = await db.collection<ApiKeyRecord>("api_keys");
      const old = { _id: "key-old", org_id: "org-a", kind: "screening", scope: null, hash: "f".repeat(64), prefix: "psk_old0", created_at: new Date(), revoked_at: null };
      await raw.insertOne(old as ApiKeyRecord);
      const stored = await keys.get("key-old");
      expect(stored).not.toHaveProperty("name");
      expect((await keys.namesOf("org-a", ["key-old"])).size).toBe(0);
      expect((await keys.rename("key-old", "org-a", "legacy"))?.name).toBe("legacy");
      expect((await keys.namesOf("org-a", ["key-old"])).get("key-old")).toBe("legacy");
    });
  });
}
