// Spaced-letter obfuscation: "i g n o r e  a l l  p r e v i o u s",
// "I.g.n.o.r.e a.l.l", "k-i-l-l", "忽 略 所 有 指 令". A word spelled one
// character at a time, with a separator between the characters, hides from
// every word and n-gram a detector knows. Runs of such characters are found
// here and given back as the words they spell; the learned detectors' text
// views (learned/runtime/text-views.ts) and the profanity lexicon read them.
// docs/obfuscation.md#spaced-letters.
//
// One pass over the text's tokens, no regex backtracking: linear in the text,
// with the number of runs and the letters they hold bounded.

/** A run of spelled-out characters. */
export interface SpacedRun {
  /** UTF-16 offsets in the text: from the first character to the end of the last. */
  start: number;
  end: number;
  /** The words the run spells, as written (case and script kept). */
  words: string[];
  /** Where each word is spelled in the text: from its first character to the end of its last, and where each character starts. */
  spans: { start: number; end: number; at: number[] }[];
  /**
   * Every gap in the run is the same, so it says nothing about where words
   * end ("i g n o r e a l l ..."): `words` holds one word that may be several.
   */
  unbroken: boolean;
  /** The characters are of a script written without spaces (Chinese, Japanese): the words join without one. */
  unspaced: boolean;
}

/** Fewer characters in a run are initials, variables or list labels ("J. R. R.", "x y", "a b"). */
const MIN_UNITS = 3;
/** ...and it must hold this many letters (digits may stand in for letters: "1 g n 0 r 3"). */
const MIN_LETTERS = 3;
/** A longer run is not a message spelled out ("a a a a ..." over a megabyte): left alone. */
const MAX_UNITS = 2_000;
/** Runs per text: bounded work on a text full of short lists. */
const MAX_RUNS = 16;
/** A separator longer than this ends a run. */
const MAX_GAP = 6;

/**
 * Characters that may stand between two spelled-out characters: white space
 * and the few marks used to space letters out, the invisible ones included
 * (the engine strips those before detectors run, training data may still have
 * them). Not "'" ("don't") or "," (lists).
 */
function isGapChar(c: number): boolean {
  if (c < 128)
    return c === 32 || c === 9 || c === 10 || c === 13 || c === 46 || c === 45 || c === 95 || c === 42 || c === 124 || c === 43 || c === 126 || c === 58 || c === 47;
  return (
    c === 0xa0 ||
    c === 0xb7 || // middle dot
    c === 0xad ||
    (c >= 0x2000 && c <= 0x200d) || // spaces and zero-width characters
    c === 0x2022 || // bullet
    c === 0x2027 ||
    c === 0x2060 ||
    c === 0x202f ||
    c === 0x3000 ||
    c === 0x30fb || // katakana middle dot
    c === 0xfeff
  );
}

/**
 * Scripts whose spaced single characters are spelled-out words: alphabets,
 * and Chinese and Japanese characters (written without spaces, so spacing
 * them out is the trick). Hangul syllables too, on a stricter rule (see
 * isHangul). Not the Indic and South-East Asian scripts, where a consonant
 * with its vowel sign is a word ("की", "है") and spelling out splits
 * clusters.
 */
function isUnitLetter(c: number): boolean {
  if (c < 0x250) return (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || (c >= 0xc0 && c !== 0xd7 && c !== 0xf7);
  return (
    (c >= 0x370 && c < 0x700) || // Greek, Cyrillic, Armenian, Hebrew, Arabic
    (c >= 0x10a0 && c < 0x1100) || // Georgian
    (c >= 0x1e00 && c < 0x2000) || // Latin Extended Additional, Greek Extended
    (c >= 0x3041 && c < 0x3100) || // Hiragana, Katakana
    (c >= 0x3400 && c < 0x4dc0) ||
    (c >= 0x4e00 && c < 0xa000) || // CJK ideographs
    isHangul(c)
  );
}

/**
 * Korean puts spaces between words, and many words are one syllable ("이 책
 * 좀 줘" is ordinary Korean). A run with Hangul is only joined when it also
 * shows where its words end (a second, wider kind of gap, and three words at
 * least) or uses a separator other than white space between syllables.
 */
const isHangul = (c: number) => c >= 0xac00 && c < 0xd7a4;

const isDigit = (c: number) => c >= 48 && c <= 57;
const isUnspacedScript = (c: number) => c >= 0x3041 && c < 0xa000;
/** Combining marks that belong to the character before them. */
const isMark = (c: number) =>
  (c >= 0x300 && c < 0x370) || (c >= 0x483 && c < 0x48a) || (c >= 0x591 && c < 0x5c8) || (c >= 0x610 && c < 0x61b) || (c >= 0x64b && c < 0x660);

/** Any letter, digit or mark of any script: what makes a token longer than one character. */
const WORD_CHAR = /[\p{L}\p{N}\p{M}]/u;
function isWordChar(c: number): boolean {
  if (c < 128) return (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122);
  if (c >= 0xd800 && c < 0xe000) return true; // astral letters: part of a longer token, never a unit
  return !isGapChar(c) && WORD_CHAR.test(String.fromCharCode(c));
}

interface Open {
  start: number;
  end: number;
  units: number;
  letters: number;
  unspaced: boolean;
  hangul: boolean;
  /** Offsets of each unit and the gap text before it (empty for the first). */
  at: number[];
  ends: number[];
  gaps: string[];
}

/** The words of a finished run: gaps equal to the commonest one join characters, any other gap ends a word. */
function wordsOf(text: string, run: Open): { words: string[]; spans: SpacedRun["spans"]; unbroken: boolean; joiner: string } {
  const counts = new Map<string, number>();
  for (let k = 1; k < run.gaps.length; k++) counts.set(run.gaps[k], (counts.get(run.gaps[k]) ?? 0) + 1);
  let joiner = "";
  let most = 0;
  for (const [gap, n] of counts)
    if (n > most) {
      joiner = gap;
      most = n;
    }
  const words: string[] = [];
  const spans: SpacedRun["spans"] = [];
  let word = text.slice(run.at[0], run.ends[0]);
  let at = [run.at[0]];
  for (let k = 1; k < run.at.length; k++) {
    if (run.gaps[k] !== joiner) {
      words.push(word);
      spans.push({ start: at[0], end: run.ends[k - 1], at });
      word = "";
      at = [];
    }
    word += text.slice(run.at[k], run.ends[k]);
    at.push(run.at[k]);
  }
  words.push(word);
  spans.push({ start: at[0], end: run.ends[run.ends.length - 1], at });
  return { words, spans, unbroken: counts.size === 1, joiner };
}

/**
 * Runs of single characters separated by short separators, in text order.
 * A run needs three characters, three of them letters; a separator is at
 * most six characters of white space and spacing marks, and in a run the
 * commonest separator joins letters while any other one ends a word
 * ("i g n o r e  a l l": one space within words, two between them).
 */
export function findSpacedRuns(text: string): SpacedRun[] {
  const out: SpacedRun[] = [];
  let run: Open | null = null;
  let i = 0;
  const n = text.length;
  while (i < n && out.length < MAX_RUNS) {
    const c = text.charCodeAt(i);
    if (!isWordChar(c)) {
      i++;
      continue;
    }
    // A token: one character (and its marks) or more.
    let j = i + 1;
    while (j < n && isMark(text.charCodeAt(j))) j++;
    const single = j >= n || !isWordChar(text.charCodeAt(j));
    const unit = single && (isUnitLetter(c) || isDigit(c)) && (i === 0 || !isWordChar(text.charCodeAt(i - 1)));
    if (!unit) {
      closeRun(text, run, out);
      run = null;
      while (j < n && isWordChar(text.charCodeAt(j))) j++;
      i = j;
      continue;
    }
    const gap = run ? gapBetween(text, run.end, i) : null;
    if (run && gap !== null) extend(run, c, i, j, gap);
    else {
      closeRun(text, run, out);
      run = { start: i, end: j, units: 1, letters: isDigit(c) ? 0 : 1, unspaced: isUnspacedScript(c), hangul: isHangul(c), at: [i], ends: [j], gaps: [""] };
    }
    i = j;
  }
  closeRun(text, run, out);
  return out;
}

/** Adds the character text[at, end) with code c to the run, after `gap`. */
function extend(run: Open, c: number, at: number, end: number, gap: string): void {
  run.units++;
  run.end = end;
  // Past the bound the run is only followed to its end, to be dropped whole.
  if (run.units <= MAX_UNITS) {
    run.at.push(at);
    run.ends.push(end);
    run.gaps.push(gap);
  }
  if (!isDigit(c)) run.letters++;
  run.unspaced &&= isUnspacedScript(c);
  run.hangul ||= isHangul(c);
}

/** Keeps a finished run that is long enough, not too long, and not ordinary Korean. */
function closeRun(text: string, run: Open | null, out: SpacedRun[]): void {
  if (!run || run.units < MIN_UNITS || run.letters < MIN_LETTERS || run.units > MAX_UNITS) return;
  const { words, spans, unbroken, joiner } = wordsOf(text, run);
  if (run.hangul && joiner.trim() === "" && (unbroken || words.length < 3)) return;
  out.push({ start: run.start, end: run.end, words, spans, unbroken, unspaced: run.unspaced });
}

/** The separator text[from, to) when it may join two spelled-out characters, else null. */
function gapBetween(text: string, from: number, to: number): string | null {
  if (to - from < 1 || to - from > MAX_GAP) return null;
  for (let k = from; k < to; k++) if (!isGapChar(text.charCodeAt(k))) return null;
  return text.slice(from, to);
}
