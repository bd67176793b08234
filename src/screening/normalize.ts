// Text normalization before matching (docs/decisions.md#normalization: NFKC, zero-width characters
// stripped), with a map back to the original so spans are reported in Unicode
// code points of the content the client sent (docs/decisions.md#spans).
//
// NFKC is applied per cluster (a base character and its combining marks):
// composition never crosses such a boundary, so the result equals whole-string
// NFKC while every output unit still knows which original characters it came from.

/** Invisible characters used to split words past filters: zero-width space/joiners, word joiner, BOM, soft hyphen. */
const ZERO_WIDTH = /[\u200B-\u200D\u2060\uFEFF\u00AD]/g;
const PLAIN = /^[\x09\x0A\x0D\x20-\x7E]*$/;

export interface NormalizedText {
  /** What detectors see. */
  text: string;
  /** The content as sent. */
  original: string;
  /** Maps a half-open UTF-16 range of `text` to a half-open code point range of `original`. */
  toOriginal(start: number, end: number): { start: number; end: number };
  /** `sliceCodePoints(original, start, end)` in constant time after one pass, for the many spans of one part. */
  sliceOriginal(start: number, end: number): string;
}

/** A base character with the combining marks that follow it: NFKC never composes across these. */
const CLUSTER = /\P{M}\p{M}*|\p{M}+/gsu;

/** UTF-16 index -> code point index, computed once per text and only when a span needs it. */
function codePointIndex(s: string): (utf16: number) => number {
  let table: Uint32Array | null = null;
  return (utf16) => {
    if (!table) {
      table = new Uint32Array(s.length + 1);
      let cp = 0;
      for (let i = 0; i < s.length; i++) {
        table[i] = cp;
        const c = s.charCodeAt(i);
        if (c < 0xdc00 || c > 0xdfff) cp++;
        else table[i] = cp - 1; // low surrogate belongs to the code point before it
      }
      table[s.length] = cp;
    }
    return table[Math.min(utf16, s.length)];
  };
}

/**
 * Code point slices of `s` through a table of where each code point starts,
 * built on the first call: slicing from the start of the text for every span
 * was quadratic in a part with many matches.
 */
function codePointSlicer(s: string): (start: number, end: number) => string {
  let starts: Uint32Array | null = null;
  let count = 0;
  return (start, end) => {
    if (!starts) {
      starts = new Uint32Array(s.length + 1);
      // The same walk as sliceCodePoints, lone surrogates included.
      for (let i = 0; i < s.length; i++) {
        starts[count++] = i;
        const c = s.charCodeAt(i);
        if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length) i++;
      }
      starts[count] = s.length;
    }
    return s.slice(starts[Math.min(start, count)], starts[Math.min(end, count)]);
  };
}

export function normalizeText(original: string): NormalizedText {
  if (PLAIN.test(original)) {
    // Printable ASCII is NFKC-stable and has no zero-width characters: identity.
    return { text: original, original, toOriginal: (start, end) => ({ start, end }), sliceOriginal: (start, end) => original.slice(start, end) };
  }
  ZERO_WIDTH.lastIndex = 0;
  if (!ZERO_WIDTH.test(original) && original.normalize("NFKC") === original) {
    // Already normalized (most non-Latin and emoji text): same string, only the unit differs.
    const cpAt = codePointIndex(original);
    return { text: original, original, toOriginal: (start, end) => ({ start: cpAt(start), end: cpAt(end) }), sliceOriginal: codePointSlicer(original) };
  }
  // For each UTF-16 unit of the output: the code point range of its source cluster.
  const srcStart: number[] = [];
  const srcEnd: number[] = [];
  const parts: string[] = [];
  let cp = 0;
  CLUSTER.lastIndex = 0;
  for (const m of original.matchAll(CLUSTER)) {
    const cluster = m[0];
    let len = 0;
    for (let i = 0; i < cluster.length; i++) {
      const c = cluster.charCodeAt(i);
      if (c < 0xdc00 || c > 0xdfff) len++;
    }
    const normalized = cluster.replace(ZERO_WIDTH, "").normalize("NFKC");
    for (let i = 0; i < normalized.length; i++) {
      srcStart.push(cp);
      srcEnd.push(cp + len);
    }
    parts.push(normalized);
    cp += len;
  }
  return {
    text: parts.join(""),
    original,
    sliceOriginal: codePointSlicer(original),
    toOriginal(start, end) {
      if (end <= start) {
        const at = start < srcStart.length ? srcStart[start] : cp;
        return { start: at, end: at };
      }
      return { start: srcStart[start] ?? cp, end: srcEnd[Math.min(end, srcEnd.length) - 1] ?? cp };
    },
  };
}

/** Substring of `s` by code point offsets (one pass up to `end`, no array of the whole text). */
export function sliceCodePoints(s: string, start: number, end: number): string {
  let cp = 0;
  let from = -1;
  let i = 0;
  for (; i < s.length && cp < end; i++) {
    if (cp === start && from < 0) from = i;
    const c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length) i++;
    cp++;
  }
  if (from < 0) from = cp === start ? i : s.length;
  return s.slice(from, i);
}

/** Number of code points of `s` (what `[...s].length` counts, without the array). */
export function codePointLength(s: string): number {
  let n = s.length;
  for (let i = 0; i + 1 < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff) {
      const d = s.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        n--;
        i++;
      }
    }
  }
  return n;
}
