// Words that can matter to a name, as tokens with their offsets in the text.
import { PARTICLES, TITLES } from "./lexicons.js";

export interface Token {
  start: number;
  /** End excluding a possessive "'s" or a sentence period. */
  end: number;
  /** Lower case, without a trailing period or possessive. */
  key: string;
  raw: string;
}

// Words are letters with inner apostrophes and hyphens, and an optional final period (see words()).

const LETTER = /[\p{L}\p{M}]/u;

function isLetterAt(text: string, i: number): boolean {
  const c = text.charCodeAt(i);
  if (c < 128) return (c >= 65 && c <= 90) || (c >= 97 && c <= 122);
  if (c >= 0xd800 && c <= 0xdbff) return LETTER.test(text.slice(i, i + 2));
  if (c >= 0xdc00 && c <= 0xdfff) return i > 0 && LETTER.test(text.slice(i - 1, i + 1));
  return LETTER.test(text[i]);
}

/** Particles by their first two characters (char codes, the second 0 for one letter). */
const PARTICLE_STARTS = new Set([...PARTICLES].map((p) => startCode(p, 0, p.length)));

function startCode(text: string, start: number, end: number): number {
  return text.charCodeAt(start) * 65536 + (end - start > 1 ? text.charCodeAt(start + 1) : 0);
}

/** Is text[start, end), less a final period, a particle? Most lower-case words fail on the first two letters, before any substring. */
function isParticleAt(text: string, start: number, end: number): boolean {
  if (text.charCodeAt(end - 1) === 0x2e) end--;
  return PARTICLE_STARTS.has(startCode(text, start, end)) && PARTICLES.has(text.slice(start, end));
}

/**
 * Words (letters with inner apostrophes and hyphens, and an optional final
 * period) that can matter to a name: those starting with a capital letter and
 * lower-case particles ("van", "bin"). A hand scan: a /u regex over the whole
 * text costs several times more, and lower-case words are most of any text.
 */
function words(text: string): { index: number; word: string }[] {
  const out: { index: number; word: string }[] = [];
  const n = text.length;
  let i = 0;
  while (i < n) {
    if (!isLetterAt(text, i)) {
      i++;
      continue;
    }
    const start = i;
    for (;;) {
      while (i < n && isLetterAt(text, i)) i++;
      const c = text[i];
      if ((c === "'" || c === "’" || c === "-") && i + 1 < n && isLetterAt(text, i + 1)) {
        i++;
        continue;
      }
      break;
    }
    if (text[i] === ".") i++;
    const first = text.charCodeAt(start);
    const lowerAscii = first >= 97 && first <= 122;
    if (lowerAscii && (i - start > 6 || !isParticleAt(text, start, i))) continue;
    out.push({ index: start, word: text.slice(start, i) });
  }
  return out;
}

// Hoisted: a regex literal in a loop is a new RegExp object on every pass.
const POSSESSIVE = /['’]s$/i;

export function tokenize(text: string): Token[] {
  const out: Token[] = [];
  for (const m of words(text)) {
    let raw = m.word;
    let end = m.index + raw.length;
    if (raw.endsWith(".") && raw.length > 2 && !TITLES.has(raw.toLowerCase())) {
      // A sentence period, not an initial or abbreviation.
      raw = raw.slice(0, -1);
      end--;
    }
    if (POSSESSIVE.test(raw) && raw.length > 3) {
      raw = raw.slice(0, -2);
      end -= 2;
    }
    out.push({ start: m.index, end, key: (raw.endsWith(".") ? raw.slice(0, -1) : raw).toLowerCase(), raw });
  }
  return out;
}

const UPPER_FIRST = /^\p{Lu}/u;
const HAS_LOWER = /\p{Ll}/u;
export const isCap = (t: Token) => UPPER_FIRST.test(t.raw) && (HAS_LOWER.test(t.raw) || t.raw.length === 1);
export const isInitial = (t: Token) => /^\p{Lu}\.?$/u.test(t.raw);
