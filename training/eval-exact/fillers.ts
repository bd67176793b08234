// Where a text's slot values come from: one locale (the held-out split) or the
// older mixes (--by template: names of 30 locales, US addresses, US and 15
// countries' phones).
import type { Faker } from "@faker-js/faker";
import { CITY_LOCALES, NAME_LOCALES, ORG_LOCALES, addressFor, fk, phone, phoneFor, pick, usAddress } from "./fake-data.js";
import type { LocaleSpec } from "./held-out.js";

/** What a text's slots are filled from: one locale (held-out split) or the older mixes (--by template). */
export interface Filler {
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

/** The filler of a locale, or of the older mixes for `null`. */
export function fillerFor(spec: LocaleSpec | null): Filler {
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
