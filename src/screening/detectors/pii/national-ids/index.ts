// National identifiers of twelve countries (kinds.ts), found by their written
// shapes and kept only when their check digits, dates and prefixes validate;
// words naming the identifier nearby decide how sure a match is, and are
// required where the digits alone could be any number
// (docs/detectors.md#national-identifiers). Policies enable it through the
// built-in national-ID guardrails (pack.ts), so the contract's detector
// types stay as they are (docs/decisions.md#national-identifiers).
//
// Levels: words naming the identifier within 60 characters before it or 30
// after -> l1; words naming an identity or tax number of no country -> l2;
// none: a distinctive shape -> l2, a grouped one -> l3, bare digits -> not
// reported. Order, part, invoice and similar words nearby (and no naming word)
// drop it: a check digit is right one time in 10 to 100 by chance, and an
// order number written like an identifier is still an order number.
import type { Detection } from "../../../detector.js";
import type { Level } from "../../../vocabulary.js";
import { type Finding, toDetection } from "../../findings.js";
import { GENERIC_WORDS, ID_KINDS, type IdKind, type Strength } from "./kinds.js";

/** Letters and digits of scripts written with spaces: an identifier glued to them is part of a longer word. CJK text is not. */
const GLUED = "\\p{N}\\p{Script=Latin}\\p{Script=Cyrillic}\\p{Script=Greek}_";
// Not inside a longer run of digit groups either ("12 345 678 901" holds no nine-digit SIN).
const START = `(?<![${GLUED}])(?<!\\p{N}[ .\\-/])`;
const END = `(?![${GLUED}])(?![ .\\-/]\\p{N})`;
const SEPARATORS = /[ .\-/]/g;
const ALL_SAME = /^(.)\1*$/;

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
/** Scripts without spaces between words: their words are found anywhere. */
const UNSPACED = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}\p{Script=Devanagari}]/u;

/** A test for any of the words in a window of text. */
function wordTest(words: readonly string[], acronyms: readonly string[] = []): (window: string) => boolean {
  const spaced = words.filter((w) => !UNSPACED.test(w));
  const unspaced = words.filter((w) => UNSPACED.test(w));
  const whole = (list: readonly string[]) => `(?<![\\p{L}\\p{N}\\p{M}])(?:${list.map(escape).join("|")})(?![\\p{L}\\p{N}\\p{M}])`;
  const tests: RegExp[] = [];
  if (spaced.length) tests.push(new RegExp(whole(spaced), "iu"));
  if (unspaced.length) tests.push(new RegExp(unspaced.map(escape).join("|"), "u"));
  if (acronyms.length) tests.push(new RegExp(whole(acronyms), "u"));
  return (window) => tests.some((t) => t.test(window));
}

const NEGATIVE = wordTest([
  "order",
  "sku",
  "part",
  "part no",
  "item",
  "invoice",
  "tracking",
  "serial",
  "ref",
  "reference",
  "product",
  "model",
  "article",
  "ticket",
  "batch",
  "lot",
  "bestellung",
  "artikel",
  "rechnung",
  "pedido",
  "factura",
  "commande",
  "facture",
  "ordine",
  "fattura",
  "bestelling",
  "factuur",
  "订单",
  "注文",
  "品番",
]);
const GENERIC = wordTest(GENERIC_WORDS);

interface CompiledKind {
  kind: IdKind;
  index: number;
  shapes: { re: RegExp; strength: Strength }[];
  named: (window: string) => boolean;
}

const COMPILED: CompiledKind[] = ID_KINDS.map((kind, index) => ({
  kind,
  index,
  shapes: kind.shapes.map((s) => ({ re: new RegExp(`${START}(?:${s.source})${END}`, "gu"), strength: s.strength })),
  named: wordTest(kind.words, kind.acronyms),
}));

function levelOf(strength: Strength, own: boolean, generic: boolean, negative: boolean): Level | null {
  if (own) return "l1_confident";
  if (generic) return "l2_very_likely";
  if (strength === "bare" || negative) return null;
  return strength === "distinctive" ? "l2_very_likely" : "l3_likely";
}

interface Candidate extends Finding {
  rank: number;
}

const levelOrder: Record<string, number> = { l1_confident: 0, l2_very_likely: 1, l3_likely: 2, l4_less_likely: 3 };

/** Valid identifiers of the given kinds (all by default), one finding per span, labelled with the kind. */
function findNationalIds(text: string, countries?: ReadonlySet<string>): Finding[] {
  if (!/\d/.test(text)) return [];
  const candidates: Candidate[] = [];
  for (const c of COMPILED) {
    if (countries && !countries.has(c.kind.country)) continue;
    for (const shape of c.shapes) {
      for (const m of text.matchAll(shape.re)) {
        const compact = m[0].replace(SEPARATORS, "");
        if (ALL_SAME.test(compact) || !c.kind.valid(compact)) continue;
        const start = m.index;
        const end = start + m[0].length;
        const window = text.slice(Math.max(0, start - 60), start) + " \u0000 " + text.slice(end, end + 30);
        const own = c.named(window);
        const level = levelOf(shape.strength, own, !own && GENERIC(window), NEGATIVE(window));
        if (level) candidates.push({ start, end, level, labels: [c.kind.label], rank: c.index });
      }
    }
  }
  // Where shapes of several kinds overlap, the surest reading wins, then the longer, then the earlier kind.
  candidates.sort((a, b) => levelOrder[a.level] - levelOrder[b.level] || b.end - b.start - (a.end - a.start) || a.rank - b.rank || a.start - b.start);
  const taken = new Uint8Array(text.length);
  const kept: Finding[] = [];
  for (const cand of candidates) {
    let free = true;
    for (let i = cand.start; i < cand.end && free; i++) free = taken[i] === 0;
    if (!free) continue;
    taken.fill(1, cand.start, cand.end);
    kept.push({ start: cand.start, end: cand.end, level: cand.level, labels: cand.labels });
  }
  return kept;
}

export function detectNationalIds(text: string, countries?: ReadonlySet<string>): Detection {
  return toDetection(findNationalIds(text, countries));
}
