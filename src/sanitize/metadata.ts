// A request's `metadata` in its request log, with sanitize (docs/sanitize.md#request-logs-and-service-logs):
// its string and number values screened as user content by the detectors sanitize replaces, and
// their spans masked with the conversation's placeholders. The metadata is the caller's own tags
// (a user's email, a phone number as a session tag); the answer does not return it, but the log
// stores it, and a log that keeps the address the messages had masked would defeat the point.
// Keys are not screened: they are names the application chooses (`user_id`), not data.
import type { JsonObject, JsonValue } from "@bufbuild/protobuf";
import type { Screening } from "../screening/engine.js";
import type { Part } from "../screening/parts.js";
import type { DetectorSettings } from "../screening/vocabulary.js";
import { applyReplacements, checkComplete, mergeSpans, placeholderType, replacesSpansOf, utf16Of, type SanitizeChoice, type Span } from "./conversation.js";
import type { PlaceholderAllocator } from "./placeholders.js";

/** The location whose detectors screen metadata values: the tags describe the user and what the user sent. */
const METADATA_LOCATION = "user::content";

/**
 * Screens metadata values: `keep` picks the policy's detectors to run, `guardrails` whether its
 * custom guardrails run too (the handler runs this on the request's policy and deadline).
 */
export type MetadataScreen = (parts: Part[], keep: (detector: DetectorSettings) => boolean, guardrails: boolean) => Promise<Screening>;

/** A string or number of the metadata, and how to put its masked text in the copy. */
interface Value {
  text: string;
  number: boolean;
  set(masked: string): void;
}

/** A copy of `root`, and its string and number values in reading order, each writable into the copy. */
function valuesOf(root: JsonObject): { copy: JsonObject; values: Value[] } {
  const values: Value[] = [];
  const visit = (v: JsonValue, set: (masked: JsonValue) => void): JsonValue => {
    if (typeof v === "string" || (typeof v === "number" && Number.isFinite(v))) {
      values.push({ text: String(v), number: typeof v === "number", set });
      return v;
    }
    if (Array.isArray(v)) {
      const out: JsonValue[] = [];
      v.forEach((item, i) => out.push(visit(item, (m) => (out[i] = m))));
      return out;
    }
    if (v !== null && typeof v === "object") {
      const out: JsonObject = {};
      for (const [k, item] of Object.entries(v)) out[k] = visit(item, (m) => (out[k] = m));
      return out;
    }
    return v;
  };
  const copy = visit(root, () => undefined) as JsonObject;
  return { copy, values };
}

/**
 * `metadata` with every flagged span of its values replaced, as sanitize replaces them in
 * messages: same detectors, thresholds and override_allow, custom guardrails with
 * `include_custom`. A number with a span becomes its placeholder as a string (its JSON type
 * changes, as in tool-call arguments). Unchanged metadata comes back as it was.
 */
export async function sanitizeMetadata(metadata: JsonObject, choice: SanitizeChoice, placed: PlaceholderAllocator, screen: MetadataScreen): Promise<JsonObject> {
  const { copy, values } = valuesOf(metadata);
  if (values.length === 0) return metadata;
  const parts: Part[] = values.map((v, i) => ({ location: METADATA_LOCATION, messageId: i, text: v.text }));
  const kept = (d: DetectorSettings) => d.type.startsWith("pii/") || d.type === "override_allow" || (choice.includeCustom && d.type === "override_deny");
  const screening = await screen(parts, kept, choice.includeCustom);
  const used = screening.outcomes.filter((o) => replacesSpansOf(o, choice));
  checkComplete(used, () => "a metadata value");
  if (used.length === 0) return metadata;
  const byValue = new Map<number, Span[]>();
  for (const o of used) {
    const value = values[o.messageId!];
    const utf16 = utf16Of(value.text);
    const list = byValue.get(o.messageId!) ?? [];
    for (const s of o.spans) list.push({ start: utf16(s.start), end: utf16(s.end), type: placeholderType(o.detectorType) });
    byValue.set(o.messageId!, list);
  }
  const alloc = placed.continued(values.map((v) => v.text));
  for (const [i, spans] of byValue) {
    const value = values[i];
    const merged = mergeSpans(spans);
    if (value.number) {
      value.set(alloc.placeholderFor(merged[0].type, value.text));
      continue;
    }
    value.set(
      applyReplacements(
        value.text,
        merged.map((s) => ({ start: s.start, end: s.end, token: alloc.placeholderFor(s.type, value.text.slice(s.start, s.end)) })),
      ),
    );
  }
  return copy;
}
