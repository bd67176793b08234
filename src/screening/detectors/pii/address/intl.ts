// Street lines, postcodes and towns outside the US (pii/address reads US
// addresses in index.ts, CJK ones in cjk.ts).
//
//   street first:   name + type + number      "Wiener Straße 12", "Bertalan utca 6",
//                   glued type + number       "Hauptstraße 5", "Kalverstraat 12", "Cedervej 47A"
//                   type + name + number      "Via Roma 12", "Calle Mayor, 5", "ul. Marszałkowska 10/12",
//                                             "улица Полярная, 795", "Strada Lipscani nr. 5"
//                   preposition + name        "Am Frankenberg 92c" (weak)
//                   name + number             "Vinohradská 1234/56" (only with a postcode after it)
//   number first:   number + type + name      "12 rue de la Paix", "84795 Rua Pereira", "749 Voie des Rosiers"
//   after the street line, on the same line or the next two:
//                   [unit] postcode town      ", 10115 Berlin", ", 1012 AB Amsterdam", "\n00-950 Warszawa"
//                   [unit] town [state] postcode   ", London SW1A 2AA", ", Sydney NSW 2000", ", Toronto, ON M5V 3L9"
//                   [unit] town               ", Berlin"
//   before it:      postcode town,            "1051 Budapest, Nádor utca 5", "101000, Москва, ул. Тверская, 7"
//
// The street types, units and number markers are lexicons/street-types.txt.
// Each scan starts from a house number and reads a few tokens on either side,
// so the cost is linear in the text.
import { hasGluedType, isAfterType, isBeforeType, isUnitWord, isWeakStart } from "./words.js";
import { isKnownTown } from "../gazetteer.js";
import { isCapitalized, newlines, type Token, tokenAt, tokensBefore } from "./tokens.js";

export type Strength = "typed" | "weak" | "bare";

export interface Street {
  start: number;
  end: number;
  /** typed: a street type names it; weak: a German preposition starts it; bare: capitalised words and a number. */
  strength: Strength;
}

// Particles inside street names: "rue de la Paix", "Avenida de la Constitución", "van der Lindengracht".
const PARTICLES = new Set(
  "de del della delle dei degli di da dal dalla do dos das du des la le les l' d' van von der den dem die het ter te y e i a al el lo los las zu zum zur am an auf im in bei".split(
    " ",
  ),
);
// Types of Slavic languages, whose street names may be lower-case genitive phrases ("Trg bana Jelačića").
const SLAVIC_TYPES = new Set(["trg", "ulica", "cesta", "put", "obala", "šetalište", "náměstí", "námestie", "nábřeží", "plac", "rynek", "osiedle"]);
// Prepositions that open Czech and Slovak street names, capitalised: "K lomu", "Na Sitine", "Pod Lipou", "Ke Stírce".
const SLAVIC_PREPOSITIONS = new Set(["K", "Ku", "Ke", "Na", "Pri", "Při", "Pod", "Nad", "U", "Za", "Ve", "Vo", "Po", "Pred", "Před", "Medzi", "Mezi"]);
const isParticle = (t: Token) => PARTICLES.has(t.key) || /^[dl]['’]\p{L}/u.test(t.raw);
// A Roman or Arabic ordinal in a street name: "XII. sugárút", "3. sokače", "Calle 5 de Mayo".
const isOrdinal = (t: Token) => /^(?:[IVXLC]+\.|\d{1,3}\.?)$/.test(t.raw);
// Words that are never part of a street name before a number: months and weekdays ("März 2024", "Juni 5").
const NOT_NAME = new Set(
  (
    "january february march april may june july august september october november december " +
    "januar februar märz mai juni juli oktober dezember janvier février mars avril mai juin juillet août septembre octobre novembre décembre " +
    "enero febrero marzo abril mayo junio julio agosto septiembre octubre noviembre diciembre gennaio febbraio aprile maggio giugno luglio " +
    "settembre ottobre dicembre monday tuesday wednesday thursday friday saturday sunday montag dienstag mittwoch donnerstag freitag samstag sonntag " +
    "jan feb mar apr jun jul aug sep sept oct nov dec mon tue tues wed thu thur thurs fri sat sun " +
    "version chapter page seite kapitel figure table step level room gate platform windows iphone android python java vitamin " +
    "build milestone release update patch season episode part volume vol no nr number phase stage round day week year grade class " +
    "on at in of the a an and or to for from by with is was are were be it its this that date total item items price question answer"
  ).split(" "),
);
const nameWord = (t: Token) => (isCapitalized(t.raw) || isOrdinal(t)) && !NOT_NAME.has(t.key);

/** A house number: "12", "12a", "47B", "10/12", "2/1", "12-14", "150b", "s/n" (sin número). */
export const HOUSE_NUMBER = /^(?:\d{1,5}[a-zA-Z]?(?:[/-]\d{1,4}[a-zA-Z]?)?|s\/n\.?)$/;

/** The end of a house number with its suffix: "8 bis", "5 A" (one capital letter standing alone). */
export function houseNumberEnd(text: string, end: number): number {
  const m = /^(?: (?:bis|ter|quater)\b| [A-H](?![\p{L}\p{N}]))/u.exec(text.slice(end, end + 8));
  return m ? end + m[0].length : end;
}

/**
 * A street name written before the house number that starts at `numberStart`:
 * "Wiener Straße 12", "Hauptstraße 5", "Via Roma 12", "Calle Mayor, 5", "ul. Kedrowa, 7".
 */
export function streetBefore(text: string, numberStart: number): Street | null {
  // A number marker or a comma may stand between name and number: "Strada Lipscani nr. 5", "ул. Кедровая, 736", "No: 12".
  // "Schulgasse (Langeck) 79a": a bracketed district between them.
  const gap = /(?:[ \t]*\([^()\n]{1,24}\))?(?:[ \t]*,[ \t]*|[ \t]+)(?:(?:nr\.?|no\.?|no:|n[°º]|№|д\.|дом|буд\.|bloc|bl\.|num\.|núm\.)[ \t]*)?$/iu.exec(
    text.slice(Math.max(0, numberStart - 40), numberStart),
  );
  if (!gap) return null;
  const tokens = tokensBefore(text, numberStart - gap[0].length, 7);
  const n = tokens.length;
  if (n === 0) return null;
  const last = tokens[n - 1];
  // "Gunnars Väg", "Güven Yaka Sokak", "Крестьянская пл.", "Bertalan utca": name words, then the type.
  if (n >= 2 && isAfterType(last.raw)) {
    const start = nameStart(tokens, n - 2, 4);
    if (start !== null) return { start: tokens[start].start, end: last.end, strength: "typed" };
  }
  // "Hauptstraße", "Kleine Kirchstr.", "Thomas-Dehler-Str.", "van der Lindengracht".
  if (isCapitalized(last.raw) || isParticle(last)) {
    if (hasGluedType(last.raw) && !/^\p{Ll}/u.test(last.raw)) {
      const start = n >= 2 ? nameStart(tokens, n - 2, 2) : null;
      return { start: start !== null ? tokens[start].start : last.start, end: last.end, strength: "typed" };
    }
  }
  // "Via Roma", "Calle 5 de Mayo", "ul. Marszałkowska", "Ulica kneza Branimira", "улица Полярная".
  for (let j = n - 2; j >= 0; j--) {
    const t = tokens[j];
    if (isBeforeType(t.raw)) {
      const inner = tokens.slice(j + 1);
      // Capitalised words, ordinals and particles only: "place for Athens 2004" is no street.
      // Slavic street names are often lower-case genitive phrases: "Trg hrvatskih branitelja 3".
      const slavic = SLAVIC_TYPES.has(t.key) && isCapitalized(t.raw);
      // Dates name streets too: "Calle 5 de Mayo", "Avenida 20 de Noviembre".
      const fits = (x: Token) => isCapitalized(x.raw) || isOrdinal(x) || isParticle(x) || /^\d/.test(x.raw) || (slavic && /^\p{Ll}+$/u.test(x.raw));
      if ((slavic || inner.some((x) => isCapitalized(x.raw) && !NOT_NAME.has(x.key))) && inner.every((x) => fits(x) && (!/[.]$/.test(x.raw) || isOrdinal(x)))) {
        // "Petite rue Ysee": an adjective before the type belongs to it.
        const lead = j > 0 && isCapitalized(tokens[j - 1].raw) && /^\p{Ll}/u.test(t.raw) && !/[.]$/.test(tokens[j - 1].raw) ? j - 1 : j;
        return { start: tokens[lead].start, end: last.end, strength: "typed" };
      }
      break;
    }
    if (/[.]$/.test(t.raw) && !isOrdinal(t)) break;
  }
  // "Am Frankenberg", "Auf dem Herberg", "An der Kirche": a German preposition and a capitalised name.
  for (let j = Math.max(0, n - 4); j < n - 1; j++) {
    if (!isWeakStart(tokens[j].raw) || !isCapitalized(tokens[j].raw)) continue;
    const inner = tokens.slice(j + 1);
    if (inner.every((x) => isParticle(x) || nameWord(x)) && inner.some((x) => isCapitalized(x.raw) && !isParticle(x))) {
      return { start: tokens[j].start, end: last.end, strength: "weak" };
    }
  }
  // "K lomu", "Na Sitine", "Pri strelnici", "U Nemocnice": a Czech or Slovak preposition and one or two words,
  // lower-case ones too. Weak like the German ones: only with a postcode, a town or address words.
  for (let j = Math.max(0, n - 3); j < n - 1; j++) {
    if (!SLAVIC_PREPOSITIONS.has(tokens[j].raw)) continue;
    const inner = tokens.slice(j + 1);
    if (inner.every((x) => /^\p{L}{2,}$/u.test(x.raw) && !NOT_NAME.has(x.key))) return { start: tokens[j].start, end: last.end, strength: "weak" };
  }
  // "Vinohradská", "Antuna Mihanovića", "Ацо Караманов": capitalised words and nothing else.
  if (nameWord(last) && !/[.]$/.test(last.raw) && !isOrdinal(last)) {
    const start = nameStart(tokens, n - 1, 3);
    if (start !== null) return { start: tokens[start].start, end: last.end, strength: "bare" };
  }
  return null;
}

/** Walks back from tokens[from] over up to `max` capitalised words, ordinals and inner particles; the first index, or null. */
function nameStart(tokens: Token[], from: number, max: number): number | null {
  let start: number | null = null;
  let words = 0;
  for (let i = from; i >= 0 && words < max; i--) {
    const t = tokens[i];
    if (/[.]$/.test(t.raw) && !isOrdinal(t)) break;
    if (nameWord(t) && !isBeforeType(t.raw)) {
      start = i;
      words++;
    } else if (isParticle(t) && i < from) continue;
    else break;
  }
  // Never start on a particle.
  return start;
}

/**
 * A number-first street line with a type after the number: "12 rue de la Paix",
 * "8479 Boulevard Montorgueil", "84795 Rua Pereira", "12, avenue Victor Hugo".
 */
export function streetAfterNumber(text: string, numberStart: number, numberEnd: number): Street | null {
  let pos = houseNumberEnd(text, numberEnd);
  if (text[pos] === ",") pos++;
  const type = tokenAt(text, pos);
  if (!type || type.gap.length > 2 || /\n/.test(type.gap) || !isBeforeType(type.raw)) return null;
  // "$15 via Amazon": "via" after a number is the English preposition (Italian streets put the number last).
  if (type.key === "via" || type.key === "vía") return null;
  let end = type.end;
  let names = 0;
  let t = tokenAt(text, type.end);
  for (let i = 0; i < 6 && t; i++) {
    if (/[\n,]/.test(t.gap) || t.gap.length > 2) break;
    if (nameWord(t) && !/^\d/.test(t.raw)) {
      names++;
      end = t.end;
    } else if (!isParticle(t)) break;
    t = tokenAt(text, t.end);
  }
  if (names === 0) return null;
  // A sentence period after the last name word is not part of it.
  if (text[end - 1] === "." && !/^\p{Lu}\.$/u.test(text.slice(end - 2, end))) end--;
  return { start: numberStart, end, strength: "typed" };
}

// Postcodes, tried in order at one position (sticky regexes).
const POSTCODES: readonly RegExp[] = [
  /〒\s?\d{3}-?\d{4}(?!\d)/y, // Japan
  /(?:GIR 0AA|[A-Z]{1,2}\d[A-Z\d]? ?\d[ABD-HJLNP-UW-Z]{2})(?![\p{L}\p{N}])/uy, // United Kingdom
  /[ABCEGHJ-NPRSTVXY]\d[ABCEGHJ-NPRSTV-Z] ?\d[ABCEGHJ-NPRSTV-Z]\d(?![\p{L}\p{N}])/uy, // Canada
  /[AC-FHKNPRTV-Y]\d[\dW] ?[\dAC-FHKNPRTV-Y]{4}(?![\p{L}\p{N}])/uy, // Ireland (Eircode)
  /\d{4} ?[A-Z]{2}(?![\p{L}\p{N}])/uy, // Netherlands
  /(?:[A-Z]{1,2}-|LV-?|LT-?|MD-?|AZ ?)\d{4,5}(?![\p{L}\p{N}])/uy, // country-prefixed: D-10115, CH-8000, LV-1050, AZ1000
  /\d{5}-\d{3}(?![\p{L}\p{N}])/uy, // Brazil
  /\d{4}-\d{3}(?![\p{L}\p{N}])/uy, // Portugal
  /\d{2}-\d{3}(?![\p{L}\p{N}])/uy, // Poland
  /\d{3}-\d{4}(?![\p{L}\p{N}])/uy, // Japan without 〒
  /\d{3} \d{2}(?![\p{L}\p{N}])/uy, // Sweden, Czechia, Slovakia, Greece
  /\d{2} \d{3}(?![\p{L}\p{N}])/uy, // the same, grouped the other way
  /\d{5}(?:-\d{4})?(?![\p{L}\p{N}])/uy, // five digits, US ZIP+4
  /\d{4}(?![\p{L}\p{N}])/uy, // four digits
  /\d{6}(?![\p{L}\p{N}])/uy, // six digits (Russia, India, China, Romania, Vietnam)
  /\d{3} \d{3}(?![\p{L}\p{N}])/uy, // India written in two groups
];

/** The end of a postcode starting at `pos`, or -1. */
export function postcodeAt(text: string, pos: number): number {
  for (const re of POSTCODES) {
    re.lastIndex = pos;
    const m = re.exec(text);
    if (m) return pos + m[0].length;
  }
  return -1;
}

// Lower-case words inside town names: "Frankfurt am Main", "Châlons-en-Champagne", "Reggio nell'Emilia".
const TOWN_INNER = new Set(
  "am an der den die bei im in ob unter sur sous lès les le la de del della di do da dos das du des en y e i a al nad pod na pri upon on under nell' sul".split(" "),
);
// Where a town ends: the end of the line or text, or punctuation.
const TOWN_END = /^(?:$|[\s]*(?:[,.;:!?)\]"'»]|\n|\(|-\s|$))/;

interface Town {
  end: number;
}

/** One to four capitalised words (inner "am", "de", "sur" allowed) starting at the token `t`. */
function townAt(text: string, t: Token | null): Town | null {
  if (!t || !isCapitalized(t.raw) || /^\d/.test(t.raw) || isUnitWord(t.raw)) return null;
  let end = t.end;
  let words = 1;
  let cur = tokenAt(text, t.end);
  while (cur && words < 5 && !/[\n,]/.test(cur.gap) && cur.gap.length <= 2) {
    if (isCapitalized(cur.raw) && !/^\d/.test(cur.raw) && !postcodeLike(text, cur.start)) {
      words++;
      end = cur.end;
    } else if (TOWN_INNER.has(cur.key) || (/^\p{Ll}/u.test(cur.raw) && words <= 2 && TOWN_END.test(text.slice(cur.end, cur.end + 3)))) {
      // "Castellano umbro", "Carè a mare": a lower-case word ending the town.
      const next = tokenAt(text, cur.end);
      if (TOWN_INNER.has(cur.key) && next && isCapitalized(next.raw) && !/[\n,]/.test(next.gap)) {
        words++;
        end = next.end;
        cur = tokenAt(text, next.end);
        continue;
      }
      if (!TOWN_INNER.has(cur.key)) {
        end = cur.end;
        break;
      }
      break;
    } else break;
    cur = tokenAt(text, cur.end);
  }
  // A sentence period is not part of the town ("... 10115 Berlin.").
  if (text[end - 1] === "." && end - t.start > 2 && !/\p{Lu}\.$/u.test(text.slice(end - 2, end))) end--;
  // "Musterstadt (BY)", "Roma (RM)": a province code in brackets.
  const province = /^ ?\(\p{Lu}{1,3}\.?\)/u.exec(text.slice(end, end + 8));
  if (province) end += province[0].length;
  return { end };
}

const postcodeLike = (text: string, pos: number) => postcodeAt(text, pos) >= 0;

/**
 * After a comma or a new line, a town the gazetteer knows: "Cvjetna 651, Labin", "Hollého 8, Čadca",
 * "Huerta Mario, 3, Talavera de la Reina". The town's first one to four words are looked up.
 */
export function knownTownAfter(text: string, street: Street, pos: number): boolean {
  // "Chapter Seven 12, London", "Paris 2, Lyon": a word that is never a street name before the line, or a town as its name.
  const prev = /(\p{Lu}\p{L}*)\s+$/u.exec(text.slice(Math.max(0, street.start - 16), street.start));
  if (prev && NOT_NAME.has(prev[1].toLowerCase())) return false;
  if (
    isKnownTown(
      text
        .slice(street.start, pos)
        .replace(/\s+\S+$/, "")
        .toLowerCase(),
    )
  )
    return false;
  const m = /^[ \t]*[,\n][\s,>]*/.exec(text.slice(pos, pos + 12));
  if (!m) return false;
  const t = tokenAt(text, pos + m[0].length);
  const town = townAt(text, t);
  if (!t || !town) return false;
  // The town ends the line or the clause ("Arsenal 2, Chelsea 1" is a score, "Now 21, Wilson was ..." a sentence).
  if (!TOWN_END.test(text.slice(town.end, town.end + 3)) || /^\s*\d/.test(text.slice(town.end, town.end + 4))) return false;
  if (town.end - t.start < 3) return false;
  const words = text.slice(t.start, town.end).replace(/[.,]$/, "").split(" ");
  for (let n = Math.min(words.length, 4); n >= 1; n--) if (isKnownTown(words.slice(0, n).join(" ").toLowerCase())) return true;
  return false;
}

export interface Place {
  end: number;
  postcode: boolean;
  town: boolean;
}

/**
 * A unit, postcode and town after a street line ending at `pos`, on the same
 * line or the next two: ", 10115 Berlin", ", London SW1A 2AA", "\nMadona\nLV-1050",
 * " 8 OG, 1010 Wien", ", Sydney NSW 2000", ", Toronto, ON M5V 3L9", ", Berlin".
 */
export function placeAfter(text: string, pos: number): Place | null {
  let at = pos;
  let unitEnd = -1;
  const unit = unitAt(text, at);
  if (unit > 0) {
    at = unit;
    unitEnd = unit;
  }
  // Brazil: "Rua Augusta, 1500 - Consolação, São Paulo - SP, 01310-100": a district after a dash first.
  const district = /^ ?[-–] ?(\p{Lu}[\p{L}\p{M}'’.-]*(?: [\p{L}\p{M}'’.-]+){0,3}),/u.exec(text.slice(at, at + 48));
  if (district) at += district[0].length;
  const t = tokenAt(text, at);
  if (!t || newlines(t.gap) > 2) return unitEnd > 0 ? { end: unitEnd, postcode: false, town: false } : null;
  const pc = postcodeAt(text, t.start);
  if (pc >= 0) {
    const town = townAt(text, tokenAt(text, pc));
    const next = tokenAt(text, pc);
    if (town && next && newlines(next.gap) <= 1 && !/,/.test(next.gap)) return { end: town.end, postcode: true, town: true };
    // "..., LV-1050" or "..., 01310-100" at the end: a postcode after the street line alone.
    return { end: pc, postcode: true, town: false };
  }
  const town = townAt(text, t);
  if (!town) return unitEnd > 0 ? { end: unitEnd, postcode: false, town: false } : null;
  // Town, then an optional second name (region, state) and a state code, then a postcode.
  let end = town.end;
  // "São Paulo - SP": a state code after a dash.
  const uf = /^ [-–] \p{Lu}{2}(?![\p{L}\p{N}])/u.exec(text.slice(end, end + 6));
  if (uf) end += uf[0].length;
  let cur = tokenAt(text, end);
  for (let i = 0; i < 3 && cur && newlines(cur.gap) <= 1; i++) {
    const p = postcodeAt(text, cur.start);
    if (p >= 0 && !/^\p{Lu}\p{Ll}/u.test(cur.raw)) return { end: p, postcode: true, town: true };
    // "NSW", "ON", "Himachal Pradesh": a state or region between the town and the postcode.
    if (/^\p{Lu}{2,3}$/u.test(cur.raw) || isCapitalized(cur.raw)) {
      const region = /^\p{Lu}{2,3}$/u.test(cur.raw) ? { end: cur.end } : townAt(text, cur);
      if (!region) break;
      const after = tokenAt(text, region.end);
      if (after && postcodeAt(text, after.start) >= 0 && newlines(after.gap) <= 1) {
        cur = after;
        end = region.end;
        continue;
      }
      break;
    }
    break;
  }
  if (!TOWN_END.test(text.slice(end, end + 3))) return unitEnd > 0 ? { end: unitEnd, postcode: false, town: false } : null;
  return { end, postcode: false, town: true };
}

/**
 * A unit after the house number: "Apt. 5", "Lgh. 342", "Zimmer 487", "8 OG", "2º B", "3 hoog achter",
 * "2e verdieping", "7. tv", "A 44", "кв. 425", "Piano 3". The end of the unit, or -1.
 */
export function unitAt(text: string, pos: number): number {
  let t = tokenAt(text, pos);
  if (!t || newlines(t.gap) > 1) return -1;
  let end = -1;
  // "8 OG", "2e verdieping", "7. tv", "2º B", "1º A", "3 hoog": a number or ordinal, then a unit word or a letter.
  if (/^\d{1,3}(?:\.|º|ª|e|er|re|o|a)?$/.test(t.raw)) {
    const w = tokenAt(text, t.end);
    if (w && !/[\n,]/.test(w.gap) && (isUnitWord(w.raw) || /^\p{Lu}\.?$/u.test(w.raw) || /^(?:dcha|izda|izq|dr|esq|th|tv|mf|st)\.?$/i.test(w.raw))) {
      end = w.end;
      t = tokenAt(text, w.end);
      // "3 hoog achter", "3º Dcha.": one more word.
      if (t && !/[\n,]/.test(t.gap) && /^(?:achter|voor|dcha|izda|izq|links|rechts|dr|tv|th|mf)\.?$/i.test(t.raw)) end = t.end;
      return end;
    }
    return -1;
  }
  // "A 44", "B 35" (a staircase and flat in Finland): one capital letter and a number.
  if (/^[A-H]$/.test(t.raw)) {
    const id = tokenAt(text, t.end);
    if (id && !/[\n,]/.test(id.gap) && /^\d{1,4}$/.test(id.raw)) return id.end;
    return -1;
  }
  if (!isUnitWord(t.raw)) return -1;
  end = t.end;
  let id = tokenAt(text, t.end);
  if (id && id.raw === "#") id = tokenAt(text, id.end);
  if (id && !/\n/.test(id.gap) && id.gap.length <= 2 && /^[\p{N}\p{L}]{1,6}(?:[-/]\d{1,4})?[.º]?$/u.test(id.raw) && /\d|^\p{Lu}$/u.test(id.raw)) {
    end = id.end;
    // "9.em 98 ajtó", "Bloc 32/33, Ap. 29": a second unit.
    const more = unitAt(text, end);
    if (more > 0) end = more;
  } else if (!/^(?:bajo|ático|atico|r\/c)$/i.test(t.key)) return -1;
  return end;
}

/**
 * "1051 Budapest, " or "101000, Москва, " just before a street line starting at `start`:
 * the start of the postcode, or -1.
 */
export function placeBefore(text: string, start: number): number {
  const window = text.slice(Math.max(0, start - 60), start);
  const m = /(?:^|[\s:>(])(\d{4,6}),? (\p{Lu}[\p{L}\p{M}'’.-]*(?: [\p{L}\p{M}'’.-]+){0,2}),\s*$/u.exec(window);
  if (!m) return -1;
  const lead = /^[\s:>(]/.test(m[0]) ? 1 : 0;
  return start - window.length + m.index + lead;
}
