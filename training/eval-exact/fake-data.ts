// Fake values for the template slots, from faker: seeded once per run (a
// different seed for each split), so the texts of a split are the same on
// every run. The en_US faker is also the source of every random choice
// (`pick`, `chance`): the order of the draws is part of the data, so code that
// draws must keep its order.
import { type Faker, allFakers } from "@faker-js/faker";
import { luhnValid } from "../../src/screening/detectors/pii/credit-card.js";
import type { LocaleSpec } from "./held-out.js";
import type { SplitName } from "./options.js";

// The --by template mixes: names of 30 locales (en_US x4), companies and towns of a few, US addresses.
export const NAME_LOCALES = [
  "en_US",
  "en_US",
  "en_US",
  "en_US",
  "en_GB",
  "en_IN",
  "en_AU",
  "en_NG",
  "de",
  "fr",
  "es",
  "es_MX",
  "it",
  "pt_BR",
  "nl",
  "pl",
  "tr",
  "vi",
  "sv",
  "nb_NO",
  "fi",
  "cs_CZ",
  "ro",
  "hu",
  "id_ID",
  "af_ZA",
  "zu_ZA",
  "yo_NG",
  "ru",
  "uk",
  "zh_CN",
  "ja",
  "ko",
] as const;
export const ORG_LOCALES = ["en_US", "en_US", "en_US", "en_GB", "de", "fr", "es", "it", "pt_BR", "nl", "pl", "en_AU"] as const;
export const CITY_LOCALES = ["en_US", "en_US", "en_US", "en_GB", "de", "fr", "es", "it", "pt_BR", "en_AU", "en_IN"] as const;
const PHONE_LOCALES = ["en_GB", "de", "fr", "es", "it", "pt_BR", "nl", "pl", "en_IN", "en_AU", "ja", "sv", "tr", "es_MX", "zu_ZA"] as const;
const IBAN_COUNTRIES = [
  "DE",
  "FR",
  "GB",
  "ES",
  "IT",
  "NL",
  "BE",
  "CH",
  "AT",
  "PL",
  "PT",
  "SE",
  "NO",
  "DK",
  "FI",
  "IE",
  "LU",
  "CZ",
  "HU",
  "RO",
  "GR",
  "TR",
  "SA",
  "AE",
  "BR",
  "IL",
];
const CARD_ISSUERS = ["visa", "mastercard", "american_express", "discover", "jcb", "diners_club", "maestro"] as const;
export const NATIONALITIES = [
  "Italian",
  "Mexican",
  "Thai",
  "Japanese",
  "Ethiopian",
  "Greek",
  "Korean",
  "Peruvian",
  "Lebanese",
  "French",
  "Indian",
  "Vietnamese",
  "American",
  "British",
  "German",
  "Spanish",
  "Chinese",
  "Turkish",
];

/** The faker seed of a split: each split's texts are drawn with their own. */
export const seedOf = (split: SplitName): number => (split === "tune" ? 1_000 : 2_000);

/** Seeds every locale's faker (each its own seed, from `seed`). */
export function seedFakers(seed: number): void {
  for (const [i, loc] of Object.keys(allFakers).entries()) allFakers[loc as keyof typeof allFakers].seed(seed + i);
}
export const faker = allFakers.en_US;
export const fk = (loc: string): Faker => allFakers[loc as keyof typeof allFakers];
export const pick = <T>(xs: readonly T[]): T => faker.helpers.arrayElement(xs);
const chance = (p: number) => faker.number.float({ min: 0, max: 1 }) < p;

export function cardNumber(): { value: string; valid: boolean } {
  const raw = fk("en_US").finance.creditCardNumber(pick(CARD_ISSUERS)).replace(/\D/g, "");
  let digits = raw;
  const valid = !chance(0.15);
  if (!valid) {
    const last = Number(digits.at(-1));
    digits = digits.slice(0, -1) + String((last + 1 + faker.number.int({ min: 0, max: 8 })) % 10);
    if (luhnValid(digits)) digits = digits.slice(0, -1) + String((Number(digits.at(-1)) + 1) % 10);
  }
  const style = faker.number.int({ min: 0, max: 2 });
  if (style === 0) return { value: digits, valid };
  const sep = style === 1 ? " " : "-";
  const groups = digits.length === 15 ? [4, 6, 5] : digits.length === 14 ? [4, 6, 4] : [4, 4, 4, 4, 4].slice(0, Math.ceil(digits.length / 4));
  const out: string[] = [];
  let i = 0;
  for (const g of groups) {
    if (i >= digits.length) break;
    out.push(digits.slice(i, i + g));
    i += g;
  }
  if (i < digits.length) out.push(digits.slice(i));
  return { value: out.join(sep), valid };
}

export function ssn(): { value: string; valid: boolean } {
  const valid = !chance(0.1);
  let area = faker.number.int({ min: 1, max: 899 });
  if (area === 666) area = 667;
  if (!valid) area = pick([0, 666, faker.number.int({ min: 900, max: 999 })]);
  const group = faker.number.int({ min: 1, max: 99 });
  const serial = faker.number.int({ min: 1, max: 9999 });
  const a = String(area).padStart(3, "0");
  const g = String(group).padStart(2, "0");
  const s = String(serial).padStart(4, "0");
  const style = faker.number.float({ min: 0, max: 1 });
  const value = style < 0.7 ? `${a}-${g}-${s}` : style < 0.85 ? `${a} ${g} ${s}` : `${a}${g}${s}`;
  return { value, valid };
}

export function iban(): { value: string; valid: boolean } {
  const country = pick(IBAN_COUNTRIES);
  let value = faker.finance.iban({ formatted: chance(0.6), countryCode: country });
  const valid = !chance(0.1);
  if (!valid) {
    // Swap two digits of the account part: the checksum no longer matches.
    const chars = value.split("");
    const idx = chars.map((c, i) => (i > 4 && /\d/.test(c) ? i : -1)).filter((i) => i >= 0);
    const a = idx.at(-1)!;
    chars[a] = String((Number(chars[a]) + 3) % 10);
    value = chars.join("");
  }
  return { value, valid };
}

export function ipAddress(): string {
  const r = faker.number.float({ min: 0, max: 1 });
  if (r < 0.55) return faker.internet.ipv4();
  if (r < 0.75) return faker.internet.ipv6();
  if (r < 0.85) {
    const groups = faker.internet.ipv6().split(":");
    return `${groups.slice(0, faker.number.int({ min: 1, max: 3 })).join(":")}::${groups.slice(6).join(":")}`;
  }
  if (r < 0.9) return "::1";
  if (r < 0.95) return `::ffff:${faker.internet.ipv4()}`;
  return `fe80::${faker.string.hexadecimal({ length: 4, prefix: "", casing: "lower" })}:${faker.string.hexadecimal({ length: 4, prefix: "", casing: "lower" })}`;
}

export function phone(): string {
  if (chance(0.6)) {
    const style = pick(["human", "national", "international"] as const);
    return fk("en_US").phone.number({ style });
  }
  return fk(pick(PHONE_LOCALES))
    .phone.number({ style: "international" })
    .replace(/^(\+\d{2})(\d{3})(\d{3})(\d+)$/, (m, a, b, c, d) => (chance(0.5) ? `${a} ${b} ${c} ${d}` : m));
}

export function email(names: Faker): string {
  const r = faker.number.float({ min: 0, max: 1 });
  if (r < 0.7) return fk("en_US").internet.email({ firstName: safeAscii(names.person.firstName()), lastName: safeAscii(names.person.lastName()) });
  if (r < 0.85) return `${faker.internet.username().toLowerCase()}+${faker.word.noun()}@mail.${faker.internet.domainName()}`;
  if (r < 0.93) return `${faker.internet.username()}@${faker.internet.domainWord()}.${pick(["co.uk", "com.au", "de", "fr", "io", "org", "net", "edu", "gov"])}`;
  return `${faker.person.firstName().toLowerCase()}@${pick(["bücher", "müller", "café", "españa"])}.${pick(["de", "com", "es"])}`;
}

const safeAscii = (s: string) => {
  const a = s
    .normalize("NFD")
    .replace(/\p{M}/gu, "")
    .replace(/[^A-Za-z'-]/g, "");
  return a.length > 0 ? a : "user";
};

export function usAddress(): string {
  const u = fk("en_US");
  const street = u.location.streetAddress(chance(0.4));
  const city = u.location.city();
  const state = chance(0.75) ? u.location.state({ abbreviated: true }) : u.location.state();
  const zip = u.location.zipCode();
  const r = faker.number.float({ min: 0, max: 1 });
  if (r < 0.45) return `${street}, ${city}, ${state} ${zip}`;
  if (r < 0.6) return `${street}\n${city}, ${state} ${zip}`;
  if (r < 0.72) return `${street}, ${city} ${state} ${zip}`;
  if (r < 0.82) return street;
  if (r < 0.9) return `${street}, ${city}, ${state}`;
  return `PO Box ${faker.number.int({ min: 1, max: 99999 })}, ${city}, ${state} ${zip}`;
}

export const safe = (fn: () => string): string => {
  try {
    return fn();
  } catch {
    return "";
  }
};
const joinParts = (sep: string, ...parts: string[]) => parts.filter((p) => p.trim() !== "").join(sep);

/** A full postal address of the locale's country, in one of its usual layouts. */
export function addressFor(spec: LocaleSpec): string {
  if (spec.layout === "us") return usAddress();
  const L = fk(spec.place ?? spec.locale).location;
  const street = safe(() => L.streetAddress(chance(0.3)));
  const zip = safe(() => L.zipCode());
  const city = safe(() => L.city());
  const st = safe(() => L.state({ abbreviated: true }));
  const state = safe(() => L.state());
  const lines = chance(0.2);
  const sep = lines ? "\n" : ", ";
  switch (spec.layout) {
    case "ca":
      return joinParts(sep, street, city, `${st} ${zip}`);
    case "gb":
      return chance(0.5) ? joinParts(sep, street, city, zip) : joinParts(sep, street, `${city} ${zip}`);
    case "au":
      return joinParts(sep, street, `${city} ${st} ${zip}`);
    case "in":
      return joinParts(sep, street, city, `${state} ${zip.replace(" ", "")}`);
    case "town":
      return chance(0.5) ? joinParts(sep, street, city) : joinParts(sep, street, city, state);
    case "za":
      return joinParts(sep, street, city, zip);
    case "eu":
      return joinParts(sep, street, `${zip} ${city}`);
    case "it":
      return joinParts(sep, street, `${zip} ${city}${st ? ` (${st})` : ""}`);
    case "hu":
      return chance(0.5) ? `${zip} ${city}, ${street}` : joinParts(sep, street, `${zip} ${city}`);
    case "ru":
      return chance(0.5) ? joinParts(", ", street, city, zip) : joinParts(", ", zip, city, street);
    case "br":
      return joinParts(sep, street, `${city} - ${st}`, zip);
    case "mx":
      return joinParts(sep, street, `${zip} ${city}`, st);
    case "id":
      return joinParts(sep, street, `${city} ${zip}`);
    case "after":
      return joinParts(sep, street, city, zip);
    case "jp":
      return `${chance(0.5) ? `〒${zip} ` : ""}${state}${city}${street}`;
    case "cn":
    case "kr":
      return joinParts(chance(0.5) ? " " : "", state, city, street);
  }
}

/** A phone number as the locale's faker writes it: human, national or international style. */
export function phoneFor(spec: LocaleSpec): string {
  const style = pick(["human", "national", "international"] as const);
  const value = fk(spec.place ?? spec.locale).phone.number({ style });
  // International numbers are also written grouped: "+49 301 234 5678".
  return style === "international" ? value.replace(/^(\+\d{2})(\d{3})(\d{3})(\d+)$/, (m, a, b, c, d) => (chance(0.5) ? `${a} ${b} ${c} ${d}` : m)) : value;
}
