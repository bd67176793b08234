// A character 4-gram language model of ordinary text (trained by
// training/char-lm.ts on the corpora's benign rows, models/char-lm.bin), and
// what the obfuscation views ask of it: how unlike language each word of a
// text is. Optimised adversarial suffixes ("token soup") and ROT13 are both
// runs of words that no language writes, which n-grams of characters see and
// word features do not. docs/obfuscation.md has the numbers.
import { readFileSync } from "node:fs";
import { projectFile } from "../../../../paths.js";

export const CHAR_LM_FILE = "char-lm.bin";
const MAGIC = "PCLM";
const FORMAT = 1;
const CHAR_LM_ORDER = 4;
/** Symbols, so that a context of three is an 18-bit integer and a 4-gram a 24-bit one. */
export const ALPHABET = 64;
/** Symbols that occur (the rest of the 64 are never produced). */
export const USED_SYMBOLS = 62;
/** Quantization: a stored byte is -log2(p) * Q. */
export const QUANT = 8;
/** Slot of an unused 4-gram table entry; no key reaches it (symbol 63 is never produced). */
export const EMPTY = 0xffffffff;

const SPACE = 0;
const DIGIT = 27;
/** A letter of a script other than Latin (the model is not asked about those). */
const OTHER = 28;
const SYMBOL = 29;
const PUNCT = "!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~";
const SKIP = 255;

/** Letters without a decomposition, read as the Latin letter they are written for. */
const LIGATURES = "ßsæaøoœoðdđdłlþtıi";

/**
 * Code point -> symbol for a block of code points: lower-cased, Latin accents
 * stripped (so Vietnamese or Turkish read as their base letters and the model
 * needs no table per accent), every digit the same (numbers and ids are not
 * language, but neither are they gibberish).
 */
function symbolTable(from: number, to: number): Uint8Array {
  const table = new Uint8Array(to - from).fill(SYMBOL);
  for (let c = from; c < to; c++) {
    const ch = String.fromCharCode(c);
    const lower = ch.toLowerCase();
    const base = lower.normalize("NFD").charCodeAt(0);
    const ligature = LIGATURES.indexOf(lower);
    let s = SYMBOL;
    if (/\s/.test(ch)) s = SPACE;
    else if (c < 32 || (c >= 0x7f && c < 0xa0)) s = SKIP;
    else if (c >= 48 && c <= 57) s = DIGIT;
    else if (PUNCT.includes(ch)) s = 30 + PUNCT.indexOf(ch);
    else if (/\p{L}/u.test(ch)) {
      if (base >= 97 && base <= 122) s = base - 96;
      else if (ligature >= 0 && ligature % 2 === 0) s = LIGATURES.charCodeAt(ligature + 1) - 96;
      else s = OTHER;
    }
    table[c - from] = s;
  }
  return table;
}

/** ASCII, Latin-1 and Latin Extended-A/B. */
const LOW = symbolTable(0, 0x250);
/** Latin Extended Additional: Vietnamese and other precomposed letters NFKC keeps. */
const LATIN_ADDITIONAL = symbolTable(0x1e00, 0x1f00);

/** Symbol of a UTF-16 unit; SKIP for units that carry no character of their own. */
export function symbolOf(c: number): number {
  if (c < 0x250) return LOW[c];
  if (c < 0x300) return SYMBOL; // spacing modifier letters
  if (c < 0x370) return SKIP; // combining marks
  if (c >= 0xdc00 && c < 0xe000) return SKIP; // second half of a surrogate pair
  if (c >= 0xd800 && c < 0xdc00) return SYMBOL; // emoji and other astral characters
  if (c >= 0x1e00 && c < 0x1f00) return LATIN_ADDITIONAL[c - 0x1e00];
  if (c >= 0x2000 && c < 0x2c00) return c <= 0x200f || c === 0x2028 || c === 0x2029 ? SPACE : SYMBOL;
  if (c === 0x3000) return SPACE;
  if ((c >= 0x3001 && c < 0x3040) || (c >= 0xfe00 && c < 0xfe70) || (c >= 0xff00 && c < 0xff66) || c >= 0xfff0) return SYMBOL;
  return OTHER;
}

export interface CharLm {
  /** Interpolated log-probabilities of every 3-gram (context of two): 64^3 bytes. */
  q3: Uint8Array;
  /** Backoff cost of each context of three (Witten-Bell's 1 - lambda): 64^3 bytes. */
  bow3: Uint8Array;
  /** 4-grams seen in training, open addressing: key << 8 | quantized value. */
  slots: Uint32Array;
  bits: number;
}

/** Table slot of a 4-gram key (training writes with it, scoring reads with it). */
export function slotOf(key: number, bits: number): number {
  return Math.imul(key, 0x9e3779b1) >>> (32 - bits);
}

const HEADER = 8;
const T3 = ALPHABET * ALPHABET * ALPHABET;

export function encodeCharLm(lm: CharLm): Buffer {
  const out = Buffer.alloc(HEADER + 2 * T3 + 4 * lm.slots.length);
  out.write(MAGIC, 0, "latin1");
  out[4] = FORMAT;
  out[5] = CHAR_LM_ORDER;
  out[6] = ALPHABET;
  out[7] = lm.bits;
  out.set(lm.q3, HEADER);
  out.set(lm.bow3, HEADER + T3);
  for (let i = 0; i < lm.slots.length; i++) out.writeUInt32LE(lm.slots[i], HEADER + 2 * T3 + 4 * i);
  return out;
}

export function decodeCharLm(buf: Uint8Array): CharLm {
  const b = Buffer.from(buf.buffer, buf.byteOffset, buf.byteLength);
  if (b.toString("latin1", 0, 4) !== MAGIC || b[4] !== FORMAT || b[5] !== CHAR_LM_ORDER || b[6] !== ALPHABET) {
    throw new Error(`${CHAR_LM_FILE}: not a character model of format ${FORMAT}; run npm run train`);
  }
  const bits = b[7];
  const n = 1 << bits;
  if (b.length !== HEADER + 2 * T3 + 4 * n) throw new Error(`${CHAR_LM_FILE}: truncated`);
  const slots = new Uint32Array(n);
  for (let i = 0; i < n; i++) slots[i] = b.readUInt32LE(HEADER + 2 * T3 + 4 * i);
  return { q3: b.subarray(HEADER, HEADER + T3), bow3: b.subarray(HEADER + T3, HEADER + 2 * T3), slots, bits };
}

let model: CharLm | undefined;

/** The shipped model, read on first use (1.6 MB, a few milliseconds). */
export function charLm(): CharLm {
  if (!model) {
    const path = projectFile("models", CHAR_LM_FILE);
    let buf: Buffer;
    try {
      buf = readFileSync(path);
    } catch {
      throw new Error(`${path} is missing: the obfuscation views need it (npm run train writes it)`);
    }
    model = decodeCharLm(buf);
  }
  return model;
}

/**
 * Replaces the model in this process: training builds a new one and must
 * compute its features with it, not with the file the repository had.
 */
export function useCharLm(lm: CharLm): void {
  model = lm;
}

/** Quantized -log2 p(d | a b c). */
function cost(lm: CharLm, ctx: number, d: number): number {
  const key = (ctx << 6) | d;
  const mask = (1 << lm.bits) - 1;
  for (let s = slotOf(key, lm.bits); ; s = (s + 1) & mask) {
    const e = lm.slots[s];
    if (e === EMPTY) break;
    if (e >>> 8 === key) return e & 0xff;
  }
  return lm.bow3[ctx] + lm.q3[key & (T3 - 1)];
}

/** "@handle", "#tag", "http://...", "www.": names, which are arbitrary strings and say nothing about the text's language. */
function isName(text: string, start: number, end: number): boolean {
  const c = text.charCodeAt(start);
  if ((c === 64 || c === 35) && end - start > 1) {
    const d = text.charCodeAt(start + 1) | 0x20;
    return (d >= 97 && d <= 122) || (d >= 48 && d <= 57) || d === 0x7f; // "_" | 0x20 is 0x7f
  }
  return (c === 104 || c === 119) && /^(?:https?:\/\/|www\.)/.test(text.slice(start, Math.min(end, start + 8)));
}

/** Per-word statistics of a stretch of text, in reused buffers. */
interface WordCosts {
  n: number;
  /** Offsets of each word in the text. */
  start: Int32Array;
  end: Int32Array;
  /** Sum of quantized costs of the word's symbols and the boundary after it. */
  cost: Int32Array;
  /** Symbols costed (the word's length plus one). */
  len: Int32Array;
  /**
   * Not judged: mostly letters of a non-Latin script, or a name rather than
   * words (a URL, an @handle, a #hashtag: arbitrary by nature).
   */
  skip: Uint8Array;
  /** Has a Latin letter with an accent: some language's spelling, which a token soup seldom is. */
  accented: Uint8Array;
}

const words: WordCosts = {
  n: 0,
  start: new Int32Array(256),
  end: new Int32Array(256),
  cost: new Int32Array(256),
  len: new Int32Array(256),
  skip: new Uint8Array(256),
  accented: new Uint8Array(256),
};

function grow(w: WordCosts): void {
  const k = w.start.length * 2;
  const g32 = (a: Int32Array) => {
    const b = new Int32Array(k);
    b.set(a);
    return b;
  };
  w.start = g32(w.start);
  w.end = g32(w.end);
  w.cost = g32(w.cost);
  w.len = g32(w.len);
  const g8 = (a: Uint8Array) => {
    const b = new Uint8Array(k);
    b.set(a);
    return b;
  };
  w.skip = g8(w.skip);
  w.accented = g8(w.accented);
}

/**
 * Costs every whitespace-separated word of text[from, to) in one pass, each
 * symbol predicted from the three before it (words before it included). The
 * result is shared scratch space, valid until the next call.
 */
function wordCosts(text: string, from = 0, to = text.length, lm: CharLm = charLm()): WordCosts {
  const w = words;
  w.n = 0;
  let ctx = 0;
  let inWord = false;
  let sum = 0;
  let len = 0;
  let other = 0;
  let accents = 0;
  let start = 0;
  const close = (end: number) => {
    sum += cost(lm, ctx, SPACE);
    ctx = (ctx << 6) & 0x3ffff;
    if (w.n === w.start.length) grow(w);
    w.start[w.n] = start;
    w.end[w.n] = end;
    w.cost[w.n] = sum;
    w.len[w.n] = len + 1;
    w.skip[w.n] = other * 2 > len || isName(text, start, end) ? 1 : 0;
    w.accented[w.n] = accents > 0 ? 1 : 0;
    w.n++;
    inWord = false;
  };
  for (let i = from; i < to; i++) {
    const s = symbolOf(text.charCodeAt(i));
    if (s === SKIP) continue;
    if (s === SPACE) {
      if (inWord) close(i);
      continue;
    }
    if (!inWord) {
      inWord = true;
      start = i;
      sum = 0;
      len = 0;
      other = 0;
      accents = 0;
    }
    sum += cost(lm, ctx, s);
    ctx = ((ctx << 6) | s) & 0x3ffff;
    len++;
    if (s === OTHER) other++;
    else if (s > 0 && s <= 26) {
      const c = text.charCodeAt(i);
      if ((c >= 0xc0 && c < 0x250) || (c >= 0x1e00 && c < 0x1f00)) accents++;
    }
  }
  if (inWord) close(to);
  return w;
}

/** Quantized cost of one word on its own (spaces around it), for a string of ASCII letters. */
export function isolatedCost(word: string, lm: CharLm = charLm(), rot13 = false): number {
  let ctx = 0;
  let sum = 0;
  for (let i = 0; i < word.length; i++) {
    let c = word.charCodeAt(i) | 0x20;
    if (rot13 && c >= 97 && c <= 122) c = ((c - 97 + 13) % 26) + 97;
    const s = symbolOf(c);
    if (s === SKIP) continue;
    sum += cost(lm, ctx, s);
    ctx = ((ctx << 6) | s) & 0x3ffff;
  }
  return sum + cost(lm, ctx, SPACE);
}

/**
 * Price of a word boundary on top of the space's own cost (quantized: half a
 * bit). Without it "ignore" splits into "ign ore"; at two bits "forget"
 * stays whole but "ignoreall" no longer splits.
 */
const SEGMENT_SPACE_COST = 4;

/** States of the segmentation search: the context of three symbols after a letter, a space or not after each of the last letters (five at most). */
const SEGMENT_STATES = 8;

/**
 * The cheapest way to write lower-case ASCII letters as words ("ignoreallprevious"
 * -> "ignore all previous"): a Viterbi search over where the spaces go, each
 * state the model's context of three symbols. Linear in the letters (at most
 * five states a letter); for spelled-out text that lost its word boundaries.
 */
export function segmentWords(letters: string, lm: CharLm = charLm()): string {
  const n = letters.length;
  // Back-pointers: node k came from node prev[k] and put a space after its letter when spaced[k].
  const prev = new Int32Array(2 * SEGMENT_STATES * n + 1);
  const spaced = new Uint8Array(prev.length);
  let nodes = 0;
  let ctxs = new Int32Array(SEGMENT_STATES);
  let costs = new Float64Array(SEGMENT_STATES);
  let at = new Int32Array(SEGMENT_STATES);
  let count = 1;
  at[0] = -1;
  let nextCtxs = new Int32Array(SEGMENT_STATES);
  let nextCosts = new Float64Array(SEGMENT_STATES);
  let nextAt = new Int32Array(SEGMENT_STATES);
  for (let i = 0; i < n; i++) {
    const s = symbolOf(letters.charCodeAt(i));
    let nextCount = 0;
    const offer = (ctx: number, c: number, from: number, space: number) => {
      let k = 0;
      while (k < nextCount && nextCtxs[k] !== ctx) k++;
      if (k < nextCount && nextCosts[k] <= c) return;
      if (k === nextCount) nextCount++;
      prev[nodes] = from;
      spaced[nodes] = space;
      nextCtxs[k] = ctx;
      nextCosts[k] = c;
      nextAt[k] = nodes++;
    };
    for (let k = 0; k < count; k++) {
      const c1 = costs[k] + cost(lm, ctxs[k], s);
      const ctx1 = ((ctxs[k] << 6) | s) & 0x3ffff;
      offer(ctx1, c1, at[k], 0);
      if (i < n - 1) offer((ctx1 << 6) & 0x3ffff, c1 + cost(lm, ctx1, SPACE) + SEGMENT_SPACE_COST, at[k], 1);
    }
    [ctxs, nextCtxs] = [nextCtxs, ctxs];
    [costs, nextCosts] = [nextCosts, costs];
    [at, nextAt] = [nextAt, at];
    count = nextCount;
  }
  let best = -1;
  let bestCost = Infinity;
  for (let k = 0; k < count; k++) {
    const c = costs[k] + cost(lm, ctxs[k], SPACE);
    if (c < bestCost) {
      bestCost = c;
      best = at[k];
    }
  }
  const space = new Uint8Array(n);
  for (let k = best, i = n - 1; k >= 0; k = prev[k], i--) space[i] = spaced[k];
  let out = "";
  for (let i = 0; i < n; i++) out += space[i] ? letters[i] + " " : letters[i];
  return out;
}

export interface Suffix {
  /** The gibberish score: tail minus head in mean bits per word-character, less the structure allowances. */
  score: number;
  /** Where the tail starts in the text. */
  start: number;
  headBits: number;
  tailBits: number;
  /** The tail opens a bracket it never closes, or leaves a quote unpaired. */
  unbalanced: boolean;
  /** Share of the tail's 5-grams seen earlier in the examined text. */
  repeated: number;
}

/** A suffix is looked for in the last this many characters only. */
const SUFFIX_SPAN = 600;
/** ...after a head of at most this many characters (enough to know what the text's language costs). */
const HEAD_SPAN = 600;
const MIN_TAIL_WORDS = 8;
const MIN_HEAD_WORDS = 4;
/** Mean bits above which the head is not language either (code, a table, ids): there is nothing to compare with. */
const HEAD_MAX_BITS = 3.6;
/** One pathological word (a hash, a URL) counts no more than this many bits per character. */
const WORD_CAP_BITS = 8;
/**
 * Code, formulas, logs and tables close what they open and repeat their own
 * shapes; optimised suffixes do neither (their pieces are drawn from a
 * tokenizer's vocabulary, brackets and quotes included, with no grammar).
 * A balanced tail must be this much further from its head...
 */
const BALANCED_ALLOWANCE = 2;
/** ...and each unit of repeated share costs this much (4 x 0.25 repeated = 1 bit). */
const REPEAT_WEIGHT = 4;
/**
 * A tail whose words are often accented is a language the model hardly knows
 * (Polish, Czech, Lithuanian after an English request), not a soup: it is
 * held to the same further distance.
 */
const ACCENTED_SHARE = 0.2;
const ACCENTED_ALLOWANCE = 2;

/** Scratch for gibberishSuffix: per-word repeated and total 5-grams, a closer stack, a 5-gram set. */
let repWords = new Int32Array(256);
let totWords = new Int32Array(256);
const closerStack = new Uint8Array(256);
const GRAM_BITS = 12;
const gramKeys = new Int32Array(1 << GRAM_BITS);
const gramStamp = new Uint32Array(1 << GRAM_BITS);
let stamp = 0;

/** Marks 5-grams in a per-call set; true when the 5-gram was already there. */
function seenGram(key: number): boolean {
  const mask = (1 << GRAM_BITS) - 1;
  for (let s = Math.imul(key, 0x9e3779b1) >>> (32 - GRAM_BITS); ; s = (s + 1) & mask) {
    if (gramStamp[s] !== stamp) {
      gramStamp[s] = stamp;
      gramKeys[s] = key;
      return false;
    }
    if (gramKeys[s] === key) return true;
  }
}

/**
 * The best split of the end of a text into a head that reads like language
 * and a tail of at least eight words that does not. Words mostly in a
 * non-Latin script count for neither side: the model knows Latin-script text
 * well and other scripts hardly, so a sentence in another script after an
 * English one is not gibberish by itself, and a text is only compared with
 * itself. Nor do URLs, @handles and #hashtags, which are names. O(n) in the examined characters, which are at most 1,200, so the
 * cost does not grow with the text.
 */
// eslint-disable-next-line max-lines-per-function -- one O(n) pass whose running sums (repeats, quotes, openers) feed the split search; split up, the hot loop would pay calls and shared state per character
export function gibberishSuffix(text: string, lm: CharLm = charLm()): Suffix | null {
  let from = Math.max(0, text.length - SUFFIX_SPAN - HEAD_SPAN);
  if (from > 0) {
    const sp = text.indexOf(" ", from);
    from = sp < 0 ? text.length : sp;
  }
  const w = wordCosts(text, from, text.length, lm);
  if (w.n < MIN_TAIL_WORDS + MIN_HEAD_WORDS) return null;
  if (repWords.length < w.n) {
    repWords = new Int32Array(w.start.length);
    totWords = new Int32Array(w.start.length);
  }
  // Which 5-grams repeat one seen earlier (window capped, so the set stays small).
  stamp = (stamp + 1) >>> 0 || 1;
  let quotes = 0;
  let key = 0;
  let k5 = 0;
  let wi = 0;
  repWords.fill(0, 0, w.n);
  totWords.fill(0, 0, w.n);
  let openers = 0;
  for (let i = from; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 34) quotes++;
    else if (c === 40 || c === 91 || c === 123) openers++;
    const s = symbolOf(c);
    if (s === SKIP) continue;
    key = ((key << 6) | s) & 0x3fffffff;
    if (++k5 < 5) continue;
    while (wi < w.n && w.end[wi] <= i) wi++;
    const seen = seenGram(key);
    if (wi < w.n && i >= w.start[wi]) {
      totWords[wi]++;
      if (seen) repWords[wi]++;
    }
  }
  const tailFrom = text.length - SUFFIX_SPAN;
  const val = (i: number) => Math.min(w.cost[i] / w.len[i] / QUANT, WORD_CAP_BITS);
  let tSum = 0;
  let tWords = 0;
  let hSum = 0;
  let hWords = 0;
  let tRep = 0;
  let tAccented = 0;
  let tTot = 0;
  for (let i = 0; i < w.n; i++)
    if (!w.skip[i]) {
      hSum += val(i);
      hWords++;
    }
  // Bracket balance of the tail, read right to left: a closer waits for its opener; an opener nobody
  // closes is a stray, and so are closers left waiting when the head has fewer openers than that.
  let depth = 0;
  let deep = 0;
  let strays = 0;
  let tailQuotes = 0;
  let tailOpeners = 0;
  let best: Suffix | null = null;
  for (let k = w.n - 1; k > 0; k--) {
    if (w.start[k] < tailFrom) break;
    for (let i = w.end[k] - 1; i >= w.start[k]; i--) {
      const ch = text.charCodeAt(i);
      if (ch === 34) tailQuotes++;
      else if (ch === 41 || ch === 93 || ch === 125) {
        if (depth < closerStack.length) closerStack[depth++] = ch;
        else deep++;
      } else if (ch === 40 || ch === 91 || ch === 123) {
        tailOpeners++;
        // "(" + 1 = ")", "[" + 2 = "]", "{" + 2 = "}".
        if (deep > 0) deep--;
        else if (depth === 0 || closerStack[--depth] !== (ch === 40 ? 41 : ch + 2)) strays++;
      }
    }
    if (!w.skip[k]) {
      const v = val(k);
      tSum += v;
      tWords++;
      tAccented += w.accented[k];
      hSum -= v;
      hWords--;
    }
    tRep += repWords[k];
    tTot += totWords[k];
    if (tWords < MIN_TAIL_WORDS) continue;
    if (hWords < MIN_HEAD_WORDS) break;
    const head = hSum / hWords;
    if (head > HEAD_MAX_BITS) continue;
    const tail = tSum / tWords;
    const unbalanced = strays > 0 || depth + deep > openers - tailOpeners || (tailQuotes % 2 === 1 && (quotes - tailQuotes) % 2 === 0);
    const repeated = tTot ? tRep / tTot : 0;
    const allowance = (unbalanced ? 0 : BALANCED_ALLOWANCE) + (tAccented >= ACCENTED_SHARE * tWords ? ACCENTED_ALLOWANCE : 0);
    const score = tail - head - allowance - REPEAT_WEIGHT * repeated;
    if (!best || score > best.score) best = { score, start: w.start[k], headBits: head, tailBits: tail, unbalanced, repeated };
  }
  return best;
}
