// pii/phone_number: candidates found by a linear scan, checked against
// libphonenumber-js's region metadata ("max").
//
// libphonenumber's own findNumbers() was measured at ~25 ms per 10k
// characters of prose, far over the screening budget, so it is not used on
// whole messages: a cheap scan proposes digit sequences shaped like phone
// numbers, shapes that are something else (dates, times, versions, decimals,
// thousands, IP addresses, cards, IBANs, SSNs) are dropped, and the rest is
// checked:
//   "+49 30 1234567", "0049 30 1234567"   parsed with their country code
//   other numbers                          parsed as US numbers, and matched
//                                          against every region whose trunk
//                                          prefix they start with, or that has
//                                          none (phone-regions.ts)
// A number's level comes from how it is written and what surrounds it (see
// levelOf): a country code or an area code in parentheses, a trunk prefix
// with grouped digits ("030 1234567", "06 12 34 56 78"), phone words in many
// languages before or after it ("tel", "Telefon", "móvil", "телефон", "電話",
// "-Fax"), and words that make a number something else ("order", "invoice",
// "km"). Bare digit strings without phone words stay at l5: order ids,
// timestamps and other numbers look the same.
import { type CountryCode, parsePhoneNumberFromString } from "libphonenumber-js/max";
import { LRUCache } from "lru-cache";
import type { Detection } from "../../detector.js";
import { piiDetector } from "./family.js";
import type { Level } from "../../vocabulary.js";
import { type Finding, before, isWordChar, overlapTest, toDetection } from "../findings.js";
import { findCreditCards } from "./credit-card.js";
import { findIbans } from "./iban.js";
import { codeShape, codeWordBefore } from "./code-words.js";
import { nationalRegion } from "./phone-regions.js";

// A digit, then digits and single separators (one of " .-/", a dash with
// spaces, or a parenthesis with an optional space), ending in a digit. Each
// repetition consumes one digit after at most three separator characters and
// the alternatives start differently, so it cannot backtrack into itself.
// Only spaces, never newlines: numbers on consecutive lines stay apart.
const CANDIDATE = /(?:\+[ \u00a0]?)?(?:\([ \u00a0]?\+?)?\d(?:(?:\)[ \u00a0]?|[ \u00a0]?\(|[ \u00a0]?[-–][ \u00a0]?|[ ./\u00a0])?\d)+/g;
const EXTENSION = /^\s*(?:x|ext\.?|extension|#|доб\.?|poste|durchwahl|int\.?)\s*(\d{1,6})/i;

// Phone words before a number (lower case, in the 40 characters before it): words that
// name a phone, and generic ones ("number", "contact", "office") that count
// only when nothing says the number is something else.
const words = (list: readonly string[]) => new RegExp(`(?:^|[^\\p{L}])(?:${list.join("|")})(?:[^\\p{L}]|$)`, "u");
// Stems: "call", "called", "calling"; "telefon", "telefonnummer"; "llámame".
// prettier-ignore
const PHONE_WORDS = words([
  "call\\p{L}*", "phone\\p{L}*", "tel", "tél\\p{L}*", "tel[eé]?f\\p{L}*", "puh\\p{L}*", "mobil\\p{L}*", "móvil\\p{L}*", "mob", "cel",
  "cell\\p{L}*", "celular", "handy", "portable", "gsm", "fax", "sms", "whatsapp", "viber", "telegram", "dial\\p{L}*", "ring", "rang",
  "hotline", "helpline", "landline", "switchboard", "appel\\p{L}*", "llam\\p{L}*", "lláma\\p{L}*", "chiam\\p{L}*", "anruf\\p{L}*", "ruf",
  "bel", "ligue", "ligar", "zadzwo\\p{L}*", "тел\\p{L}*", "моб\\p{L}*", "звони\\p{L}*", "позвони\\p{L}*",
  "मोबाइल", "फ़ोन", "फोन", "कॉल", "هاتف\\p{L}*", "جوال", "موبايل", "اتصل\\p{L}*", "τηλ\\p{L}*", "κινητ\\p{L}*",
  "điện thoại", "sđt", "đt",
]);
// Scripts without spaces between words: the phone words anywhere before the number.
const PHONE_WORDS_CJK = /電話|携帯|手机|电话|聯絡|联系|전화|휴대폰|연락처|핸드폰/;
// prettier-ignore
const GENERIC_WORDS = words([
  "number", "numbers", "numéro", "número", "numero", "nummer", "no\\.?", "nr\\.?", "n°", "№", "contact", "kontakt", "contacto", "reach",
  "text(?:ed)?", "message", "messages", "signal", "office", "desk", "home", "work", "direct", "answering", "नंबर", "नम्बर", "رقم",
]);
// Phone words right after a number: "0123 456789-Office", "(555) 123-4567 mobile", "... por WhatsApp";
// in Chinese, Japanese and Korean glued to it ("090-1234-5678に電話して").
const CONTEXT_AFTER =
  /^[\s,-]*\(?(?:(?:on|via|per|por|par|pelo|auf|über|su|op|na)\s+)?(?:office|fax|mobile|cell|home|work|tel|phone|direct|landline|whatsapp|mobil|handy|portable|móvil|cellulare|privat|büro|bureau|ufficio|oficina|telegram|signal|viber)\b/i;
const CONTEXT_AFTER_CJK = /^[\s、，,]*(?:[にへまでか]|から|まで)?(?:電話|携帯|ショートメール|SMS|연락|전화|打电话|电话|電話)/;
// Words that make a number something else: "order 0123456789", "invoice no. 12 345 678", "1 234 567 km".
const NOT_PHONE_BEFORE = codeWordBefore([
  "inv", "ticket", "account", "acct", "iban", "card", "pin", "zip", "postcode", "isbn", "issn", "doi", "id", "ids", "version", "ver", "v",
  "build", "release", "amount", "total", "price", "population", "patent", "case", "policy", "claim", "social security", "security", "ssn",
  "tax", "tin", "passport", "licen[cs]e", "suite", "ste", "apt", "apartment", "unit", "room", "floor", "box", "bloc", "code",
  "ref", "reference", "referencia", "référence", "riferimento", "referenz",
]); // prettier-ignore
// The same in Chinese, Japanese and Korean, right before the number: order, part, invoice, account, member numbers.
const NOT_PHONE_CJK = /(?:注文|订单|訂單|品番|型番|伝票|請求|请求|发票|發票|会員|会员|口座|账户|賬戶|주문|계좌|송장)[^\d]{0,6}$/;
const UNIT_AFTER =
  /^\s*(?:%|km|m|mi|kg|g|t|l|ml|€|\$|£|eur|usd|dollars?|euros?|pcs|pieces|units|qty|people|persons|inhabitants|habitantes|einwohner|km2|km²|sq|square|miles|millas|years|jahre|años|bytes|kb|mb|gb)\b/i;

// Shapes that are something else.
const DATE = /^(?:(\d{4})[-./](\d{1,2})[-./](\d{1,2})|(\d{1,2})[-./](\d{1,2})[-./](\d{4}|\d{2}))(?:$| \d{1,2}$)/;

/** "2024-01-15", "15.01.2024", "01/15/2024", "05.08.1979 13" (then ":42"): a date, alone or before a time; not "01.42.68.53.00". */
function isDate(raw: string, next: string): boolean {
  const m = DATE.exec(raw);
  if (!m) return false;
  if (/ \d{1,2}$/.test(m[0]) && next !== ":") return false;
  const [a, b] = m[1] ? [Number(m[2]), Number(m[3])] : [Number(m[4]), Number(m[5])];
  return a >= 1 && b >= 1 && ((a <= 12 && b <= 31) || (a <= 31 && b <= 12));
}
const IPV4_SHAPE = /^\d{1,3}\.\d{1,3}\.\d{1,3}\.\d{1,3}$/;
const SSN_SHAPE = /^\d{3}([- ])\d{2}\1\d{4}$/;
// "1 234 567", "7 000 000 000", "12.500.000": thousands separators (a phone's groups are rarely all three digits after a short head).
const THOUSANDS = /^\d{1,3}(?:([ .,\u00a0])\d{3})(?:\1\d{3})*$/;
// "2024-123456": a year and a serial; "12345-6789": a US ZIP+4 code.
const YEAR_SERIAL = /^(?:19|20)\d\d[-/]\d{4,}$/;
const ZIP4 = /^\d{5}-\d{4}$/;
// Postcodes: Brazil "01310-200", Japan "100-0001" (after 〒 or not), Portugal "1100-053".
const POSTCODE_SHAPE = /^(?:\d{5}-\d{3}|\d{3}-\d{4}|\d{4}-\d{3})$/;
// "1685–1753", "973-1048": a range of years.
const YEARS = /^(\d{3,4}) ?[-–] ?(\d{4})$/;
const isYearRange = (raw: string) => {
  const m = YEARS.exec(raw);
  if (!m) return false;
  const a = Number(m[1]);
  const b = Number(m[2]);
  return b >= 1000 && b <= 2099 && b > a && b - a < 300;
};
// A decimal number with a bracketed figure after it: "173.624 (279.42)".
const DECIMAL_GROUP = /\d\.\d+ ?\(|\(\d+\.\d/;

type Shape = {
  /** Written with a country code: "+49 ...", "0049 ...", "(+371) ...". */
  international: boolean;
  /** An area code in parentheses: "(415) 555-2671", "(0274) 823 00 83". */
  parens: boolean;
  /** Starts with a trunk prefix 0 (not an international 00). */
  trunk: boolean;
  /** Digits only. */
  bare: boolean;
};

interface Parsed {
  valid: boolean;
  possible: boolean;
  country?: CountryCode;
  /** Valid or plausible as a US number (the default when nothing says otherwise). */
  us: boolean;
}

// Conversations are screened again on every turn, so the same numbers come
// back; parsing is the costly step (~0.02-0.04 ms), a small cache skips it.
// `false`: the candidate fits no numbering plan (the cache cannot hold null).
const cache = new LRUCache<string, Parsed | false>({ max: 512 });

function check(candidate: string, digits: string, shape: Shape): Parsed | null {
  const hit = cache.get(candidate);
  if (hit !== undefined) return hit || null;
  let result: Parsed | null = null;
  if (shape.international) {
    // "0049 30 ...", "(0086) 917 ...": the international call prefix written out instead of "+".
    const p = parsePhoneNumberFromString(candidate.replace(/^(\(?)(?:00|011)/, "$1+"));
    if (p) result = { valid: p.isValid(), possible: p.isValid() || p.isPossible(), country: p.country, us: false };
  } else {
    // A US number has 7 (local), 10 or 11 (with the 1 prefix) digits.
    if (digits.length === 10 || (digits.length === 11 && digits.startsWith("1")) || digits.length === 7) {
      const p = parsePhoneNumberFromString(candidate, "US");
      if (p && (p.isValid() || p.isPossible())) result = { valid: p.isValid(), possible: true, country: p.country ?? "US", us: true };
    }
    if (!result?.valid) {
      const r = nationalRegion(digits);
      if (r && (r.valid || !result)) result = { valid: r.valid, possible: true, country: r.country, us: false };
    }
  }
  cache.set(candidate, result ?? false);
  return result;
}

/**
 * The level of a candidate from its shape, its check and its context:
 *   with a country code:        valid -> l1; possible -> l3 with phone words, else l4;
 *                               neither, grouped or with phone words -> l4
 *   US number:                  valid with parentheses or phone words -> l1; valid -> l2;
 *                               possible -> l3 with phone words, else l4
 *   national, trunk prefix or
 *   parentheses, grouped:       valid somewhere -> l1 with phone words, else l2;
 *                               plausible -> l3 / l4; neither -> l4 with phone words
 *   national, grouped, no
 *   trunk prefix:               valid or plausible somewhere -> l2 / l3 with phone words;
 *                               without: valid and grouped like a phone number (three or
 *                               more groups of 2-4 digits, one separator) -> l4, else l5
 *   digits only:                valid or plausible -> l3 with phone words, else l5
 * Words that make the number something else ("order", "invoice", "km") drop
 * it to l5 unless phone words are there too.
 */
function levelOf(shape: Shape, parsed: Parsed | null, context: boolean, thousands: boolean, phoneGrouping: boolean): Level {
  const grouped = !shape.bare;
  if (shape.international) {
    if (parsed?.valid) return "l1_confident";
    if (parsed?.possible) return context ? "l3_likely" : "l4_less_likely";
    return grouped || context ? "l4_less_likely" : "l5_unlikely";
  }
  if (parsed?.us) {
    if (parsed.valid) {
      if (shape.bare && !context) return "l5_unlikely";
      return shape.parens || context ? "l1_confident" : "l2_very_likely";
    }
    if (shape.bare && !context) return "l5_unlikely";
    return context ? "l3_likely" : "l4_less_likely";
  }
  if (shape.bare) return parsed && context ? "l3_likely" : "l5_unlikely";
  if (shape.trunk || shape.parens) {
    if (parsed?.valid) return context ? "l1_confident" : "l2_very_likely";
    if (parsed) return context ? "l3_likely" : "l4_less_likely";
    return context ? "l4_less_likely" : "l5_unlikely";
  }
  if (context) return parsed?.valid ? "l2_very_likely" : parsed ? "l3_likely" : "l5_unlikely";
  // Without phone words only a phone-like grouping counts: three or more groups of at most
  // four digits with one kind of separator ("948 04 06 43", "82 94 67 52"), not thousands.
  return parsed?.valid && phoneGrouping && !thousands ? "l4_less_likely" : "l5_unlikely";
}

const CJK_LETTER = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u;

/** A letter or digit at i that makes a number there part of a word: any but a CJK character. */
function gluedLetter(text: string, i: number): boolean {
  return isWordChar(text, i) && !CJK_LETTER.test(text[i]);
}

function findPhoneNumbers(text: string): Finding[] {
  const out: Finding[] = [];
  let excluded: ((start: number, end: number) => boolean) | null = null;
  const codeShapes = new Set<string>();
  for (const m of text.matchAll(CANDIDATE)) {
    let start = m.index;
    let raw = m[0];
    // A "(" not closed inside the candidate belongs to the text around it: "(call 555-2671".
    if (raw.startsWith("(") && !raw.includes(")")) {
      raw = raw.replace(/^\(\s*/, "");
      start = m.index + (m[0].length - raw.length);
    }
    let end = start + raw.length;
    // Chinese, Japanese and Korean glue numbers to words ("携帯は090-1234-5678です"); other scripts' letters make it part of a word.
    if (gluedLetter(text, start - 1) || gluedLetter(text, end)) continue;
    // A "." or "," glued to digits on either side makes this part of a decimal number; ":" a time.
    const prev = text[start - 1] ?? "";
    if (/[.,:]/.test(prev) && /\d/.test(text[start - 2] ?? "")) continue;
    if (/^[.,:]\d/.test(text.slice(end, end + 2))) continue;
    const digits = raw.replace(/\D/g, "");
    if (digits.length < 7 || digits.length > 15) continue;
    if (
      isDate(raw, text[end] ?? "") ||
      IPV4_SHAPE.test(raw) ||
      SSN_SHAPE.test(raw) ||
      YEAR_SERIAL.test(raw) ||
      ZIP4.test(raw) ||
      DECIMAL_GROUP.test(raw) ||
      isYearRange(raw)
    )
      continue;
    // A postcode shape counts only with phone words ("Tel. 100-0001" is rare; "〒100-0001" is a postcode).
    if (POSTCODE_SHAPE.test(raw) && (text[start - 1] === "〒" || !PHONE_WORDS.test(before(text, start, 40)))) continue;
    // "KN-8499-5523", "A1/2554": part of a longer code.
    if (/[\p{L}\p{N}][-/_]$/u.test(text.slice(Math.max(0, start - 2), start))) continue;
    // Brackets must pair up inside the number: "2010 (2011)" is two years.
    if ((raw.match(/\(/g) ?? []).length !== (raw.match(/\)/g) ?? []).length) continue;
    // "6-2 6-7 (3-7) 6-3": a phone number has at most one group of a single digit ("+1", "8 (912)").
    const groups = raw.split(/[^\d]+/).filter(Boolean);
    if (groups.filter((g) => g.length === 1).length >= 2) continue;
    // A single "." is a decimal point ("103.2316500"); dotted groups of one digit are a version ("10.0.19041.1").
    const dots = raw.split(".").length - 1;
    if (dots === 1 && !/[ ()\-+]/.test(raw)) continue;
    if (dots >= 2 && /(?:^|\.)\d(?:\.|$)/.test(raw)) continue;
    // "7 000 000 000": two trailing groups of zeros are a quantity.
    if (/(?:^|\D)000\D000$/.test(raw)) continue;
    const ext = EXTENSION.exec(text.slice(end, end + 24));
    if (ext && !isWordChar(text, end + ext[0].length)) end += ext[0].length;
    // Card numbers scored l5 (Luhn valid by chance, no card words) stay phone candidates.
    excluded ??= overlapTest([...findCreditCards(text).filter((c) => c.level !== "l5_unlikely"), ...findIbans(text)]);
    if (excluded(start, end)) continue;

    const shape: Shape = {
      international: /^\(?\+/.test(raw) || /^\(?(?:00|011)[1-9]/.test(raw),
      parens: raw.includes("("),
      trunk: /^\(?0[1-9]/.test(raw),
      bare: /^\d+$/.test(raw),
    };
    const parsed = check(raw, digits, shape);
    const window = before(text, start, 40);
    const after = text.slice(end, end + 24);
    const negative = NOT_PHONE_BEFORE.test(window.slice(-24)) || NOT_PHONE_CJK.test(window) || UNIT_AFTER.test(after);
    const specific = PHONE_WORDS.test(window) || PHONE_WORDS_CJK.test(window) || CONTEXT_AFTER.test(after) || CONTEXT_AFTER_CJK.test(after);
    const context = specific || (!negative && GENERIC_WORDS.test(window));
    const thousands = THOUSANDS.test(raw);
    const separators = new Set(raw.replace(/[\d()+]/g, "").replace(/\s+/g, " "));
    const phoneGrouping = groups.length >= 3 && groups.every((g) => g.length >= 2 && g.length <= 4) && separators.size === 1 && !separators.has("/");
    let level = levelOf(shape, parsed, thousands ? specific : context, thousands, phoneGrouping);
    if (negative && !specific) codeShapes.add(codeShape(raw));
    if (!specific && level !== "l1_confident" && (negative || codeShapes.has(codeShape(raw)))) level = "l5_unlikely";
    if (level === "no_level") continue;
    const labels = parsed?.country ? [parsed.country] : undefined;
    out.push({ start, end, level, labels });
  }
  return out;
}

export function detectPhoneNumber(text: string): Detection {
  return toDetection(findPhoneNumbers(text));
}

export const phoneNumber = piiDetector("pii/phone_number", "PHONE", detectPhoneNumber);
