// Where each token of a text came from. transformers.js (4.3.1) returns a
// text's token ids but not their offsets (its token-classification pipeline
// leaves start and end as a TODO), so the runtime aligns the library's tokens
// back onto the text itself (docs/decisions.md#model-runtime): the text is cut
// into clusters (a character and its combining marks), each cluster goes
// through the tokenizer's own normalizer, and the bytes the tokens stand for
// are matched against the bytes of the normalized clusters, whitespace and
// word markers left out on both sides. Matching bytes rather than characters
// covers byte-level BPE and byte-fallback tokens that split a character.
// Offsets are UTF-16 indexes of whole clusters, so a span never cuts a
// surrogate pair or separates a letter from its accents.

/** What the alignment needs to know about a tokenizer. */
export interface TokenSurfaces {
  /** The bytes of the text a token id stands for (no whitespace, no markers); null for a token that stands for no fixed text (unknown, special). */
  bytesOf(id: number): Uint8Array | null;
  /** One cluster of the text as the tokenizer's normalizer writes it, whitespace and markers removed, in UTF-8. */
  clusterBytes(cluster: string): Uint8Array;
}

export interface TokenOffsets {
  /** Half-open [start, end) in UTF-16 units of the text; a token that stands for no text has start === end. */
  starts: Int32Array;
  ends: Int32Array;
}

const SPACE = /\s/;
const CLUSTER = /\P{M}\p{M}*|\p{M}+/gsu;

/**
 * How far ahead a token that does not match where expected is looked for, in
 * bytes; further after an unknown token, which may stand for a whole word.
 */
const LOOKAHEAD = 64;
const AFTER_UNKNOWN = 1024;

interface Stream {
  bytes: Uint8Array;
  /** Per byte: its cluster's start and end in the text. */
  from: Int32Array;
  to: Int32Array;
  length: number;
}

function streamOf(text: string, s: TokenSurfaces): Stream {
  let bytes = new Uint8Array(Math.max(16, text.length * 2));
  let from = new Int32Array(bytes.length);
  let to = new Int32Array(bytes.length);
  let n = 0;
  for (const m of text.matchAll(CLUSTER)) {
    const b = s.clusterBytes(m[0]);
    if (n + b.length > bytes.length) {
      const size = Math.max(bytes.length * 2, n + b.length);
      const grow = <T extends Uint8Array | Int32Array>(a: T, make: (k: number) => T): T => {
        const out = make(size);
        out.set(a);
        return out;
      };
      bytes = grow(bytes, (k) => new Uint8Array(k));
      from = grow(from, (k) => new Int32Array(k));
      to = grow(to, (k) => new Int32Array(k));
    }
    const start = m.index;
    const end = start + m[0].length;
    for (let i = 0; i < b.length; i++) {
      bytes[n] = b[i];
      from[n] = start;
      to[n] = end;
      n++;
    }
  }
  return { bytes, from, to, length: n };
}

function matchesAt(st: Stream, p: number, b: Uint8Array): boolean {
  if (p + b.length > st.length) return false;
  for (let i = 0; i < b.length; i++) if (st.bytes[p + i] !== b[i]) return false;
  return true;
}

function find(st: Stream, p: number, b: Uint8Array, ahead: number): number {
  const last = Math.min(st.length - b.length, p + ahead);
  for (let q = p + 1; q <= last; q++) if (matchesAt(st, q, b)) return q;
  return -1;
}

/**
 * The offsets of `ids` (the library's tokens of `text`, no special tokens added).
 * Tokens that match no text where expected (an unknown token, a character the
 * normalizer rewrote across clusters) share the stretch of text between the
 * tokens around them that did match.
 */
export function alignTokens(text: string, ids: ArrayLike<number>, s: TokenSurfaces): TokenOffsets {
  const st = streamOf(text, s);
  const starts = new Int32Array(ids.length);
  const ends = new Int32Array(ids.length);
  let p = 0;
  /** Position in the text where the unmatched tokens waiting for the next match begin. */
  let textAt = 0;
  let pending: number[] = [];
  const settle = (upTo: number) => {
    if (!pending.length) return;
    let start = textAt;
    let end = Math.max(textAt, upTo);
    while (start < end && SPACE.test(text[start])) start++;
    while (end > start && SPACE.test(text[end - 1])) end--;
    for (const i of pending) {
      starts[i] = start;
      ends[i] = end;
    }
    pending = [];
  };
  for (let i = 0; i < ids.length; i++) {
    const b = s.bytesOf(ids[i]);
    if (b === null) {
      pending.push(i);
      continue;
    }
    if (b.length === 0) {
      // A marker-only token (a lone "▁"): no text of its own.
      starts[i] = ends[i] = p < st.length ? st.from[p] : text.length;
      continue;
    }
    let q = matchesAt(st, p, b) ? p : -1;
    if (q < 0) q = find(st, p, b, pending.length ? AFTER_UNKNOWN : LOOKAHEAD);
    if (q < 0) {
      pending.push(i);
      continue;
    }
    settle(st.from[q]);
    starts[i] = st.from[q];
    ends[i] = st.to[q + b.length - 1];
    p = q + b.length;
    textAt = ends[i];
  }
  settle(text.length);
  return { starts, ends };
}

const WORD = /[\p{L}\p{N}\p{M}]/u;

/**
 * Which tokens begin a word, for the word-level aggregation of token
 * classification: a token continues the word before it when nothing separates
 * them and both sides are letters or digits (or, for tokenizers that mark
 * continuations, when it carries the mark).
 */
export function wordStarts(text: string, o: TokenOffsets, continues?: (i: number) => boolean): Uint8Array {
  const out = new Uint8Array(o.starts.length);
  let prevEnd = -1;
  for (let i = 0; i < o.starts.length; i++) {
    const start = o.starts[i];
    let joined: boolean;
    if (continues) joined = i > 0 && continues(i);
    else joined = i > 0 && start === prevEnd && start > 0 && WORD.test(text[start - 1] ?? "") && WORD.test(text[start] ?? "");
    out[i] = joined ? 0 : 1;
    if (o.ends[i] > o.starts[i]) prevEnd = o.ends[i];
  }
  return out;
}
