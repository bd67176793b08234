// The request log entry of one /v2/guard call (docs/api.md#logs): the
// conversation, the decision, and only the detectors that fired.
import type { Message } from "../../gen/parapet/v1/guard_pb.js";
import { familiesOf, type StoredLog, type StoredLogMessage, type StoredLogResult } from "../logs/repository.js";
import type { Outcome, Screening } from "../screening/engine.js";
import { codePointLength } from "../screening/normalize.js";
import { contentText } from "../screening/parts.js";
import { levelRank } from "../screening/vocabulary.js";
import type { Resolved } from "./resolve.js";

/** Spans kept per detector and part: enough to show what fired, while a part of thousands of matches stays a small entry. */
export const MAX_LOGGED_SPANS = 50;

/** What a log records beyond the conversation and the decision; every field is optional so existing callers keep working. */
export interface LogOptions {
  /** Milliseconds spent screening the request. */
  screeningMs?: number;
  /**
   * The request was sanitized: the log holds the sanitized text, so spans into the
   * original text would point at the wrong characters (and measure the masked values):
   * none are stored.
   */
  sanitized?: boolean;
  /** The key that made the request, so a log tells which client sent it (shown with the key's name). */
  keyId?: string;
}

/** Part types kept per message in the log; the rest are counted, so a message of millions of parts stays a small entry. */
const maxLoggedParts = 1000;

function partsJson(m: Message): string {
  const kept: object[] = m.contentParts.slice(0, maxLoggedParts).map((p) => ({ type: p.type.slice(0, 100) }));
  const left = m.contentParts.length - kept.length;
  if (left > 0) kept.push({ type: "parapet_truncated", omitted_parts: left });
  return JSON.stringify(kept);
}

/**
 * The calls of a message as the log stores them: a legacy `function_call` as a tool call without
 * id, after the `tool_calls` entries, so that `tool_id` in results points at it (parts.ts callsOf).
 */
function loggedCalls(m: Message): StoredLogMessage["tool_calls"] {
  const calls = m.toolCalls.map((c) => ({ id: c.id, type: c.type, function: { name: c.function?.name ?? "", arguments: c.function?.arguments ?? "" } }));
  if (m.functionCall) calls.push({ id: "", type: "function", function: { name: m.functionCall.name, arguments: m.functionCall.arguments ?? "" } });
  return calls;
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
      tool_calls: loggedCalls(m),
      refusal: "",
      tool_call_id: m.toolCallId ?? "",
    };
  });
}

/**
 * Detectors whose span does not index the part's text: tool_access_control judges the call's
 * tool name, which is not in the arguments its span would be read against.
 */
const spansOutsideText = new Set(["tool_access_control"]);

function resultOf(o: Outcome, keepSpans: boolean): StoredLogResult {
  const entry: StoredLogResult = { detector_type: o.detectorType, result: o.level, message_id: o.messageId ?? null, tool_id: o.toolId ?? null };
  if (o.model) entry.model = o.model;
  // Tool definitions are not stored in the log, so their spans would point at nothing.
  if (!keepSpans || o.messageId === undefined || o.spans.length === 0 || spansOutsideText.has(o.detectorType)) return entry;
  entry.spans = o.spans.slice(0, MAX_LOGGED_SPANS).map((sp) => ({ start: sp.start, end: sp.end, labels: sp.labels.slice(0, 20).map((l) => l.slice(0, 200)) }));
  if (o.spans.length > MAX_LOGGED_SPANS) entry.spans_truncated = true;
  return entry;
}

export function logOf(
  requestUuid: string,
  at: Date,
  orgId: string,
  r: Resolved,
  flagged: boolean,
  s: Screening,
  messages: Message[],
  metadata: string,
  options: LogOptions = {},
): StoredLog {
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
    msg_results: fired.map((o) => resultOf(o, !options.sanitized)),
    event_metadata: metadata,
    policy_version: r.policy.version_id,
    ...(options.screeningMs !== undefined ? { screening_ms: Math.max(0, Math.round(options.screeningMs * 1000) / 1000) } : {}),
    ...(options.keyId !== undefined ? { api_key_id: options.keyId } : {}),
  };
}
