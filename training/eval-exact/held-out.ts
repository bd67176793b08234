// The held-out split (the default, `--by template+locale`): templates are split
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
import { createHash } from "node:crypto";
import type { SplitName } from "./options.js";

/** The side of a template, an English clean text or a profanity term, by a hash of its text. */
export const bucket = (text: string): SplitName => (createHash("sha256").update(text).digest()[0] % 2 === 0 ? "tune" : "test");

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

export interface LocaleSpec {
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
export const LOCALES: readonly LocaleSpec[] = [
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
export const LANGUAGE_SPLIT: Record<string, SplitName> = {
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
export const FILLS_PER_LOCALE = 4;
