// Language and script identification of a screened text part (docs/language.md), so that a
// detector built for some languages can tell whether a part is in one of them.
//
// The language comes from CLD2 (the `cld` package, Google's Compact Language Detector 2, a native
// addon with its tables compiled in): of the candidates measured it was the most accurate on short
// texts, the fastest, and the lightest to load (docs/language.md#choice). The script is counted
// here, with Unicode script properties, because CLD2 does not report it and because it stays
// meaningful where no language can be named (a few letters, code, mixed text).
import { createRequire } from "node:module";
import { nativeCall } from "./native-calls.js";

export interface LanguageId {
  /** ISO 639-1 code where the language has one ("en", "zh", "sw"), else CLD2's ISO 639-2/3 code ("ceb", "haw"); "und" when unknown. */
  lang: string;
  /** Dominant Unicode script of the letters ("Latin", "Han", "Japanese", "Cyrillic", ...); "Common" when there are no letters. */
  script: string;
  /** 0..1: how much of the sampled letters support `lang`, scaled down for short texts; 0 for "und". */
  confidence: number;
  /** False for short, mixed (two languages or scripts) or unknown text: a detector should not rely on `lang` then. */
  reliable: boolean;
}

/** The native binding's synchronous entry point (the package's own `detect` is promise-only, and screening is synchronous). */
interface Cld2 {
  detect(
    text: string,
    isPlainText: boolean,
    languageHint: string,
    encodingHint: string,
    tldHint: string,
    httpHint: string,
    bestEffort: boolean,
  ): { reliable: boolean; languages: { code: string; percent: number }[] };
}

const require = createRequire(import.meta.url);
const cld2 = require("cld/build/Release/cld.node") as Cld2;

// Bounded work per call: CLD2 costs about 0.05-0.09 µs per character, so long texts are identified
// on a head plus a few windows spread over the rest (so a language that only starts later still
// shows up as a mix) instead of on everything.
const WHOLE_LIMIT = 256;
const HEAD = 160;
const WINDOWS = 3;
const WINDOW = 32;
/** How far a cut may move to land on whitespace: a cut word is a spurious n-gram for CLD2. */
const SNAP = 12;

/** Below this many letters there is nothing to identify. */
const MIN_LETTERS = 3;
/** Letters (ideographs weighted, see `evidenceOf`) needed before an answer is called reliable, and before confidence reaches its top. */
const RELIABLE_EVIDENCE = 20;
const FULL_EVIDENCE = 48;
/** Below these shares of the sample, the text is a mix of languages or scripts. */
const MIN_LANGUAGE_PERCENT = 80;
const MIN_SCRIPT_SHARE = 0.8;

// The scripts told apart, in order of how often screened traffic uses them. A letter of any other
// script counts as "Other"; letters of no particular script (Common, Inherited: the katakana
// length mark, modifier letters) and everything that is not a letter or mark are not counted.
const SCRIPTS = [
  "Latin",
  "Han",
  "Cyrillic",
  "Arabic",
  "Hangul",
  "Hiragana",
  "Katakana",
  "Devanagari",
  "Thai",
  "Greek",
  "Hebrew",
  "Bengali",
  "Tamil",
  "Telugu",
  "Kannada",
  "Malayalam",
  "Gujarati",
  "Gurmukhi",
  "Oriya",
  "Sinhala",
  "Armenian",
  "Georgian",
  "Ethiopic",
  "Khmer",
  "Lao",
  "Myanmar",
  "Tibetan",
  "Thaana",
  "Syriac",
  "Mongolian",
  "Bopomofo",
  "Yi",
  "Tifinagh",
  "Cherokee",
  "Canadian_Aboriginal",
] as const;
const OTHER = SCRIPTS.length;
const IGNORED = 255;
const UNSEEN = 254;
const LATIN = 0;
const HAN = SCRIPTS.indexOf("Han");
const HIRAGANA = SCRIPTS.indexOf("Hiragana");
const KATAKANA = SCRIPTS.indexOf("Katakana");
const HANGUL = SCRIPTS.indexOf("Hangul");

/** One code point: group i + 1 for SCRIPTS[i], then Common/Inherited, then any other letter or mark. */
const CLASSIFY = new RegExp(`^(?=[\\p{L}\\p{M}])(?:${SCRIPTS.map((s) => `(\\p{Script=${s}})`).join("|")}|(\\p{Script=Common}|\\p{Script=Inherited})|(.))$`, "su");

function classify(char: string): number {
  const m = CLASSIFY.exec(char);
  if (m === null) return IGNORED;
  let g = 1;
  while (m[g] === undefined) g++;
  return g <= SCRIPTS.length ? g - 1 : g === SCRIPTS.length + 1 ? IGNORED : OTHER;
}

// A regular expression per character would cost more than CLD2 itself (~0.1 µs a character), so
// each BMP code unit is classified once, on first sight, into a 64 KiB table; it cannot grow.
const BMP = new Uint8Array(0x10000).fill(UNSEEN);
for (let c = 0; c < 0x80; c++) BMP[c] = (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a) ? LATIN : IGNORED;

function astral(cp: number): number {
  if (cp >= 0x20000 && cp <= 0x3ffff) return HAN; // the supplementary ideographic planes
  if (cp >= 0x1f000 && cp <= 0x1faff) return IGNORED; // emoji and pictographs, the bulk of astral text
  return classify(String.fromCodePoint(cp));
}
/** Japanese writes with kana among its kanji, Chinese with none: this share of kana in Han+kana makes the text Japanese. */
const MIN_KANA_SHARE = 0.1;

/** Scripts written by essentially one language: the answer when CLD2 gives none. */
const SCRIPT_LANGUAGE: Record<string, string> = {
  Greek: "el",
  Armenian: "hy",
  Georgian: "ka",
  Hebrew: "he",
  Thaana: "dv",
  Bengali: "bn",
  Tamil: "ta",
  Telugu: "te",
  Kannada: "kn",
  Malayalam: "ml",
  Gujarati: "gu",
  Gurmukhi: "pa",
  Oriya: "or",
  Sinhala: "si",
  Thai: "th",
  Lao: "lo",
  Myanmar: "my",
  Khmer: "km",
  Tibetan: "bo",
  Hangul: "ko",
  Japanese: "ja",
};

/** CLD2 codes that are not the ISO 639-1 code (legacy codes, a variant, its pseudo-languages). */
const CODE_MAP: Record<string, string> = {
  iw: "he",
  jw: "jv",
  "zh-Hant": "zh",
  zzp: "und", // "Pig Latin"
  "xx-Bugi": "und",
  "xx-Goth": "und",
  un: "und",
};

interface ScriptCounts {
  script: string;
  letters: number;
  /** Share of the letters in the dominant script (Han and kana together for Japanese). */
  share: number;
  kana: number;
  /** Han, kana and Hangul: each carries about as much evidence as a short word. */
  ideographic: number;
}

function countScripts(sample: string): ScriptCounts {
  const counts = new Array<number>(SCRIPTS.length + 1).fill(0);
  for (let i = 0; i < sample.length; i++) {
    const unit = sample.charCodeAt(i);
    let s: number;
    if (unit >= 0xd800 && unit <= 0xdbff && i + 1 < sample.length) {
      s = astral(sample.codePointAt(i) as number);
      i++;
    } else {
      s = BMP[unit];
      if (s === UNSEEN) s = BMP[unit] = classify(String.fromCharCode(unit));
    }
    if (s !== IGNORED) counts[s]++;
  }
  const letters = counts.reduce((a, b) => a + b, 0);
  const kana = counts[HIRAGANA] + counts[KATAKANA];
  const japanese = kana > 0 && kana >= MIN_KANA_SHARE * (kana + counts[HAN]);
  let best = -1;
  let bestCount = 0;
  for (let i = 0; i < counts.length; i++) {
    if (japanese && (i === HAN || i === HIRAGANA || i === KATAKANA)) continue;
    if (counts[i] > bestCount) [best, bestCount] = [i, counts[i]];
  }
  let script: string = best < 0 ? "Common" : best === OTHER ? "Other" : SCRIPTS[best];
  if (japanese && kana + counts[HAN] > bestCount) [script, bestCount] = ["Japanese", kana + counts[HAN]];
  return { script, letters, share: letters === 0 ? 0 : bestCount / letters, kana, ideographic: counts[HAN] + kana + counts[HANGUL] };
}

/** Ideographs count thrice: "你好吗" says as much as "how are you". */
function evidenceOf(c: ScriptCounts): number {
  return c.letters + 2 * c.ideographic;
}

// Whitespace is where a cut can fall without making a word up.
const isSpace = (code: number): boolean => code === 0x20 || (code >= 0x09 && code <= 0x0d) || code === 0xa0 || code === 0x3000;
const isLowSurrogate = (code: number): boolean => code >= 0xdc00 && code <= 0xdfff;

/** text[start, end) moved inward to whitespace when some is near, never splitting a surrogate pair. */
function cut(text: string, start: number, end: number): string {
  if (start > 0) {
    for (let i = start; i < Math.min(start + SNAP, end); i++) {
      if (isSpace(text.charCodeAt(i))) {
        start = i + 1;
        break;
      }
    }
    if (isLowSurrogate(text.charCodeAt(start))) start++;
  }
  if (end < text.length) {
    for (let i = end - 1; i > Math.max(end - SNAP, start); i--) {
      if (isSpace(text.charCodeAt(i))) {
        end = i;
        break;
      }
    }
    if (isLowSurrogate(text.charCodeAt(end))) end--;
  }
  return text.slice(start, end);
}

/** What is identified: the whole text when short, else a head and evenly spread windows (at most WHOLE_LIMIT units in all). */
function sampleOf(text: string): string {
  if (text.length <= WHOLE_LIMIT) return text;
  const pieces = [cut(text, 0, HEAD)];
  const span = text.length - HEAD - WINDOW;
  for (let i = 1; i <= WINDOWS; i++) {
    const start = HEAD + Math.floor((span * i) / WINDOWS);
    pieces.push(cut(text, start, start + WINDOW));
  }
  return pieces.join("\n");
}

// CLD2 answers English for short text in other Latin-script languages that names English things
// ("Welches Team gewann den Super Bowl XXXIII?") and for some that names none ("Care era denumirea
// castelului normand?"); and it does not split short mixed text ("Please translate this for me:
// Ich habe heute keine Zeit" is all German to it), which would let a foreign sentence hide an
// English instruction. Both show in how many of these words a sample has: common in English,
// rare in the languages CLD2 confuses with it ("an", "was", "will" are left out: German).
const ENGLISH_WORDS = new Set(
  (
    "the of and to is are were be been being that this these those with for from what which who whom whose how why when where " +
    "you your it its they their them there we our us my his she her not can would should could does did have has had " +
    "at by or if about into than then please just any some"
  ).split(" "),
);
/** An "en" answer over this many words with none of them is a guess. */
const MIN_WORDS_FOR_ENGLISH_CHECK = 5;
/** Another Latin-script answer over text with at least this many of them, and this share of its words, is mixed with English. */
const MIXED_ENGLISH_WORDS = 2;
const MIXED_ENGLISH_SHARE = 0.15;
const WORD = /[A-Za-z']+/g;

function englishWords(sample: string): { words: number; english: number } {
  let words = 0;
  let english = 0;
  WORD.lastIndex = 0;
  for (let m = WORD.exec(sample); m !== null; m = WORD.exec(sample)) {
    words++;
    if (ENGLISH_WORDS.has(m[0].toLowerCase())) english++;
  }
  return { words, english };
}

const round = (x: number): number => Math.round(x * 1000) / 1000;

/**
 * The language and script of `text`. The work is bounded whatever its length: only a sample of at most WHOLE_LIMIT units is read.
 * `reliableOnly`: the caller acts on reliable answers only (the language gate), so when CLD2 declines, its best-effort guess
 * (a second pass over the sample, and never reliable) is not made: the answer is "und", unreliable.
 */
export function identifyLanguage(text: string, { reliableOnly = false } = {}): LanguageId {
  const sample = sampleOf(text);
  const scripts = countScripts(sample);
  if (scripts.letters < MIN_LETTERS) return { lang: "und", script: scripts.script, confidence: 0, reliable: false };

  // CLD2's own verdict first; only where it declines, its best-effort guess. The guess leans to
  // English ("La madre chiamò un ambulanza." comes back English) and reports itself reliable, so
  // it is never taken as reliable here.
  let result = nativeCall(() => cld2.detect(sample, true, "", "", "", "", false));
  let cldReliable = result.reliable && result.languages.length > 0;
  if (!cldReliable && reliableOnly) return { lang: "und", script: scripts.script, confidence: 0, reliable: false };
  if (!cldReliable) result = nativeCall(() => cld2.detect(sample, true, "", "", "", "", true));
  const top = result.languages[0];
  let lang = top ? (CODE_MAP[top.code] ?? top.code) : "und";
  let percent = top ? top.percent : 0;
  // CLD2 calls short Han-only text Japanese, though Japanese is almost never written without kana.
  if (lang === "ja" && scripts.kana === 0 && scripts.script === "Han") lang = "zh";
  else if (lang === "zh" && scripts.script === "Japanese") lang = "ja";
  if (lang === "und" && SCRIPT_LANGUAGE[scripts.script] !== undefined) {
    lang = SCRIPT_LANGUAGE[scripts.script];
    percent = 100 * scripts.share;
    cldReliable = false;
  }
  if (lang === "und") return { lang, script: scripts.script, confidence: 0, reliable: false };

  let mixed = percent < MIN_LANGUAGE_PERCENT || scripts.share < MIN_SCRIPT_SHARE;
  if (scripts.script === "Latin") {
    const { words, english } = englishWords(sample);
    if (lang === "en" && english === 0 && words >= MIN_WORDS_FOR_ENGLISH_CHECK) cldReliable = false;
    if (lang !== "en" && english >= MIXED_ENGLISH_WORDS && english >= MIXED_ENGLISH_SHARE * words) mixed = true;
  }
  const evidence = evidenceOf(scripts);
  // Halved for each doubt, so that a mixed or guessed answer never outranks a clean one of the same length.
  const confidence = round((percent / 100) * Math.min(1, evidence / FULL_EVIDENCE) * (cldReliable ? 1 : 0.5) * (mixed ? 0.5 : 1));
  const reliable = cldReliable && !mixed && evidence >= RELIABLE_EVIDENCE;
  return { lang, script: scripts.script, confidence, reliable };
}
