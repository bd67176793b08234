// What the logs list shows of a logged request: the part a detector fired on (not simply the
// first message, which is often the system prompt), cut around its first matched span.
import type { GuardLog, MsgResult } from "../../gen/parapet/v1/logs_pb.js";
import type { Span } from "./ui.js";

/** The spans of the results on one part: a message's content (no tool id) or one of its tool calls. */
export function spansOf(hits: MsgResult[], toolId: number | undefined): Span[] {
  return hits.filter((h) => h.toolId === toolId).flatMap((h) => h.spans.map((s) => ({ start: s.start, end: s.end, detectorType: h.detectorType, labels: s.labels })));
}

export interface Excerpt {
  /** The message's role, and the tool call's name for a call's arguments. */
  where: string;
  text: string;
  /** In code points of `text`. */
  spans: Span[];
}

const length = 110;
const before = 30;

/**
 * The first part a detector fired on (one with matched spans first), else the last user
 * message; at most `length` code points, starting a little before the first span.
 */
export function excerptOf(log: GuardLog): Excerpt | null {
  // A hit on a message the log no longer holds (cut from a very large request) counts as none.
  const onMessage = log.msgResults.filter((r) => r.messageId !== undefined && r.messageId < log.messages.length);
  const hit = onMessage.find((r) => r.spans.length > 0) ?? onMessage[0];
  const message = hit ? log.messages[hit.messageId!] : ([...log.messages].reverse().find((m) => m.role === "user") ?? log.messages[0]);
  if (!message) return null;
  const call = hit?.toolId !== undefined ? message.toolCalls[hit.toolId] : undefined;
  const whole = Array.from(call ? (call.function?.arguments ?? "") : message.content);
  const spans = hit
    ? spansOf(
        onMessage.filter((r) => r.messageId === hit.messageId),
        hit.toolId,
      )
    : [];
  const first = Math.min(...spans.map((s) => s.start));
  const from = Number.isFinite(first) && first > before ? first - before : 0;
  const to = Math.min(whole.length, from + length);
  const lead = from > 0 ? "…" : "";
  const text = lead + whole.slice(from, to).join("") + (to < whole.length ? "…" : "");
  // The leading ellipsis is one code point: spans move by the cut minus it.
  const shift = from - lead.length;
  const shifted = spans
    .map((s) => ({ ...s, start: Math.max(s.start - shift, lead.length), end: Math.min(s.end - shift, lead.length + to - from) }))
    .filter((s) => s.start < s.end);
  return { where: call ? `${message.role}, ${call.function?.name ?? "tool"}()` : message.role, text, spans: shifted };
}
