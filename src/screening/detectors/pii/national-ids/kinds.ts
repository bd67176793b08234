// The national identifiers the built-in national-ID guardrails find
// (docs/detectors.md#national-identifiers): how each is written, how it is
// validated, and the words that name it. Validation is stdnum's (a port of
// python-stdnum: check digits, dates, region and prefix tables), except
// Japan's Individual Number, which it does not cover (my-number.ts).
//
// A shape's strength says how much the way it is written tells on its own:
// - `distinctive`: punctuation or letters no other number has in that place
//   (`123.456.789-09`, `12345678Z`, a codice fiscale), plus a check digit;
// - `grouped`: a layout other codes share now and then (a PAN's five letters,
//   four digits, one letter);
// - `bare`: digits any order or account number could be (a BSN or SIN is nine
//   digits, a tax ID eleven): reported only with words that name it nearby.
import { validate as cnpj } from "stdnum/lib/cjs/br/cnpj.js";
import { validate as cpf } from "stdnum/lib/cjs/br/cpf.js";
import { validate as sin } from "stdnum/lib/cjs/ca/sin.js";
import { validate as ric } from "stdnum/lib/cjs/cn/ric.js";
import { validate as idnr } from "stdnum/lib/cjs/de/idnr.js";
import { validate as dni } from "stdnum/lib/cjs/es/dni.js";
import { validate as nie } from "stdnum/lib/cjs/es/nie.js";
import { validate as nir } from "stdnum/lib/cjs/fr/nir.js";
import { validate as nino } from "stdnum/lib/cjs/gb/nino.js";
import { validate as aadhaar } from "stdnum/lib/cjs/in/aadhaar.js";
import { validate as pan } from "stdnum/lib/cjs/in/pan.js";
import { validate as codiceFiscale } from "stdnum/lib/cjs/it/codicefiscale.js";
import { validate as curp } from "stdnum/lib/cjs/mx/curp.js";
import { validate as bsn } from "stdnum/lib/cjs/nl/bsn.js";
import { validMyNumber } from "./my-number.js";

export type Strength = "distinctive" | "grouped" | "bare";

export interface Shape {
  /** The identifier as written, without boundaries (the scanner adds them); no nested quantifiers. */
  source: string;
  strength: Strength;
}

export interface IdKind {
  /** The span label: country code and identifier. */
  label: string;
  /** ISO 3166-1 alpha-2, lower case: the per-country guardrail's suffix. */
  country: string;
  name: string;
  shapes: Shape[];
  /** Validates the compact form (separators removed, upper case). */
  valid: (compact: string) => boolean;
  /** Words naming it, matched case-insensitively as whole words (or anywhere, for CJK). */
  words: string[];
  /** Acronyms that are also common words elsewhere (`SIN`, `NIE`, `PAN`): matched in capitals only. */
  acronyms?: string[];
}

const byStdnum = (validate: (v: string) => { isValid: boolean }) => (compact: string) => validate(compact).isValid;

/**
 * The German tax ID's digit rule as the Federal Central Tax Office states it:
 * in the first ten digits exactly one digit occurs twice or three times, every
 * other at most once (stdnum's check lets some other patterns through).
 */
function oneRepeatedDigit(compact: string): boolean {
  const counts = new Array<number>(10).fill(0);
  for (let i = 0; i < 10; i++) counts[compact.charCodeAt(i) - 48]++;
  const repeated = counts.filter((c) => c > 1);
  return repeated.length === 1 && repeated[0] <= 3;
}

export const ID_KINDS: readonly IdKind[] = [
  {
    label: "gb_nino",
    country: "gb",
    name: "UK National Insurance number",
    shapes: [
      { source: "[A-Z]{2}[ -]?\\d{2}[ -]?\\d{2}[ -]?\\d{2}[ -]?[A-D]", strength: "distinctive" },
      { source: "[A-Z]{2}\\d{6}", strength: "bare" },
    ],
    valid: byStdnum(nino),
    words: ["national insurance", "ni number", "ni no", "nino"],
    acronyms: ["NI", "NIN"],
  },
  {
    label: "de_tax_id",
    country: "de",
    name: "German tax ID (Steuer-IdNr)",
    shapes: [{ source: "[1-9]\\d ?\\d{3} ?\\d{3} ?\\d{3}", strength: "bare" }],
    valid: (c) => idnr(c).isValid && oneRepeatedDigit(c),
    words: [
      "steuer-id",
      "steuerid",
      "steuer-idnr",
      "steuer-identifikationsnummer",
      "steueridentifikationsnummer",
      "identifikationsnummer",
      "idnr",
      "id-nr",
      "tax id",
      "tax identification number",
      "steuernummer",
    ],
    acronyms: ["TIN", "IdNr"],
  },
  {
    label: "fr_nir",
    country: "fr",
    name: "French social security number (NIR)",
    shapes: [{ source: "[1-478] ?\\d{2} ?\\d{2} ?(?:\\d{2}|2[AB]) ?\\d{3} ?\\d{3} ?\\d{2}", strength: "distinctive" }],
    valid: byStdnum(nir),
    words: ["sécurité sociale", "securite sociale", "sécu", "secu", "numéro de sécurité", "carte vitale", "insee", "social security", "nir"],
  },
  {
    label: "br_cpf",
    country: "br",
    name: "Brazilian CPF",
    shapes: [
      { source: "\\d{3}\\.\\d{3}\\.\\d{3}-\\d{2}", strength: "distinctive" },
      { source: "\\d{9}-\\d{2}", strength: "grouped" },
      { source: "\\d{11}", strength: "bare" },
    ],
    valid: byStdnum(cpf),
    words: ["cpf", "cadastro de pessoas físicas", "cadastro de pessoa física"],
  },
  {
    label: "br_cnpj",
    country: "br",
    name: "Brazilian CNPJ",
    shapes: [
      { source: "\\d{2}\\.\\d{3}\\.\\d{3}/\\d{4}-\\d{2}", strength: "distinctive" },
      { source: "\\d{14}", strength: "bare" },
    ],
    valid: byStdnum(cnpj),
    words: ["cnpj", "cadastro nacional da pessoa jurídica"],
  },
  {
    label: "es_dni",
    country: "es",
    name: "Spanish DNI",
    shapes: [
      { source: "\\d{8}[ -]?[A-Z]", strength: "distinctive" },
      { source: "\\d{2}\\.\\d{3}\\.\\d{3}[ -]?[A-Z]", strength: "distinctive" },
    ],
    valid: byStdnum(dni),
    words: ["dni", "documento nacional de identidad", "nif", "número de identificación fiscal"],
  },
  {
    label: "es_nie",
    country: "es",
    name: "Spanish NIE",
    shapes: [{ source: "[XYZ][ -]?\\d{7}[ -]?[A-Z]", strength: "distinctive" }],
    valid: byStdnum(nie),
    words: ["número de identidad de extranjero", "número de extranjero", "tarjeta de residencia", "nif"],
    acronyms: ["NIE"],
  },
  {
    label: "it_codice_fiscale",
    country: "it",
    name: "Italian codice fiscale",
    // Omocodia replaces digits with L M N P Q R S T U V.
    shapes: [{ source: "[A-Z]{6}[\\dLMNP-V]{2}[ABCDEHLMPRST][\\dLMNP-V]{2}[A-Z][\\dLMNP-V]{3}[A-Z]", strength: "distinctive" }],
    valid: byStdnum(codiceFiscale),
    words: ["codice fiscale", "cod. fisc.", "cod. fiscale", "tax code", "c.f."],
    acronyms: ["CF"],
  },
  {
    label: "nl_bsn",
    country: "nl",
    name: "Dutch citizen service number (BSN)",
    shapes: [
      { source: "\\d{4}\\.\\d{2}\\.\\d{3}", strength: "grouped" },
      { source: "\\d{3}[ .]\\d{3}[ .]\\d{3}", strength: "bare" },
      { source: "\\d{9}", strength: "bare" },
    ],
    valid: (c) => c.length === 9 && bsn(c).isValid,
    words: ["bsn", "burgerservicenummer", "burger service nummer", "sofinummer", "sofi-nummer", "citizen service number"],
  },
  {
    label: "ca_sin",
    country: "ca",
    name: "Canadian social insurance number",
    shapes: [
      { source: "[0-79]\\d{2}[ -]\\d{3}[ -]\\d{3}", strength: "bare" },
      { source: "[0-79]\\d{8}", strength: "bare" },
    ],
    valid: byStdnum(sin),
    words: ["social insurance", "numéro d'assurance sociale", "numéro d’assurance sociale", "assurance sociale"],
    acronyms: ["SIN", "NAS"],
  },
  {
    label: "cn_resident_id",
    country: "cn",
    name: "Chinese resident identity card number",
    shapes: [
      { source: "[1-8]\\d{5}(?:18|19|20)\\d{9}[\\dX]", strength: "distinctive" },
      { source: "[1-8]\\d{5} (?:18|19|20)\\d{6} \\d{3}[\\dX]", strength: "distinctive" },
    ],
    valid: byStdnum(ric),
    words: ["身份证", "身份證", "公民身份号码", "公民身份號碼", "resident identity", "resident id", "id card"],
  },
  {
    label: "mx_curp",
    country: "mx",
    name: "Mexican CURP",
    shapes: [{ source: "[A-Z][AEIOUX][A-Z]{2}\\d{6}[HMX][A-Z]{5}[\\dA-Z]\\d", strength: "distinctive" }],
    valid: byStdnum(curp),
    words: ["curp", "clave única de registro de población", "clave unica de registro de poblacion"],
  },
  {
    label: "in_pan",
    country: "in",
    name: "Indian PAN",
    shapes: [{ source: "[A-Z]{3}[ABCFGHJLPT][A-Z]\\d{4}[A-Z]", strength: "grouped" }],
    valid: byStdnum(pan),
    words: ["permanent account number", "pan card", "pan no", "pan number", "income tax"],
    acronyms: ["PAN"],
  },
  {
    label: "in_aadhaar",
    country: "in",
    name: "Indian Aadhaar number",
    shapes: [
      { source: "[2-9]\\d{3}[ -]\\d{4}[ -]\\d{4}", strength: "bare" },
      { source: "[2-9]\\d{11}", strength: "bare" },
    ],
    valid: byStdnum(aadhaar),
    words: ["aadhaar", "aadhar", "adhaar", "uidai", "आधार"],
    acronyms: ["UID"],
  },
  {
    label: "jp_my_number",
    country: "jp",
    name: "Japanese Individual Number (My Number)",
    shapes: [{ source: "\\d{4}[ -]?\\d{4}[ -]?\\d{4}", strength: "bare" }],
    valid: validMyNumber,
    words: ["マイナンバー", "個人番号", "my number", "mynumber", "individual number"],
  },
];

/** Words that name an identity or tax number without saying which country's: as good as the kind's own words, one level less sure. */
export const GENERIC_WORDS = [
  "national id",
  "national identity",
  "national identification",
  "id number",
  "id no",
  "identity number",
  "identification number",
  "personal number",
  "personal id",
  "citizen id",
  "tax number",
  "taxpayer",
  "ausweisnummer",
  "personalausweis",
  "numéro d'identification",
  "número de identificación",
  "número de documento",
  "documento de identidad",
  "numero di identificazione",
  "identiteitsnummer",
  "身份号码",
];
