// pii/credit_card: primary account numbers of 13-19 digits, written whole or
// in groups separated by single spaces or dashes ("4111 1111 1111 1111",
// "3782-822463-10005").
//
// Runs of digit groups are found first; then every window of whole groups
// holding 13-19 digits is tried, so a number glued to a date or a CVV in the
// same run ("4111 1111 1111 1111 12 27") is still found. A window is scored:
//   Luhn valid + issuer range (IIN) + a length that issuer uses -> l1
//   Luhn valid, unknown issuer or unusual length, card words nearby -> l3
//   Luhn valid, unknown issuer, no card words -> l5
//   Luhn invalid, issuer range and length right, card words nearby -> l5 (a
//   typo or a fake: scored so the payload can show it, below every threshold)
// Everything else is not a card number.
import type { Detection } from "../../detector.js";
import { piiDetector } from "./family.js";
import { type Finding, before, isWordChar, toDetection } from "../findings.js";

interface IssuerRange {
  issuer: string;
  /** Inclusive prefix range; both ends have the same number of digits. */
  from: number;
  to: number;
  lengths: readonly number[];
}

const r = (issuer: string, from: number, to: number, lengths: number[]): IssuerRange => ({ issuer, from, to, lengths });
const span = (a: number, b: number) => Array.from({ length: b - a + 1 }, (_, i) => a + i);

/**
 * Issuer identification numbers (ISO/IEC 7812 prefixes) of the networks in
 * wide use, from the networks' published ranges. Longer prefixes are listed
 * before the shorter ones they refine.
 */
const ISSUERS: readonly IssuerRange[] = [
  r("amex", 34, 34, [15]),
  r("amex", 37, 37, [15]),
  r("visa", 4, 4, [13, 16, 19]),
  r("mastercard", 51, 55, [16]),
  r("mastercard", 2221, 2720, [16]),
  r("mir", 2200, 2204, span(16, 19)),
  r("discover", 6011, 6011, span(16, 19)),
  r("discover", 622126, 622925, span(16, 19)),
  r("discover", 644, 649, span(16, 19)),
  r("discover", 65, 65, span(16, 19)),
  r("jcb", 3528, 3589, span(16, 19)),
  r("diners", 300, 305, span(14, 19)),
  r("diners", 3095, 3095, span(14, 19)),
  r("diners", 36, 36, span(14, 19)),
  r("diners", 38, 39, span(16, 19)),
  r("unionpay", 62, 62, span(16, 19)),
  r("unionpay", 81, 81, span(16, 19)),
  r("maestro", 5018, 5018, span(13, 19)),
  r("maestro", 5020, 5020, span(13, 19)),
  r("maestro", 5038, 5038, span(13, 19)),
  r("maestro", 5893, 5893, span(13, 19)),
  r("maestro", 6304, 6304, span(13, 19)),
  r("maestro", 6759, 6759, span(13, 19)),
  r("maestro", 6761, 6763, span(13, 19)),
  r("maestro", 6771, 6771, span(16, 19)),
  r("maestro", 6706, 6709, span(16, 19)),
  r("dankort", 5019, 5019, [16]),
  r("verve", 506099, 506198, [16, 18, 19]),
  r("verve", 507865, 507964, [16, 18, 19]),
  r("verve", 650002, 650027, [16, 18, 19]),
  r("rupay", 60, 60, [16]),
  r("rupay", 508, 508, [16]),
  r("rupay", 353, 353, [16]),
  r("rupay", 356, 356, [16]),
  r("rupay", 82, 82, [16]),
  r("instapayment", 637, 639, [16]),
  r("troy", 9792, 9792, [16]),
  r("uatp", 1, 1, [15]),
];

/** The issuer whose range and lengths fit, or, failing that, whose range fits. */
export function issuerOf(digits: string): { issuer: string; lengthOk: boolean } | null {
  let rangeOnly: string | null = null;
  for (const range of ISSUERS) {
    const width = String(range.from).length;
    const prefix = Number(digits.slice(0, width));
    if (prefix < range.from || prefix > range.to) continue;
    if (range.lengths.includes(digits.length)) return { issuer: range.issuer, lengthOk: true };
    rangeOnly ??= range.issuer;
  }
  return rangeOnly ? { issuer: rangeOnly, lengthOk: false } : null;
}

export function luhnValid(digits: string): boolean {
  let sum = 0;
  let double = false;
  for (let i = digits.length - 1; i >= 0; i--) {
    let d = digits.charCodeAt(i) - 48;
    if (double) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
    double = !double;
  }
  return sum % 10 === 0;
}

// Digit groups joined by one space or dash: the separator is not a digit, so
// the repetition cannot backtrack into itself.
const DIGIT_RUN = /\d+(?:[ -]\d+)*/g;
const CARD_CONTEXT =
  /\b(?:card|cards|cc|credit|debit|visa|mastercard|master card|amex|american express|discover|jcb|diners|maestro|unionpay|pan|payment|pay|charge|charged|billing|kreditkarte|carte|tarjeta|cartão)\b/;

interface Scored extends Finding {
  rank: number;
}

function score(digits: string, context: boolean): { level: Finding["level"]; labels?: string[]; rank: number } | null {
  const luhn = luhnValid(digits);
  const issuer = issuerOf(digits);
  if (luhn && issuer?.lengthOk) return { level: "l1_confident", labels: [issuer.issuer], rank: 1 };
  // All-same digits pass Luhn for some lengths and are placeholders, not cards.
  if (/^(\d)\1+$/.test(digits)) return null;
  // Order numbers, tracking ids and the like pass Luhn one time in ten.
  if (luhn) return { level: context ? "l3_likely" : "l5_unlikely", rank: 3 };
  if (issuer?.lengthOk && context) return { level: "l5_unlikely", labels: [issuer.issuer], rank: 5 };
  return null;
}

export function findCreditCards(text: string): Finding[] {
  const out: Finding[] = [];
  for (const m of text.matchAll(DIGIT_RUN)) {
    const runStart = m.index;
    const run = m[0];
    // Part of a decimal number, an identifier or a longer token: not a PAN.
    if (isWordChar(text, runStart - 1) || isWordChar(text, runStart + run.length)) continue;
    if (/[.,]/.test(text[runStart - 1] ?? "") && /\d/.test(text[runStart - 2] ?? "")) continue;
    const groups: { start: number; end: number }[] = [];
    let total = 0;
    for (const g of run.matchAll(/\d+/g)) {
      groups.push({ start: runStart + g.index, end: runStart + g.index + g[0].length });
      total += g[0].length;
    }
    if (total < 13) continue;
    const context = CARD_CONTEXT.test(before(text, runStart, 60));
    const picked: Scored[] = [];
    for (let i = 0; i < groups.length; i++) {
      let digits = "";
      // Cards are written in at most five or six groups; the bound keeps long runs of short numbers linear.
      for (let j = i; j < Math.min(groups.length, i + 6); j++) {
        digits += text.slice(groups[j].start, groups[j].end);
        if (digits.length > 19) break;
        if (digits.length < 13) continue;
        const s = score(digits, context);
        if (s) picked.push({ start: groups[i].start, end: groups[j].end, level: s.level, labels: s.labels, rank: s.rank });
      }
    }
    // Best windows first (most confident, then longest), no overlaps.
    picked.sort((a, b) => a.rank - b.rank || b.end - b.start - (a.end - a.start) || a.start - b.start);
    const kept: Scored[] = [];
    for (const p of picked) if (!kept.some((k) => k.start < p.end && p.start < k.end)) kept.push(p);
    for (const k of kept) out.push({ start: k.start, end: k.end, level: k.level, labels: k.labels });
  }
  return out;
}

export function detectCreditCard(text: string): Detection {
  return toDetection(findCreditCards(text));
}

export const creditCard = piiDetector("pii/credit_card", "CREDIT_CARD", detectCreditCard);
