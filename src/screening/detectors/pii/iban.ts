// pii/iban_code: International Bank Account Numbers, electronic
// ("DE89370400440532013000") or grouped by four with single spaces
// ("DE89 3704 0044 0532 0130 00"), upper or lower case.
//
// A candidate is cut to the length its country uses (ibantools' country
// table, which follows the SWIFT IBAN registry); the cut must fall between
// groups, so trailing words such as "BIC" are not swallowed. Then:
//   mod-97, the country's BBAN format and national check digits valid -> l1
//   mod-97 and format valid, national check digits wrong              -> l2
//   country and length right, mod-97 wrong                            -> l5 (typo or fake)
import { ValidationErrorsIBAN, getCountrySpecifications, validateIBAN } from "ibantools";
import type { Detection } from "../../detector.js";
import { piiDetector } from "./family.js";
import { type Finding, isWordChar, toDetection } from "../findings.js";

const SPECS = getCountrySpecifications();

// Country code, check digits, then alphanumerics each optionally preceded by
// one space: every repetition consumes exactly one alphanumeric.
const CANDIDATE = /[A-Za-z]{2}\d{2}(?: ?[A-Za-z0-9]){8,32}/g;

export function findIbans(text: string): Finding[] {
  const out: Finding[] = [];
  for (const m of text.matchAll(CANDIDATE)) {
    const start = m.index;
    if (isWordChar(text, start - 1)) continue;
    const country = m[0].slice(0, 2).toUpperCase();
    const length = SPECS[country]?.chars;
    if (!length) continue;
    // Walk to the country's length in alphanumerics.
    let count = 0;
    let end = start;
    while (end < start + m[0].length && count < length) {
      if (text[end] !== " ") count++;
      end++;
    }
    if (count < length) continue;
    // The IBAN must end where a group ends.
    if (isWordChar(text, end)) continue;
    const candidate = text.slice(start, end);
    // People type IBANs in one case; mixed case is some other token.
    if (/[a-z]/.test(candidate) && /[A-Z]/.test(candidate)) continue;
    const compact = candidate.replace(/ /g, "").toUpperCase();
    const spaced = candidate.includes(" ");
    // Grouped form: groups of four, the last one shorter.
    if (spaced && !/^[A-Za-z0-9]{4}(?: [A-Za-z0-9]{4})*(?: [A-Za-z0-9]{1,4})?$/.test(candidate)) continue;
    const { valid, errorCodes } = validateIBAN(compact);
    // Only the national (bank/branch/account) check digits wrong: the IBAN's
    // own mod-97 holds, which random digits do 1 time in 97 - an IBAN, if
    // perhaps an invented one.
    const nationalOnly = !valid && errorCodes.every((c) => c === ValidationErrorsIBAN.WrongAccountBankBranchChecksum);
    const level = valid ? "l1_confident" : nationalOnly ? "l2_very_likely" : "l5_unlikely";
    out.push({ start, end, level, labels: [country] });
  }
  return out;
}

export function detectIban(text: string): Detection {
  return toDetection(findIbans(text));
}

export const iban = piiDetector("pii/iban_code", "IBAN", detectIban);
