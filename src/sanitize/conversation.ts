// Builds the sanitized copy of a screened conversation (docs/sanitize.md): every
// flagged span of the chosen detector types replaced by a typed placeholder, in
// message content, content parts and tool-call arguments. Pure: the screening
// has already run; the caller stores the mapping when the mode is reversible.
import { clone } from "@bufbuild/protobuf";
import { MessageSchema, type Message } from "../../gen/parapet/v1/guard_pb.js";
import type { Outcome, Screening } from "../screening/engine.js";
import { callsOf, contentText } from "../screening/parts.js";
import { GUARDRAIL_LIMITS, MAX_SPANS_PER_OUTCOME } from "../screening/limits.js";
import { CUSTOM_GUARDRAIL, definitionOf } from "../screening/registry.js";
import { decodeStringPiece, jsonLayout } from "./json-strings.js";
import { PlaceholderAllocator } from "./placeholders.js";

export interface SanitizeChoice {
  /** Also custom-guardrail and override_deny spans, not only PII. */
  includeCustom: boolean;
}

export interface SanitizedConversation {
  messages: Message[];
  /** Spans replaced, once per occurrence. */
  replaced: number;
  /** Placeholder -> original value of every placeholder used. */
  originals: Map<string, string>;
  /** The placeholders handed out, for the request's metadata to go on from (metadata.ts). */
  allocator: PlaceholderAllocator;
}

/**
 * Sanitization would be incomplete: the engine keeps at most so many spans per
 * outcome (and custom-guardrail spans per request), and a value left in clear
 * is worse than an error (docs/sanitize.md#limits).
 */
export class SanitizeLimitError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "SanitizeLimitError";
  }
}

/** A span in UTF-16 offsets of one part's text, with the placeholder type it takes. */
export interface Span {
  start: number;
  end: number;
  type: string;
}

export interface Replacement {
  start: number;
  end: number;
  token: string;
}

export function replacesSpansOf(o: Outcome, choice: SanitizeChoice): boolean {
  if (!o.flagged || o.spans.length === 0 || o.messageId === undefined) return false;
  if (o.detectorType.startsWith("pii/")) return true;
  return choice.includeCustom && (o.detectorType === CUSTOM_GUARDRAIL || o.detectorType === "override_deny");
}

/** Code point offset -> UTF-16 offset of `s` (spans are reported in code points, docs/api.md#the-screening-call). */
export function utf16Of(s: string): (cp: number) => number {
  let table: Uint32Array | null = null;
  return (cp) => {
    if (!table) {
      table = new Uint32Array(s.length + 1);
      let n = 0;
      for (let i = 0; i < s.length; i++) {
        // Counted as the engine maps spans (normalize.ts): a low surrogate, even a lone one, belongs to the code point before it.
        const c = s.charCodeAt(i);
        if (c < 0xdc00 || c > 0xdfff) table[n++] = i;
      }
      table[n] = s.length;
      table = table.subarray(0, n + 1);
    }
    return table[Math.min(cp, table.length - 1)];
  };
}

/**
 * Overlapping spans become one: the union of their text, typed by the longest
 * of them (the outermost; on a tie the earliest), so "jane.doe@example.com"
 * found as an email and "jane.doe" found as a name is one [EMAIL_n].
 */
export function mergeSpans(spans: Span[]): Span[] {
  const sorted = [...spans].sort((a, b) => a.start - b.start || b.end - a.end);
  const merged: Span[] = [];
  let best: Span | undefined;
  for (const s of sorted) {
    const last = merged.at(-1);
    if (last && s.start < last.end) {
      if (s.end - s.start > best!.end - best!.start) best = s;
      last.end = Math.max(last.end, s.end);
      last.type = best!.type;
    } else {
      best = s;
      merged.push({ ...s });
    }
  }
  return merged;
}

export function applyReplacements(text: string, replacements: Replacement[]): string {
  if (replacements.length === 0) return text;
  let out = "";
  let at = 0;
  for (const r of replacements) {
    out += text.slice(at, r.start) + r.token;
    at = r.end;
  }
  return out + text.slice(at);
}

/** Message content (a string, or text parts joined by "\n" as screened): each part gets the pieces of the spans inside it. */
function sanitizeContent(m: Message, spans: Span[], alloc: PlaceholderAllocator): number {
  const joined = contentText(m);
  const texts = m.contentParts.length === 0 ? [{ set: (t: string) => (m.content = t), text: joined }] : [];
  for (const p of m.contentParts) if (p.text !== undefined) texts.push({ set: (t: string) => (p.text = t), text: p.text });
  const tokens = spans.map((s) => alloc.placeholderFor(s.type, joined.slice(s.start, s.end)));
  let offset = 0;
  for (const t of texts) {
    const end = offset + t.text.length;
    const local: Replacement[] = [];
    spans.forEach((s, i) => {
      if (s.end <= offset || s.start >= end) return;
      // A span crossing the "\n" between two parts: its placeholder goes in the part where it starts, the rest is removed.
      const token = s.start >= offset ? tokens[i] : "";
      local.push({ start: Math.max(s.start, offset) - offset, end: Math.min(s.end, end) - offset, token });
    });
    if (local.length) t.set(applyReplacements(t.text, local));
    offset = end + 1;
  }
  return spans.length;
}

/** Tool-call arguments: within JSON strings only, so the arguments stay valid JSON (json-strings.ts). */
function sanitizeArguments(args: string, spans: Span[], alloc: PlaceholderAllocator): { text: string; replaced: number } {
  const layout = jsonLayout(args);
  if (!layout) {
    const replacements = spans.map((s) => ({ start: s.start, end: s.end, token: alloc.placeholderFor(s.type, args.slice(s.start, s.end)) }));
    return { text: applyReplacements(args, replacements), replaced: replacements.length };
  }
  const replacements: Replacement[] = [];
  let slot = 0;
  for (const s of spans) {
    while (slot < layout.slots.length && layout.slots[slot].end <= s.start) slot++;
    for (let k = slot; k < layout.slots.length && layout.slots[k].start < s.end; k++) {
      const { start: from, end: to, kind } = layout.slots[k];
      if (kind === "number") {
        const last = replacements.at(-1);
        if (last && last.start === from) continue; // two spans over one number: replaced once
        replacements.push({ start: from, end: to, token: `"${alloc.placeholderFor(s.type, args.slice(from, to))}"` });
        continue;
      }
      let start = Math.max(s.start, from);
      let end = Math.min(s.end, to);
      while (start > from && layout.inEscape[start]) start--;
      while (end < to && layout.inEscape[end]) end++;
      const last = replacements.at(-1);
      if (last && start < last.end) start = last.end;
      if (start >= end) continue;
      replacements.push({ start, end, token: alloc.placeholderFor(s.type, decodeStringPiece(args.slice(start, end))) });
    }
  }
  return { text: applyReplacements(args, replacements), replaced: replacements.length };
}

/** Refuses when the engine may have left spans out (SanitizeLimitError); `part` names where, for the message. */
export function checkComplete(used: Outcome[], part: (o: Outcome) => string = (o) => `message ${o.messageId}`): void {
  const full = used.find((o) => o.spans.length >= MAX_SPANS_PER_OUTCOME);
  if (full) {
    throw new SanitizeLimitError(
      `${part(full)} has more than ${MAX_SPANS_PER_OUTCOME} ${full.detectorType} matches, more than one request can sanitize; send less text per request`,
    );
  }
  const custom = used.filter((o) => o.detectorType === CUSTOM_GUARDRAIL).reduce((n, o) => n + o.spans.length, 0);
  if (custom >= GUARDRAIL_LIMITS.matches) {
    throw new SanitizeLimitError(
      `the request has more than ${GUARDRAIL_LIMITS.matches} custom guardrail matches, more than one request can sanitize; send less text per request`,
    );
  }
}

/**
 * Placeholder type of a detector type: the one its definition declares, CUSTOM
 * for custom guardrails; otherwise its name after `pii/`, in capitals.
 */
export function placeholderType(detectorType: string): string {
  if (detectorType === CUSTOM_GUARDRAIL) return "CUSTOM";
  const declared = definitionOf(detectorType)?.placeholder;
  if (declared) return declared;
  const name = detectorType
    .replace(/^pii\//, "")
    .toUpperCase()
    .replace(/[^A-Z0-9_]/g, "_");
  return /^[A-Z]/.test(name) ? name.slice(0, 31) : "PII";
}

export function sanitizeConversation(messages: readonly Message[], screening: Screening, choice: SanitizeChoice): SanitizedConversation {
  const used = screening.outcomes.filter((o) => replacesSpansOf(o, choice));
  checkComplete(used);
  // Spans per message content (key "m") and per tool call (key "m/t"), in UTF-16 offsets of the part's text.
  const byPart = new Map<string, Span[]>();
  const converters = new Map<string, (cp: number) => number>();
  const out = messages.map((m) => clone(MessageSchema, m));
  for (const o of used) {
    const m = messages[o.messageId!];
    const isCall = o.location === "assistant::tool_call";
    const key = isCall ? `${o.messageId}/${o.toolId}` : String(o.messageId);
    const text = isCall ? (callsOf(m)[o.toolId!]?.arguments ?? "") : undefined;
    let utf16 = converters.get(key);
    if (!utf16) converters.set(key, (utf16 = utf16Of(text ?? contentText(m))));
    const list = byPart.get(key) ?? [];
    for (const s of o.spans) list.push({ start: utf16(s.start), end: utf16(s.end), type: placeholderType(o.detectorType) });
    byPart.set(key, list);
  }
  const alloc = new PlaceholderAllocator(PlaceholderAllocator.takenIn(messages.flatMap(textsOf)));
  let replaced = 0;
  // Message order, content before its tool calls: placeholders are numbered in reading order.
  out.forEach((m, i) => {
    const content = byPart.get(String(i));
    if (content) replaced += sanitizeContent(m, mergeSpans(content), alloc);
    callsOf(m).forEach((call, j) => {
      const spans = byPart.get(`${i}/${j}`);
      if (!spans || !call) return;
      const r = sanitizeArguments(call.arguments ?? "", mergeSpans(spans), alloc);
      call.arguments = r.text;
      replaced += r.replaced;
    });
  });
  return { messages: out, replaced, originals: alloc.originals, allocator: alloc };
}

/** Every text of a message a placeholder could already occur in. */
function textsOf(m: Message): string[] {
  return [contentText(m), ...callsOf(m).map((c) => c?.arguments ?? "")];
}
