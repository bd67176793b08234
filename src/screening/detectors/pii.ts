// The pii/* detector family: one pure function per type, each in its own file
// under pii/, collected here for the engine. Structured types (email, IP,
// card, IBAN, SSN, phone) are validated (public suffix list, isIP, Luhn + IIN,
// mod-97, SSA ranges, libphonenumber metadata) and report l1 only when
// validation passes; addresses and names are scored from patterns, lexicons
// and context words. docs/detectors.md lists what raises and lowers each level.
import type { Detection, DetectorConfig } from "../detector.js";
import { addressTypes, detectAddress } from "./pii/address.js";
import { creditCardTypes, detectCreditCard } from "./pii/credit-card.js";
import { detectEmail, emailTypes } from "./pii/email.js";
import { detectIban, ibanTypes } from "./pii/iban.js";
import { detectIpAddress, ipAddressTypes } from "./pii/ip-address.js";
import { detectName, nameTypes } from "./pii/name.js";
import { detectPhoneNumber, phoneNumberTypes } from "./pii/phone.js";
import { detectSsn, ssnTypes } from "./pii/ssn.js";

export const piiTypes = [
  ...emailTypes,
  ...ipAddressTypes,
  ...creditCardTypes,
  ...ibanTypes,
  ...ssnTypes,
  ...phoneNumberTypes,
  ...addressTypes,
  ...nameTypes,
] as const;
export type PiiType = (typeof piiTypes)[number];

export const piiDetectors: Record<PiiType, (text: string, config: DetectorConfig) => Detection> = {
  "pii/email": (text) => detectEmail(text),
  "pii/ip_address": (text) => detectIpAddress(text),
  "pii/credit_card": (text) => detectCreditCard(text),
  "pii/iban_code": (text) => detectIban(text),
  "pii/us_social_security_number": (text) => detectSsn(text),
  "pii/phone_number": (text) => detectPhoneNumber(text),
  "pii/address": (text) => detectAddress(text),
  "pii/name": (text) => detectName(text),
};

export { detectAddress, detectCreditCard, detectEmail, detectIban, detectIpAddress, detectName, detectPhoneNumber, detectSsn };
