// Keeps a request log within one stored document (docs/api.md#log-entry, docs/storage.md).
//
// A request up to PARAPET_MAX_BODY_BYTES (64 MiB at most) is screened whole, but its log is a
// time-series document, which MongoDB limits to 4 MB (MAX_TIMESERIES_DOCUMENT_BYTES; the
// embedded engine refuses the same). So that every screened request is logged, the longest
// texts are cut to a common length, each ending with a marker that gives its original length;
// only if that is not enough (tens of thousands of messages) are trailing messages left out.
// Matched spans give way before any text (the conversation is what a reader needs); as every
// span is gone before a text is cut, no span is left pointing past a cut.
import { bsonDocumentBytes } from "../storage/document-size.js";
import { MAX_TIMESERIES_DOCUMENT_BYTES } from "../storage/collection.js";

/** The parts of a stored log (repository.ts) that can be cut. */
interface CuttableLog {
  messages: { content: string; tool_calls: { function: { arguments: string } }[] }[];
  msg_results: CuttableResult[];
  event_metadata: string;
}

interface CuttableResult {
  spans?: { start: number; end: number }[];
  spans_truncated?: true;
}

/** Below the engines' limit, leaving room for what MongoDB adds to a time-series measurement. */
export const LOG_DOCUMENT_BUDGET = MAX_TIMESERIES_DOCUMENT_BYTES - 64 * 1024;

/** What a cut text ends with; `N` is its length in code points before the cut. */
export function truncationMarker(originalCodePoints: number): string {
  return `…[truncated by Parapet: ${originalCodePoints} characters in all]`;
}

/** `event_metadata` stays valid JSON when cut: it is replaced by this object. */
export function truncatedMetadata(originalCodePoints: number): string {
  return JSON.stringify({ parapet_truncated: { original_length: originalCodePoints } });
}

interface Text {
  bytes: number;
  /** Replaces the text with at most `keepBytes` of it plus the marker. */
  cut(keepBytes: number): void;
  /** Bytes the text takes once cut to keepBytes (marker included). */
  cutBytes(keepBytes: number): number;
}

/** The log itself when it fits; otherwise a copy with texts cut (and, as a last resort, trailing messages left out). */
export function boundedLog<T extends CuttableLog>(log: T, budget = LOG_DOCUMENT_BUDGET): T {
  const size = bsonDocumentBytes(log);
  if (size <= budget) return log;
  const out = structuredClone(log);
  const afterSpans = dropSpans(out, size, budget);
  if (afterSpans <= budget) return out;
  const texts = textsOf(out);
  const keep = largestKeep(texts, afterSpans - budget);
  for (const t of texts) if (t.bytes > keep && t.cutBytes(keep) < t.bytes) t.cut(keep);
  dropTrailing(out, budget);
  return out;
}

/** Empties the spans of trailing per-message results until the log fits or none are left; returns the size then. */
function dropSpans(log: CuttableLog, size: number, budget: number): number {
  for (let i = log.msg_results.length - 1; i >= 0 && size > budget; i--) {
    const r = log.msg_results[i];
    if (!r.spans) continue;
    const before = bsonDocumentBytes(r);
    delete r.spans;
    r.spans_truncated = true;
    size -= before - bsonDocumentBytes(r);
  }
  return size;
}

function textsOf(log: CuttableLog): Text[] {
  const texts: Text[] = [];
  const plain = (get: () => string, set: (s: string) => void) => {
    const original = get();
    const bytes = Buffer.byteLength(original);
    const marker = Buffer.byteLength(truncationMarker(codePoints(original)));
    texts.push({
      bytes,
      cutBytes: (keep) => keep + marker,
      cut: (keep) => set(prefixOf(original, keep) + truncationMarker(codePoints(original))),
    });
  };
  for (const m of log.messages) {
    plain(
      () => m.content,
      (s) => (m.content = s),
    );
    for (const c of m.tool_calls) {
      plain(
        () => c.function.arguments,
        (s) => (c.function.arguments = s),
      );
    }
  }
  const metadata = log.event_metadata;
  const replacement = truncatedMetadata(codePoints(metadata));
  texts.push({
    bytes: Buffer.byteLength(metadata),
    cutBytes: () => Buffer.byteLength(replacement),
    cut: () => (log.event_metadata = replacement),
  });
  return texts;
}

/** The largest length every text may keep so that cutting the longer ones saves at least `excess` bytes. */
function largestKeep(texts: Text[], excess: number): number {
  const saved = (keep: number) => texts.reduce((sum, t) => sum + (t.bytes > keep ? Math.max(0, t.bytes - t.cutBytes(keep)) : 0), 0);
  let lo = 0;
  let hi = Math.max(0, ...texts.map((t) => t.bytes));
  if (saved(lo) < excess) return 0;
  // saved() falls as keep grows: the largest keep that still saves enough.
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (saved(mid) >= excess) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/** Leaves out trailing per-message results, then trailing messages, until the log fits; kept messages keep their `index`. */
function dropTrailing(log: CuttableLog, budget: number): void {
  for (const list of [log.msg_results, log.messages] as object[][]) {
    let size = bsonDocumentBytes(log);
    while (size > budget && list.length > 0) {
      // An array element costs its index key, two bytes of framing and itself.
      const last = list.pop()!;
      size -= String(list.length).length + 2 + bsonDocumentBytes(last);
    }
  }
}

function codePoints(s: string): number {
  let n = 0;
  for (const _ of s) n++;
  return n;
}

/** The longest prefix of s within `bytes` UTF-8 bytes that does not split a character. */
function prefixOf(s: string, bytes: number): string {
  const buf = Buffer.from(s);
  if (buf.length <= bytes) return s;
  let end = bytes;
  // Back up over continuation bytes (10xxxxxx) to the start of a character.
  while (end > 0 && (buf[end] & 0xc0) === 0x80) end--;
  return buf.toString("utf8", 0, end);
}
