// override_allow and override_deny (docs/decisions.md#overrides). The engine
// applies the precedence allow > deny > detectors; these functions only say
// whether a message matches the policy's `override_list`.
//
// Normalization (both): Unicode NFKC, then case folding with
// toLocaleLowerCase("und") (locale-independent: "İ" and "I" fold the same way
// in every server locale), then every run of whitespace (including zero-width
// and other format characters, which are removed first) collapsed to one
// space, then trimmed.
//
// override_deny: matches when some normalized entry is a substring of the
// normalized message. Spans are the matched regions in the ORIGINAL text,
// mapped back through the normalization, one per occurrence of each entry.
//
// override_allow: matches when the normalized message "nearly equals" some
// normalized entry, defined exactly as:
//   1. leading and trailing punctuation and symbols (Unicode P* and S*) are
//      stripped from both, after normalization, then whitespace trimmed; and
//   2. the Levenshtein distance between the two (in code points) is at most
//      max(1, floor(len / 20)), len = code points of the stripped entry.
//      An entry that is empty after stripping only matches an empty message.
// So "Hello there!" allows "hello there", "HELLO THERE?!" and "hello ther",
// but not "hello there, and ignore the policy". The span is the whole message.
import { contentLocations, defineDetector, nothing, textOnly, type Detection } from "../detector.js";
import type { DetectorConfig } from "../vocabulary.js";
import { type Finding, toDetection } from "./findings.js";
import { MAX_SPANS_PER_OUTCOME } from "../limits.js";

const FORMAT_CHARS = /[\p{Cf}]/u;
const SPACE = /[\s\u0085\u180e]/u;

function foldCluster(cluster: string): string {
  return cluster.normalize("NFKC").toLocaleLowerCase("und").normalize("NFKC").replace(/\s+/g, " ");
}

const FORMAT = 0;
const BLANK = 1;
/**
 * What one code point on its own becomes: removed (format), whitespace, or its
 * folded form. Memoized per code point: three regex tests and two NFKC passes
 * per character made long non-ASCII text (emoji, "\uFDFA" after the engine's
 * NFKC) cost microseconds a character.
 */
const kinds = new Map<number, string | typeof FORMAT | typeof BLANK>();

function kindOf(cp: number): string | typeof FORMAT | typeof BLANK {
  let k = kinds.get(cp);
  if (k === undefined) {
    const ch = String.fromCodePoint(cp);
    k = FORMAT_CHARS.test(ch) ? FORMAT : SPACE.test(ch) ? BLANK : foldCluster(ch);
    // Bounded: a text of many distinct code points must not grow the table for ever.
    if (kinds.size >= 50_000) kinds.clear();
    kinds.set(cp, k);
  }
  return k;
}

/** Combining marks of the Basic Multilingual Plane: 0 not looked up yet, 1 mark, 2 not a mark. */
const bmpMarks = new Uint8Array(0x10000);
const MARK = /\p{M}/u;

function isMark(cp: number): boolean {
  if (cp > 0xffff) return MARK.test(String.fromCodePoint(cp));
  let m = bmpMarks[cp];
  if (m === 0) bmpMarks[cp] = m = MARK.test(String.fromCharCode(cp)) ? 1 : 2;
  return m === 1;
}

export interface Normalized {
  text: string;
  /** For each UTF-16 unit of `text`: [start, end) of the original text it came from. */
  from: Uint32Array;
  to: Uint32Array;
}

/**
 * NFKC + case fold + whitespace collapse, keeping a map back to the original.
 * Works per code point, then per grapheme-ish cluster: a base character and
 * its following combining marks are normalized together so that NFKC can
 * compose them (e + U+0301 -> é).
 */
/** Where the combining marks that follow a base character end: they go with it. */
function clusterEnd(input: string, end: number): number {
  while (end < input.length) {
    const next = input.codePointAt(end)!;
    if (!isMark(next)) break;
    end += next > 0xffff ? 2 : 1;
  }
  return end;
}

function normalizeForOverride(input: string): Normalized {
  // Chunks are joined once at the end and the last emitted unit is tracked by
  // hand: `text += chunk` followed by `text.endsWith(" ")` flattens V8's rope
  // on every call, which made emoji and NFKC-expanding input quadratic.
  const chunks: string[] = [];
  let last = -1;
  let from = new Uint32Array(input.length + 16);
  let to = new Uint32Array(input.length + 16);
  let n = 0;
  let pendingSpace = -1;
  let i = 0;
  const emit = (chunk: string, s: number, e: number) => {
    if (chunk.length === 0) return;
    if (n + chunk.length > from.length) {
      // NFKC can expand ("ﬃ" -> "ffi"): grow the maps.
      const bigger = (a: Uint32Array) => {
        const b = new Uint32Array(a.length * 2 + chunk.length);
        b.set(a);
        return b;
      };
      from = bigger(from);
      to = bigger(to);
    }
    for (let k = 0; k < chunk.length; k++) {
      from[n] = s;
      to[n] = e;
      n++;
    }
    chunks.push(chunk);
    last = chunk.charCodeAt(chunk.length - 1);
  };
  while (i < input.length) {
    const c = input.charCodeAt(i);
    // ASCII fast path: NFKC leaves it alone and lower-casing is a shift.
    if (c < 128 && !(i + 1 < input.length && input.charCodeAt(i + 1) >= 0x300 && input.charCodeAt(i + 1) < 0x370)) {
      if (c === 32 || (c >= 9 && c <= 13)) {
        if (pendingSpace < 0) pendingSpace = i;
      } else {
        if (pendingSpace >= 0) {
          if (n > 0) emit(" ", pendingSpace, pendingSpace + 1);
          pendingSpace = -1;
        }
        emit(c >= 65 && c <= 90 ? String.fromCharCode(c + 32) : input[i], i, i + 1);
      }
      i++;
      continue;
    }
    const cp = input.codePointAt(i)!;
    const kind = kindOf(cp);
    let end = i + (cp > 0xffff ? 2 : 1);
    if (kind === FORMAT) {
      i = end;
      continue;
    }
    if (kind === BLANK) {
      if (pendingSpace < 0) pendingSpace = i;
      i = end;
      continue;
    }
    end = clusterEnd(input, end);
    if (pendingSpace >= 0) {
      if (n > 0) emit(" ", pendingSpace, pendingSpace + 1);
      pendingSpace = -1;
    }
    // NFKC can produce spaces (e.g. U+2474 "⑴" -> "(1)", U+00A0 handled above); they are collapsed too.
    const collapsed = end - i === (cp > 0xffff ? 2 : 1) ? kind : foldCluster(input.slice(i, end));
    if (collapsed === " ") {
      if (n > 0 && last !== 32) pendingSpace = i;
    } else if (last === 32 && collapsed.startsWith(" ")) {
      emit(collapsed.slice(1), i, end);
    } else {
      emit(collapsed, i, end);
    }
    i = end;
  }
  let text = chunks.join("");
  // Trailing whitespace is dropped (trim).
  let kept = text.length;
  while (kept > 0 && text.charCodeAt(kept - 1) === 32) kept--;
  if (kept < text.length) {
    text = text.slice(0, kept);
    n = kept;
  }
  return { text, from: from.subarray(0, n), to: to.subarray(0, n) };
}

/** The normalized form alone (NFKC, case fold, whitespace collapsed and trimmed). */
export function normalizeOverrideText(s: string): string {
  return normalizeForOverride(s).text;
}

const EDGE_PUNCT = /^[\p{P}\p{S}\s]+|[\p{P}\p{S}\s]+$/gu;

function levenshteinWithin(a: string[], b: string[], max: number): boolean {
  if (Math.abs(a.length - b.length) > max) return false;
  let prev = new Array<number>(b.length + 1);
  let cur = new Array<number>(b.length + 1);
  for (let j = 0; j <= b.length; j++) prev[j] = j;
  for (let i = 1; i <= a.length; i++) {
    cur[0] = i;
    let rowMin = cur[0];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      cur[j] = Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + cost);
      if (cur[j] < rowMin) rowMin = cur[j];
    }
    if (rowMin > max) return false;
    [prev, cur] = [cur, prev];
  }
  return prev[b.length] <= max;
}

/** The exact "nearly equals" rule of override_allow (see the file header). */
export function nearlyEquals(message: string, entry: string): boolean {
  const m = [...normalizeOverrideText(message).replace(EDGE_PUNCT, "")];
  const e = [...normalizeOverrideText(entry).replace(EDGE_PUNCT, "")];
  if (e.length === 0) return m.length === 0;
  const max = Math.max(1, Math.floor(e.length / 20));
  return levenshteinWithin(m, e, max);
}

export function detectOverrideAllow(text: string, config: DetectorConfig): Detection {
  const entries = config.override_list ?? [];
  if (entries.length === 0) return nothing;
  // Cheap bound before normalizing a long message: NFKC composes at most a few
  // code units into one, so a message with far more non-space units than the
  // longest entry (plus its edit budget and edge punctuation) cannot nearly equal it.
  let longest = 0;
  for (const e of entries) longest = Math.max(longest, e.length);
  let nonSpace = 0;
  for (let i = 0; i < text.length && nonSpace <= 4 * (longest + 8) + 64; i++) if (text.charCodeAt(i) > 32) nonSpace++;
  if (nonSpace > 4 * (longest + 8) + 64) return nothing;
  for (const entry of entries) {
    if (nearlyEquals(text, entry)) return toDetection([{ start: 0, end: Math.max(text.length, 0), level: "l1_confident" }]);
  }
  return nothing;
}

export function detectOverrideDeny(text: string, config: DetectorConfig): Detection {
  const entries = (config.override_list ?? []).map(normalizeOverrideText).filter((e) => e.length > 0);
  if (entries.length === 0) return nothing;
  const n = normalizeForOverride(text);
  const found: Finding[] = [];
  for (const entry of new Set(entries)) {
    let at = n.text.indexOf(entry);
    // The engine reports the first MAX_SPANS_PER_OUTCOME spans by position; an entry's later occurrences can never be among them.
    for (let k = 0; at !== -1 && k < MAX_SPANS_PER_OUTCOME; k++) {
      const start = n.from[at];
      const end = n.to[at + entry.length - 1];
      found.push({ start, end, level: "l1_confident" });
      at = n.text.indexOf(entry, at + 1);
    }
  }
  return toDetection(found);
}

export const overrideAllow = defineDetector({
  type: "override_allow",
  kind: "exact",
  meaningful: contentLocations,
  requires: ["override_list"],
  // It never flags: it only un-flags the other detectors on its part.
  logFamily: null,
  console: { family: "Overrides", defaults: ["user::content"] },
  detect: textOnly(detectOverrideAllow),
});

export const overrideDeny = defineDetector({
  type: "override_deny",
  kind: "exact",
  meaningful: contentLocations,
  requires: ["override_list"],
  logFamily: "deny_listed",
  counter: "override_deny_flagged",
  // A deny-listed phrase is the operator's own rule, like a custom guardrail's match.
  placeholder: "CUSTOM",
  console: { family: "Overrides", defaults: ["user::content"] },
  detect: textOnly(detectOverrideDeny),
});
