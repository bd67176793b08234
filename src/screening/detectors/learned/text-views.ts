// Obfuscation handling shared by the learned detectors:
// homoglyph folding, invisible Unicode tag characters decoded to ASCII,
// base64 / hex blobs decoded, leetspeak de-substituted. Each decoded view is
// appended to the text the model reads, behind a marker token, so one linear
// model sees both the surface form (gibberish, markers) and what it hides.
// All scanners are single passes or regexes without nested quantifiers.
import { LEET } from "../leet.js";

/** Cyrillic and Greek letters that render like Latin ones (NFKC keeps them apart). */
const HOMOGLYPH_PAIRS =
  "аaбbвbгrдdеeёeззиuйuкkлnмmнhоoпnрpсcтtуyффхxччшшщщъъыыьbэээюююяяіiїiјjѕsԁdɡgһhԛqԝwαaβbγyδdεeζzηnθoιiκkλλμuνvοoπnρpσoτtυuφφχxψψωw" +
  "АaВbЕeЁeКkМmНhОoРpСcТtХxУyІiЈjЅsΑaΒbΕeΖzΗhΙiΚkΜmΝnΟoΡpΤtΥyΧx";

const FOLD = new Uint16Array(0x0600);
for (let i = 0; i < FOLD.length; i++) FOLD[i] = i;
for (let i = 0; i + 1 < HOMOGLYPH_PAIRS.length; i += 2) {
  const from = HOMOGLYPH_PAIRS.charCodeAt(i);
  const to = HOMOGLYPH_PAIRS.charCodeAt(i + 1);
  if (to < 128) FOLD[from] = to;
}

/**
 * Lower-cases and folds homoglyphs to Latin. Length-preserving (UTF-16 units),
 * so offsets into the result are offsets into the input.
 */
function foldText(text: string): string {
  const lower = text.toLowerCase();
  if (lower.length !== text.length) return foldSameLength(text);
  let needs = false;
  for (let i = 0; i < lower.length; i++) {
    const c = lower.charCodeAt(i);
    if (c >= 0x370 && c < 0x600 && FOLD[c] !== c) {
      needs = true;
      break;
    }
  }
  if (!needs) return lower;
  const codes = new Array<number>(lower.length);
  for (let i = 0; i < lower.length; i++) {
    const c = lower.charCodeAt(i);
    codes[i] = c < 0x600 ? FOLD[c] : c;
  }
  return fromCodes(codes);
}

/** Rare case: lower-casing changed the length (e.g. "İ"); fold char by char instead. */
function foldSameLength(text: string): string {
  const codes = new Array<number>(text.length);
  for (let i = 0; i < text.length; i++) {
    const ch = text[i].toLowerCase();
    const c = ch.length === 1 ? ch.charCodeAt(0) : text.charCodeAt(i);
    codes[i] = c < 0x600 ? FOLD[c] : c;
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

const LEET_WORD = /[a-z0-9@$!|+€]*[a-z][a-z0-9@$!|+€]*/g;

/**
 * De-substituted text when at least two words mix letters with leet digits or
 * symbols ("1gn0r3 4ll"), otherwise null. Works on folded (lower-case) text.
 */
function deLeet(folded: string): string | null {
  let hits = 0;
  LEET_WORD.lastIndex = 0;
  const out = folded.replace(LEET_WORD, (w) => {
    if (w.length < 3 || !/[0-9@$!|+€]/.test(w)) return w;
    if (/^[0-9]+[a-z]{1,3}$/.test(w) || /^[a-z]+[0-9]+$/.test(w)) return w; // 10px, 2nd, utf8, h264
    hits++;
    let r = "";
    for (const ch of w) r += LEET[ch] ?? ch;
    return r;
  });
  return hits >= 2 ? out : null;
}

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
  const folded = foldText(text);
  const markers: string[] = [];
  const hidden: { start: number; end: number }[] = [];
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
  const leet = deLeet(folded);
  if (leet !== null) {
    markers.push("xxleet");
    extra += " " + leet;
  }
  if (looksSplit(text)) {
    markers.push("xxsplit");
    extra += " " + foldText(joinSplit(text));
  }
  return { text: extra ? folded + " \n" + extra : folded, markers, hidden };
}
