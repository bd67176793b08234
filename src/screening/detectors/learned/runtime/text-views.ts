// Obfuscation handling shared by the learned detectors:
// homoglyph folding, invisible Unicode tag characters decoded to ASCII,
// base64 / hex blobs, URL-encoding and ROT13 decoded, leetspeak
// de-substituted, optimised "token soup" suffixes marked. Each decoded view
// is appended to the text the model reads, behind a marker token, so one
// linear model sees both the surface form (gibberish, markers) and what it
// hides. Spelled-out letters ("i g n o r e") are rewritten in place instead. All scanners are single passes or regexes without nested or
// overlapping quantifiers: a hostile 200k-character input costs milliseconds.
// docs/obfuscation.md.
import { LEET } from "../../leet.js";
import { findSpacedRuns, type SpacedRun } from "../../spaced-letters.js";
import { charLm, gibberishSuffix, isolatedCost, QUANT, segmentWords } from "./char-lm.js";

/** Cyrillic and Greek letters that render like Latin ones (NFKC keeps them apart). */
const HOMOGLYPH_PAIRS =
  "аaбbвbгrдdеeёeззиuйuкkлnмmнhоoпnрpсcтtуyффхxччшшщщъъыыьbэээюююяяіiїiјjѕsԁdɡgһhԛqԝwαaβbγyδdεeζzηnθoιiκkλλμuνvοoπnρpσoτtυuφφχxψψωw" +
  "АaВbЕeЁeКkМmНhОoРpСcТtХxУyІiЈjЅsΑaΒbΕeΖzΗhΙiΚkΜmΝnΟoΡpΤtΥyΧx";

/**
 * Lookalikes NFKC leaves alone in other blocks: Latin small capitals and IPA
 * letters ("ꜱʏꜱᴛᴇᴍ ᴘʀᴏᴍᴘᴛ"), Armenian, Cherokee (whose capitals lower-case
 * into a block of their own, so both forms are listed).
 */
const MORE_PAIRS = "ıiȷjɑaɢgɩiɪiɴnʀrʏyʙbʜhʟl" + "ᴀaᴄcᴅdᴇeᴊjᴋkᴍmᴏoᴘpᴛtᴜuᴠvᴡwᴢzꜰfꜱs" + "օoսuոnհhզqցgաwյj" + "ᎠdᎡrᎢtᎥiᎩyᎪaᎫjᎬeᎳwᎷmᎻhᏀgᏂhᏃzᏏbᏔwᏙvᏚsᏞlᏟcᏢpᏦkᏴb";

const FOLD = new Uint16Array(0x0600);
for (let i = 0; i < FOLD.length; i++) FOLD[i] = i;
/** Folds above U+0600, looked up only inside the few ranges they come from. */
const FOLD_HIGH = new Map<number, number>();
for (const pairs of [HOMOGLYPH_PAIRS, MORE_PAIRS])
  for (let i = 0; i + 1 < pairs.length; i += 2) {
    const from = pairs.charCodeAt(i);
    const to = pairs.charCodeAt(i + 1);
    if (to >= 128) continue;
    for (const c of new Set([from, pairs[i].toLowerCase().charCodeAt(0)])) {
      if (c < FOLD.length) FOLD[c] = to;
      else FOLD_HIGH.set(c, to);
    }
  }

function foldCode(c: number): number {
  if (c < 0x600) return FOLD[c];
  if ((c >= 0x13a0 && c < 0x1400) || (c >= 0x1d00 && c < 0x1d30) || (c >= 0xa730 && c < 0xa732) || (c >= 0xab70 && c < 0xabc0)) return FOLD_HIGH.get(c) ?? c;
  return c;
}

/**
 * Lower-cases and folds homoglyphs to Latin. Length-preserving (UTF-16 units),
 * so offsets into the result are offsets into the input.
 */
export function foldText(text: string): string {
  const lower = text.toLowerCase();
  if (lower.length !== text.length) return foldSameLength(text);
  let needs = false;
  for (let i = 0; i < lower.length; i++) {
    const c = lower.charCodeAt(i);
    if (c >= 0x100 && foldCode(c) !== c) {
      needs = true;
      break;
    }
  }
  if (!needs) return lower;
  const codes = new Array<number>(lower.length);
  for (let i = 0; i < lower.length; i++) codes[i] = foldCode(lower.charCodeAt(i));
  return fromCodes(codes);
}

/** Rare case: lower-casing changed the length (e.g. "İ"); fold char by char instead. */
function foldSameLength(text: string): string {
  const codes = new Array<number>(text.length);
  for (let i = 0; i < text.length; i++) {
    const ch = text[i].toLowerCase();
    codes[i] = foldCode(ch.length === 1 ? ch.charCodeAt(0) : text.charCodeAt(i));
  }
  return fromCodes(codes);
}

function fromCodes(codes: number[]): string {
  let out = "";
  for (let i = 0; i < codes.length; i += 8192) out += String.fromCharCode(...codes.slice(i, i + 8192));
  return out;
}

/** Unicode tag characters U+E0000-E007F (invisible; E0020-E007E mirror ASCII). */
export interface TagRun {
  start: number;
  end: number;
  decoded: string;
}

function findTagRuns(text: string): TagRun[] {
  const runs: TagRun[] = [];
  let i = text.indexOf("\udb40");
  while (i >= 0 && i + 1 < text.length) {
    const start = i;
    let decoded = "";
    while (i + 1 < text.length && text.charCodeAt(i) === 0xdb40) {
      const lo = text.charCodeAt(i + 1);
      if (lo < 0xdc00 || lo > 0xdc7f) break;
      const ascii = lo - 0xdc00;
      if (ascii >= 0x20 && ascii < 0x7f) decoded += String.fromCharCode(ascii);
      i += 2;
    }
    if (i > start) runs.push({ start, end: i, decoded });
    else i++;
    i = text.indexOf("\udb40", i);
  }
  return runs;
}

/** Other invisible or direction-changing code points that survive normalization. */
// Variation selectors are matched on their own on purpose: each one counts.
// eslint-disable-next-line no-misleading-character-class
const INVISIBLE = /[\u180e\u2061-\u2064\u206a-\u206f\u202a-\u202e\u2066-\u2069\ufe00-\ufe0f]/g;

function invisibleCount(text: string): number {
  INVISIBLE.lastIndex = 0;
  let n = 0;
  while (INVISIBLE.exec(text)) n++;
  return n;
}

const BASE64 = /[A-Za-z0-9+/_-]{16,}={0,2}/g;
const HEX = /(?:\\x|0x)?[0-9a-fA-F]{2}(?:[\s:,]?(?:\\x|0x)?[0-9a-fA-F]{2}){7,}/g;

export interface DecodedBlob {
  start: number;
  end: number;
  kind: "base64" | "hex";
  decoded: string;
}

function printableRatio(s: string): number {
  if (s.length === 0) return 0;
  let ok = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if ((c >= 32 && c < 127) || c === 10 || c === 13 || c === 9) ok++;
  }
  return ok / s.length;
}

/** Has letters and spaces like prose, not binary or an identifier. */
function looksLikeText(s: string): boolean {
  if (s.length < 6 || printableRatio(s) < 0.95) return false;
  let letters = 0;
  let spaces = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i) | 0x20;
    if (c >= 97 && c <= 122) letters++;
    else if (s.charCodeAt(i) === 32) spaces++;
  }
  return letters / s.length > 0.55 && spaces >= 1;
}

/** Base64 and hex runs that decode to readable text. At most `max` blobs (bounded work). */
function decodeBlobs(text: string, max = 8): DecodedBlob[] {
  const out: DecodedBlob[] = [];
  BASE64.lastIndex = 0;
  for (let m = BASE64.exec(text); m && out.length < max; m = BASE64.exec(text)) {
    const raw = m[0];
    if (!/[A-Z]/.test(raw) || !/[a-z]/.test(raw)) continue; // hex, words in one case, identifiers
    const decoded = Buffer.from(raw.replace(/-/g, "+").replace(/_/g, "/"), "base64").toString("latin1");
    if (looksLikeText(decoded)) out.push({ start: m.index, end: m.index + raw.length, kind: "base64", decoded });
  }
  HEX.lastIndex = 0;
  for (let m = HEX.exec(text); m && out.length < max; m = HEX.exec(text)) {
    const digits = m[0].replace(/\\x|0x|[\s:,]/g, "");
    if (digits.length % 2 !== 0) continue;
    const decoded = Buffer.from(digits, "hex").toString("latin1");
    if (looksLikeText(decoded)) out.push({ start: m.index, end: m.index + m[0].length, kind: "hex", decoded });
  }
  return out;
}

// One character class, then a separate letter test: "class* letter class*" backtracks quadratically on a long run without letters.
const LEET_WORD = /[a-z0-9@$!|+€]+/g;
const HAS_LETTER = /[a-z]/;
const LEET_CHAR = /[0-9@$!|+€]/;
/** Digits before a short suffix or after letters: sizes, ordinals, codecs ("10px", "2nd", "h264"). */
const WEAK_LEET = /^[0-9]+[a-z]{1,3}$|^[a-z]+[0-9]+$/;
/** "+" as the only substitute is a form-encoded space ("ignore+all+previous"), not a "t". */
const ONLY_PLUS = /^[a-z+]+$/;
/** Hashes, ids and hex literals ("a1b2c3d4", "0x7fffabcd"); short hex words stay leet ("b33f"). */
const HEX_ID = /^(?:0x)?[0-9a-f]{8,}$/;

const HEX_WORD = /^[0-9a-f]+$/;
const isHexCode = (c: number) => (c >= 48 && c <= 57) || (c >= 97 && c <= 102);
const isIdSeparator = (c: number) => c === 45 || c === 58; // "-" ":"

/** A group of a UUID, MAC or IPv6 address ("5b1d2e8a-77c4-4f0e"): hex joined to more hex by "-" or ":". */
function inHexId(w: string, offset: number, folded: string): boolean {
  if (!HEX_WORD.test(w)) return false;
  const end = offset + w.length;
  return (
    (isIdSeparator(folded.charCodeAt(offset - 1)) && isHexCode(folded.charCodeAt(offset - 2))) ||
    (isIdSeparator(folded.charCodeAt(end)) && isHexCode(folded.charCodeAt(end + 1)))
  );
}

/** Not leet: too short, no substitute or no letter, an escape's digits ("%20file"), "+" joining words, a hex id or a group of one. */
function notLeet(w: string, offset: number, folded: string): boolean {
  return (
    w.length < 3 || !LEET_CHAR.test(w) || !HAS_LETTER.test(w) || folded.charCodeAt(offset - 1) === 37 || ONLY_PLUS.test(w) || HEX_ID.test(w) || inHexId(w, offset, folded)
  );
}

/**
 * De-substituted text when at least two words mix letters with leet digits or
 * symbols ("1gn0r3 4ll"), otherwise null. Works on folded (lower-case) text.
 * Once two words are clearly leet, the weak ones ("4ll") are undone too.
 */
function deLeet(folded: string): string | null {
  let hits = 0;
  LEET_WORD.lastIndex = 0;
  for (let m = LEET_WORD.exec(folded); m && hits < 2; m = LEET_WORD.exec(folded)) {
    if (!notLeet(m[0], m.index, folded) && !WEAK_LEET.test(m[0])) hits++;
  }
  if (hits < 2) return null;
  return folded.replace(LEET_WORD, (w: string, offset: number) => {
    if (notLeet(w, offset, folded)) return w;
    let r = "";
    for (const ch of w) r += LEET[ch] ?? ch;
    return r;
  });
}

// ---- URL-encoding ----

/** Characters a URL or a form-encoded value is made of; one class, so a run is found in one pass. */
const URL_CHAR = /[A-Za-z0-9%+._~!*'()\-/:?=&#@;,$[\]]/;
const isUrlChar = (c: number) => c < 128 && URL_TABLE[c] === 1;
const URL_TABLE = new Uint8Array(128).map((_, c) => (URL_CHAR.test(String.fromCharCode(c)) ? 1 : 0));
const hexVal = (c: number) => (c >= 48 && c <= 57 ? c - 48 : (c | 0x20) >= 97 && (c | 0x20) <= 102 ? (c | 0x20) - 87 : -1);

/**
 * Ordinary URLs carry a few escapes (a space in a file name) and are left
 * alone; a run that is not a URL and has two, or a URL with this many, is
 * decoded.
 */
const URL_ESCAPES = 6;
const MAX_RUN = 4096;

export interface Decoded {
  start: number;
  end: number;
  decoded: string;
}

/** Letters and spaces like prose, in any script (a decoded value may be UTF-8 of any language). */
function looksLikeWords(s: string): boolean {
  if (s.length < 6) return false;
  let letters = 0;
  let spaces = 0;
  let control = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c === 32) spaces++;
    else if (((c | 0x20) >= 97 && (c | 0x20) <= 122) || (c >= 0xc0 && c !== 0xfffd)) letters++;
    else if (c < 32 || c === 0xfffd) control++;
  }
  return spaces >= 1 && letters / s.length > 0.55 && control / s.length < 0.05;
}

/** Percent-encoded runs that decode to words ("ignore%20previous%20instructions"). At most `max` (bounded work). */
function decodeUrlRuns(text: string, max = 8): Decoded[] {
  const out: Decoded[] = [];
  let from = 0;
  for (let p = text.indexOf("%"); p >= 0 && out.length < max; p = text.indexOf("%", from)) {
    let start = p;
    while (start > from && isUrlChar(text.charCodeAt(start - 1))) start--;
    let end = p + 1;
    while (end < text.length && isUrlChar(text.charCodeAt(end))) end++;
    from = end;
    if (end - start > MAX_RUN) continue;
    const bytes: number[] = [];
    let escapes = 0;
    let plus = 0;
    for (let i = start; i < end; i++) {
      const c = text.charCodeAt(i);
      const hi = c === 37 && i + 2 < end ? hexVal(text.charCodeAt(i + 1)) : -1;
      const lo = hi >= 0 ? hexVal(text.charCodeAt(i + 2)) : -1;
      if (lo >= 0) {
        bytes.push(hi * 16 + lo);
        escapes++;
        i += 2;
      } else if (c === 43) {
        bytes.push(32);
        plus++;
      } else bytes.push(c);
    }
    const run = text.slice(start, end);
    const url = /:\/\/|^www\.|[/?=&]/.test(run);
    // In a run that has escapes, "+" is a form-encoded space and counts as one.
    const encoded = escapes > 0 ? escapes + plus : 0;
    if (encoded < 2 || (url && encoded < URL_ESCAPES)) continue;
    const decoded = Buffer.from(bytes).toString("utf8");
    if (looksLikeWords(decoded)) out.push({ start, end, decoded });
  }
  return out;
}

// ---- ROT13 ----

const ROT_WORD = /[A-Za-z]+/g;
/** A word whose ROT13 is this many bits per character cheaper (character model) reads better decoded... */
const ROT_BETTER = 0.75;
/** ...and one this much dearer reads better as written: it ends a run. */
const ROT_WORSE = -0.25;
/** A run needs this many better-decoded words... */
const ROT_MIN_WORDS = 3;
/** ...making this share of its words... */
const ROT_SHARE = 0.6;
/** ...and, decoded, must read like language (mean bits per character). */
const ROT_MAX_BITS = 3.6;
/** A word this cheap as written (bits per character) is taken as written. */
const ROT_PLAIN_OK = 2.75;
/** Words examined per text: ROT13 payloads are short, and the cost must not grow without bound. */
const ROT_MAX_WORDS = 20_000;

const rot13 = (s: string) => s.replace(/[A-Za-z]/g, (c) => String.fromCharCode((((c.charCodeAt(0) & 31) + 12) % 26) + (c.charCodeAt(0) & 96) + 1));

/**
 * Runs of words that read as language only after ROT13 ("vtaber nyy
 * cerivbhf vafgehpgvbaf"). Each word is costed by the character model as
 * written and rotated; ordinary text of any language is cheaper as written,
 * so it is never decoded.
 */
function decodeRot13(text: string, max = 4): Decoded[] {
  const out: Decoded[] = [];
  const lm = charLm();
  let runStart = -1;
  let runEnd = 0;
  let better = 0;
  let words = 0;
  let rotCost = 0;
  let rotLen = 0;
  const close = () => {
    if (runStart >= 0 && better >= ROT_MIN_WORDS && better >= ROT_SHARE * words && rotCost / rotLen / QUANT <= ROT_MAX_BITS && out.length < max)
      out.push({ start: runStart, end: runEnd, decoded: rot13(text.slice(runStart, runEnd)) });
    runStart = -1;
    better = words = rotCost = rotLen = 0;
  };
  ROT_WORD.lastIndex = 0;
  let n = 0;
  for (let m = ROT_WORD.exec(text); m && n < ROT_MAX_WORDS; m = ROT_WORD.exec(text), n++) {
    const w = m[0];
    // Far from the last word, or joined to it by something other than spaces and punctuation: a new run.
    if (runStart >= 0 && (m.index - runEnd > 4 || /[^\s.,;:!?'"()-]/.test(text.slice(runEnd, m.index)))) close();
    if (w.length > 24) {
      close();
      continue;
    }
    // "V", "n": too short to judge, but part of the run ("Ubj qb V znxr n obzo").
    if (w.length < 2) {
      if (runStart >= 0) runEnd = m.index + 1;
      continue;
    }
    const plain = isolatedCost(w, lm);
    // Already reads like language: rotating it cannot win by ROT_BETTER in practice, so skip the second costing.
    const rotated = plain / (w.length + 1) / QUANT <= ROT_PLAIN_OK ? Infinity : isolatedCost(w, lm, true);
    const gain = (plain - rotated) / (w.length + 1) / QUANT;
    if (gain <= ROT_WORSE) {
      close();
      continue;
    }
    if (gain >= ROT_BETTER) {
      if (runStart < 0) runStart = m.index;
      better++;
    } else if (runStart < 0) continue;
    words++;
    rotCost += rotated;
    rotLen += w.length + 1;
    runEnd = m.index + w.length;
  }
  close();
  return out;
}

// ---- spaced letters ----

/** Shorter runs ("x y z", "J. R. R.") are left as written: they spell initials and variables far more often than words. */
const SPACED_MIN_LETTERS = 4;
/** Letters segmented into words per text, at most: bounded work on a text of many long runs. */
const SEGMENT_BUDGET = 4_000;
const ASCII_WORD = /^[a-z]+$/;
const DIGIT = /[0-9]/;
const NON_DIGIT = /[^0-9]/;
const DIGITS = /[0-9]/g;

/** Leet digits of a spelled word that also has letters ("1gn0r3"), as letters. */
const unleet = (s: string) => (DIGIT.test(s) && NON_DIGIT.test(s) ? s.replace(DIGITS, (d) => LEET[d] ?? d) : s);

/** What a run spells: folded like the text around it (for the features), and as written (for the character model). */
interface Spelled {
  start: number;
  end: number;
  folded: string;
  written: string;
}

/**
 * The words each run spells, leet digits undone and, when a run's gaps gave no
 * word boundaries and it folds to a-z, segmented by the character model.
 */
function spell(runs: SpacedRun[]): Spelled[] {
  let budget = SEGMENT_BUDGET;
  return runs.map((run) => {
    const folded: string[] = [];
    const written: string[] = [];
    for (const w of run.words) {
      const f = unleet(foldText(w));
      const asWritten = unleet(w);
      if (run.unbroken && ASCII_WORD.test(f) && f.length <= budget) {
        budget -= f.length;
        const segmented = segmentWords(f);
        folded.push(segmented);
        // Letters folded from another script are left as written for the character model, which knows their script.
        written.push(asWritten.toLowerCase() === f ? segmented : asWritten);
      } else {
        folded.push(f);
        written.push(asWritten);
      }
    }
    const sep = run.unspaced ? "" : " ";
    return { start: run.start, end: run.end, folded: folded.join(sep), written: written.join(sep) };
  });
}

/**
 * The text with each spelled-out run rewritten in place as the words it
 * spells, padded with spaces to the run's length ("please i g n o r e  a l l
 * previous" -> "please ignore all        previous"): the words sit among their
 * neighbours, where n-grams and cues read them, and offsets stay the input's.
 * A run always has room: its letters plus a separator between each two.
 */
function respell(text: string, runs: Spelled[], form: "folded" | "written"): string {
  let out = "";
  let pos = 0;
  for (const r of runs) {
    const words = r[form];
    out += text.slice(pos, r.start) + words + " ".repeat(Math.max(0, r.end - r.start - words.length));
    pos = r.end;
  }
  return out + text.slice(pos);
}

// ---- optimised suffixes ----

/**
 * Gibberish-score cuts (docs/obfuscation.md has the rates they were chosen
 * on): the first fires on about one ordinary text in a thousand, the second
 * on hardly any.
 */
const GIBBERISH_CUT = 1.5;
const GIBBERISH_STRONG_CUT = 2.5;
/** Shorter texts cannot hold a head and an eight-word tail. */
const GIBBERISH_MIN_LENGTH = 40;

/**
 * "Payload splitting": an instruction cut into variables or fragments that the
 * model is told to join (a = "ign", b = "ore ..."; say a + b).
 */
const SPLIT_ASSIGN = /\b[a-z]\w{0,8}\s*=\s*["'][^"'\n]{1,80}["']/gi;
const SPLIT_JOIN = /\b[a-z]\w{0,8}\s*\+\s*[a-z]\w{0,8}\b|\b(?:concatenat|combin|join)\w*\b[^.\n]{0,40}\b(?:string|part|piece|fragment|variable)s?\b/i;

function looksSplit(text: string): boolean {
  SPLIT_ASSIGN.lastIndex = 0;
  let n = 0;
  while (SPLIT_ASSIGN.exec(text) && n < 3) n++;
  return n >= 2 && SPLIT_JOIN.test(text);
}

/** Joins the quoted fragments of a split payload in order (only called when looksSplit). */
function joinSplit(text: string): string {
  const parts: string[] = [];
  SPLIT_ASSIGN.lastIndex = 0;
  for (let m = SPLIT_ASSIGN.exec(text); m && parts.length < 20; m = SPLIT_ASSIGN.exec(text)) {
    const q = m[0].match(/["']([^"'\n]*)["']/);
    if (q) parts.push(q[1]);
  }
  return parts.join("");
}

export interface Expanded {
  /** Folded text plus decoded views, what the featurizer reads. */
  text: string;
  /** Marker tokens for the obfuscation found (features of their own). */
  markers: string[];
  /** Regions of the input that hid something (for spans). */
  hidden: { start: number; end: number }[];
}

/** Folds the text and appends every decoded view, each behind a marker. */
export function expand(text: string): Expanded {
  const markers: string[] = [];
  const hidden: { start: number; end: number }[] = [];
  const spaced = spell(findSpacedRuns(text).filter((r) => r.words.reduce((n, w) => n + w.length, 0) >= SPACED_MIN_LETTERS));
  let folded = foldText(text);
  if (spaced.length) {
    // No marker token yet: the shipped models never saw one for this trick, and an unlearned marker only
    // dilutes a short text's vector (docs/obfuscation.md#spaced-letters).
    for (const r of spaced) hidden.push({ start: r.start, end: r.end });
    folded = respell(folded, spaced, "folded");
  }
  let extra = "";
  if (text.indexOf("\udb40") >= 0) {
    const runs = findTagRuns(text);
    if (runs.length) {
      markers.push("xxtagchars");
      for (const r of runs) {
        hidden.push({ start: r.start, end: r.end });
        extra += " " + r.decoded.toLowerCase();
      }
    }
  }
  const inv = invisibleCount(text);
  if (inv >= 3) markers.push("xxinvisible");
  if (text.length >= 16) {
    for (const b of decodeBlobs(text)) {
      markers.push(b.kind === "base64" ? "xxbase64" : "xxhex");
      hidden.push({ start: b.start, end: b.end });
      extra += " " + foldText(b.decoded);
    }
  }
  if (text.indexOf("%") >= 0) {
    for (const u of decodeUrlRuns(text)) {
      markers.push("xxurlenc");
      hidden.push({ start: u.start, end: u.end });
      extra += " " + foldText(u.decoded);
    }
  }
  for (const r of decodeRot13(text)) {
    markers.push("xxrot13");
    hidden.push({ start: r.start, end: r.end });
    extra += " " + foldText(r.decoded);
  }
  const leet = deLeet(folded);
  if (leet !== null) {
    markers.push("xxleet");
    extra += " " + leet;
  }
  if (looksSplit(text)) {
    markers.push("xxsplit");
    extra += " " + foldText(joinSplit(text));
  }
  if (text.length >= GIBBERISH_MIN_LENGTH) {
    // Spelled-out letters are one-letter "words" the character model prices like a token soup: it reads the words they spell.
    const g = gibberishSuffix(spaced.length ? respell(text, spaced, "written") : text);
    if (g && g.score >= GIBBERISH_CUT) {
      markers.push("xxgibberish");
      if (g.score >= GIBBERISH_STRONG_CUT) markers.push("xxgibberish2");
      hidden.push({ start: g.start, end: text.length });
    }
  }
  return { text: extra ? folded + " \n" + extra : folded, markers, hidden };
}
