// LogService (docs/api.md#logs): stored screening logs, oldest first (or newest first, an
// extension), paged by offset.
import type { ServiceImpl } from "@connectrpc/connect";
import type { MessageInitShape } from "@bufbuild/protobuf";
import type { GuardLogSchema, LogService } from "../../gen/parapet/v1/logs_pb.js";
import { ApiError } from "../api/errors.js";
import { callerOrgWith, requireFeature } from "../api/tenant.js";
import { ceilToMillisecond, compareInstants, invalidRequest, requirePreciseInstant } from "../api/time.js";
import type { ApiKeys } from "../auth/api-keys-repository.js";
import type { Organizations } from "../auth/organizations-repository.js";
import { pageLogs, type GuardLogs, type StoredLog } from "./repository.js";

/** Deepest page a query may reach; beyond it the caller must narrow the time range (403, docs/decisions.md#logs-paging). */
const MAX_OFFSET = 100_000;

/** `keyNames`: the names of the keys that made the logs of this page, as they are now. */
function guardLogOf(l: StoredLog, keyNames: Map<string, string>): MessageInitShape<typeof GuardLogSchema> {
  return {
    requestUuid: l._id,
    timestamp: l.timestamp.toISOString(),
    projectId: l.meta.project_id,
    policyId: l.policy_id,
    flagged: l.flagged,
    messages: l.messages.map((m) => ({
      role: m.role,
      content: m.content,
      contentPartsJson: m.content_parts_json,
      size: m.size,
      index: m.index,
      name: m.name,
      toolCalls: m.tool_calls,
      refusal: m.refusal,
      toolCallId: m.tool_call_id,
    })),
    results: l.results.map((r) => ({ detectorType: r.detector_type, result: r.result })),
    msgResults: l.msg_results.map((r) => ({
      detectorType: r.detector_type,
      result: r.result,
      messageId: r.message_id ?? undefined,
      toolId: r.tool_id ?? undefined,
      spans: r.spans ?? [],
      spansTruncated: r.spans_truncated,
      model: r.model,
    })),
    eventMetadata: l.event_metadata,
    // Absent, not zero, on logs written before these were recorded.
    policyVersion: l.policy_version,
    screeningMs: l.screening_ms,
    apiKeyId: l.api_key_id,
    apiKeyName: l.api_key_id === undefined ? undefined : keyNames.get(l.api_key_id),
  };
}

export function logService(deps: { orgs: Organizations; logs: GuardLogs; keys: Pick<ApiKeys, "namesOf"> }): ServiceImpl<typeof LogService> {
  return {
    async getLogs(req, ctx) {
      const org = await callerOrgWith(ctx, deps.orgs, "logs_analytics");
      // Compared at the precision given: a log at .775 is before a start of .7759.
      const start = requirePreciseInstant("start_time", req.startTime);
      const end = requirePreciseInstant("end_time", req.endTime);
      if (compareInstants(end, start) <= 0) throw invalidRequest("end_time: must be after start_time");
      if (req.detectorTypes.includes("tool_access_control")) {
        requireFeature(org, "agentic", "the tool_access_control filter needs the agentic feature, which is not enabled for this organization");
      }
      const limit = req.limit ?? 100;
      const offset = req.offset ?? 0;
      if (offset + limit > MAX_OFFSET) {
        throw new ApiError("query_too_large", `offset + limit may not exceed ${MAX_OFFSET}; narrow the time range instead of paging further`);
      }
      const page = await pageLogs(deps.logs, {
        orgId: org._id,
        start: ceilToMillisecond(start),
        end: ceilToMillisecond(end),
        projectId: req.projectId || undefined,
        flaggedOnly: req.flaggedOnly,
        detectedOnly: req.detectedOnly,
        families: req.detectorTypes,
        newestFirst: req.order === "newest_first",
        offset,
        limit,
      });
      // Named at read time, not stored with each log: a renamed key shows its new name on its old logs.
      const keyIds = [...new Set(page.logs.flatMap((l) => (l.api_key_id === undefined ? [] : [l.api_key_id])))];
      const keyNames = await deps.keys.namesOf(org._id, keyIds);
      return { logs: page.logs.map((l) => guardLogOf(l, keyNames)), hasMore: page.hasMore };
    },
  };
}
