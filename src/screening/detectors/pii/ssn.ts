// pii/us_social_security_number: AAA-GG-SSSS, AAA GG SSSS, or nine digits
// in a row, with the Social Security Administration's structural rules:
// area 000, 666 and 900-999 were never issued, nor group 00 or serial 0000;
// numbers published in advertising and examples (078-05-1120 from a 1938
// wallet insert, 219-09-9999 from an SSA pamphlet, 123-45-6789) are refused.
//
// Levels (context = "SSN", "social security", "SS#", "taxpayer id" ... within
// 60 characters before the number):
//   dashed, context -> l1; dashed -> l2
//   spaced, context -> l1; spaced -> l3 (groups of 3-2-4 also appear in
//     other identifiers and phone-like numbers)
//   nine digits, context -> l2; nine digits alone -> not reported (any
//     9-digit number - order ids, zip+4 without dash - would match)
//   product and order words without SSN words (SKU, part no., order, "in
//     stock" after it) -> not reported
import type { Detection } from "../../detector.js";
import { piiDetector } from "./family.js";
import { type Finding, before, isWordChar, toDetection } from "../findings.js";
import { codeShape, codeWordBefore } from "./code-words.js";

const DELIMITED = /(?<![\d-])(\d{3})([- ])(\d{2})\2(\d{4})(?![\d-])/g;
const UNDELIMITED = /(?<![\d-])\d{9}(?![\d-])/g;
const CONTEXT = /\b(?:ssn|ssns|ss ?#|ss no|social security|social sec|soc\.? ?sec|ssa|taxpayer id|tax id|tin|itin)\b|\bsocial\b/;

// Words that make a 3-2-4 number a product or order code ("SKU 720-44-1982", "part no. 720-44-1982",
// "720-44-1982 in stock"): without SSN words, such a number is not reported.
// "ref 536-22-8901" stays an SSN: a reference is as often a person's number as a product's.
const CODE_BEFORE = codeWordBefore(["stock", "style", "référence"]);
const CODE_AFTER = /^\s*(?:(?:is|are)\s+)?(?:in stock|out of stock|back in stock|x\s*\d|pcs|pieces|units|qty|ships|shipped|restocked)\b/i;

const KNOWN_PUBLIC = new Set(["078051120", "219099999", "123456789", "111111111", "333333333", "987654320"]);

export function ssnStructurallyValid(digits: string): boolean {
  const area = Number(digits.slice(0, 3));
  const group = Number(digits.slice(3, 5));
  const serial = Number(digits.slice(5));
  if (area === 0 || area === 666 || area >= 900) return false;
  if (group === 0 || serial === 0) return false;
  return !KNOWN_PUBLIC.has(digits);
}

function findSsns(text: string): Finding[] {
  const out: Finding[] = [];
  const codeShapes = new Set<string>();
  for (const m of text.matchAll(DELIMITED)) {
    const start = m.index;
    const end = start + m[0].length;
    if (isWordChar(text, start - 1) || isWordChar(text, end)) continue;
    const digits = m[1] + m[3] + m[4];
    if (!ssnStructurallyValid(digits)) continue;
    const context = CONTEXT.test(before(text, start, 60));
    if (!context && (codeShapes.has(codeShape(m[0])) || CODE_BEFORE.test(before(text, start, 30)) || CODE_AFTER.test(text.slice(end, end + 24)))) {
      codeShapes.add(codeShape(m[0]));
      continue;
    }
    const level = context ? "l1_confident" : m[2] === "-" ? "l2_very_likely" : "l3_likely";
    out.push({ start, end, level });
  }
  for (const m of text.matchAll(UNDELIMITED)) {
    const start = m.index;
    const end = start + 9;
    if (isWordChar(text, start - 1) || isWordChar(text, end)) continue;
    if (!ssnStructurallyValid(m[0])) continue;
    if (!CONTEXT.test(before(text, start, 60))) continue;
    out.push({ start, end, level: "l2_very_likely" });
  }
  return out;
}

export function detectSsn(text: string): Detection {
  return toDetection(findSsns(text));
}

export const ssn = piiDetector("pii/us_social_security_number", "SSN", detectSsn);
