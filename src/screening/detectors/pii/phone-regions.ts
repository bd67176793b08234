// Which countries a phone number written without a country code could belong
// to, from libphonenumber's region metadata ("max"): every region's national
// (trunk) prefix, possible lengths and national number pattern. A number
// written nationally ("030 1234567", "06 12 34 56 78", "8 (912) 345-67-89",
// "25 269 55 68") carries no country, so it is checked against every region
// whose trunk prefix it starts with (or that has none), cheapest tests first:
// the prefix, then the length, then the region's general number pattern
// (plausible), then the patterns of its number types: fixed line, mobile,
// toll free ... (valid, as libphonenumber's isValid() decides for a number of
// a known region). Linear: a fixed number of anchored tests per number.
import { type CountryCode, Metadata, getCountries } from "libphonenumber-js/core";
import metadataJson from "libphonenumber-js/metadata.max.json";

/** What the numbering-plan objects of libphonenumber-js offer at run time beyond their published type. */
interface PlanInternals {
  /** The trunk prefix, or 0 when the region has none. */
  nationalPrefix(): string | 0 | undefined;
  nationalNumberPattern(): string;
  possibleLengths(): number[];
  type(name: string): { pattern(): string } | undefined;
}

const TYPES = ["FIXED_LINE", "MOBILE", "TOLL_FREE", "PREMIUM_RATE", "SHARED_COST", "PERSONAL_NUMBER", "VOIP", "UAN", "PAGER", "VOICEMAIL"];

interface Region {
  code: CountryCode;
  /** The general national number pattern: the number is plausible here. */
  pattern: RegExp;
  /** Any number type's pattern: the number is valid here. */
  valid: RegExp;
}

// Labels and parse order when several regions fit: the countries with the most
// telephone subscribers and the most traffic first, then the rest alphabetically.
// prettier-ignore
const PRIORITY: readonly CountryCode[] = [
  "US", "GB", "DE", "FR", "IN", "CN", "JP", "BR", "RU", "IT", "ES", "MX", "CA", "AU", "KR", "ID", "TR", "NL", "PL", "UA",
  "VN", "PH", "NG", "ZA", "AR", "CO", "EG", "PK", "BD", "TH", "SE", "BE", "CH", "AT", "PT", "GR", "CZ", "RO", "HU", "IE",
  "DK", "NO", "FI", "IL", "SA", "AE", "MY", "SG", "NZ", "CL", "PE", "KE", "GH", "HK", "TW",
];

/** Regions by "trunk prefix|national number length" (trunk prefix "" when the region has none). */
const REGIONS = new Map<string, Region[]>();
const PREFIXES = new Set<string>();
{
  const metadata = new Metadata(metadataJson);
  const rank = (c: CountryCode) => {
    const i = PRIORITY.indexOf(c);
    return i < 0 ? PRIORITY.length : i;
  };
  const countries = getCountries(metadataJson).sort((a, b) => rank(a) - rank(b) || a.localeCompare(b));
  for (const code of countries) {
    metadata.selectNumberingPlan(code);
    const plan = metadata.numberingPlan as unknown as PlanInternals;
    const trunk = plan.nationalPrefix();
    const prefix = typeof trunk === "string" ? trunk : "";
    PREFIXES.add(prefix);
    const types = TYPES.map((t) => plan.type(t)?.pattern()).filter((p): p is string => typeof p === "string");
    const region: Region = {
      code,
      pattern: new RegExp(`^(?:${plan.nationalNumberPattern()})$`),
      valid: new RegExp(`^(?:${types.length > 0 ? types.join("|") : plan.nationalNumberPattern()})$`),
    };
    for (const length of plan.possibleLengths()) {
      const key = `${prefix}|${length}`;
      const list = REGIONS.get(key) ?? [];
      list.push(region);
      REGIONS.set(key, list);
    }
  }
}

export interface RegionMatch {
  /** A region where the number is valid (libphonenumber's type patterns), or the first where it is plausible. */
  country: CountryCode;
  valid: boolean;
}

/**
 * The region a nationally written number (digits only, no country code) most
 * likely belongs to: valid there, or at least matching its number pattern.
 * Null when no region has a trunk prefix, length and pattern that fit.
 */
export function nationalRegion(digits: string): RegionMatch | null {
  let plausible: CountryCode | null = null;
  // First as written: the trunk prefix stripped where the number starts with one, whole for
  // regions without one. Then with the trunk prefix left out, as people also write
  // ("(11) 98765-4321"): a weaker reading, so it only decides when the first finds nothing valid.
  for (const omitted of [false, true]) {
    for (const prefix of PREFIXES) {
      if (omitted ? prefix === "" : !digits.startsWith(prefix)) continue;
      const nsn = omitted ? digits : digits.slice(prefix.length);
      const regions = REGIONS.get(`${prefix}|${nsn.length}`);
      if (!regions) continue;
      for (const r of regions) {
        if (!r.pattern.test(nsn)) continue;
        if (r.valid.test(nsn)) return { country: r.code, valid: true };
        plausible ??= r.code;
      }
    }
  }
  return plausible ? { country: plausible, valid: false } : null;
}
