// Sanitize on the screening calls and RestoreText (docs/sanitize.md): turns a
// screening into the answer's sanitize fields, keeps reversible mappings in the vault,
// and restores placeholders in a text. Handlers in guard/service.ts call these.
import type { JsonObject, MessageInitShape } from "@bufbuild/protobuf";
import { timestampFromDate, type Timestamp } from "@bufbuild/protobuf/wkt";
import type { HandlerContext } from "@connectrpc/connect";
import type { Message, RestoreTextRequest, RestoreTextResponseSchema, SanitizeOptions } from "../../gen/parapet/v1/guard_pb.js";
import { principalKey } from "../api/context.js";
import { ApiError } from "../api/errors.js";
import { callerOrg } from "../api/tenant.js";
import type { Organizations } from "../auth/organizations-repository.js";
import type { Screening } from "../screening/engine.js";
import { sanitizeConversation, SanitizeLimitError } from "./conversation.js";
import { sanitizeMetadata, type MetadataScreen } from "./metadata.js";
import { restorePlaceholders, RestoredTooLongError } from "./placeholders.js";
import { VaultEntryTooLargeError, type Vault } from "./repository.js";

export interface SanitizeDeps {
  orgs: Organizations;
  vault: Vault;
  /** Life of a vault entry (PARAPET_VAULT_TTL_SECONDS). */
  vaultTtlSeconds: number;
  /** Longest restored text, in UTF-16 units: originals can be much longer than their placeholders. */
  maxRestoredChars: number;
}

const noKey = "reversible sanitization needs a vault key: set PARAPET_VAULT_KEY (32 random bytes in base64) on the server (docs/sanitize.md#encryption)";

/**
 * Refusals that must come before any screening work or write: a reversible
 * request the server cannot keep, or one from a key that could not restore it.
 */
export function checkSanitizeRequest(deps: SanitizeDeps, options: SanitizeOptions | undefined, ctx: HandlerContext): void {
  if (options?.mode !== "reversible") return;
  if (!deps.vault.enabled) throw new ApiError("feature_disabled", noKey);
  // Detailed results also take platform keys, which cannot call RestoreText: a vault entry they made could never be used.
  if (ctx.values.get(principalKey)?.kind !== "screening") {
    throw new ApiError("forbidden", "reversible sanitization takes a screening key: only screening keys can restore its vault entry");
  }
}

/** The sanitize fields GuardResponse and GuardResultsResponse share, spread into either answer. */
export interface SanitizedFields {
  sanitizedMessages: Message[];
  sanitizedSpans: number;
  vaultId?: string;
  vaultExpiresAt?: Timestamp;
}

export interface SanitizeAnswer {
  /** The answer's sanitize fields. */
  fields: SanitizedFields;
  /** What the request log stores instead of the messages as sent. */
  messages: Message[];
  /** What the request log stores instead of the metadata as sent, when the request logs metadata. */
  metadata?: JsonObject;
}

/** The request's metadata, for a call that logs it, and how to screen its values (metadata.ts). */
export interface LoggedMetadata {
  metadata: JsonObject;
  screen: MetadataScreen;
}

/**
 * The sanitized conversation (and logged metadata), its vault entry stored (durably) first in
 * reversible mode. The vault keeps the conversation's placeholders only: metadata never
 * reaches the model, so nothing restores it.
 */
export async function sanitizeAnswer(
  deps: SanitizeDeps,
  orgId: string,
  options: SanitizeOptions,
  messages: Message[],
  screening: Screening,
  logged?: LoggedMetadata,
): Promise<SanitizeAnswer> {
  const choice = { includeCustom: options.includeCustom };
  let result;
  let metadata: JsonObject | undefined;
  try {
    result = sanitizeConversation(messages, screening, choice);
    if (logged) metadata = await sanitizeMetadata(logged.metadata, choice, result.allocator, logged.screen);
  } catch (err) {
    if (err instanceof SanitizeLimitError) throw new ApiError("payload_too_large", err.message);
    throw err;
  }
  const fields: SanitizedFields = { sanitizedMessages: result.messages, sanitizedSpans: result.replaced };
  if (options.mode === "reversible") {
    try {
      const entry = await deps.vault.put(orgId, result.originals, deps.vaultTtlSeconds);
      fields.vaultId = entry.id;
      fields.vaultExpiresAt = timestampFromDate(entry.expiresAt);
    } catch (err) {
      if (err instanceof VaultEntryTooLargeError) throw new ApiError("payload_too_large", err.message);
      throw err;
    }
  }
  return { fields, messages: result.messages, metadata };
}

/** The placeholders of a vault entry of `orgId`, for restoring; the contract's errors when there is none to use. */
export async function vaultMapping(deps: SanitizeDeps, orgId: string, vaultId: string): Promise<Map<string, string>> {
  if (!deps.vault.enabled) throw new ApiError("feature_disabled", noKey);
  const map = await deps.vault.get(orgId, vaultId);
  // Unknown, expired and another organization's entries answer alike: an id reveals nothing about other tenants.
  if (!map) throw new ApiError("not_found", `vault entry '${vaultId}' not found: unknown, expired, or of another organization`);
  return map;
}

export function restoreTextHandler(deps: SanitizeDeps) {
  return async function restoreText(req: RestoreTextRequest, ctx: HandlerContext): Promise<MessageInitShape<typeof RestoreTextResponseSchema>> {
    const org = await callerOrg(ctx, deps.orgs);
    const map = await vaultMapping(deps, org._id, req.vaultId);
    try {
      return restorePlaceholders(req.text, map, { maxLength: deps.maxRestoredChars });
    } catch (err) {
      if (err instanceof RestoredTooLongError) throw new ApiError("payload_too_large", err.message);
      throw err;
    }
  };
}
