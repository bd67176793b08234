// pii/email: addresses of the form local@domain where the domain ends in a
// suffix of the public suffix list (tldts). Internationalized domains are
// converted to punycode before the lookup, so `josé@bücher.de` and
// `用户@例子.广告` validate like ASCII ones.
//
// The scan starts at each "@" and walks outwards by hand rather than with one
// big regex: an address regex over arbitrary text backtracks quadratically on
// long runs of label characters, a hand walk is linear.
import { domainToASCII } from "node:url";
import { parse } from "tldts";
import type { Detection } from "../../detector.js";
import { piiDetector } from "./family.js";
import { type Finding, toDetection } from "../findings.js";

const LOCAL_ASCII = /[A-Za-z0-9!#$%&'*+/=?^_`{|}~.-]/;
const UNICODE_WORD = /[\p{L}\p{N}\p{M}]/u;

function isLocalChar(ch: string): boolean {
  return LOCAL_ASCII.test(ch) || (ch.charCodeAt(0) > 127 && UNICODE_WORD.test(ch));
}

function isDomainChar(ch: string): boolean {
  const c = ch.charCodeAt(0);
  if (c < 128) return (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 45 || c === 46;
  return UNICODE_WORD.test(ch);
}

// Chinese, Japanese and Korean text is written without spaces, so an ASCII address abuts it:
// "連絡先はtakeshi.mori@docomo.ne.jpです". Where these scripts meet an ASCII letter or digit, the address ends.
const CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u;
const isAsciiAlnum = (ch: string) => /[A-Za-z0-9]/.test(ch);
const scriptBreak = (a: string, b: string) => (isAsciiAlnum(a) && CJK.test(b)) || (CJK.test(a) && isAsciiAlnum(b));

const MAX_LOCAL = 64;
const MAX_DOMAIN = 253;

/** Each finding carries the address's domain as a label, e.g. ["example.com"]. */
function findEmails(text: string): Finding[] {
  const out: Finding[] = [];
  let at = text.indexOf("@");
  let lastEnd = 0;
  while (at !== -1) {
    const found = emailAt(text, at, lastEnd);
    if (found) {
      out.push(found);
      lastEnd = found.end;
      at = text.indexOf("@", found.end);
    } else {
      at = text.indexOf("@", at + 1);
    }
  }
  return out;
}

function emailAt(text: string, at: number, floor: number): Finding | null {
  let s = at;
  while (s > floor && at - s < MAX_LOCAL && isLocalChar(text[s - 1])) s--;
  // A longer run than RFC 5321 allows is not an address local part.
  if (s > floor && isLocalChar(text[s - 1])) return null;
  for (let i = at - 1; i > s; i--) {
    if (scriptBreak(text[i - 1], text[i])) {
      s = i;
      break;
    }
  }
  // Quoting punctuation in front of the address belongs to the prose.
  while (s < at && /['`{|}~.-]/.test(text[s])) s++;
  if (s === at) return null; // "@mention"
  const local = text.slice(s, at);
  if (local.endsWith(".") || local.includes("..")) return null;

  let e = at + 1;
  while (e < text.length && e - at - 1 < MAX_DOMAIN && isDomainChar(text[e]) && !(e > at + 1 && scriptBreak(text[e - 1], text[e]))) e++;
  // Trailing sentence punctuation is not part of the domain.
  while (e > at + 1 && (text[e - 1] === "." || text[e - 1] === "-")) e--;
  const domain = text.slice(at + 1, e);
  if (!domain.includes(".") || domain.startsWith(".") || domain.includes("..")) return null;
  const labels = domain.split(".");
  for (const l of labels) if (l.length === 0 || l.length > 63 || l.startsWith("-") || l.endsWith("-")) return null;
  // "x@y.com@z" or "a@b.com_x" is not one clean address.
  if (e < text.length && (text[e] === "@" || text[e] === "_")) return null;

  const ascii = domainToASCII(domain.toLowerCase());
  if (!ascii) return null;
  const tld = ascii.slice(ascii.lastIndexOf(".") + 1);
  if (/^\d+$/.test(tld)) return null; // user@10.0.0.1 is not a mailbox people write
  const p = parse(ascii);
  const icann = p.isIcann === true && p.domain !== null;
  return { start: s, end: e, level: icann ? "l1_confident" : "l5_unlikely", labels: [domain.toLowerCase()] };
}

export function detectEmail(text: string): Detection {
  return toDetection(findEmails(text));
}

export const email = piiDetector("pii/email", "EMAIL", detectEmail);
