// Shared building blocks of the exact detectors: per-span findings folded into
// one Detection, and the character tests every scanner needs. Scanners walk
// the text by hand or with regexes that have no nested overlapping quantifiers
// so that every detector stays linear in the length of its input.
import { type Detection, type Span, nothing } from "../detector.js";
import { levelRank, levels, type Level } from "../vocabulary.js";

export interface Finding {
  start: number;
  end: number;
  level: Level;
  labels?: string[];
}

/**
 * Folds findings into a Detection: spans in text order with their own level,
 * the Detection's level the strongest of them. `no_level` findings are dropped;
 * `l5_unlikely` ones are kept so callers can see what was scored but discounted.
 */
export function toDetection(findings: readonly Finding[]): Detection {
  let level: Level = "no_level";
  const spans: Span[] = [];
  for (const f of findings) {
    if (f.level === "no_level" || f.end <= f.start) continue;
    if (levelRank[f.level] < levelRank[level]) level = f.level;
    const span: Span = { start: f.start, end: f.end, level: f.level };
    if (f.labels && f.labels.length > 0) span.labels = f.labels;
    spans.push(span);
  }
  if (spans.length === 0) return nothing;
  spans.sort((a, b) => a.start - b.start || b.end - a.end);
  return { level, spans };
}

/** One level more confident (l1 stays l1). */
export function stronger(level: Level, steps = 1): Level {
  // no_level is not a finding: it never gets stronger.
  if (level === "no_level") return level;
  return levels[Math.max(0, levels.indexOf(level) - steps)];
}

const LETTER_OR_DIGIT = /[\p{L}\p{N}\p{M}]/u;

/** True for letters, digits and combining marks (word characters in any script), false past the ends. */
export function isWordChar(text: string, i: number): boolean {
  if (i < 0 || i >= text.length) return false;
  const c = text.charCodeAt(i);
  if (c < 128) return (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95;
  // Low surrogate: look at the whole code point.
  if (c >= 0xdc00 && c <= 0xdfff && i > 0) return LETTER_OR_DIGIT.test(text.slice(i - 1, i + 1));
  if (c >= 0xd800 && c <= 0xdbff) return LETTER_OR_DIGIT.test(text.slice(i, i + 2));
  return LETTER_OR_DIGIT.test(text[i]);
}

/**
 * Lower-cased window of text before `start` (up to `width` UTF-16 units), for
 * context words ("SSN", "call me at"). Presidio-style: context raises or lowers
 * a pattern's confidence, it never creates a finding on its own.
 */
export function before(text: string, start: number, width: number): string {
  return text.slice(Math.max(0, start - width), start).toLowerCase();
}

/**
 * A test of whether [start, end) overlaps any of the ranges, in O(log n) a
 * query: ranges sorted by start with the running maximum of their ends. A scan
 * of the list per candidate was quadratic in a text of many small matches.
 */
export function overlapTest(ranges: readonly { start: number; end: number }[]): (start: number, end: number) => boolean {
  const sorted = [...ranges].sort((a, b) => a.start - b.start);
  const starts = sorted.map((r) => r.start);
  const maxEnd: number[] = [];
  let m = -Infinity;
  for (const r of sorted) maxEnd.push((m = Math.max(m, r.end)));
  return (start, end) => {
    // Ranges that start before `end`: the first `lo` of them.
    let lo = 0;
    let hi = starts.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (starts[mid] < end) lo = mid + 1;
      else hi = mid;
    }
    return lo > 0 && maxEnd[lo - 1] > start;
  };
}
