// pii/phone_number: candidates found by a linear scan, validated by
// libphonenumber-js with its full ("max") metadata; numbers without "+" are
// read as US numbers.
//
// libphonenumber's own findNumbers() was measured at ~25 ms per 10k
// characters of prose, far over the screening budget, so it is not used on
// whole messages: a cheap scan proposes digit sequences shaped like phone
// numbers and only those are parsed (~0.04 ms each).
//
// Levels:
//   valid for its country, and written with "+", parentheses or phone words
//   nearby ("call", "tel", "mobile", "fax" ...) -> l1; valid otherwise -> l2
//   possible (right length) but not valid: context -> l3, else l4
//   digits only, no separators, no "+" and no phone words -> l5 (order ids,
//   timestamps and other numbers look the same)
// Candidates that are (or are inside) a card number, an IBAN, an IPv4
// address, an SSN-shaped 3-2-4 group or a date are left to those detectors.
import { parsePhoneNumberFromString } from "libphonenumber-js/max";
import { LRUCache } from "lru-cache";
import type { Detection } from "../../detector.js";
import { piiDetector } from "./family.js";
import type { Level } from "../../vocabulary.js";
import { type Finding, before, isWordChar, overlapsAny, toDetection } from "../findings.js";
import { findCreditCards } from "./credit-card.js";
import { findIbans } from "./iban.js";

// A digit, then digits and single separators (one of " .-/", a dash with
// spaces, or a parenthesis with an optional space), ending in a digit. Each
// repetition consumes one digit after at most three separator characters and
// the alternatives start differently, so it cannot backtrack into itself.
// Only spaces, never newlines: numbers on consecutive lines stay apart.
const CANDIDATE = /(?:\+[ \u00a0]?)?(?:\([ \u00a0]?)?\d(?:(?:\)[ \u00a0]?|[ \u00a0]?\(|[ \u00a0]?[-–][ \u00a0]?|[ ./\u00a0])?\d)+/g;
const EXTENSION = /^\s*(?:x|ext\.?|extension|#)\s*(\d{1,6})/i;
const CONTEXT =
  /\b(?:call|called|calling|phone|phones|tel|telephone|mobile|mob|cell|cellphone|fax|sms|text|whatsapp|signal|dial|reach|ring|contact|number|no\.|nr\.?|hotline|helpline|landline|office|desk|home|work)\b/;

const DATE = /^(?:\d{4}[-./]\d{1,2}[-./]\d{1,2}|\d{1,2}[-./]\d{1,2}[-./]\d{2,4})$/;
const IPV4_SHAPE = /^\d{1,3}\.\d{1,3}\.\d{1,3}\.\d{1,3}$/;
const SSN_SHAPE = /^\d{3}([- ])\d{2}\1\d{4}$/;

function levelFor(valid: boolean, possible: boolean, strongShape: boolean, context: boolean, bare: boolean): Level {
  if (valid) {
    if (bare && !context) return "l5_unlikely";
    return strongShape || context ? "l1_confident" : "l2_very_likely";
  }
  if (possible) {
    if (bare && !context) return "l5_unlikely";
    return context ? "l3_likely" : "l4_less_likely";
  }
  return "no_level";
}

interface Parsed {
  valid: boolean;
  possible: boolean;
  country?: string;
}

// Conversations are screened again on every turn, so the same numbers come
// back; parsing is the costly step (~0.02-0.04 ms), a small cache skips it.
// `false`: libphonenumber could not parse the candidate (the cache cannot hold null).
const cache = new LRUCache<string, Parsed | false>({ max: 512 });

function parseCached(candidate: string, international: boolean): Parsed | null {
  const hit = cache.get(candidate);
  if (hit !== undefined) return hit || null;
  const p = parsePhoneNumberFromString(candidate, international ? undefined : "US");
  const valid = p ? p.isValid() : false;
  const result: Parsed | null = p ? { valid, possible: valid || p.isPossible(), country: p.country } : null;
  cache.set(candidate, result ?? false);
  return result;
}

function findPhoneNumbers(text: string): Finding[] {
  const out: Finding[] = [];
  let exclusions: { start: number; end: number }[] | null = null;
  for (const m of text.matchAll(CANDIDATE)) {
    const start = m.index;
    const raw = m[0];
    let end = start + raw.length;
    if (isWordChar(text, start - 1) || isWordChar(text, end)) continue;
    // A "." or "," glued to digits on the left makes this part of a decimal number.
    if (/[.,]/.test(text[start - 1] ?? "") && /\d/.test(text[start - 2] ?? "")) continue;
    const digitCount = raw.replace(/\D/g, "").length;
    if (digitCount < 7 || digitCount > 15) continue;
    if (DATE.test(raw) || IPV4_SHAPE.test(raw) || SSN_SHAPE.test(raw)) continue;
    const ext = EXTENSION.exec(text.slice(end, end + 20));
    if (ext && !isWordChar(text, end + ext[0].length)) end += ext[0].length;
    exclusions ??= [...findCreditCards(text), ...findIbans(text)];
    if (overlapsAny(start, end, exclusions)) continue;

    const candidate = text.slice(start, end);
    const international = candidate.startsWith("+");
    // A US number has 7 (local), 10 or 11 (with the 1 prefix) digits: skip the parse for others.
    if (!international && digitCount !== 7 && digitCount !== 10 && digitCount !== 11) continue;
    const parsed = parseCached(candidate, international);
    if (!parsed) continue;
    const { valid, possible } = parsed;
    const context = CONTEXT.test(before(text, start, 40));
    const strongShape = international || candidate.includes("(");
    const bare = !international && /^\d+$/.test(raw);
    const level = levelFor(valid, possible, strongShape, context, bare);
    if (level === "no_level") continue;
    const labels = parsed.country ? [parsed.country] : undefined;
    out.push({ start, end, level, labels });
  }
  return out;
}

export function detectPhoneNumber(text: string): Detection {
  return toDetection(findPhoneNumbers(text));
}

export const phoneNumber = piiDetector("pii/phone_number", detectPhoneNumber);
