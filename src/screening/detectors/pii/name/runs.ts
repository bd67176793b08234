// Runs of capitalised words, initials and inner particles: the candidates
// for a name, and the checks that make a run a place or a street instead.
import { STREET_SUFFIXES } from "../address/index.js";
import { hasGluedType, isAfterType, isBeforeType } from "../address/words.js";
import { hasCue } from "./cues.js";
import { type Kind, kindOf, lexiconKind } from "./kinds.js";
import { isKnownTown } from "../gazetteer.js";
import { GIVEN, PLACE_PREFIXES, PLACES, STOP_NEVER_NAME, TITLES } from "./lexicons.js";
import { isCap, type Token } from "./tokens.js";

export interface Run {
  tokens: Token[];
  kinds: Kind[];
}

/** Single spaces (or a line-internal "F. " initial gap) join name words; anything else ends a run. */
export function joined(text: string, a: Token, b: Token): boolean {
  const gap = text.slice(a.end, b.start);
  if (gap === " " || gap === "\u00a0") return true;
  // "F. Kennedy": the initial's period was kept in the token, the gap is the space.
  return a.raw.endsWith(".") && a.end === b.start - 1 && text[a.end] === " ";
}

export function sentenceStart(text: string, start: number): boolean {
  let i = start - 1;
  while (
    i >= 0 &&
    (text[i] === " " ||
      text[i] === "\t" ||
      text[i] === '"' ||
      text[i] === "“" ||
      text[i] === "„" ||
      text[i] === "«" ||
      text[i] === "'" ||
      text[i] === "(" ||
      text[i] === "*" ||
      text[i] === "-")
  )
    i--;
  // "¿Cuántos ...?", "¡Hola!": Spanish opens a question or an exclamation.
  if (text[i] === "¿" || text[i] === "¡") return true;
  if (i < 0) return true;
  const c = text[i];
  if (c === ".") {
    // "Mrs. Baybüre", "John F. Kennedy": a title's or initial's period does not end a sentence.
    let w = i;
    while (w > 0 && /[\p{L}]/u.test(text[w - 1])) w--;
    const word = text.slice(w, i + 1).toLowerCase();
    if (TITLES.has(word) || /^\p{L}\.$/u.test(word)) return false;
  }
  return c === "." || c === "!" || c === "?" || c === "\n" || c === ":" || c === ">" || c === "…" || c === ";";
}

// Toponym patterns: "Bernardo do Norte", "Souza de Nossa Senhora", "Florina sardo", "Settimo Lorena ligure".
const TOPONYM_AFTER =
  /^ (?:do|da|de|dos|das) (?:Norte|Sul|Leste|Oeste|Descoberto|Nossa Senhora|Minas|Campo|Monte|Mar)\b|^ (?:sardo|ligure|salentino|laziale|calabro|veneto|umbro|lombardo|marittimo|terme|del friuli|nell'emilia|in chianti|sul mare|al mare)\b/;

export function isPlaceRun(run: Token[], kinds: Kind[], text?: string): boolean {
  const phrase = run.map((t) => t.key).join(" ");
  // "Las Palmas de Gran Canaria", "La Coruña": a capitalised place article or prefix just before.
  if (text) {
    const prefix = /(?:^|[\s(])(\p{Lu}[\p{L}.]*) $/u.exec(text.slice(Math.max(0, run[0].start - 12), run[0].start));
    if (prefix && PLACE_PREFIXES.has(prefix[1].toLowerCase())) return true;
  }
  if (text && TOPONYM_AFTER.test(text.slice(run[run.length - 1].end, run[run.length - 1].end + 22))) return true;
  if (text && / (?:do|da|de|dos|das) (?:norte|sul|leste|oeste|descoberto|nossa senhora)\b/i.test(text.slice(run[0].start, run[run.length - 1].end + 14))) return true;
  if (PLACES.has(phrase) || (run.length >= 2 && isTownPhrase(phrase, run[0].key, run[run.length - 1].key))) return true;
  // "Lake Leila", "Port Keyon", "West Abigale": towns, whatever the second word is.
  if (run.length >= 2 && PLACE_PREFIXES.has(run[0].key)) return true;
  return kinds.includes("place");
}

/**
 * Is a phrase of several words a town ("Rio de Janeiro", "Ciudad Nezahualcóyotl")? Towns named after a person
 * and written as one ("Vicente López", "Francisco Morato") stay names: a given name and a known name word.
 */
function isTownPhrase(phrase: string, first: string, last: string): boolean {
  return isKnownTown(phrase) && !(GIVEN.has(first) && lexiconKind(last) !== null);
}

/** Length in tokens of a multi-word place name starting at tokens[i] ("New York", "San Francisco"), or 0. */
function placeAt(text: string, tokens: Token[], i: number): number {
  if (!isCap(tokens[i])) return 0;
  let phrase = tokens[i].key;
  let found = 0;
  for (let j = i + 1; j < Math.min(tokens.length, i + 4); j++) {
    if (!joined(text, tokens[j - 1], tokens[j])) break;
    phrase += ` ${tokens[j].key}`;
    if (PLACES.has(phrase)) found = j - i + 1;
  }
  return found;
}

/** Splits tokens into runs of capitalised words, initials and inner particles. */
export function findRuns(text: string, tokens: Token[]): { run: Run; index: number }[] {
  const out: { run: Run; index: number }[] = [];
  let i = 0;
  while (i < tokens.length) {
    let k = kindOf(tokens[i]);
    // "Georgia Smith", "Paris Hilton": a place that is also a given name, followed by a surname.
    if (k === "place" && GIVEN.has(tokens[i].key) && i + 1 < tokens.length && joined(text, tokens[i], tokens[i + 1])) {
      const next = kindOf(tokens[i + 1]);
      if (next === "surname" || next === "given" || next === "initial" || next === "unknown") k = "given";
    }
    // "everyone calls me Salvador": a place that is a given name, right after a cue.
    if (k === "place" && GIVEN.has(tokens[i].key) && isCap(tokens[i]) && hasCue(text, tokens[i].start, tokens[i].end).strong) k = "given";
    // "my kid Jan", "Dear Will": a capitalised stop word that is a given name, right after a cue.
    if (
      k === "stop" &&
      isCap(tokens[i]) &&
      GIVEN.has(tokens[i].key) &&
      !STOP_NEVER_NAME.has(tokens[i].key) &&
      hasCue(text, tokens[i].start, tokens[i].end).strong &&
      !sentenceStart(text, tokens[i].start)
    ) {
      k = "givenCommon";
    }
    if (k === "stop" || k === "word" || k === "particle" || k === "org" || k === "place") {
      i += Math.max(1, k === "stop" || k === "word" ? placeAt(text, tokens, i) : 1);
      continue;
    }
    const place = placeAt(text, tokens, i);
    if (place > 0) {
      i += place;
      continue;
    }
    // "West Abigale", "Fort Gisselle": a place prefix takes the next word with it.
    if (PLACE_PREFIXES.has(tokens[i].key) && i + 1 < tokens.length && joined(text, tokens[i], tokens[i + 1]) && isCap(tokens[i + 1])) {
      i += 2;
      continue;
    }
    const runTokens: Token[] = [tokens[i]];
    const kinds: Kind[] = [k];
    let j = i + 1;
    while (j < tokens.length && runTokens.length < 6 && joined(text, tokens[j - 1], tokens[j])) {
      let kj = kindOf(tokens[j]);
      // "Nguyễn Văn An": a capitalised stop word that is also a name continues a name.
      if (kj === "stop" && isCap(tokens[j]) && !STOP_NEVER_NAME.has(tokens[j].key)) {
        const lex = lexiconKind(tokens[j].key);
        if (lex === "given" || lex === "surname" || lex === "givenCommon") kj = lex;
      }
      if (kj === "stop" || kj === "word" || kj === "place" || placeAt(text, tokens, j) > 0) break;
      runTokens.push(tokens[j]);
      kinds.push(kj);
      j++;
    }
    // A run never ends on a particle ("Kevin de").
    while (kinds.length > 1 && kinds[kinds.length - 1] === "particle") {
      kinds.pop();
      runTokens.pop();
    }
    out.push({ run: { tokens: runTokens, kinds }, index: i });
    i = i + Math.max(1, runTokens.length);
  }
  return out;
}

/**
 * "Cassandre Parkway", "Maxime Mountains street": a run that ends in a street
 * suffix no one has as a surname, or is followed by "street"/"road", is a street.
 */
export function isStreetName(text: string, run: Run, tokens: Token[], index: number): boolean {
  const lastIndex = run.tokens.length - 1;
  const last = run.tokens[lastIndex];
  // "Hauptstraße", "Kalverstraat", "Cedervej": a street type glued to the name.
  if (hasGluedType(last.raw)) return true;
  // "Ojāra Vācieša iela", "Güven Yaka Sokak", "Bertalan utca": a street type after it; "rue de Rivoli",
  // "Via Roma", "ul. Marszałkowska", "улица Полярная": one before it.
  const after = /^ (\S+)/u.exec(text.slice(last.end, last.end + 24));
  if (after && (isAfterType(after[1].replace(/[,;:!?)]+$/, "")) || isAfterType(after[1].replace(/[.,;:!?)]+$/, "")))) return true;
  const beforeType = /(?:^|\s)(\S+) $/u.exec(text.slice(Math.max(0, run.tokens[0].start - 20), run.tokens[0].start));
  if (beforeType && isBeforeType(beforeType[1])) return true;
  // The type inside the run: "İsmet Paşa Caddesi", "Strada Verena", "Camino Cuauhtémoc".
  // ("Virgil van Dijk", "Jan van der Laan" are people: a particle makes the last word a surname.)
  if (run.tokens.length >= 2 && ((isAfterType(last.raw) && !run.kinds.includes("particle")) || isBeforeType(run.tokens[0].raw))) return true;
  // "Svoradova 15,", "Vatrogasna 827", "Vodný vrch 8\n": a capitalised word (and lower-case ones) and a house number closing a line or a clause.
  if (
    /^(?: \p{Ll}+){0,2} \d{1,4}[a-zA-Z]?(?:\/\d{1,4})?(?:[,\n]|\s*$)/u.test(text.slice(last.end, last.end + 30)) &&
    run.kinds.every((k) => k === "unknown" || k === "surname" || k === "particle")
  )
    return true;
  // "10115 Berlin", "65 493 Stropkov", "\n1012 AB Amsterdam": a town after a postcode that starts a line or follows a comma.
  if (
    /(?:^|[,\n][ \t>]*)(?:\d{4,5}|\d{2,3} \d{2,3}|\d{2}-\d{3}|\d{4} [A-Z]{2}|[A-Z]{1,2}-\d{4,5}) $/.test(
      text.slice(Math.max(0, run.tokens[0].start - 16), run.tokens[0].start),
    )
  )
    return true;
  if (run.tokens.length >= 2 && STREET_SUFFIXES.has(last.key)) {
    const k = run.kinds[lastIndex];
    if (k !== "given" && k !== "surname") return true;
  }
  const before = text.slice(Math.max(0, run.tokens[0].start - 60), run.tokens[0].start);
  if (/\b(?:corner of|intersection of|junction of)\s+(?:[^.,;!?]{1,40}\s+and\s+)?$/i.test(before)) return true;
  // "The bus station is on Halle Grove", "lives on Eloy Route": a street after "on".
  if (STREET_SUFFIXES.has(last.key) && run.tokens.length >= 2 && /\b(?:on|along|off|via|at the corner of|side of|end of|part of)\s+$/i.test(before)) return true;
  if (
    /^\s+and\s+\S+(?:\s+\S+)?\s*$/.test(text.slice(last.end, last.end + 30)) &&
    /\b(?:corner of|intersection of)\b/i.test(text.slice(Math.max(0, run.tokens[0].start - 40), run.tokens[0].start))
  )
    return true;
  const next = tokens[index + run.tokens.length];
  if (next === undefined || !joined(text, last, next)) return false;
  // "Weber Motorway", "Cooper Mountains": a street suffix right after the run (a word no one has as a surname).
  return (
    /^(?:street|st|road|rd|avenue|ave|lane|boulevard|blvd|drive|square|place|way)$/.test(next.key) ||
    (isCap(next) && STREET_SUFFIXES.has(next.key) && kindOf(next) === "word")
  );
}
