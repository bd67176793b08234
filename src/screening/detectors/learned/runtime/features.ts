// Hashed sparse features for the learned text models: word unigrams
// and bigrams plus character 3-5-grams, hashed with a sign bit into 2^bits
// buckets, log-scaled counts, L2-normalized. Training and inference call the
// same functions, so a model file is only valid with the feature version it
// was trained with (models/manifest.json records it).
import { lexiconTokens } from "./moderation-lexicon.js";
import { expand, type Expanded } from "./text-views.js";

export const FEATURE_VERSION = 8;

/**
 * Weight of a character n-gram relative to a word or word bigram. Character
 * n-grams catch spelling tricks and code, but they outnumber words ~8 to 1 and
 * at equal weight they drowned the few words that carry intent ("stab").
 * The shipped models were trained with this value: changing it means
 * retraining (and a new FEATURE_VERSION).
 */
const CHAR_WEIGHT = 0.4;

export interface SparseVector {
  idx: Int32Array;
  val: Float32Array;
}

const FNV = 0x01000193;
const SEED_WORD = 0x811c9dc5;
const SALT_BIGRAM = 0x5bd1e995;
const SALT_CHAR = [0, 0, 0, 0x27d4eb2f, 0x165667b1, 0x61c88647];

function fmix(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h;
}

function isWordCode(c: number): boolean {
  if (c < 128) return (c >= 97 && c <= 122) || (c >= 48 && c <= 57) || (c >= 65 && c <= 90);
  // Letters of other scripts; general punctuation, CJK punctuation and surrogates' partners count as separators.
  return !(c >= 0x2000 && c <= 0x206f) && !(c >= 0x3000 && c <= 0x303f) && c !== 0xa0;
}

/** Collects signed hashed keys (bucket * 4 + char flag * 2 + sign) into a growable buffer. */
class KeyBuffer {
  keys = new Int32Array(4096);
  n = 0;
  /** Room for `more` keys after the current ones, so hot loops can write without checking. */
  reserve(more: number): void {
    if (this.n + more <= this.keys.length) return;
    const k = new Int32Array(Math.max(this.n + more, this.keys.length * 2));
    k.set(this.keys.subarray(0, this.n));
    this.keys = k;
  }
  /** `char` marks character n-grams (weighted by CHAR_WEIGHT). */
  push(h: number, mask: number, char = 0): void {
    this.reserve(1);
    this.keys[this.n++] = signedKey(h, mask, char);
  }
}

function signedKey(h: number, mask: number, char: number): number {
  const m = fmix(h);
  return ((m & mask) << 2) | (char << 1) | (m >>> 31);
}

const scratch = new KeyBuffer();
/** Character codes of the region being hashed (reused). */
let codeBuf = new Int32Array(4096);

/** Hashes one folded text region into `buf`; returns the attack cues found in it (runtime/attack-cues.ts). */
function hashRegion(s: string, from: number, to: number, mask: number, buf: KeyBuffer, lexicon = true): string[] {
  // Character n-grams over the region with runs of whitespace collapsed.
  let prevSpace = true;
  if (codeBuf.length < to - from) codeBuf = new Int32Array(Math.max(to - from, codeBuf.length * 2));
  const codes = codeBuf;
  let n = 0;
  for (let i = from; i < to; i++) {
    let c = s.charCodeAt(i);
    if (c === 32 || c === 10 || c === 9 || c === 13 || c === 0xa0) {
      if (prevSpace) continue;
      c = 32;
      prevSpace = true;
    } else prevSpace = false;
    codes[n++] = c;
  }
  // At most three character n-grams per position and two keys per word (itself and a bigram), a word
  // being at least one code: reserving 5n once lets the loops below write without bounds checks.
  buf.reserve(5 * n);
  const keys = buf.keys;
  let at = buf.n;
  for (let i = 0; i < n; i++) {
    let h = Math.imul(0x9747b28c ^ codes[i], FNV);
    if (i + 1 >= n) break;
    h = Math.imul(h ^ codes[i + 1], FNV);
    for (let k = 2; k < 5 && i + k < n; k++) {
      h = Math.imul(h ^ codes[i + k], FNV);
      keys[at++] = signedKey(h ^ SALT_CHAR[k + 1], mask, 1);
    }
  }
  // Words and bigrams.
  let prev = 0;
  let i = 0;
  while (i < n) {
    while (i < n && !isWordCode(codes[i])) i++;
    if (i >= n) break;
    let h = SEED_WORD;
    while (i < n && isWordCode(codes[i])) h = Math.imul(h ^ codes[i++], FNV);
    keys[at++] = signedKey(h, mask, 0);
    if (prev !== 0) keys[at++] = signedKey(Math.imul(prev, 31) + h + SALT_BIGRAM, mask, 0);
    prev = h;
  }
  buf.n = at;
  if (!lexicon) return [];
  const cues: string[] = [];
  for (const t of lexiconTokens(s.slice(from, to))) {
    buf.push(tokenHash(t), mask);
    if (t.startsWith("xxcue_") && !cues.includes(t)) cues.push(t);
  }
  return cues;
}

function tokenHash(token: string): number {
  let h = SEED_WORD;
  for (let i = 0; i < token.length; i++) h = Math.imul(h ^ token.charCodeAt(i), FNV);
  return h;
}

const logCountOf = (c: number) => (c === 0 ? 0 : Math.sign(c) * (1 + Math.log(Math.abs(c))));
/** logCountOf of small counts, computed once by the same expression (a bucket seldom counts more). */
const LOG_COUNTS = Float64Array.from({ length: 256 }, (_, c) => logCountOf(c));
const logCount = (c: number) => (c >= 0 && c < 256 ? LOG_COUNTS[c] : c < 0 && c > -256 ? -LOG_COUNTS[-c] : logCountOf(c));
/** Counts up to this far from zero are the common case: a bucket's value for them is looked up. */
const SMALL = 2;
const SIDE = 2 * SMALL + 1;
/** A bucket's value for word and character counts in [-SMALL, SMALL], by the same expression as `finish` uses. */
const SMALL_VALUES = Float64Array.from({ length: SIDE * SIDE }, (_, i) => logCount(Math.floor(i / SIDE) - SMALL) + CHAR_WEIGHT * logCount((i % SIDE) - SMALL));

/** Scratch of the radix sort. */
let radixTmp = new Int32Array(4096);
const DIGIT_BITS = 9;
const MAX_PASSES = 4;
/** One table of counts per digit, all filled in one read of the keys. */
const radixCounts = new Int32Array(MAX_PASSES << DIGIT_BITS);

/**
 * The keys (bucket * 4 + flags, never negative) grouped by bucket in ascending
 * bucket order: a radix sort of 9-bit digits over the bucket bits only (two
 * passes for 2^18 buckets), since the merge that follows sums each bucket's
 * flags in any order. It costs a fraction of `Int32Array.prototype.sort`,
 * which cost more than hashing the text; 9-bit digits keep the digit tables
 * small next to the few hundred keys of a short text. Short vectors, where
 * even those tables would cost more than the keys, use the built-in sort.
 */
function sortKeys(keys: Int32Array): Int32Array {
  const n = keys.length;
  let max = 0;
  for (let i = 0; i < n; i++) max |= keys[i];
  if (n < 256 || max < 0) return keys.sort();
  if (radixTmp.length < n) radixTmp = new Int32Array(Math.max(n, radixTmp.length * 2));
  const mask = (1 << DIGIT_BITS) - 1;
  let passes = 0;
  while (2 + passes * DIGIT_BITS < 31 && max >>> (2 + passes * DIGIT_BITS) !== 0) passes++;
  const counts = radixCounts;
  counts.fill(0, 0, passes << DIGIT_BITS);
  if (passes === 2) {
    for (let i = 0; i < n; i++) {
      const k = keys[i];
      counts[(k >>> 2) & mask]++;
      counts[((k >>> (2 + DIGIT_BITS)) & mask) + (1 << DIGIT_BITS)]++;
    }
  } else for (let p = 0; p < passes; p++) for (let i = 0; i < n; i++) counts[((keys[i] >>> (2 + p * DIGIT_BITS)) & mask) + (p << DIGIT_BITS)]++;
  for (let p = 0; p < passes; p++) {
    let sum = 0;
    for (let b = p << DIGIT_BITS, end = b + mask; b <= end; b++) {
      const c = counts[b];
      counts[b] = sum;
      sum += c;
    }
  }
  let from: Int32Array = keys;
  let to: Int32Array = radixTmp.subarray(0, n);
  for (let p = 0; p < passes; p++) {
    const shift = 2 + p * DIGIT_BITS;
    const base = p << DIGIT_BITS;
    for (let i = 0; i < n; i++) {
      const k = from[i];
      to[counts[((k >>> shift) & mask) + base]++] = k;
    }
    const t = from;
    from = to;
    to = t;
  }
  return from;
}

/** Scratch of `finish`: buckets and their values before normalization. */
let finishIdx = new Int32Array(4096);
let finishVal = new Float64Array(4096);

/** Sorted, merged, log-scaled, L2-normalized vector from raw signed keys (which it reorders). */
function finish(keys: Int32Array, n: number): SparseVector {
  // Sorted in place: the keys are scratch, and a vector's merged counts do not depend on their order
  // (a long text's whole vector sorts its windows' keys again).
  const sorted = sortKeys(keys.subarray(0, n));
  if (finishIdx.length < n) {
    finishIdx = new Int32Array(Math.max(n, finishIdx.length * 2));
    finishVal = new Float64Array(finishIdx.length);
  }
  const idx = finishIdx;
  const val = finishVal;
  let m = 0;
  let i = 0;
  while (i < n) {
    const bucket = sorted[i] >> 2;
    let words = 0;
    let chars = 0;
    while (i < n && sorted[i] >> 2 === bucket) {
      // Without branches: the signs and kinds of hashed n-grams are random.
      const k = sorted[i++];
      const sign = 1 - ((k & 1) << 1);
      const char = (k >> 1) & 1;
      chars += sign * char;
      words += sign - sign * char;
    }
    const v =
      words >= -SMALL && words <= SMALL && chars >= -SMALL && chars <= SMALL
        ? SMALL_VALUES[(words + SMALL) * SIDE + chars + SMALL]
        : logCount(words) + CHAR_WEIGHT * logCount(chars);
    if (v !== 0) {
      idx[m] = bucket;
      val[m++] = v;
    }
  }
  let norm = 0;
  for (let j = 0; j < m; j++) norm += val[j] * val[j];
  norm = Math.sqrt(norm) || 1;
  const out = new Float32Array(m);
  for (let j = 0; j < m; j++) out[j] = val[j] / norm;
  return { idx: idx.slice(0, m), val: out };
}

export interface TextFeatures {
  /** The whole text (with decoded views and markers). */
  whole: SparseVector;
  /** Windows of long texts, each with its range in the input; empty for short texts. */
  chunks: { start: number; end: number; vec: SparseVector; cues: string[] }[];
  expanded: Expanded;
  /** The attack cues of the whole text (each window has its own). */
  cues: string[];
}

/** Texts longer than this are also scored window by window (an injection in a long document). */
const CHUNK_OVER = 700;
const CHUNK_TARGET = 400;

/** Window boundaries: cut at line or sentence ends near the target size. */
function chunkRanges(text: string): { start: number; end: number }[] {
  const out: { start: number; end: number }[] = [];
  let start = 0;
  while (start < text.length) {
    let end = Math.min(text.length, start + CHUNK_TARGET);
    if (end < text.length) {
      const window = text.slice(start + CHUNK_TARGET / 2, Math.min(text.length, start + CHUNK_TARGET + 150));
      const cut = window.search(/[\n.!?](?=\s)|\n/);
      end = cut >= 0 ? start + CHUNK_TARGET / 2 + cut + 1 : Math.min(text.length, start + CHUNK_TARGET + 150);
      if (text.length - end < 120) end = text.length;
    }
    out.push({ start, end });
    start = end;
  }
  return out;
}

/**
 * Features of a text: the whole, and for long texts each window too. The
 * whole vector is the union of the windows (n-grams across a cut are lost,
 * which the model does not notice) plus the decoded views and markers.
 */
export function textFeatures(text: string, bits: number, extraTokens: string[] = []): TextFeatures {
  const mask = (1 << bits) - 1;
  const expanded = expand(text);
  const folded = expanded.text;
  const base = Math.min(text.length, folded.length);
  scratch.n = 0;
  const chunks: TextFeatures["chunks"] = [];
  const cues = new Set<string>();
  if (base > CHUNK_OVER) {
    for (const r of chunkRanges(folded.slice(0, base))) {
      const from = scratch.n;
      const found = hashRegion(folded, r.start, r.end, mask, scratch);
      for (const c of found) cues.add(c);
      chunks.push({ start: r.start, end: r.end, vec: finish(scratch.keys.subarray(from), scratch.n - from), cues: found });
    }
  } else for (const c of hashRegion(folded, 0, base, mask, scratch)) cues.add(c);
  if (folded.length > base) for (const c of hashRegion(folded, base, folded.length, mask, scratch)) cues.add(c);
  for (const t of expanded.markers) for (let k = 0; k < 4; k++) scratch.push(tokenHash(t), mask);
  for (const t of extraTokens) scratch.push(tokenHash(t), mask);
  return { whole: finish(scratch.keys, scratch.n), chunks, expanded, cues: [...cues] };
}

/**
 * Value of the data-location features. A directive about "your answer" is the user's own request in a chat
 * message and an injection in a tool result: the prompt_attack head reads, for text that arrived as data, one
 * feature for being data and one per attack cue found there ("xxdata_answer", ...), beside the text's own
 * normalized vector (not renormalized, so the rest of the text keeps its weight). Moderation reads none.
 */
const DATA_WEIGHT = 0.25;

function withDataCues(v: SparseVector, cues: string[], mask: number): SparseVector {
  const tokens = ["xxdata", ...cues.map((c) => "xxdata_" + c.slice("xxcue_".length))];
  const idx = new Int32Array(v.idx.length + tokens.length);
  const val = new Float32Array(idx.length);
  idx.set(v.idx);
  val.set(v.val);
  tokens.forEach((t, k) => {
    const m = fmix(tokenHash(t));
    idx[v.idx.length + k] = m & mask;
    val[v.idx.length + k] = m >>> 31 ? -DATA_WEIGHT : DATA_WEIGHT;
  });
  return { idx, val };
}

/** Features of a text that arrived as data (a tool result, a document): its own plus the data-location features. */
export function dataFeatures(f: TextFeatures, bits: number): TextFeatures {
  const mask = (1 << bits) - 1;
  return {
    whole: withDataCues(f.whole, f.cues, mask),
    chunks: f.chunks.map((c) => ({ ...c, vec: withDataCues(c.vec, c.cues, mask) })),
    expanded: f.expanded,
    cues: f.cues,
  };
}

/** Features of a bag of tokens (already normalized), for the tool-call models. */
export function tokenFeatures(tokens: string[], bits: number): SparseVector {
  const mask = (1 << bits) - 1;
  scratch.n = 0;
  for (const t of tokens) scratch.push(tokenHash(t), mask);
  return finish(scratch.keys, scratch.n);
}

/** Character 3-5-grams of a short string plus marker tokens (payload model). */
export function charFeatures(text: string, bits: number, tokens: string[] = []): SparseVector {
  const mask = (1 << bits) - 1;
  scratch.n = 0;
  const lower = text.toLowerCase();
  hashRegion(lower, 0, lower.length, mask, scratch, false);
  for (const t of tokens) for (let k = 0; k < 3; k++) scratch.push(tokenHash(t), mask);
  return finish(scratch.keys, scratch.n);
}

/** Locations whose text is data the model reads, not a message to it: tool results and documents. */
export const DATA_LOCATIONS: ReadonlySet<string> = new Set(["tool::content"]);
