// pii/address: postal addresses, US and international.
//
// US (and other number-first English addresses):
//   street line  = number [directional] name-words street-suffix [directional]
//                  e.g. "1600 Pennsylvania Ave NW", "5993 E 11th Street", "9 Mary Grange"
//   unit         = Apt/Suite/Unit/Floor/Room/Bldg/# + id, after the street line
//   place        = City[,] ST-or-State-name [ZIP or ZIP+4], on the same line
//                  or the next ones
//   post box     = P.O. Box / PO Box / Post Office Box + number [+ place]
// Street suffixes are the USPS Publication 28 (Appendix C1) primary names and
// their standard abbreviations, plus British and Commonwealth ones (Close,
// Mews, Rise ...). Elsewhere (intl.ts, cjk.ts): street first
// ("Hauptstraße 5", "Via Roma 12", "ул. Кедровая, 7"), number first with the
// type before the name ("12 rue de la Paix"), postcodes of many countries
// before or after the town, and Chinese, Japanese and Korean addresses.
// Levels:
//   street line (or post box) + state + ZIP, or + postcode  -> l1
//   street line + city and state, or + ZIP, or + town       -> l2
//   street line alone, address words before it
//   ("address", "live at", "Adresse", "dirección" ...)      -> l2
//   street line alone                                      -> l3
//   "City, ST 12345" with no street line                   -> l4
// Street lines without a street type ("Vinohradská 12") count only with a
// postcode and town after them; those that start with a German preposition
// ("Am Frankenberg 92c") with a postcode or town.
// The scan tokenizes forward and backward from each number at a word
// boundary, a few tokens at a time, so its cost is linear in the text.
import type { Detection } from "../../../detector.js";
import { piiDetector } from "../family.js";
import type { Level } from "../../../vocabulary.js";
import { type Finding, before, isWordChar, stronger, toDetection } from "../../findings.js";
import { findCjkAddresses } from "./cjk.js";
import {
  HOUSE_NUMBER,
  houseNumberEnd,
  type Place as IntlPlace,
  knownTownAfter,
  placeAfter,
  placeBefore,
  postcodeAt,
  type Street,
  streetAfterNumber,
  streetBefore,
  unitAt,
} from "./intl.js";
import { isCapitalized, newlines, type Token, tokenAt } from "./tokens.js";

// USPS Publication 28, Appendix C1: primary street suffix names and the
// abbreviations in common use (lower case, without the trailing period).
export const STREET_SUFFIXES: ReadonlySet<string> = new Set(
  (
    "alley allee aly ally anex annex anx arcade arc avenue av ave aven avenu avn avnue bayou bayoo byu beach bch bend bnd " +
    "bluff bluf blf bluffs blfs bottom bot btm bottm boulevard blvd boul boulv branch br brnch bridge brdge brg brook brk " +
    "brooks brks burg bg burgs bgs bypass bypa bypas byp byps camp cp cmp canyon canyn cnyn cyn cape cpe causeway causwa cswy " +
    "center cen cent centr centre cnter cntr ctr centers ctrs circle circ circl crcl crcle cir circles cirs cliff clf cliffs clfs " +
    "club clb common cmn commons cmns corner cor corners cors course crse court ct courts cts cove cv coves cvs creek crk " +
    "crescent cres crsent crsnt crest crst crossing crssng xing crossroad xrd crossroads xrds curve curv dale dl dam dm " +
    "divide div dv dvd drive driv drv dr drives drs estate est estates ests expressway exp expr express expw expy extension " +
    "ext extn extnsn extensions exts fall falls fls ferry frry fry field fld fields flds flat flt flats flts ford frd fords frds " +
    "forest forests frst forge forg frg forges frgs fork frk forks frks fort frt ft freeway freewy frway frwy fwy garden gardn " +
    "grden grdn gdn gardens gdns grdns gateway gatewy gatway gtway gtwy glen gln glens glns green grn greens grns grove grov " +
    "grv groves grvs harbor harb harbr hbr hrbor harbors hbrs haven hvn heights ht hts highway highwy hiway hiwy hway hwy " +
    "hill hl hills hls hollow hllw holw holws hollows inlet inlt island is islnd islands iss islnds isle isles junction jct " +
    "jction jctn junctn juncton junctions jcts jctns key ky keys kys knoll knl knol knolls knls lake lk lakes lks land landing " +
    "lndg lndng lane ln light lgt lights lgts loaf lf lock lck locks lcks lodge ldg ldge lodg loop loops lp mall manor mnr " +
    "manors mnrs meadow mdw meadows mdws medows mews mill ml mills mls mission missn msn motorway mtwy mount mnt mt mountain " +
    "mntain mntn mountin mtin mtn mountains mntns mtns neck nck orchard orch orchrd oval ovl overpass opas park prk parks " +
    "parkway parkwy pkway pkwy pky parkways pkwys pass passage psge path paths pike pikes pky pine pne pines pnes place pl " +
    "plain pln plains plns plaza plz plza point pt points pts port prt ports prts prairie pr prr radial rad radiel radl ramp " +
    "ranch ranches rnch rnchs rapid rpd rapids rpds rest rst ridge rdg rdge ridges rdgs river rv rvr rivr road rd roads rds " +
    "route rte row rue run shoal shl shoals shls shore shoar shr shores shoars shrs skyway skwy spring spg spng sprng springs " +
    "spgs spngs sprngs spur spurs square sq sqr sqre squ squares sqrs sqs station sta statn stn stravenue stra strav straven " +
    "stravn strvn strvnue stream streme strm street st str strt streets sts summit smt sumit sumitt terrace ter terr throughway " +
    "trwy trace trce traces track trak trk trks tracks trafficway trfy trail trl trails trls trailer trlr trlrs tunnel tunl " +
    "tunls tunnels tunnl turnpike tpke trnpk turnpk underpass upas union un unions uns valley vly vally vlly valleys vlys via " +
    "viaduct vdct viadct view vw views vws village vill villag villg villiage vlg villages vlgs ville vl vista vis vist vst " +
    "vsta walk walks wall way wy ways well wl wells wls"
  ).split(" "),
);

// Suffix abbreviations written with a period ("St.", "Ave.").
const ABBREVIATED = new Set(
  "st ave av blvd rd ln dr ct pl pkwy hwy cir ter trl sq expy fwy tpke ctr hts mt mtn ft pt cres plz xing aly bnd br brg cswy cv crk est ext fl frwy gdns grv hbr jct ky lk lks mdws ml mls pk pky prk rdg riv run spg sta stn str vly vw vlg wy".split(
    " ",
  ),
);

const DIRECTIONALS = new Set(["n", "s", "e", "w", "ne", "nw", "se", "sw", "north", "south", "east", "west", "northeast", "northwest", "southeast", "southwest"]);

const UNIT_WORDS = new Set([
  "apt",
  "apartment",
  "suite",
  "ste",
  "unit",
  "fl",
  "floor",
  "rm",
  "room",
  "bldg",
  "building",
  "dept",
  "department",
  "lot",
  "space",
  "spc",
  "trlr",
  "trailer",
  "box",
  "ph",
  "penthouse",
  "office",
  "ofc",
  "#",
]);

const STATE_CODES = new Set(
  (
    "AL AK AZ AR CA CO CT DE DC FL GA HI ID IL IN IA KS KY LA ME MD MA MI MN MS MO MT NE NV NH NJ NM NY NC ND OH OK OR " +
    "PA RI SC SD TN TX UT VT VA WA WV WI WY PR GU VI AS MP AA AE AP"
  ).split(" "),
);

const STATE_NAMES = new Set([
  "alabama",
  "alaska",
  "arizona",
  "arkansas",
  "california",
  "colorado",
  "connecticut",
  "delaware",
  "florida",
  "georgia",
  "hawaii",
  "idaho",
  "illinois",
  "indiana",
  "iowa",
  "kansas",
  "kentucky",
  "louisiana",
  "maine",
  "maryland",
  "massachusetts",
  "michigan",
  "minnesota",
  "mississippi",
  "missouri",
  "montana",
  "nebraska",
  "nevada",
  "new hampshire",
  "new jersey",
  "new mexico",
  "new york",
  "north carolina",
  "north dakota",
  "ohio",
  "oklahoma",
  "oregon",
  "pennsylvania",
  "rhode island",
  "south carolina",
  "south dakota",
  "tennessee",
  "texas",
  "utah",
  "vermont",
  "virginia",
  "washington",
  "west virginia",
  "wisconsin",
  "wyoming",
  "district of columbia",
  "puerto rico",
  "guam",
]);

// Address words before a street line, in English and the languages of the international formats.
// prettier-ignore
const CONTEXT = new RegExp(
  "(?:^|[^\\p{L}])(?:" +
    [
      "address", "addresses", "addr", "live at", "lives at", "living at", "lived in", "live in", "located at", "location", "ship to",
      "shipping", "deliver to", "delivery", "send (?:it )?to", "sent to", "mail to", "mailing", "billing", "residence", "reside at",
      "meet (?:me )?at", "moved to", "move to", "office is at", "offices are at", "headquarters", "hq", "visit us at", "find us at", "at",
      "adresse", "anschrift", "wohnhaft", "wohne in", "wohnt in", "lieferadresse", "dirección", "direccion", "domicilio", "indirizzo",
      "endereço", "endereco", "morada", "adres", "adresa", "adresy", "cím", "címe", "osoite", "adress", "adressen", "adressi", "adrese",
      "adresas", "адрес", "адреса", "адресу", "住所", "地址", "주소", "地點",
    ].join("|") +
    ")\\s*:?\\s*$",
  "u",
);

// British and Commonwealth street types the USPS list lacks ("9 Mary Grange", "6 Boame Link").
const COMMONWEALTH = new Set(
  "close crescent mews grange rise fold chase croft wynd link lk approach embankment quay wharf yard circus drove nook garth brow spinney parade gate row end".split(" "),
);
const isSuffix = (key: string) => STREET_SUFFIXES.has(key) || COMMONWEALTH.has(key);

const isOrdinal = (key: string) => /^\d+(?:st|nd|rd|th)$/.test(key);
const isNumberish = (key: string) => /^\d{1,5}[a-z]?$/.test(key);
// A token's end excluding a sentence period, but keeping it on abbreviations.
const endOf = (t: Token) => (t.raw.endsWith(".") && t.key.length > 3 && !STREET_SUFFIXES.has(t.key) ? t.end - 1 : t.end);

interface StreetLine {
  start: number;
  end: number;
  next: number;
  /** "The Rise", "The End": counts only with a postcode after it. */
  titleLike: boolean;
}

/** Number, optional directional, 1-4 name words, a suffix, optional directional and unit. */
function streetLineAt(text: string, number: Token): StreetLine | null {
  let t = tokenAt(text, number.end);
  if (!t || /\n/.test(t.gap) || t.gap.includes(",")) return null;
  if (DIRECTIONALS.has(t.key) && isCapitalized(t.raw)) {
    const n = tokenAt(text, t.end);
    // "123 North Street": the directional is the name.
    if (n && !isSuffix(n.key)) t = n;
  }
  let names = 0;
  let articleOnly = true;
  let suffix: Token | null = null;
  for (let i = 0; i < 5 && t; i++) {
    if (/\n/.test(t.gap) || t.gap.includes(",")) return null;
    // "1 Davenport is": "is" (island) counts only written "Is".
    if (names > 0 && isSuffix(t.key) && (t.key !== "is" || t.raw !== "is")) {
      suffix = t;
      break;
    }
    if (!(isCapitalized(t.raw) || isOrdinal(t.key) || /^\d+$/.test(t.key))) return null;
    if (t.key !== "the") articleOnly = false;
    names++;
    t = tokenAt(text, t.end);
  }
  if (!suffix) return null;
  // "Part 2 The Rise", "Episode 4 The End": a British street type after "The" alone is a title,
  // unless a postcode follows ("39 The Spinney, Leeds LS1 4AB").
  const titleLike = articleOnly && COMMONWEALTH.has(suffix.key) && !STREET_SUFFIXES.has(suffix.key);
  // "Street." ends a sentence; "St." and "Ave." are abbreviations.
  let end = suffix.raw.endsWith(".") && !ABBREVIATED.has(suffix.key) ? suffix.end - 1 : suffix.end;
  let next = suffix.end;
  let u = tokenAt(text, next);
  if (u && DIRECTIONALS.has(u.key) && u.raw.length <= 3 && !/\n/.test(u.gap) && !u.gap.includes(",")) {
    end = u.end;
    next = u.end;
    u = tokenAt(text, next);
  }
  // Unit: "Apt. 5", "Suite 100", "# 12", "Apt #3B", possibly after a comma or on the next line.
  if (u && UNIT_WORDS.has(u.key) && newlines(u.gap) <= 1) {
    let id = tokenAt(text, u.end);
    if (id && id.key === "#") id = tokenAt(text, id.end);
    if (id && /^[\p{N}\p{L}]{1,6}(?:-\d{1,4})?$/u.test(id.key) && /\d/.test(id.key) && !/\n/.test(id.gap)) {
      end = id.end;
      next = id.end;
    }
  }
  return { start: number.start, end, next, titleLike };
}

interface Place {
  end: number;
  city: boolean;
  state: boolean;
  zip: boolean;
}

/** "City, ST 12345", "City\nST\n12345", "City, State Name 12345-1234" after `pos`. */
function placeAt(text: string, pos: number, needCity: boolean): Place | null {
  let t = tokenAt(text, pos);
  if (!t || newlines(t.gap) > 2) return null;
  let city = 0;
  let cityEnd = pos;
  // City: up to three capitalized words, ending before a comma, a newline or a state.
  while (t && city < 3 && isCapitalized(t.raw) && !STATE_CODES.has(t.raw) && !/\d/.test(t.key) && !UNIT_WORDS.has(t.key)) {
    if (city > 0 && (t.gap.includes(",") || /\n/.test(t.gap))) break;
    if (city > 0 && stateNameAt(text, t)) break;
    city++;
    cityEnd = endOf(t);
    t = tokenAt(text, t.end);
  }
  if (needCity && city === 0) return null;
  let state = false;
  let end = cityEnd;
  if (t && newlines(t.gap) <= 2) {
    if (STATE_CODES.has(t.raw) && (city > 0 || !needCity)) {
      state = true;
      end = t.end;
      t = tokenAt(text, t.end);
    } else {
      const named = stateNameAt(text, t);
      if (named) {
        state = true;
        end = named.end;
        t = tokenAt(text, named.end);
      }
    }
  }
  let zip = false;
  if (t && newlines(t.gap) <= 2 && /^\d{5}(?:-\d{4})?$/.test(t.raw) && (state || city > 0)) {
    zip = true;
    end = t.end;
  }
  if (!state && !zip) return null;
  return { end, city: city > 0, state, zip };
}

function stateNameAt(text: string, t: Token): { end: number } | null {
  if (!isCapitalized(t.raw)) return null;
  let name = t.key;
  let end = endOf(t);
  if (STATE_NAMES.has(name)) {
    // "West Virginia", "New York": prefer the longer name.
    const n = tokenAt(text, t.end);
    if (n && !/\n/.test(n.gap) && STATE_NAMES.has(`${name} ${n.key}`)) return { end: endOf(n) };
    return { end };
  }
  let cur = t;
  for (let i = 0; i < 2; i++) {
    const n = tokenAt(text, cur.end);
    if (!n || /\n/.test(n.gap) || n.gap.includes(",")) return null;
    name = `${name} ${n.key}`;
    end = endOf(n);
    if (STATE_NAMES.has(name)) return { end };
    cur = n;
  }
  return null;
}

// House numbers, and "s/n" (sin número) where Spanish addresses have none.
const NUMBER_START = /(?<![\p{L}\p{N}])(?:\d{1,6}(?:-?[A-Za-z])?(?:[-/]\d{1,5}[A-Za-z]?)?|s\/n\.?)(?![\p{L}\p{N}])/gu;
const PO_BOX = /\b(?:P\.? ?O\.?|Post Office)\s?Box\s+#?\d{1,8}\b/gi;
const CITY_STATE_ZIP = /\b\p{Lu}[\p{L}\p{M}'.-]*(?: \p{Lu}[\p{L}\p{M}'.-]*){0,2},? (?:[A-Z]{2}) \d{5}(?:-\d{4})?\b/gu;

function levelOf(place: Place | null, context: boolean): Level {
  let level: Level = "l3_likely";
  if (place?.state && place.zip) level = "l1_confident";
  else if (place && (place.zip || (place.city && place.state))) level = "l2_very_likely";
  if (context) level = stronger(level);
  return level;
}

// pii/address and pii/name (which leaves addresses alone) both ask for the
// addresses of the same part, one after the other: the second asks for free.
let last: { text: string; findings: readonly Finding[] } | null = null;

export function findAddresses(text: string): readonly Finding[] {
  if (last?.text === text) return last.findings;
  const findings = scanAddresses(text);
  last = { text, findings };
  return findings;
}

function scanAddresses(text: string): Finding[] {
  const out: Finding[] = [];
  let covered = 0;
  const budget = { tries: MAX_INTL_TRIES };
  for (const m of text.matchAll(NUMBER_START)) {
    if (m.index < covered) continue;
    const found = usStreet(text, m[0], m.index) ?? intlStreet(text, m[0], m.index, covered, budget);
    if (!found) continue;
    out.push(found);
    covered = found.end;
  }
  for (const m of text.matchAll(PO_BOX)) {
    if (out.some((f) => f.start < m.index + m[0].length && m.index < f.end)) continue;
    const place = placeAt(text, m.index + m[0].length, true);
    const end = place ? place.end : m.index + m[0].length;
    const context = CONTEXT.test(before(text, m.index, 40));
    out.push({ start: m.index, end, level: levelOf(place, context), labels: ["po_box"] });
  }
  for (const m of text.matchAll(CITY_STATE_ZIP)) {
    const end = m.index + m[0].length;
    if (out.some((f) => f.start < end && m.index < f.end)) continue;
    const code = /([A-Z]{2}) \d{5}/.exec(m[0]);
    if (!code || !STATE_CODES.has(code[1]) || isWordChar(text, end)) continue;
    out.push({ start: m.index, end, level: "l4_less_likely", labels: ["city_state_zip"] });
  }
  for (const f of findCjkAddresses(text)) if (!out.some((o) => o.start < f.end && f.start < o.end)) out.push(f);
  return out;
}

/** A number-first street line with a US or Commonwealth suffix ("1600 Pennsylvania Ave NW"), and the place after it. */
function usStreet(text: string, raw: string, start: number): Finding | null {
  // A street line goes on with one space or tab and a capital, a digit ("5th") or a directional:
  // most numbers in a text ("(415)", "20500.", "3 apples") are rejected here without tokenizing.
  const after = start + raw.length;
  let k = after;
  while (k < text.length && k - after < 3 && (text[k] === " " || text[k] === "\t")) k++;
  if (k === after || !/[\p{Lu}\d]/u.test(text[k] ?? "")) return null;
  const number: Token = { start, end: after, key: raw.toLowerCase(), raw, gap: "" };
  if (!isNumberish(number.key.replace(/-\d+$/, "")) && !/^\d+-\d+$/.test(number.key)) return null;
  // "in 2019 Apple Park opened": a year after a time preposition is a date, not a house number.
  if (/^(?:19|20)\d\d$/.test(raw) && /\b(?:in|since|by|until|from|of|during|before|after)\s+$/i.test(text.slice(Math.max(0, start - 8), start))) return null;
  const street = streetLineAt(text, number);
  if (!street) return null;
  const place = placeAt(text, street.next, true);
  // Outside the US: "9 Mary Grange, Old Ledner Court, LD9 0PY", "91 Maya Square, Jamesworth NSW 6928".
  const intl = place ? null : placeAfter(text, street.next);
  if (street.titleLike && !place?.zip && !intl?.postcode) return null;
  const end = place ? place.end : intl ? Math.max(intl.end, street.end) : street.end;
  const context = CONTEXT.test(before(text, street.start, 40));
  const level = place ? levelOf(place, context) : intlLevel("typed", intl, false, context, false, false);
  if (level === "no_level") return null;
  return { start: street.start, end, level, labels: ["street"] };
}

// At most this many numbers per text are read as the house number of a street line of another
// country: a text of "Aa 1 Aa 1 ..." is not a list of addresses, and the cost stays bounded
// (a real message has far fewer numbers next to capitalised words).
const MAX_INTL_TRIES = 256;

/** A street line of another country around the number at `start` ("Hauptstraße 5", "12 rue de la Paix"), and its place. */
function intlStreet(text: string, raw: string, start: number, covered: number, budget: { tries: number }): Finding | null {
  const numberEnd = start + raw.length;
  if (budget.tries <= 0) return null;
  // Cheap test first: a street type after the number ("12 rue ...") or a word before it.
  const typeAfter = /^,?[ \t]{1,2}\p{L}/u.test(text.slice(numberEnd, numberEnd + 4));
  const wordBefore = /(?:\p{L}|\p{L}[.:]|\))[ \t]*,?[ \t]*$/u.test(text.slice(Math.max(0, start - 6), start));
  if (!typeAfter && !wordBefore) return null;
  budget.tries--;
  let street: Street | null = typeAfter ? streetAfterNumber(text, start, numberEnd) : null;
  let lineEnd = street?.end ?? 0;
  if (!street) {
    if (!HOUSE_NUMBER.test(raw)) return null;
    // A letter, an abbreviation's period ("Kirchstr. 5", "nr. 5") or a bracket before the number.
    if (!wordBefore) return null;
    street = streetBefore(text, start);
    if (!street || street.start < covered) return null;
    lineEnd = houseNumberEnd(text, numberEnd);
    // "Im Jahr 2020", "Am Ende 1999": a year is not the house number of a street without a type.
    if (street.strength !== "typed" && /^(?:1\d|20)\d\d$/.test(raw)) return null;
  }
  // A street without a type needs a unit after it ("Paklenička 237, Kat 8"), the continental
  // layout (a comma or a new line, then "postcode town") or a postcode and town before it.
  const unit = street.strength === "bare" && unitAt(text, lineEnd) > 0;
  const digitsBefore = /\d/.test(text.slice(Math.max(0, street.start - 60), street.start));
  // ... or a town the gazetteer knows after a comma or a new line ("Cvjetna 651, Labin").
  const knownTown = street.strength === "bare" && !unit && knownTownAfter(text, street, lineEnd);
  if (street.strength === "bare" && !unit && !digitsBefore && !knownTown && !postcodeFirst(text, lineEnd)) return null;
  let place = placeAfter(text, lineEnd);
  if (street.strength === "bare" && !unit && !knownTown && place && !(place.postcode && place.town && postcodeFirst(text, lineEnd))) place = null;
  const ahead = digitsBefore ? placeBefore(text, street.start) : -1;
  const begin = ahead >= 0 ? ahead : street.start;
  const context = CONTEXT.test(before(text, begin, 40));
  const merged: IntlPlace | null = ahead >= 0 ? { end: place?.end ?? lineEnd, postcode: true, town: true } : place;
  const level = intlLevel(street.strength, merged, ahead >= 0, context, unit, knownTown);
  if (level === "no_level") return null;
  const end = Math.max(lineEnd, merged?.end ?? lineEnd);
  return { start: begin, end, level, labels: ["street"] };
}

/** After a comma or a new line (and a unit), a postcode comes first: ", 10115 Berlin", "\n1012 AB Amsterdam". */
function postcodeFirst(text: string, pos: number): boolean {
  // A unit may come first: "Leiva, 8 3º B, 02079 Cáceres", "Paklenička 237\n Kat 8\n 21000 Zadar".
  const unit = unitAt(text, pos);
  const from = unit > 0 ? unit : pos;
  const m = /^[ \t]*[,\n][\s,>]*/.exec(text.slice(from, from + 12));
  if (!m) return false;
  const t = tokenAt(text, from + m[0].length);
  return t !== null && postcodeAt(text, t.start) >= 0 && /^[\d〒]|^[A-Z]{1,2}-?\d/.test(t.raw);
}

/**
 * Levels of a street line outside the US:
 *   typed (a street type names it): + postcode -> l1; + town -> l2; alone -> l3
 *   weak ("Am Frankenberg 92c") or
 *   bare with a unit ("Paklenička 237, Kat 8"):
 *                                   + postcode -> l1; + town -> l2; alone -> l4
 *   bare ("Vinohradská 12"):        + postcode and town -> l2; + a town the gazetteer knows -> l3
 * Address words before it raise each level one step.
 */
function intlLevel(strength: Street["strength"], place: IntlPlace | null, placeFirst: boolean, context: boolean, unit: boolean, knownTown: boolean): Level {
  let level: Level = "no_level";
  const postcode = place?.postcode ?? false;
  const town = place?.town ?? false;
  if (strength === "typed") level = postcode ? "l1_confident" : town ? "l2_very_likely" : "l3_likely";
  else if (strength === "weak" || unit) level = postcode ? "l1_confident" : town ? "l2_very_likely" : context || unit ? "l4_less_likely" : "no_level";
  else level = (postcode && town) || placeFirst ? "l2_very_likely" : knownTown ? "l3_likely" : "no_level";
  if (context && level !== "no_level") level = stronger(level);
  return level;
}

export function detectAddress(text: string): Detection {
  return toDetection(findAddresses(text));
}

export const address = piiDetector("pii/address", "ADDRESS", detectAddress);
