// ApiKeyService handlers (docs/api.md#api-keys): an organization manages its own keys over the
// API, so keys are created and revoked while the service runs, on every replica. Every method
// needs a read-write platform key (src/auth/access.ts); another organization's key ids are unknown.
import { create } from "@bufbuild/protobuf";
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import type { HandlerContext, ServiceImpl } from "@connectrpc/connect";
import { ApiKeySchema, type ApiKey, type ApiKeyService } from "../../gen/parapet/v1/api_keys_pb.js";
import { ApiError } from "../api/errors.js";
import { decodeCursor, DEFAULT_PAGE_LIMIT, pageOf } from "../api/paging.js";
import { callerOrg } from "../api/tenant.js";
import type { ApiKeyRecord, ApiKeys, KeyKind, KeyScope } from "../auth/api-keys-repository.js";
import type { Organizations } from "../auth/organizations-repository.js";
import { keyNameOf } from "./validation.js";

export interface ApiKeyServiceDeps {
  orgs: Organizations;
  keys: ApiKeys;
}

function apiKeyMessage(k: ApiKeyRecord): ApiKey {
  return create(ApiKeySchema, {
    id: k._id,
    orgId: k.org_id,
    kind: k.kind,
    scope: k.scope ?? undefined,
    prefix: k.prefix,
    createdAt: timestampFromDate(k.created_at),
    lastUsedAt: k.last_used_at ? timestampFromDate(k.last_used_at) : undefined,
    revokedAt: k.revoked_at ? timestampFromDate(k.revoked_at) : undefined,
    // Keys stored before names existed have no field: unnamed, as a key created without one.
    name: k.name ?? undefined,
  });
}

export function apiKeyService(deps: ApiKeyServiceDeps): ServiceImpl<typeof ApiKeyService> {
  const { orgs, keys } = deps;
  const orgOf = (ctx: HandlerContext) => callerOrg(ctx, orgs);

  return {
    async createApiKey(req, ctx) {
      const org = await orgOf(ctx);
      const kind = req.kind as KeyKind;
      const scope = kind === "platform" ? ((req.scope ?? "read-write") as KeyScope) : null;
      const { key, record } = await keys.create(org._id, kind, scope, undefined, keyNameOf(req.name));
      return { key, apiKey: apiKeyMessage(record) };
    },

    async listApiKeys(req, ctx) {
      const org = await orgOf(ctx);
      const limit = req.limit ?? DEFAULT_PAGE_LIMIT;
      // One more than asked tells whether a next page exists.
      const found = await keys.page(org._id, decodeCursor("api-keys", req.cursor), limit + 1, req.includeRevoked);
      const page = pageOf("api-keys", found, limit, (k) => ({ created: k.created_at, id: k._id }));
      return { apiKeys: page.items.map(apiKeyMessage), nextCursor: page.nextCursor };
    },

    async updateApiKey(req, ctx) {
      const org = await orgOf(ctx);
      const renamed = await keys.rename(req.keyId, org._id, keyNameOf(req.name));
      if (!renamed) throw new ApiError("not_found", `no API key '${req.keyId}' in this organization`);
      return { apiKey: apiKeyMessage(renamed) };
    },

    async revokeApiKey(req, ctx) {
      const org = await orgOf(ctx);
      const target = await keys.get(req.keyId, org._id);
      if (!target) throw new ApiError("not_found", `no API key '${req.keyId}' in this organization`);
      if (target.revoked_at) return { apiKey: apiKeyMessage(target) };
      if (target.kind === "platform" && target.scope === "read-write") {
        // Without an active read-write platform key nobody can create keys over the API again;
        // recovering would need the CLI on the store, with the service stopped on the embedded engine.
        // (Two concurrent revokes of an organization's last two such keys can still both pass.)
        if (!(await keys.hasActiveWriter(org._id, target._id))) {
          throw new ApiError("conflict", `'${target._id}' is the organization's last active read-write platform key; create another one before revoking it`);
        }
      }
      // The caller may revoke the very key it authenticated with (rotation): it stops working with this
      // answer. A concurrent revoke of the same key wins the write; this answer then shows its record.
      const revoked = (await keys.revokeIn(target._id, org._id)) ?? (await keys.get(target._id, org._id));
      return { apiKey: apiKeyMessage(revoked ?? target) };
    },
  };
}
