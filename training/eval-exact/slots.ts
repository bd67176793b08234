// The value of one template slot ({{name}}, {{iban}}, {{street_name}}, ...)
// and what it counts as: gold PII of a type, an address component (merged with
// its neighbours in samples.ts), or neither (the context around PII).
import type { Faker } from "@faker-js/faker";
import type { PiiType } from "./detectors.js";
import { NATIONALITIES, cardNumber, email, faker, fk, iban, ipAddress, pick, safe, ssn } from "./fake-data.js";
import type { Filler } from "./fillers.js";

export interface Slot {
  value: string;
  gold?: PiiType;
  /** Address component, merged into one address span with its neighbours. */
  part?: string;
  locale?: string;
}

type Names = { faker: Faker; locale: string };

const NATIONALITY_PLURALS = [
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
];

export function fill(slot: string, src: Filler): Slot {
  // Drawn for every slot, names or not: the older mixes pick a name locale each time.
  const names = src.names();
  const value = personSlot(slot, names) ?? identifierSlot(slot, src, names) ?? addressSlot(slot, src) ?? contextSlot(slot, src);
  if (!value) throw new Error(`unknown template slot ${slot}`);
  return value;
}

function personSlot(slot: string, { faker: nf, locale: nameLoc }: Names): Slot | undefined {
  const n = nf.person;
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
      return { value: faker.person.prefix() };
    case "prefix_male":
      return { value: faker.person.prefix("male") };
    case "prefix_female":
      return { value: faker.person.prefix("female") };
  }
  return undefined;
}

/** Contact details and numbers; a number with a wrong checksum is not gold. */
function identifierSlot(slot: string, src: Filler, names: Names): Slot | undefined {
  switch (slot) {
    case "email":
      // (The older mixes draw the e-mail's name from another locale than the slot's.)
      return { value: email(src.legacy ? src.names().faker : names.faker), gold: "pii/email" };
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
  }
  return undefined;
}

function addressSlot(slot: string, src: Filler): Slot | undefined {
  const P = src.place.location;
  switch (slot) {
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
      return { value: faker.location.country(), part: slot };
  }
  return undefined;
}

/** Slots that are not personal data: the context the detectors must not flag. */
function contextSlot(slot: string, src: Filler): Slot | undefined {
  switch (slot) {
    case "organization":
      return { value: src.organization() };
    case "url":
      return { value: faker.internet.url() };
    case "nationality":
      return { value: pick(NATIONALITIES) };
    case "nation_woman":
      return { value: `${pick(NATIONALITIES)} woman` };
    case "nation_plural":
      return { value: pick(NATIONALITY_PLURALS) };
    case "job":
      return { value: faker.person.jobTitle() };
    case "age":
      return { value: String(faker.number.int({ min: 1, max: 99 })) };
    case "year":
      return { value: String(faker.number.int({ min: 1900, max: 2030 })) };
    case "day_of_week":
      return { value: faker.date.weekday() };
    case "date_of_birth":
    case "date_time":
      return { value: date(src) };
    case "us_driver_license":
      return { value: `${faker.string.alpha({ length: 1, casing: "upper" })}${faker.string.numeric(7)}` };
  }
  return undefined;
}

function date(src: Filler): string {
  const d = faker.date.birthdate();
  const styles = [d.toLocaleDateString("en-US"), d.toISOString().slice(0, 10), d.toLocaleDateString("en-GB"), d.toDateString(), d.toLocaleString("en-US")];
  // Dates written the locale's way ("15.01.2024", "2024/1/15") are negatives for pii/phone_number.
  if (src.dateLocale) styles.push(d.toLocaleDateString(src.dateLocale), d.toLocaleString(src.dateLocale));
  return pick(styles);
}
