// Tokens of an address: words (letters, digits, inner apostrophes, periods and
// hyphens) or a lone "#", read forward from a position, or backward from one
// for street names written before their house number. Every read looks at a
// bounded number of characters, so the scanners built on them stay linear.

export interface Token {
  start: number;
  end: number;
  /** Lower case, without a trailing period. */
  key: string;
  raw: string;
  /** Whitespace and commas between the previous token and this one. */
  gap: string;
}

// Words (letters, digits, inner apostrophes, periods, slashes and hyphens) or a lone "#".
const TOKEN = /[\p{L}\p{N}](?:[\p{L}\p{M}\p{N}'’./-]*[\p{L}\p{M}\p{N}.º°ª])?|#|№/uy;
// Whitespace, commas and e-mail quote markers (">") between address lines.
const GAP = /[\s,>]*/y;

export function tokenAt(text: string, pos: number): Token | null {
  GAP.lastIndex = pos;
  const g = GAP.exec(text);
  const gapEnd = pos + (g ? g[0].length : 0);
  // A gap over 40 characters (a table, a blank page) is not inside an address.
  if (gapEnd - pos > 40) return null;
  TOKEN.lastIndex = gapEnd;
  const m = TOKEN.exec(text);
  if (!m) return null;
  const raw = m[0];
  return { start: gapEnd, end: gapEnd + raw.length, key: (raw.endsWith(".") ? raw.slice(0, -1) : raw).toLowerCase(), raw, gap: text.slice(pos, gapEnd) };
}

const WORD_CHAR = /[\p{L}\p{M}\p{N}'’.\-/º°ª]/u;

/**
 * Up to `max` tokens ending at `pos`, nearest last, read backward over single
 * spaces (and tabs) only: a comma, a newline or any other character ends the
 * street name being read. Looks at no more than 80 characters.
 */
export function tokensBefore(text: string, pos: number, max: number): Token[] {
  const out: Token[] = [];
  let i = pos;
  const limit = Math.max(0, pos - 80);
  while (out.length < max && i > limit) {
    let j = i;
    while (j > limit && (text[j - 1] === " " || text[j - 1] === "\t" || text[j - 1] === "\u00a0")) j--;
    if (out.length > 0 && j === i) break;
    let k = j;
    while (k > limit && WORD_CHAR.test(text[k - 1])) k--;
    // Low surrogates of letters outside the BMP are rare in street names; stop at them.
    if (k === j) break;
    const raw = text.slice(k, j);
    out.unshift({ start: k, end: j, key: (raw.endsWith(".") ? raw.slice(0, -1) : raw).toLowerCase(), raw, gap: text.slice(j, i) });
    i = k;
  }
  return out;
}

export const isCapitalized = (raw: string) => /^\p{Lu}/u.test(raw);
export const newlines = (gap: string) => (gap.match(/\n/g) ?? []).length;
