// moderated_content/profanity: English profanity, obfuscation-aware, from the
// hand-written lexicon lexicons/profanity-en.txt (term, severity, suffixes).
//
// Why not the `obscenity` package: measured at ~3.4 ms per 10k characters on
// its own (the whole exact-detector budget is 5 ms), it does not see spaced
// letters ("f u c k"), it has no severities, and it reports partial spans
// inside longer words. The obfuscations it handles are handled here too.
//
// Each whitespace-separated token is de-obfuscated before lookup:
//   - case, diacritics and look-alike letters from other scripts (Cyrillic
//     "а", Greek "ο", "ƒ", "ս" ...) fold to a-z
//   - leetspeak digits and symbols become letters (0->o 1->i 3->e 4->a 5->s
//     7->t 8->b 9->g @->a $->s !->i |->l +->t €->e), only inside tokens that
//     also have a real letter, so "3.14" and "$5" stay numbers
//   - repeated letters match the term's letters ("fuuuuck"), never fewer
//     ("as" is not "ass")
//   - "*", "#" and "%" stand for one letter each ("f*ck", "sh!t", "f**k"),
//     when at least two real letters are left
//   - dots, dashes and underscores inside a token are dropped ("f.u.c.k",
//     "mother-fucker"); single letters separated by single spaces are joined
//     ("f u c k"), and so are letters spelled out with wider or other
//     separators, words told apart by a wider gap ("f  u  c  k", "f . u . c . k",
//     "f u c k  y o u"; spaced-letters.ts)
// Matching is whole-word (the term, optionally with one of its listed
// suffixes), which is what keeps "Scunthorpe", "assassin", "class",
// "cocktail", "hello" and "shell" clean. Capitalised words that are also
// given names or surnames ("Dick Van Dyke", "Moby Dick") are skipped when a
// neighbouring word is capitalised too.
//
// Levels by the term's severity: strong (slurs and the strongest obscenities)
// l1, moderate l2, mild ("damn", "crap", "ass") l3, faint ("hell", "bloody")
// l4. One span per matched word.
import { readFileSync } from "node:fs";
import { defineDetector, textOnly, type Detection } from "../detector.js";
import type { Level } from "../vocabulary.js";
import { type Finding, toDetection } from "./findings.js";
import { LEET } from "./leet.js";
import { LEXICONS } from "./lexicons/dir.js";
import { findSpacedRuns } from "./spaced-letters.js";
import { projectFile } from "../../paths.js";

type Severity = "strong" | "moderate" | "mild" | "faint";
const LEVEL: Record<Severity, Level> = { strong: "l1_confident", moderate: "l2_very_likely", mild: "l3_likely", faint: "l4_less_likely" };
const RANK: Record<Severity, number> = { strong: 0, moderate: 1, mild: 2, faint: 3 };

interface Variant {
  word: string;
  /** Run lengths of `word`'s letters, aligned with the collapsed key. */
  runs: number[];
  severity: Severity;
}

function collapse(word: string): { key: string; runs: number[] } {
  let key = "";
  const runs: number[] = [];
  for (const ch of word) {
    if (key.length > 0 && key[key.length - 1] === ch && ch !== "?") runs[runs.length - 1]++;
    else {
      key += ch;
      runs.push(1);
    }
  }
  return { key, runs };
}

/**
 * The terms by their collapsed letters ("fuck" for "fuuuck"), one node per
 * letter (char code), so that a word is looked up letter by letter straight
 * from the text: most words leave the trie within two letters.
 */
interface TrieNode {
  next: Map<number, TrieNode>;
  variants: Variant[];
}
const TERMS: TrieNode = { next: new Map(), variants: [] };
/** Variants by length and first letter, for tokens with "*" masks. */
const BY_SHAPE = new Map<string, Variant[]>();
let MAX_WORD = 0;
{
  const text = readFileSync(projectFile(LEXICONS, "profanity-en.txt"), "utf8");
  for (const line of text.split("\n")) {
    if (!line.trim() || line.startsWith("#")) continue;
    const [term, severity, suffixList = "-"] = line.trim().split(/\s+/);
    const suffixes = ["", "s", ...(suffixList === "-" ? [] : suffixList.split(","))];
    for (const suffix of suffixes) {
      const word = term + suffix;
      const { key, runs } = collapse(word);
      const v: Variant = { word, runs, severity: severity as Severity };
      let node = TERMS;
      for (let i = 0; i < key.length; i++) {
        const c = key.charCodeAt(i);
        let child = node.next.get(c);
        if (!child) node.next.set(c, (child = { next: new Map(), variants: [] }));
        node = child;
      }
      node.variants.push(v);
      const shape = `${word.length}:${word[0]}`;
      const shapeList = BY_SHAPE.get(shape) ?? [];
      shapeList.push(v);
      BY_SHAPE.set(shape, shapeList);
      MAX_WORD = Math.max(MAX_WORD, word.length);
    }
  }
}

// Real words and phrases that collide with a de-obfuscated term.
const CLEAN_WORDS = new Set([
  "assess",
  "assesses",
  "shitake",
  "shiitake",
  "shiite",
  "shiites",
  "cumin",
  "cumming",
  "dickens",
  "hells",
  "bonner",
  "scunthorpe",
  "penistone",
  "cockburn",
  "hancock",
]);
const CLEAN_AFTER = /^\s+(?:laude|and span)\b/i;
const CLEAN_BEFORE = /\b(?:summa|magna)\s+$/i;
const NAME_TERMS = new Set(["dick", "dyke", "cock", "coon", "fanny", "willy", "johnson", "bugger", "hell", "paki", "spic"]);

const LOOKALIKE: Record<string, string> = {
  а: "a",
  е: "e",
  о: "o",
  р: "p",
  с: "c",
  у: "y",
  х: "x",
  к: "k",
  м: "m",
  т: "t",
  в: "b",
  н: "h",
  і: "i",
  ј: "j",
  ѕ: "s",
  ԁ: "d",
  ɡ: "g",
  α: "a",
  ο: "o",
  ν: "v",
  τ: "t",
  ι: "i",
  κ: "k",
  ρ: "p",
  υ: "u",
  ε: "e",
  β: "b",
  η: "n",
  χ: "x",
  ƒ: "f",
  ս: "u",
  ℓ: "l",
  ı: "i",
  ŀ: "l",
  ø: "o",
  đ: "d",
  ħ: "h",
  ł: "l",
  ß: "ss",
  æ: "ae",
  œ: "oe",
};
const MASK = new Set(["*", "#", "%"]);
const INNER_SEPARATOR = new Set([".", "-", "_", "·"]);
const LEADING_PUNCT = charCodes(`("'“‘[{<¿¡`);
const TRAILING_PUNCT = charCodes(`.,;:?)"'”’]}>…`);
const ASCII_LOWER = /^[a-z]+$/;

interface Skeleton {
  /** a-z, "?" for a mask. */
  text: string;
  letters: number;
}

function letterOf(ch: string): string | null {
  const c = ch.charCodeAt(0);
  if (c < 128) {
    if (c >= 97 && c <= 122) return ch;
    if (c >= 65 && c <= 90) return String.fromCharCode(c + 32);
    return null;
  }
  const lower = ch.toLowerCase();
  if (lower >= "a" && lower <= "z" && lower.length === 1) return lower;
  const look = LOOKALIKE[lower];
  if (look) return look;
  const base = lower.normalize("NFD")[0];
  if (base >= "a" && base <= "z") return base;
  return null;
}

const PLAIN_WORD = /^[A-Za-z]+$/;

const HAS_LETTER = /[A-Za-z\u00c0-\uffff]/;

function skeleton(core: string): Skeleton | null {
  if (PLAIN_WORD.test(core)) return { text: core.toLowerCase(), letters: core.length };
  // Numbers, phone numbers, card numbers: no letter, nothing to de-obfuscate.
  if (!HAS_LETTER.test(core)) return null;
  let text = "";
  let letters = 0;
  let hasRealLetter = false;
  for (const ch of core) {
    const l = letterOf(ch);
    if (l) {
      text += l;
      letters += l.length;
      hasRealLetter = true;
      continue;
    }
    if (MASK.has(ch)) {
      text += "?";
      continue;
    }
    if (LEET[ch]) {
      text += LEET[ch];
      continue;
    }
    if (INNER_SEPARATOR.has(ch)) continue;
    // "he'll" is not "hell": an apostrophe ends the word (a possessive "'s" was cut off before).
    if (ch === "'" || ch === "’") break;
    return null; // some other symbol: not a word
  }
  if (!hasRealLetter) return null;
  return { text, letters };
}

// Compounds: a profane root with a common insulting tail ("shitbag", "fuckwit",
// "cockwomble") or a common head before it ("dumbass", "clusterfuck"). Only
// these listed parts combine, so "cocktail", "cockpit", "assassin", "passion"
// and "scrapbook" stay clean.
const ROOTS: Record<string, Severity> = {
  fuck: "strong",
  cunt: "strong",
  shit: "moderate",
  dick: "moderate",
  cock: "moderate",
  piss: "mild",
  bitch: "moderate",
  twat: "moderate",
  wank: "moderate",
  ass: "moderate",
  arse: "moderate",
  cum: "moderate",
  tit: "moderate",
  slut: "moderate",
  whore: "moderate",
  douche: "moderate",
  fag: "strong",
  prick: "moderate",
  jizz: "moderate",
  turd: "moderate",
  knob: "mild",
  butt: "mild",
  crap: "mild",
  bollock: "moderate",
  nut: "mild",
};
const TAILS = new Set(
  (
    "bag bags face faces head heads hole holes wad wads wit wits stick sticks sucker suckers sucking licker lickers licking " +
    "lord lords monkey monkeys muncher munchers nugget nuggets burger burgers bucket buckets brain brains clown clowns hat hats " +
    "wipe wipes weasel weasels waffle waffles goblin goblins master masters mouth mouths nose noses stain stains tard tards " +
    "load loads fest show storm pants bird birds biscuit biscuits canoe rag rags breath nugget jockey jockeys pirate pirates " +
    "puppet puppets womble wombles knuckle knuckles bandit bandits goblin weed weeds lips lip gobbler gobblers sack sacks " +
    "bucket fucker fuckers fucking shit shits licker tastic tastical ery ed ing er ers y"
  ).split(" "),
);
const HEADS = new Set(
  (
    "mother motha mutha dumb jack smart fat lard bad bull horse dip chicken ape bat cluster mind brain rat kiss suck half " +
    "wise candy hard rim skull dog cow pig lame dick cock ass arse shit fuck cum tit twat wank knob douche butt pussy dirt " +
    "camel sister brother god holy"
  ).split(" "),
);

const ROOT_LIST = Object.entries(ROOTS);
/** Roots by their first three letters (every root has at least three). */
const ROOTS_BY_TRIGRAM = new Map<number, string[]>();
for (const root of Object.keys(ROOTS)) {
  const code = trigram(root, 0);
  ROOTS_BY_TRIGRAM.set(code, [...(ROOTS_BY_TRIGRAM.get(code) ?? []), root]);
}
const SOFT_TAILS = new Set(["ed", "ing", "er", "ers", "y", "ery"]);

// The lookups below read letters straight from the text by index, so that
// ordinary words cost no substring. They expect a-z or A-Z (`| 32` lower-cases).
function trigram(s: string, i: number): number {
  return ((s.charCodeAt(i) | 32) << 16) | ((s.charCodeAt(i + 1) | 32) << 8) | (s.charCodeAt(i + 2) | 32);
}

/** Does some compound root occur in s[from, to)? */
function containsRoot(s: string, from: number, to: number): boolean {
  for (let i = from; i + 3 <= to; i++) {
    const roots = ROOTS_BY_TRIGRAM.get(trigram(s, i));
    if (!roots) continue;
    for (const root of roots) {
      if (i + root.length > to) continue;
      let k = 3;
      while (k < root.length && (s.charCodeAt(i + k) | 32) === root.charCodeAt(k)) k++;
      if (k === root.length) return true;
    }
  }
  return false;
}

function matchCompound(word: string): Variant | null {
  for (const [root, severity] of ROOT_LIST) {
    const at = word.indexOf(root);
    if (at < 0) continue;
    const head = word.slice(0, at);
    const tail = word.slice(at + root.length);
    if (head === "" && tail === "") continue;
    const headOk = head === "" || HEADS.has(head);
    const tailOk = tail === "" || TAILS.has(tail);
    if (headOk && tailOk && (head !== "" ? head.length >= 3 : true) && (tail !== "" ? tail.length >= 1 : true)) {
      // Single-letter or "er"/"y" tails only on strong roots: "assy", "tity", "cummer" are not words people mean.
      if (head === "" && tail.length <= 3 && !TAILS.has(tail)) continue;
      if (head === "" && SOFT_TAILS.has(tail) && severity !== "strong") continue;
      return { word, runs: [], severity };
    }
  }
  return null;
}

function matchVariant(sk: Skeleton): Variant | null {
  if (sk.text.includes("?")) return matchMasked(sk);
  return matchWord(sk.text, 0, sk.text.length);
}

/** The term that the letters text[from, to) spell, as a lexicon word or a compound. */
function matchWord(text: string, from: number, to: number): Variant | null {
  const direct = lookUp(text, from, to);
  const length = to - from;
  if (direct || length < 5 || length > 24 || !containsRoot(text, from, to)) return direct;
  return matchCompound(text.slice(from, to).toLowerCase());
}

function matchMasked(sk: Skeleton): Variant | null {
  if (sk.letters < 2 || sk.text[0] === "?") return null;
  let best: Variant | null = null;
  for (const v of BY_SHAPE.get(`${sk.text.length}:${sk.text[0]}`) ?? []) {
    let ok = true;
    for (let i = 0; i < v.word.length && ok; i++) ok = sk.text[i] === "?" || sk.text[i] === v.word[i];
    if (ok && (!best || RANK[v.severity] < RANK[best.severity])) best = v;
  }
  return best;
}

/** The strongest term whose letters text[from, to) spell, each repeated at least as often as in the term. */
function lookUp(text: string, from: number, to: number): Variant | null {
  if (to - from > MAX_WORD * 4) return null;
  let node: TrieNode | undefined = TERMS;
  let previous = -1;
  for (let i = from; i < to && node; i++) {
    const c = text.charCodeAt(i) | 32;
    if (c !== previous) node = node.next.get(c);
    previous = c;
  }
  if (!node) return null;
  let best: Variant | null = null;
  for (const v of node.variants) {
    if (coversRuns(text, from, to, v.runs) && (!best || RANK[v.severity] < RANK[best.severity])) best = v;
  }
  return best;
}

/** Every run of repeated letters in text[from, to) at least as long as the term's: repetition, never omission. */
function coversRuns(text: string, from: number, to: number, runs: number[]): boolean {
  let i = from;
  for (const r of runs) {
    const c = text.charCodeAt(i) | 32;
    let n = 1;
    while (i + n < to && (text.charCodeAt(i + n) | 32) === c) n++;
    if (n < r) return false;
    i += n;
  }
  return true;
}

function charCodes(chars: string): Set<number> {
  return new Set(Array.from(chars, (ch) => ch.charCodeAt(0)));
}

/** What `\s` matches (ECMAScript WhiteSpace and LineTerminator). */
function isSpace(c: number): boolean {
  if (c < 128) return c === 32 || (c >= 9 && c <= 13);
  return c === 0xa0 || c === 0x1680 || (c >= 0x2000 && c <= 0x200a) || c === 0x2028 || c === 0x2029 || c === 0x202f || c === 0x205f || c === 0x3000 || c === 0xfeff;
}

/** Is text[from, to) made of A-Z and a-z only? */
function isPlainWord(text: string, from: number, to: number): boolean {
  for (let i = from; i < to; i++) {
    const c = text.charCodeAt(i) | 32;
    if (c < 97 || c > 122) return false;
  }
  return true;
}

/**
 * The words of a text: word t is text.slice(start[t], end[t]), a run of
 * non-space characters without its surrounding punctuation. Offsets rather
 * than substrings, because most words are looked up straight from the text.
 */
interface Words {
  start: number[];
  end: number[];
}

function words(text: string): Words {
  const start: number[] = [];
  const end: number[] = [];
  let i = 0;
  for (;;) {
    while (i < text.length && isSpace(text.charCodeAt(i))) i++;
    if (i >= text.length) break;
    let from = i;
    while (i < text.length && !isSpace(text.charCodeAt(i))) i++;
    let to = i;
    if (!isPlainWord(text, from, to)) {
      while (from < to && LEADING_PUNCT.has(text.charCodeAt(from))) from++;
      // "!" and "$" end words as punctuation more often than as leetspeak.
      let cut = to;
      while (cut > from && TRAILING_PUNCT.has(text.charCodeAt(cut - 1))) cut--;
      if (cut === to) while (cut > from && text.charCodeAt(cut - 1) === 0x21) cut--;
      if (cut > from) to = cut;
      // Possessive: "f*cker's" is "f*cker".
      const apostrophe = text.charCodeAt(to - 2);
      if (to - from > 3 && (text.charCodeAt(to - 1) | 32) === 0x73 && (apostrophe === 0x27 || apostrophe === 0x2019)) to -= 2;
      if (to === from) continue;
    }
    start.push(from);
    end.push(to);
  }
  return { start, end };
}

const isCapitalised = (s: string) => /^\p{Lu}\p{Ll}/u.test(s);

/** A capitalised neighbour makes a name of a capitalised word ("Dick Van Dyke", "Moby Dick"). */
function nameContext(text: string, w: Words, t: number): boolean {
  const prev = t > 0 ? text.slice(w.start[t - 1], w.end[t - 1]) : "";
  const next = t + 1 < w.start.length ? text.slice(w.start[t + 1], w.end[t + 1]) : "";
  return (/^\p{Lu}/u.test(prev) && !/[.!?]$/.test(prev)) || /^\p{Lu}/u.test(next);
}

/** The term spelled by `letters`, allowing one stray letter on either side ("a f u c k"): its slice and variant. */
function spelledTerm(letters: string): { from: number; to: number; v: Variant } | null {
  const n = letters.length;
  for (const [a, b] of [
    [0, n],
    [1, n],
    [0, n - 1],
    [1, n - 1],
  ]) {
    if (b - a < 3) continue;
    const sk = skeleton(letters.slice(a, b));
    const v = sk && matchVariant(sk);
    if (v) return { from: a, to: b, v };
  }
  return null;
}

/** Spaced single letters: "f u c k", "s h 1 t". Marks the words it used. */
function findSpacedSingleLetters(text: string, w: Words, used: Uint8Array, out: Finding[]): void {
  const { start, end } = w;
  const count = start.length;
  let i = 0;
  while (i < count) {
    let j = i;
    while (j < count && end[j] - start[j] === 1 && (j === i || (start[j] - end[j - 1] === 1 && text.charCodeAt(end[j - 1]) === 0x20))) j++;
    if (j - i >= 3) {
      let letters = "";
      for (let k = i; k < j; k++) letters += text[start[k]];
      const t = spelledTerm(letters);
      if (t) {
        out.push({ start: start[i + t.from], end: end[i + t.to - 1], level: LEVEL[t.v.severity], labels: [t.v.severity] });
        for (let k = i + t.from; k < i + t.to; k++) used[k] = 1;
      }
    }
    i = Math.max(j, i + 1);
  }
}

/** Does a finding (sorted by start, as found) overlap text[start, end)? */
function overlaps(found: Finding[], start: number, end: number): boolean {
  let lo = 0;
  let hi = found.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (found[mid].start < end) lo = mid + 1;
    else hi = mid;
  }
  // Findings are words and never nest, so the one that starts last before `end` is the only candidate.
  return lo > 0 && found[lo - 1].end > start;
}

const SPACE_IN = /\s/;

/**
 * Letters spelled out across white space with wider or other separators, or
 * words of a spelled-out run told apart by a wider gap ("f  u  c  k",
 * "f . u . c . k", "f u c k  y o u"), where the other passes found nothing.
 * A word spelled without white space ("f.u.c.k") is one token, which the
 * token pass reads.
 */
function findSpelledWords(text: string, out: Finding[]): void {
  const found = [...out].sort((a, b) => a.start - b.start);
  for (const run of findSpacedRuns(text)) {
    run.words.forEach((word, k) => {
      const span = run.spans[k];
      // One UTF-16 unit a character, as every letter a term can match is: offsets in the word are offsets in span.at.
      if (word.length !== span.at.length || !SPACE_IN.test(text.slice(span.start, span.end)) || overlaps(found, span.start, span.end)) return;
      const t = spelledTerm(word);
      if (t) out.push({ start: span.at[t.from], end: span.at[t.to - 1] + 1, level: LEVEL[t.v.severity], labels: [t.v.severity] });
    });
  }
}

function findProfanity(text: string): Finding[] {
  const w = words(text);
  const { start, end } = w;
  const count = start.length;
  const out: Finding[] = [];
  const used = new Uint8Array(count);
  findSpacedSingleLetters(text, w, used, out);
  for (let t = 0; t < count; t++) {
    if (used[t]) continue;
    const from = start[t];
    const to = end[t];
    if (to - from < 2) continue;
    // Fast path: a plain word is looked up directly, without building candidates.
    if (isPlainWord(text, from, to)) {
      const v = matchWord(text, from, to);
      if (!v) continue;
      const word = text.slice(from, to);
      const lower = word.toLowerCase();
      if (CLEAN_WORDS.has(lower)) continue;
      if (CLEAN_AFTER.test(text.slice(to, to + 12)) || CLEAN_BEFORE.test(text.slice(Math.max(0, from - 8), from))) continue;
      if (NAME_TERMS.has(lower) && isCapitalised(word) && nameContext(text, w, t)) continue;
      out.push({ start: from, end: to, level: LEVEL[v.severity], labels: [v.severity] });
      continue;
    }
    const core = text.slice(from, to);
    const lower = core.toLowerCase();
    if (ASCII_LOWER.test(lower) && CLEAN_WORDS.has(lower)) continue;
    const candidates: { start: number; end: number; core: string }[] = [{ start: from, end: to, core }];
    // "fuck-off" as a whole, else each part of a hyphenated word.
    if (core.includes("-")) {
      let offset = from;
      for (const part of core.split("-")) {
        candidates.push({ start: offset, end: offset + part.length, core: part });
        offset += part.length + 1;
      }
    }
    for (const c of candidates) {
      if (c.core.length < 2) continue;
      const sk = skeleton(c.core);
      if (!sk) continue;
      const v = matchVariant(sk);
      if (!v) continue;
      if (CLEAN_AFTER.test(text.slice(c.end, c.end + 12)) || CLEAN_BEFORE.test(text.slice(Math.max(0, c.start - 8), c.start))) continue;
      if (NAME_TERMS.has(sk.text) && isCapitalised(c.core) && nameContext(text, w, t)) continue;
      out.push({ start: c.start, end: c.end, level: LEVEL[v.severity], labels: [v.severity] });
      break;
    }
  }
  findSpelledWords(text, out);
  return out;
}

export function detectProfanity(text: string): Detection {
  return toDetection(findProfanity(text));
}

export const profanity = defineDetector({
  type: "moderated_content/profanity",
  kind: "exact",
  meaningful: ["user::content", "assistant::content"],
  payload: true,
  logFamily: "content_violation",
  counter: "moderation_flagged",
  console: { family: "Content moderation", defaults: ["user::content", "assistant::content"] },
  detect: textOnly(detectProfanity),
});
