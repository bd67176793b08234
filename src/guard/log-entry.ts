// The request log entry of one /v2/guard call (docs/api.md#logs): the
// conversation, the decision, and only the detectors that fired.
import type { Message } from "../../gen/parapet/v1/guard_pb.js";
import { familiesOf, type StoredLog, type StoredLogMessage } from "../logs/repository.js";
import type { Outcome, Screening } from "../screening/engine.js";
import { codePointLength } from "../screening/normalize.js";
import { contentText } from "../screening/parts.js";
import { levelRank } from "../screening/vocabulary.js";
import type { Resolved } from "./resolve.js";

/** Part types kept per message in the log; the rest are counted, so a message of millions of parts stays a small entry. */
const maxLoggedParts = 1000;

function partsJson(m: Message): string {
  const kept: object[] = m.contentParts.slice(0, maxLoggedParts).map((p) => ({ type: p.type.slice(0, 100) }));
  const left = m.contentParts.length - kept.length;
  if (left > 0) kept.push({ type: "parapet_truncated", omitted_parts: left });
  return JSON.stringify(kept);
}

function logMessages(messages: Message[]): StoredLogMessage[] {
  return messages.map((m, index) => {
    const content = contentText(m);
    return {
      role: m.role,
      content,
      // The parts' types in order; their text is `content` (joined as screened) and non-text
      // data (images, audio) is never stored (docs/api.md#log-entry).
      content_parts_json: partsJson(m),
      size: String(codePointLength(content)),
      index,
      name: m.name ?? "",
      tool_calls: m.toolCalls.map((c) => ({ id: c.id, type: c.type, function: { name: c.function?.name ?? "", arguments: c.function?.arguments ?? "" } })),
      refusal: "",
      tool_call_id: m.toolCallId ?? "",
    };
  });
}

export function logOf(requestUuid: string, at: Date, orgId: string, r: Resolved, flagged: boolean, s: Screening, messages: Message[], metadata: string): StoredLog {
  const fired = s.outcomes.filter((o) => o.flagged);
  const byType = new Map<string, Outcome>();
  for (const o of fired) {
    const prev = byType.get(o.detectorType);
    if (!prev || levelRank[o.level] < levelRank[prev.level]) byType.set(o.detectorType, o);
  }
  return {
    _id: requestUuid,
    timestamp: at,
    meta: { org_id: orgId, project_id: r.project._id },
    policy_id: r.policy._id,
    flagged,
    detected: s.detected,
    fired: [...byType.keys()],
    families: familiesOf([...byType.keys()]),
    messages: logMessages(messages),
    results: [...byType.values()].map((o) => ({ detector_type: o.detectorType, result: o.level })),
    msg_results: fired.map((o) => ({
      detector_type: o.detectorType,
      result: o.level,
      message_id: o.messageId ?? null,
      tool_id: o.toolId ?? null,
    })),
    event_metadata: metadata,
  };
}
