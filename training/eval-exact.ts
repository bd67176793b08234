// Evaluation of the exact (non-learned) detectors.
//
//   npm run eval:exact                        headline figures: held-out templates x held-out locales (test)
//   npm run eval:exact -- --split tune        the same on the tuning side (tune templates x tune locales)
//   npm run eval:exact -- --split tune --errors pii/name [--locale de]
//                                             misses and false hits (tune only)
//   npm run eval:exact -- --by template       the older split: templates only, every locale on both sides
//                                             (names of 30 locales, US addresses, US and 15 countries' phones)
//   npm run eval:exact -- --write-docs        also write the test figures into docs/detectors.md
//
// Data, read at run time from the corpora directory named by PARAPET_CORPORA
// (never copied into the repository; see docs/training.md):
//   pii_templates.txt          sentence templates; every {{slot}} is filled by faker
//                              (seeded; a different seed for each split) and keeps
//                              its span as a gold label
//   prompt_attack.jsonl        the `benign` rows are clean English text, for false-positive rates
//   multilingual_benign.jsonl  clean text in other languages, for false-positive rates by language
//   profanity_en.csv           terms put into neutral sentences, plain and obfuscated
//
// Held-out split (the default, `--by template+locale`): templates are split
// 50/50 by a hash of their text, and faker locales are split by a fixed table
// of groups (LOCALES below): a language's locales stay together (de, de_AT and
// de_CH), English locales are grouped by country. A `tune` text is a tune
// template filled in a tune locale; a `test` text is a test template filled in
// a test locale, so the reported figures are for sentence shapes and for
// names, addresses, phone numbers and companies of countries the detectors
// were not tuned on. Every locale fills every template of its side
// FILLS_PER_LOCALE times, with all the locale-dependent slots of one text
// (names, addresses, phones, streets, towns, postcodes, companies, dates) from
// that locale. Clean text is split the same way: English rows by a hash of
// their text, other languages by the language table.
//
// Scoring is span-level with overlap matching: a predicted span at or above the
// threshold is a true positive when it overlaps a gold span of its type; a gold
// span is recalled when some predicted span overlaps it. Predictions that only
// overlap "don't care" regions (a street name or city alone, a ZIP code alone)
// are not counted either way. Clean-text FPR is the share of clean texts with
// any span at or above the threshold. Macro F1 is the mean F1 of the eight
// pii/* types; a locale's macro F1 is the same mean over its own texts.
import { createHash } from "node:crypto";
import { readFileSync, writeFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { type Faker, allFakers } from "@faker-js/faker";
import type { Detection, Span } from "../src/screening/detector.js";
import type { Part } from "../src/screening/parts.js";
import { definitionOf } from "../src/screening/registry.js";
import { levelRank, type DetectorConfig, type Level } from "../src/screening/vocabulary.js";
import { luhnValid } from "../src/screening/detectors/pii/credit-card.js";
import { EXACT_CORPUS_FILES, readCorpusText, requireCorpora } from "./corpora.js";

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const args = process.argv.slice(2);
const arg = (name: string) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
};
type SplitName = "tune" | "test";
const splitArg = arg("--split") ?? "test";
if (!["tune", "test", "eval"].includes(splitArg)) {
  console.error(`--split is tune or test (eval is another name for test), not ${splitArg}.`);
  process.exit(2);
}
const split: SplitName = splitArg === "tune" ? "tune" : "test";
const by = arg("--by") ?? "template+locale";
if (by !== "template+locale" && by !== "template") {
  console.error(`--by is template+locale (the default) or template, not ${by}.`);
  process.exit(2);
}
const legacy = by === "template";
const showErrors = arg("--errors");
const errorLocale = arg("--locale");
if (showErrors && split !== "tune") {
  console.error("--errors is only available on the tune split (evaluation data stays unseen).");
  process.exit(2);
}
const MULTILINGUAL = "multilingual_benign.jsonl" as const;
requireCorpora("eval-exact", legacy ? EXACT_CORPUS_FILES : [...EXACT_CORPUS_FILES, MULTILINGUAL]);

const bucket = (text: string): SplitName => (createHash("sha256").update(text).digest()[0] % 2 === 0 ? "tune" : "test");
const SEED = split === "tune" ? 1_000 : 2_000;

// ---------------------------------------------------------------- locales

/** How a locale writes a full postal address (see addressFor). */
type Layout =
  | "us" // street, City, ST 12345
  | "ca" // street, City, PR A1A 1A1
  | "gb" // street, Town, POSTCODE (also over lines)
  | "au" // street, Suburb ST 1234
  | "in" // street, City, State 123456
  | "town" // street, Town[, Region] (no postcode in common use)
  | "za" // street, Town, 1234
  | "eu" // street, 12345 Town
  | "it" // street, 12345 Town (PR)
  | "hu" // 1234 Town, street
  | "ru" // street, Town, 123456 or 123456, Town, street
  | "br" // street, Town - UF, 12345-678
  | "mx" // street, 12345 Town, ST
  | "id" // street, Town 12345
  | "after" // street, Town, CODE (lv, az)
  | "jp" // 〒123-4567 Prefecture Town street
  | "cn" // Province Town street
  | "kr"; // Province Town street

interface LocaleSpec {
  /** faker locale of names, companies and (unless `place`) addresses and phones. */
  locale: string;
  /** The held-out unit: a language, or an English-speaking country. */
  group: string;
  split: SplitName;
  layout: Layout;
  /** The house number follows the street name ("Hauptstraße 5"). */
  streetFirst?: boolean;
  /** faker locale of addresses and phone numbers, where `locale` has none of its own. */
  place?: string;
}

// The fixed grouping. Both sides mix scripts (Latin, Cyrillic, Han/Kana/Hangul),
// regions and address conventions (number before or after the street, postcode
// before or after the town); each side has five English-speaking countries.
const LOCALES: readonly LocaleSpec[] = [
  // tune
  { locale: "en_US", group: "en-US", split: "tune", layout: "us" },
  { locale: "en_IN", group: "en-IN", split: "tune", layout: "in" },
  { locale: "en_ZA", group: "en-ZA", split: "tune", layout: "za" },
  { locale: "en_HK", group: "en-HK", split: "tune", layout: "town" },
  { locale: "en_GH", group: "en-GH", split: "tune", layout: "town" },
  { locale: "de", group: "de", split: "tune", layout: "eu", streetFirst: true },
  { locale: "de_AT", group: "de", split: "tune", layout: "eu", streetFirst: true },
  { locale: "de_CH", group: "de", split: "tune", layout: "eu", streetFirst: true },
  { locale: "es", group: "es", split: "tune", layout: "eu", streetFirst: true },
  { locale: "es_MX", group: "es", split: "tune", layout: "mx", streetFirst: true },
  { locale: "it", group: "it", split: "tune", layout: "it", streetFirst: true },
  { locale: "pl", group: "pl", split: "tune", layout: "eu", streetFirst: true },
  { locale: "sk", group: "sk", split: "tune", layout: "eu", streetFirst: true },
  { locale: "hu", group: "hu", split: "tune", layout: "hu", streetFirst: true },
  { locale: "hr", group: "hr", split: "tune", layout: "eu", streetFirst: true },
  { locale: "sv", group: "sv", split: "tune", layout: "eu", streetFirst: true },
  { locale: "fi", group: "fi", split: "tune", layout: "eu", streetFirst: true },
  { locale: "lv", group: "lv", split: "tune", layout: "after", streetFirst: true },
  { locale: "tr", group: "tr", split: "tune", layout: "eu", streetFirst: true },
  { locale: "vi", group: "vi", split: "tune", layout: "town" },
  { locale: "zu_ZA", group: "zu", split: "tune", layout: "za" },
  { locale: "ru", group: "ru", split: "tune", layout: "ru", streetFirst: true },
  { locale: "zh_CN", group: "zh", split: "tune", layout: "cn" },
  { locale: "zh_TW", group: "zh", split: "tune", layout: "cn" },
  { locale: "ko", group: "ko", split: "tune", layout: "kr" },
  // test
  { locale: "en_GB", group: "en-GB", split: "test", layout: "gb" },
  { locale: "en_AU", group: "en-AU", split: "test", layout: "au" },
  { locale: "en_CA", group: "en-CA", split: "test", layout: "ca" },
  { locale: "en_IE", group: "en-IE", split: "test", layout: "gb" },
  { locale: "en_NG", group: "en-NG", split: "test", layout: "town" },
  { locale: "fr", group: "fr", split: "test", layout: "eu" },
  { locale: "fr_BE", group: "fr", split: "test", layout: "eu", streetFirst: true },
  { locale: "fr_CA", group: "fr", split: "test", layout: "ca" },
  { locale: "fr_CH", group: "fr", split: "test", layout: "eu" },
  { locale: "fr_LU", group: "fr", split: "test", layout: "eu" },
  { locale: "nl", group: "nl", split: "test", layout: "eu", streetFirst: true },
  { locale: "nl_BE", group: "nl", split: "test", layout: "eu", streetFirst: true },
  { locale: "pt_BR", group: "pt", split: "test", layout: "br" },
  { locale: "pt_PT", group: "pt", split: "test", layout: "eu", streetFirst: true },
  { locale: "cs_CZ", group: "cs", split: "test", layout: "eu", streetFirst: true },
  { locale: "ro", group: "ro", split: "test", layout: "eu", streetFirst: true },
  { locale: "ro_MD", group: "ro", split: "test", layout: "eu", streetFirst: true },
  { locale: "sr_RS_latin", group: "sr", split: "test", layout: "eu", streetFirst: true },
  { locale: "nb_NO", group: "nb", split: "test", layout: "eu", streetFirst: true },
  { locale: "da", group: "da", split: "test", layout: "eu", streetFirst: true },
  { locale: "id_ID", group: "id", split: "test", layout: "id", streetFirst: true },
  { locale: "af_ZA", group: "af", split: "test", layout: "za" },
  { locale: "yo_NG", group: "yo", split: "test", layout: "town", place: "en_NG" },
  { locale: "uk", group: "uk", split: "test", layout: "ru", streetFirst: true },
  { locale: "mk", group: "mk", split: "test", layout: "eu", streetFirst: true },
  { locale: "az", group: "az", split: "test", layout: "after", streetFirst: true },
  { locale: "ja", group: "ja", split: "test", layout: "jp" },
];
// Clean text in other languages (multilingual_benign.jsonl `lang`): the same
// language on the same side as its locales; languages faker has no locale for
// are spread over both sides. English rows go by the hash of their text.
const LANGUAGE_SPLIT: Record<string, SplitName> = {
  de: "tune",
  es: "tune",
  it: "tune",
  ru: "tune",
  tr: "tune",
  vi: "tune",
  zh: "tune",
  hi: "tune",
  th: "tune",
  ht: "tune",
  qu: "tune",
  ro: "test",
  id: "test",
  el: "test",
  ar: "test",
  ta: "test",
  et: "test",
  sw: "test",
};
const FILLS_PER_LOCALE = 4;

// ---------------------------------------------------------------- fake data

// The --by template mixes: names of 30 locales (en_US x4), companies and towns of a few, US addresses.
const NAME_LOCALES = [
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
const ORG_LOCALES = ["en_US", "en_US", "en_US", "en_GB", "de", "fr", "es", "it", "pt_BR", "nl", "pl", "en_AU"] as const;
const CITY_LOCALES = ["en_US", "en_US", "en_US", "en_GB", "de", "fr", "es", "it", "pt_BR", "en_AU", "en_IN"] as const;
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
const NATIONALITIES = [
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

for (const [i, loc] of Object.keys(allFakers).entries()) allFakers[loc as keyof typeof allFakers].seed(SEED + i);
const f = allFakers.en_US;
const fk = (loc: string): Faker => allFakers[loc as keyof typeof allFakers];
const pick = <T>(xs: readonly T[]): T => f.helpers.arrayElement(xs);
const chance = (p: number) => f.number.float({ min: 0, max: 1 }) < p;

type GoldType = "pii/email" | "pii/ip_address" | "pii/credit_card" | "pii/iban_code" | "pii/us_social_security_number" | "pii/phone_number" | "pii/address" | "pii/name";

interface Slot {
  value: string;
  gold?: GoldType;
  /** Detector types for which this region is "don't care". */
  ignore?: GoldType[];
  /** Address component, merged into one address span with its neighbours. */
  part?: string;
  locale?: string;
}

function cardNumber(): { value: string; valid: boolean } {
  const raw = fk("en_US").finance.creditCardNumber(pick(CARD_ISSUERS)).replace(/\D/g, "");
  let digits = raw;
  const valid = !chance(0.15);
  if (!valid) {
    const last = Number(digits.at(-1));
    digits = digits.slice(0, -1) + String((last + 1 + f.number.int({ min: 0, max: 8 })) % 10);
    if (luhnValid(digits)) digits = digits.slice(0, -1) + String((Number(digits.at(-1)) + 1) % 10);
  }
  const style = f.number.int({ min: 0, max: 2 });
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

function ssn(): { value: string; valid: boolean } {
  const valid = !chance(0.1);
  let area = f.number.int({ min: 1, max: 899 });
  if (area === 666) area = 667;
  if (!valid) area = pick([0, 666, f.number.int({ min: 900, max: 999 })]);
  const group = f.number.int({ min: 1, max: 99 });
  const serial = f.number.int({ min: 1, max: 9999 });
  const a = String(area).padStart(3, "0");
  const g = String(group).padStart(2, "0");
  const s = String(serial).padStart(4, "0");
  const style = f.number.float({ min: 0, max: 1 });
  const value = style < 0.7 ? `${a}-${g}-${s}` : style < 0.85 ? `${a} ${g} ${s}` : `${a}${g}${s}`;
  return { value, valid };
}

function iban(): { value: string; valid: boolean } {
  const country = pick(IBAN_COUNTRIES);
  let value = f.finance.iban({ formatted: chance(0.6), countryCode: country });
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

function ipAddress(): string {
  const r = f.number.float({ min: 0, max: 1 });
  if (r < 0.55) return f.internet.ipv4();
  if (r < 0.75) return f.internet.ipv6();
  if (r < 0.85) {
    const groups = f.internet.ipv6().split(":");
    return `${groups.slice(0, f.number.int({ min: 1, max: 3 })).join(":")}::${groups.slice(6).join(":")}`;
  }
  if (r < 0.9) return "::1";
  if (r < 0.95) return `::ffff:${f.internet.ipv4()}`;
  return `fe80::${f.string.hexadecimal({ length: 4, prefix: "", casing: "lower" })}:${f.string.hexadecimal({ length: 4, prefix: "", casing: "lower" })}`;
}

function phone(): string {
  if (chance(0.6)) {
    const style = pick(["human", "national", "international"] as const);
    return fk("en_US").phone.number({ style });
  }
  return fk(pick(PHONE_LOCALES))
    .phone.number({ style: "international" })
    .replace(/^(\+\d{2})(\d{3})(\d{3})(\d+)$/, (m, a, b, c, d) => (chance(0.5) ? `${a} ${b} ${c} ${d}` : m));
}

function email(names: Faker): string {
  const r = f.number.float({ min: 0, max: 1 });
  if (r < 0.7) return fk("en_US").internet.email({ firstName: safeAscii(names.person.firstName()), lastName: safeAscii(names.person.lastName()) });
  if (r < 0.85) return `${f.internet.username().toLowerCase()}+${f.word.noun()}@mail.${f.internet.domainName()}`;
  if (r < 0.93) return `${f.internet.username()}@${f.internet.domainWord()}.${pick(["co.uk", "com.au", "de", "fr", "io", "org", "net", "edu", "gov"])}`;
  return `${f.person.firstName().toLowerCase()}@${pick(["bücher", "müller", "café", "españa"])}.${pick(["de", "com", "es"])}`;
}

const safeAscii = (s: string) => {
  const a = s
    .normalize("NFD")
    .replace(/\p{M}/gu, "")
    .replace(/[^A-Za-z'-]/g, "");
  return a.length > 0 ? a : "user";
};

function usAddress(): string {
  const u = fk("en_US");
  const street = u.location.streetAddress(chance(0.4));
  const city = u.location.city();
  const state = chance(0.75) ? u.location.state({ abbreviated: true }) : u.location.state();
  const zip = u.location.zipCode();
  const r = f.number.float({ min: 0, max: 1 });
  if (r < 0.45) return `${street}, ${city}, ${state} ${zip}`;
  if (r < 0.6) return `${street}\n${city}, ${state} ${zip}`;
  if (r < 0.72) return `${street}, ${city} ${state} ${zip}`;
  if (r < 0.82) return street;
  if (r < 0.9) return `${street}, ${city}, ${state}`;
  return `PO Box ${f.number.int({ min: 1, max: 99999 })}, ${city}, ${state} ${zip}`;
}

const safe = (fn: () => string): string => {
  try {
    return fn();
  } catch {
    return "";
  }
};
const joinParts = (sep: string, ...parts: string[]) => parts.filter((p) => p.trim() !== "").join(sep);

/** A full postal address of the locale's country, in one of its usual layouts. */
function addressFor(spec: LocaleSpec): string {
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
function phoneFor(spec: LocaleSpec): string {
  const style = pick(["human", "national", "international"] as const);
  const value = fk(spec.place ?? spec.locale).phone.number({ style });
  // International numbers are also written grouped: "+49 301 234 5678".
  return style === "international" ? value.replace(/^(\+\d{2})(\d{3})(\d{3})(\d+)$/, (m, a, b, c, d) => (chance(0.5) ? `${a} ${b} ${c} ${d}` : m)) : value;
}

/** What a text's slots are filled from: one locale (held-out split) or the older mixes (--by template). */
interface Filler {
  /** faker for names (a new pick per slot in the older mixes). */
  names(): { faker: Faker; locale: string };
  address(): string;
  phone(): string;
  /** faker for streets, house numbers, postcodes, units. */
  place: Faker;
  city(): string;
  organization(): string;
  /** BCP 47 tag for dates written the locale's way, if any. */
  dateLocale?: string;
  legacy?: boolean;
}

function fillerFor(spec: LocaleSpec | null): Filler {
  if (spec === null) {
    return {
      names: () => {
        const locale = pick(NAME_LOCALES);
        return { faker: fk(locale), locale };
      },
      address: usAddress,
      phone,
      place: fk("en_US"),
      city: () => fk(pick(CITY_LOCALES)).location.city(),
      organization: () => fk(pick(ORG_LOCALES)).company.name(),
      legacy: true,
    };
  }
  const own = fk(spec.locale);
  const place = fk(spec.place ?? spec.locale);
  return {
    names: () => ({ faker: own, locale: spec.locale }),
    address: () => addressFor(spec),
    phone: () => phoneFor(spec),
    place,
    city: () => place.location.city(),
    organization: () => own.company.name(),
    dateLocale: spec.locale.replace(/_.*$/, "") === "en" ? undefined : spec.locale.replace("_latin", "").replace("_", "-"),
  };
}

function fill(slot: string, src: Filler): Slot {
  const { faker: nf, locale: nameLoc } = src.names();
  const n = nf.person;
  const P = src.place.location;
  switch (slot) {
    case "person":
    case "name":
      return { value: n.fullName(), gold: "pii/name", locale: nameLoc };
    case "name_male":
      return { value: n.fullName({ sex: "male" }), gold: "pii/name", locale: nameLoc };
    case "name_female":
      return { value: n.fullName({ sex: "female" }), gold: "pii/name", locale: nameLoc };
    case "first_name":
    case "first_name_nonbinary":
      return { value: n.firstName(), gold: "pii/name", locale: nameLoc };
    case "first_name_male":
      return { value: n.firstName("male"), gold: "pii/name", locale: nameLoc };
    case "first_name_female":
      return { value: n.firstName("female"), gold: "pii/name", locale: nameLoc };
    case "last_name":
      return { value: n.lastName(), gold: "pii/name", locale: nameLoc };
    case "last_name_male":
      return { value: n.lastName("male"), gold: "pii/name", locale: nameLoc };
    case "last_name_female":
      return { value: n.lastName("female"), gold: "pii/name", locale: nameLoc };
    case "prefix":
      return { value: f.person.prefix() };
    case "prefix_male":
      return { value: f.person.prefix("male") };
    case "prefix_female":
      return { value: f.person.prefix("female") };
    case "email":
      // (The older mixes draw the e-mail's name from another locale than the slot's.)
      return { value: email(src.legacy ? src.names().faker : nf), gold: "pii/email" };
    case "ip_address":
      return { value: ipAddress(), gold: "pii/ip_address" };
    case "credit_card_number": {
      const c = cardNumber();
      return { value: c.value, gold: c.valid ? "pii/credit_card" : undefined };
    }
    case "iban": {
      const i = iban();
      return { value: i.value, gold: i.valid ? "pii/iban_code" : undefined };
    }
    case "ssn": {
      const s = ssn();
      return { value: s.value, gold: s.valid ? "pii/us_social_security_number" : undefined };
    }
    case "phone_number":
      return { value: src.phone(), gold: "pii/phone_number" };
    case "address":
      return { value: src.address(), gold: "pii/address" };
    case "building_number":
      return { value: P.buildingNumber().trim(), part: slot };
    case "street_name":
      return { value: P.street(), part: slot };
    case "secondary_address":
      return { value: P.secondaryAddress(), part: slot };
    case "city":
      return { value: src.city(), part: slot };
    case "state_abbr":
      return { value: safe(() => P.state({ abbreviated: true })) || fk("en_US").location.state({ abbreviated: true }), part: slot };
    case "zipcode":
    case "postcode":
      return { value: safe(() => P.zipCode()) || fk("en_US").location.zipCode(), part: slot };
    case "country":
      return { value: f.location.country(), part: slot };
    case "organization":
      return { value: src.organization() };
    case "url":
      return { value: f.internet.url() };
    case "nationality":
      return { value: pick(NATIONALITIES) };
    case "nation_woman":
      return { value: `${pick(NATIONALITIES)} woman` };
    case "nation_plural":
      return {
        value: pick([
          "Italians",
          "Mexicans",
          "Thais",
          "Japanese",
          "Ethiopians",
          "Greeks",
          "Koreans",
          "Peruvians",
          "Lebanese",
          "French",
          "Indians",
          "Vietnamese",
          "Americans",
          "Brits",
          "Germans",
          "Spaniards",
          "Chinese",
          "Turks",
        ]),
      };
    case "job":
      return { value: f.person.jobTitle() };
    case "age":
      return { value: String(f.number.int({ min: 1, max: 99 })) };
    case "year":
      return { value: String(f.number.int({ min: 1900, max: 2030 })) };
    case "day_of_week":
      return { value: f.date.weekday() };
    case "date_of_birth":
    case "date_time": {
      const d = f.date.birthdate();
      const styles = [d.toLocaleDateString("en-US"), d.toISOString().slice(0, 10), d.toLocaleDateString("en-GB"), d.toDateString(), d.toLocaleString("en-US")];
      // Dates written the locale's way ("15.01.2024", "2024/1/15") are negatives for pii/phone_number.
      if (src.dateLocale) styles.push(d.toLocaleDateString(src.dateLocale), d.toLocaleString(src.dateLocale));
      return { value: pick(styles) };
    }
    case "us_driver_license":
      return { value: `${f.string.alpha({ length: 1, casing: "upper" })}${f.string.numeric(7)}` };
    default:
      throw new Error(`unknown template slot ${slot}`);
  }
}

interface Sample {
  text: string;
  /** The locale the text was filled in ("mixed" in the older split). */
  locale: string;
  gold: { start: number; end: number; type: GoldType; locale?: string }[];
  ignore: { start: number; end: number; types: GoldType[] }[];
}

const ALL_PII: GoldType[] = [
  "pii/email",
  "pii/ip_address",
  "pii/credit_card",
  "pii/iban_code",
  "pii/us_social_security_number",
  "pii/phone_number",
  "pii/address",
  "pii/name",
];

function instantiate(template: string, src: Filler, locale: string, streetFirst: boolean): Sample {
  let body = template.replace(/\\n/g, "\n").replace(/\\,/g, ",");
  // Where the house number follows the street name, templates are read that way round.
  if (streetFirst) body = body.replace(/\{\{building_number\}\} \{\{street_name\}\}/g, "{{street_name}} {{building_number}}");
  const parts = body.split(/(\{\{?[a-z_]+\}\}?)/);
  let text = "";
  const slots: (Slot & { start: number; end: number })[] = [];
  for (const p of parts) {
    const m = /^\{\{?([a-z_]+)\}\}?$/.exec(p);
    if (!m) {
      text += p;
      continue;
    }
    const s = fill(m[1], src);
    slots.push({ ...s, start: text.length, end: text.length + s.value.length });
    text += s.value;
  }
  const gold: Sample["gold"] = [];
  const ignore: Sample["ignore"] = [];
  for (const s of slots) if (s.gold) gold.push({ start: s.start, end: s.end, type: s.gold, locale: s.locale });
  // Address components next to each other (only spaces, commas, newlines and
  // quote marks between them) form one address when they hold a street line
  // (a house number and a street name, in either order).
  let i = 0;
  while (i < slots.length) {
    if (!slots[i].part) {
      i++;
      continue;
    }
    let j = i;
    while (j + 1 < slots.length && slots[j + 1].part && /^[\s,>?]*$/.test(text.slice(slots[j].end, slots[j + 1].start))) j++;
    const group = slots.slice(i, j + 1);
    const first = group.findIndex(
      (g, k) => (g.part === "building_number" && group[k + 1]?.part === "street_name") || (g.part === "street_name" && group[k + 1]?.part === "building_number"),
    );
    const start = group[0].start;
    const end = group[group.length - 1].end;
    if (first >= 0) {
      gold.push({ start: group[first].start, end, type: "pii/address" });
      if (first > 0) ignore.push({ start, end: group[first].start, types: ["pii/address"] });
    } else {
      ignore.push({ start, end, types: ["pii/address"] });
    }
    i = j + 1;
  }
  // Template text after a street name ("{{street_name}} St.") belongs to it.
  for (const s of slots) if (s.part === "street_name") ignore.push({ start: s.start, end: Math.min(text.length, s.end + 4), types: ["pii/address"] });
  return { text, locale, gold, ignore };
}
// ---------------------------------------------------------------- scoring

interface Counts {
  tp: number;
  fp: number;
  goldHit: number;
  gold: number;
}

/** The exact detectors, called as the engine calls them on a user message (for tool_access_control the text is the tool name). */
const EXACT_TYPES = [
  "pii/email",
  "pii/ip_address",
  "pii/credit_card",
  "pii/iban_code",
  "pii/us_social_security_number",
  "pii/phone_number",
  "pii/address",
  "pii/name",
  "unknown_links",
  "override_allow",
  "override_deny",
  "tool_access_control",
  "moderated_content/profanity",
] as const;
type ExactType = (typeof EXACT_TYPES)[number];
const exactDetectors = Object.fromEntries(
  EXACT_TYPES.map((type) => {
    const d = definitionOf(type)!;
    const detect = (text: string, config: DetectorConfig): Detection => {
      const part: Part = { location: "user::content", messageId: 0, text, toolName: text };
      return d.detect(text, part, { type, location: part.location, ...config }, { parts: [part] });
    };
    return [type, detect];
  }),
) as Record<ExactType, (text: string, config: DetectorConfig) => Detection>;

const atOrAbove = (level: Level | undefined, threshold: Level) => levelRank[level ?? "no_level"] <= levelRank[threshold];

function score(
  spans: Span[],
  gold: { start: number; end: number }[],
  ignore: { start: number; end: number }[],
  threshold: Level,
  c: Counts,
): { fps: Span[]; misses: { start: number; end: number }[] } {
  const preds = spans.filter((s) => atOrAbove(s.level, threshold));
  const fps: Span[] = [];
  for (const p of preds) {
    if (gold.some((g) => g.start < p.end && p.start < g.end)) c.tp++;
    else if (!ignore.some((g) => g.start < p.end && p.start < g.end)) {
      c.fp++;
      fps.push(p);
    }
  }
  const misses: { start: number; end: number }[] = [];
  for (const g of gold) {
    c.gold++;
    if (preds.some((p) => g.start < p.end && p.start < g.end)) c.goldHit++;
    else misses.push(g);
  }
  return { fps, misses };
}

const prf = (c: Counts) => {
  const p = c.tp + c.fp === 0 ? 1 : c.tp / (c.tp + c.fp);
  const r = c.gold === 0 ? 1 : c.goldHit / c.gold;
  const f1 = p + r === 0 ? 0 : (2 * p * r) / (p + r);
  return { p, r, f1 };
};
const pct = (x: number) => x.toFixed(3);

// ---------------------------------------------------------------- PII

const templates = readCorpusText("pii_templates.txt")
  .split(/\r?\n/)
  .filter((l) => l.trim().length > 0);
const chosen = templates.filter((t) => bucket(t) === split);
const locales = legacy ? [] : LOCALES.filter((l) => l.split === split);
const PER_TEMPLATE = 30;
const samples: Sample[] = [];
if (legacy) {
  const src = fillerFor(null);
  for (const t of chosen) for (let k = 0; k < PER_TEMPLATE; k++) samples.push(instantiate(t, src, "mixed", false));
} else {
  const fillers = new Map(locales.map((l) => [l.locale, fillerFor(l)]));
  for (const t of chosen)
    for (const l of locales) for (let k = 0; k < FILLS_PER_LOCALE; k++) samples.push(instantiate(t, fillers.get(l.locale)!, l.locale, l.streetFirst ?? false));
}

const benign = readCorpusText("prompt_attack.jsonl")
  .split("\n")
  .filter(Boolean)
  .map((l) => JSON.parse(l) as { text: string; label: string })
  .filter((r) => r.label === "benign" && bucket(r.text) === split)
  .map((r) => r.text);
// Clean text in other languages: the split's languages (English rows by hash, as above).
const multilingual = legacy
  ? []
  : readCorpusText(MULTILINGUAL)
      .split("\n")
      .filter(Boolean)
      .map((l) => JSON.parse(l) as { text: string; lang: string })
      .filter((r) => r.lang !== "en" && LANGUAGE_SPLIT[r.lang] === split);
const languages = [...new Set(multilingual.map((r) => r.lang))].sort();

const THRESHOLDS: Level[] = ["l4_less_likely", "l2_very_likely"];
const lines: string[] = [];
const out = (s: string) => {
  lines.push(s);
  console.log(s);
};

if (legacy) {
  out(
    `Split: ${split}, by template only (${chosen.length} of ${templates.length} templates x ${PER_TEMPLATE} fillings = ${samples.length} texts, names of 30 locales, US addresses, US and 15 countries' phones; faker seed ${SEED}; ${benign.length} clean English prompts)`,
  );
} else {
  const groups = [...new Set(locales.map((l) => l.group))];
  out(
    `Split: ${split}, held out by template and locale (${chosen.length} of ${templates.length} templates x ${locales.length} locales in ${groups.length} groups x ${FILLS_PER_LOCALE} fillings = ${samples.length} texts; faker seed ${SEED}).`,
  );
  out(`Locales: ${locales.map((l) => l.locale).join(", ")}.`);
  out(`Clean text: ${benign.length} English prompts; ${multilingual.length} texts in ${languages.join(", ")}.`);
}
out("Span-level, overlap matching. FPR = share of clean texts with any span at or above the threshold.");
out("");

const noConfig: DetectorConfig = {};
const perType = new Map<GoldType, { spans: Span[][]; clean: Span[][]; multi: Span[][] }>();
for (const type of ALL_PII) {
  const detect = exactDetectors[type];
  perType.set(type, {
    spans: samples.map((s) => detect(s.text, noConfig).spans),
    clean: benign.map((t) => detect(t, noConfig).spans),
    multi: multilingual.map((r) => detect(r.text, noConfig).spans),
  });
}

const newCounts = (): Counts => ({ tp: 0, fp: 0, goldHit: 0, gold: 0 });
const LOCALE_COLUMNS: GoldType[] = ["pii/name", "pii/address", "pii/phone_number"];

for (const threshold of THRESHOLDS) {
  out(`Threshold ${threshold}${threshold === "l4_less_likely" ? " (the default policy's)" : ""}:`);
  out("");
  out(
    legacy
      ? "| detector | gold spans | precision | recall | F1 | clean-text FPR |"
      : "| detector | gold spans | precision | recall | F1 | clean-text FPR, English | clean-text FPR, other languages |",
  );
  out(legacy ? "|---|---:|---:|---:|---:|---:|" : "|---|---:|---:|---:|---:|---:|---:|");
  const byLocale = new Map<string, Map<GoldType, Counts>>();
  const f1s: number[] = [];
  for (const type of ALL_PII) {
    const c = newCounts();
    const errs: string[] = [];
    const { spans, clean, multi } = perType.get(type)!;
    samples.forEach((s, i) => {
      const gold = s.gold.filter((g) => g.type === type);
      const ignore = s.ignore.filter((g) => g.types.includes(type));
      const lc = byLocale.get(s.locale) ?? new Map<GoldType, Counts>();
      byLocale.set(s.locale, lc);
      const perLocale = lc.get(type) ?? newCounts();
      lc.set(type, perLocale);
      const before = { ...c };
      const r = score(spans[i], gold, ignore, threshold, c);
      perLocale.tp += c.tp - before.tp;
      perLocale.fp += c.fp - before.fp;
      perLocale.gold += c.gold - before.gold;
      perLocale.goldHit += c.goldHit - before.goldHit;
      if (showErrors === type && threshold === "l4_less_likely" && (!errorLocale || s.locale === errorLocale)) {
        const tag = legacy ? "" : `[${s.locale}] `;
        for (const fp of r.fps) errs.push(`${tag}FP ${JSON.stringify(s.text.slice(fp.start, fp.end))} (${fp.level}) in ${JSON.stringify(s.text)}`);
        for (const m of r.misses) errs.push(`${tag}MISS ${JSON.stringify(s.text.slice(m.start, m.end))} in ${JSON.stringify(s.text)}`);
      }
    });
    const cleanErrs: string[] = [];
    const shown = new Map<string, number>();
    const flaggedIn = (all: Span[][], texts: string[], tag: (i: number) => string) => {
      let flagged = 0;
      all.forEach((sp, i) => {
        const hits = sp.filter((h) => atOrAbove(h.level, threshold));
        if (hits.length === 0) return;
        flagged++;
        // At most 80 examples from each source (English, each other language).
        const n = shown.get(tag(i)) ?? 0;
        if (showErrors === type && threshold === "l4_less_likely" && n < 80) {
          shown.set(tag(i), n + 1);
          const text = texts[i];
          cleanErrs.push(
            `CLEAN${tag(i)} ${hits.map((h) => `${JSON.stringify(text.slice(h.start, h.end))}(${h.level})`).join(" ")} in ${JSON.stringify(text.slice(Math.max(0, hits[0].start - 60), hits[0].end + 40))}`,
          );
        }
      });
      return flagged;
    };
    const cleanFlagged = errorLocale ? 0 : flaggedIn(clean, benign, () => "");
    const multiTexts = multilingual.map((r) => r.text);
    const multiFlagged = flaggedIn(
      errorLocale ? multi.map((sp, i) => (multilingual[i].lang === errorLocale.replace(/_.*$/, "") ? sp : [])) : multi,
      multiTexts,
      (i) => `[${multilingual[i].lang}]`,
    );
    const m = prf(c);
    f1s.push(m.f1);
    out(
      legacy
        ? `| ${type} | ${c.gold} | ${pct(m.p)} | ${pct(m.r)} | ${pct(m.f1)} | ${pct(cleanFlagged / Math.max(1, benign.length))} |`
        : `| ${type} | ${c.gold} | ${pct(m.p)} | ${pct(m.r)} | ${pct(m.f1)} | ${pct(cleanFlagged / Math.max(1, benign.length))} | ${pct(multiFlagged / Math.max(1, multilingual.length))} |`,
    );
    if (errs.length || cleanErrs.length) {
      console.error([...errs.slice(0, 1500), ...cleanErrs].join("\n"));
    }
  }
  const macro = f1s.reduce((a, b) => a + b, 0) / f1s.length;
  out("");
  if (legacy) {
    out(`PII macro F1 (mean of the eight types): ${pct(macro)}`);
    out("");
    continue;
  }
  // Per locale: F1 of the locale-dependent types and the macro F1 over the locale's own texts.
  const rows = locales.map((l) => {
    const lc = byLocale.get(l.locale)!;
    const typeF1 = (t: GoldType) => prf(lc.get(t) ?? newCounts()).f1;
    const withGold = ALL_PII.filter((t) => (lc.get(t)?.gold ?? 0) > 0);
    const localeMacro = withGold.reduce((a, t) => a + typeF1(t), 0) / Math.max(1, withGold.length);
    return { l, cols: LOCALE_COLUMNS.map(typeF1), macro: localeMacro };
  });
  const worst = rows.reduce((a, b) => (b.macro < a.macro ? b : a));
  out(`PII macro F1 (mean of the eight types): ${pct(macro)}; worst locale: ${worst.l.locale} ${pct(worst.macro)}`);
  out("");
  out(`Per locale (${threshold}):`);
  out("");
  out("| locale | group | name F1 | address F1 | phone F1 | macro F1 |");
  out("|---|---|---:|---:|---:|---:|");
  for (const r of rows) out(`| ${r.l.locale} | ${r.l.group} | ${r.cols.map(pct).join(" | ")} | ${pct(r.macro)} |`);
  out("");
  out(`Clean-text FPR by language (${threshold}): name / address / phone`);
  out("");
  out(
    languages
      .map((lang) => {
        const idx = multilingual.map((r, i) => (r.lang === lang ? i : -1)).filter((i) => i >= 0);
        const rate = (t: GoldType) => idx.filter((i) => perType.get(t)!.multi[i].some((h) => atOrAbove(h.level, threshold))).length / Math.max(1, idx.length);
        return `${lang} ${LOCALE_COLUMNS.map((t) => pct(rate(t))).join(" / ")} (${idx.length})`;
      })
      .join("; "),
  );
  out("");
}

if (legacy) {
  // Name recall by the locale the name came from, at the default threshold.
  const byLocale = new Map<string, Counts>();
  const { spans } = perType.get("pii/name")!;
  samples.forEach((s, i) => {
    for (const g of s.gold.filter((x) => x.type === "pii/name")) {
      const c = byLocale.get(g.locale ?? "?") ?? newCounts();
      c.gold++;
      if (spans[i].some((p) => atOrAbove(p.level, "l4_less_likely") && g.start < p.end && p.start < g.end)) c.goldHit++;
      byLocale.set(g.locale ?? "?", c);
    }
  });
  out("pii/name recall by faker locale of the name (l4_less_likely):");
  out("");
  out(
    [...byLocale.entries()]
      .sort()
      .map(([loc, c]) => `${loc} ${pct(c.goldHit / c.gold)} (${c.gold})`)
      .join(", "),
  );
  out("");
}

// ---------------------------------------------------------------- unknown links

{
  const known = [
    "https://github.com/nodejs/node/issues/123",
    "docs.python.org/3/library/re.html",
    "www.wikipedia.org",
    "https://www.google.com/search?q=x",
    "en.wikipedia.org/wiki/Lisbon",
    "https://learn.microsoft.com/en-us/dotnet/",
    "stackoverflow.com/questions/1",
    "https://www.nytimes.com/2024/01/01/world.html",
    "https://www.bbc.co.uk/news",
    "youtube.com/watch?v=abc",
    "https://portal.acme-internal.com/login",
    "acme-internal.com",
  ];
  const framesPos = [
    "Check this out: {u}",
    "Open {u} and log in with your account.",
    "I found it at {u}, is it safe?",
    "Download the update from {u}.",
    "Click here -> {u} <- to claim your prize",
    "See ({u}) for details.",
    "The page {u} keeps crashing.",
  ];
  const framesNeg = [
    "Please attach report.pdf and index.js to the ticket.",
    "We upgraded to version 2.4.1 last week.",
    "Use Node.js 20 and TypeScript 5.9, e.g. for the build.",
    "The U.S. team met at 3 p.m. in the lab.",
    "Email me at jane.doe@example.org when done.",
    "Rename main.py to app.py and run it.",
    "See README.md and setup.cfg in the repo.",
    "It costs 3.50 euros, i.e. cheap.",
    "Pi is about 3.14159 and e is 2.71828.",
    "Ask Dr. Smith about the results.Next week we meet again.",
    "The file archive.tar.gz is 2.3 MB.",
    "Mr. Jones arrived at 10 a.m. sharp.",
  ];
  const cfg: DetectorConfig = { allowed_domains: ["acme-internal.com"] };
  const detect = exactDetectors.unknown_links;
  const c: Counts = { tp: 0, fp: 0, goldHit: 0, gold: 0 };
  let n = 0;
  for (let k = 0; k < 200; k++) {
    const frame = pick(framesPos);
    const r = f.number.float({ min: 0, max: 1 });
    let url: string;
    let unknown = true;
    if (r < 0.35) url = f.internet.url();
    else if (r < 0.5) url = `www.${f.internet.domainWord()}.${pick(["org", "net", "info", "biz", "xyz", "top"])}`;
    else if (r < 0.65) url = `${f.internet.domainWord()}-${f.internet.domainWord()}.${pick(["xyz", "top", "click", "ru", "tk", "io", "co"])}/${f.word.noun()}`;
    else if (r < 0.72) url = `https://xn--${f.string.alphanumeric({ length: 8, casing: "lower" })}.com/${f.word.noun()}`;
    else if (r < 0.78) url = `http://${f.internet.ipv4()}/${f.word.noun()}.exe`;
    else {
      url = pick(known);
      unknown = false;
    }
    const [a, b] = frame.split("{u}");
    const text = a + url + b;
    const gold = unknown ? [{ start: a.length, end: a.length + url.length }] : [];
    score(detect(text, cfg).spans, gold, [], "l4_less_likely", c);
    n++;
  }
  let negFlagged = 0;
  for (const text of framesNeg) if (detect(text, cfg).spans.length > 0) negFlagged++;
  let cleanFlagged = 0;
  for (const text of benign) if (detect(text, noConfig).spans.length > 0) cleanFlagged++;
  const m = prf(c);
  out(`unknown_links (${n} generated sentences, 12 tricky negatives written for this script, allowed_domains ["acme-internal.com"]):`);
  out("");
  out("| detector | gold spans | precision | recall | F1 | tricky negatives flagged | benign texts with a link flagged |");
  out("|---|---:|---:|---:|---:|---:|---:|");
  out(`| unknown_links | ${c.gold} | ${pct(m.p)} | ${pct(m.r)} | ${pct(m.f1)} | ${negFlagged}/${framesNeg.length} | ${pct(cleanFlagged / Math.max(1, benign.length))} |`);
  out("");
}

// ---------------------------------------------------------------- profanity

{
  const rows = readCorpusText("profanity_en.csv").split(/\r?\n/).slice(1).filter(Boolean);
  const terms: { term: string; severity: number }[] = [];
  for (const row of rows) {
    const cols = row.split(",");
    const term = cols[0];
    const severity = Number(cols[7]);
    // Single words only: the list's multi-word phrases are mostly sexual-act descriptions for the sexual category.
    if (!/^[a-z]+$/.test(term) || bucket(term) !== split) continue;
    terms.push({ term, severity });
  }
  const frames = [
    "Well, {w} that, I am done with this project.",
    "He called the driver a {w} and left.",
    "What a {w} day it has been.",
    "Honestly this is {w} and I want a refund.",
    "Stop being such a {w}, please.",
    "The report said {w} twice in the summary.",
  ];
  const clean = [
    "Scunthorpe United won at home on Saturday.",
    "The assassin was never found.",
    "Our class meets in the Essex campus.",
    "Order a cocktail at the bar in Sussex.",
    "Say hello to the shell script.",
    "Dick Van Dyke starred in the film.",
    "Please assess the analysis of the grape harvest.",
    "The therapist cited a cumulative document.",
    "Press the button to pass the title.",
    "Shiitake mushrooms grow on the hillside.",
    "Skyscrapers in Middlesex are rare.",
    "The cockpit of the cocker spaniel's transport.",
    "Use a bass guitar and a matchbox.",
    "The Hancock tower's shadow over Penistone.",
    "Arsenal beat Sheffield Wednesday.",
    "Can you assist me with my homework?",
    "A circumspect raccoon ate the peacock's food.",
    "The analyst documented the spice trade.",
  ];
  const obfuscations: Record<string, (w: string) => string> = {
    plain: (w) => w,
    capitalised: (w) => w[0].toUpperCase() + w.slice(1),
    leet: (w) => w.replace(/a/g, "4").replace(/e/g, "3").replace(/i/g, "1").replace(/o/g, "0").replace(/s/g, "$"),
    spaced: (w) => w.split("").join(" "),
    dotted: (w) => w.split("").join("."),
    repeated: (w) => w.replace(/[aeiou]/, (v) => v.repeat(4)),
    masked: (w) => (w.length > 3 ? w[0] + "*".repeat(w.length - 3) + w.slice(-2) : w),
    homoglyph: (w) => w.replace(/a/g, "а").replace(/o/g, "о").replace(/e/g, "е"),
  };
  const detect = exactDetectors["moderated_content/profanity"];
  out(
    `moderated_content/profanity (${terms.length} single-word terms of profanity_en.csv in this split, ${frames.length} neutral sentence frames, ${clean.length} clean sentences with Scunthorpe-style words, all written for this script):`,
  );
  out("");
  out("| obfuscation | recall, severity >= 2 (moderate, severe) | recall, severity < 2 (mild) |");
  out("|---|---:|---:|");
  for (const [name, ob] of Object.entries(obfuscations)) {
    const hit = { strong: 0, strongN: 0, mild: 0, mildN: 0 };
    for (const [i, { term, severity }] of terms.entries()) {
      const frame = frames[i % frames.length];
      const word = ob(term);
      const [a, b] = frame.split("{w}");
      const text = a + word + b;
      const found = detect(text, noConfig).spans.some((s) => atOrAbove(s.level, "l4_less_likely") && s.start < a.length + word.length && a.length < s.end);
      if (severity >= 2) {
        hit.strongN++;
        if (found) hit.strong++;
      } else {
        hit.mildN++;
        if (found) hit.mild++;
      }
    }
    out(`| ${name} | ${pct(hit.strong / Math.max(1, hit.strongN))} (${hit.strongN}) | ${pct(hit.mild / Math.max(1, hit.mildN))} (${hit.mildN}) |`);
  }
  let cleanHits = 0;
  for (const text of clean) if (detect(text, noConfig).spans.some((s) => atOrAbove(s.level, "l4_less_likely"))) cleanHits++;
  let benignHits = 0;
  for (const text of benign) if (detect(text, noConfig).spans.some((s) => atOrAbove(s.level, "l4_less_likely"))) benignHits++;
  out("");
  out(`Scunthorpe-style clean sentences flagged: ${cleanHits}/${clean.length}; benign prompts flagged: ${pct(benignHits / Math.max(1, benign.length))}`);
  out("");
}

// ---------------------------------------------------------------- speed

{
  const chunk = samples.map((s) => s.text).join("\n") + benign.join("\n");
  const text = chunk.slice(0, 10_000);
  const cfg: DetectorConfig = { allowed_domains: [], override_list: ["ignore previous instructions"] };
  const all = Object.entries(exactDetectors);
  for (let i = 0; i < 50; i++) for (const [, d] of all) d(text, cfg);
  const runs = 200;
  const per: string[] = [];
  let total = 0;
  for (const [name, d] of all) {
    const t0 = performance.now();
    for (let i = 0; i < runs; i++) d(text, cfg);
    const ms = (performance.now() - t0) / runs;
    total += ms;
    per.push(`${name} ${ms.toFixed(2)}`);
  }
  out(
    `Speed: all ${all.length} exact detectors on the first 10,000 characters of these texts (dense with PII): ${total.toFixed(2)} ms (warm, one core). Per detector, ms: ${per.join(", ")}.`,
  );
}

if (args.includes("--write-docs")) {
  if (split !== "test" || legacy) {
    console.error("--write-docs writes the held-out test split's figures only.");
    process.exit(2);
  }
  const docs = resolve(repoRoot, "docs/detectors.md");
  const text = readFileSync(docs, "utf8");
  const begin = "<!-- eval:begin -->";
  const end = "<!-- eval:end -->";
  const a = text.indexOf(begin);
  const b = text.indexOf(end);
  if (a < 0 || b < a) {
    console.error(`docs/detectors.md has no ${begin} ... ${end} block.`);
    process.exit(1);
  }
  writeFileSync(docs, `${text.slice(0, a + begin.length)}\n${lines.join("\n")}\n${text.slice(b)}`);
  console.log("\nwrote the figures into docs/detectors.md");
}
