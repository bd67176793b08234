// pii/name: people's names in running text, any culture: "María José
// García-López", "Nguyễn Văn An", "John F. Kennedy", "Aisha bin Rashid",
// "Siobhan O'Brien", "Анна Блинова", "山田 太郎".
//
// No model: capitalised runs of words are scored with a lexicon of given
// names and surnames (lexicons/name-lexicon.txt, built from MIT/Apache/ISC
// npm data packages and a hand-written list; see training/lexicons/build-name-lexicon.ts),
// titles (Mr, Dr, Mme, Herr ...) and context cues ("my name is", "Dear",
// "signed", "said"), while stop lists remove organisations ("Acme Corp",
// "Kuhic, Bahringer and Beer"), places ("New York", "Lake Leila",
// "Springfield") and calendar words.
//
// Levels, per run of capitalised words (particles such as "van", "de",
// "bin", "al" and initials "F." may sit inside a run):
//   title before the run, or a strong cue and a lexicon name       -> l1
//   two or more words, one a given name                             -> l2
//   a strong cue and any capitalised word(s)                        -> l2
//   one given name                                                  -> l3
//   surnames only (one mid-sentence, or several), a given name that
//   is also a common word ("Will", "Rose") mid-sentence            -> l4
//   a word no list knows, alone mid-sentence, no person's verb     -> l5
// Han and Hangul names are found when a short run starts with a common
// surname and stands apart from other text in that script (inside Chinese
// or Korean prose words cannot be told from names without segmentation):
// l3, l2 with a second part ("山田 太郎") or a cue.
import type { Detection } from "../../../detector.js";
import { type Finding, overlapTest, toDetection } from "../../findings.js";
import { piiDetector } from "../family.js";
import { blockedRanges } from "./blocked.js";
import { isUnitWord } from "../address/words.js";
import { findCjkNames } from "./cjk.js";
import { isKnownTown } from "../gazetteer.js";
import { COMPANY_WORD_AFTER, dropFirms, isFirm } from "./firms.js";
import { hasCue, NAMED_WORKS, PERSON_VERB_AFTER } from "./cues.js";
import type { Kind } from "./kinds.js";
import { isForeignFunctionWord, type LanguageCache, languageAt } from "./language.js";
import { CALENDAR_WORDS, KNOWN_FIRMS, PLACES, TITLES } from "./lexicons.js";
import { findRuns, isPlaceRun, isStreetName, type Run, sentenceStart } from "./runs.js";
import { coordinate, scoreRun } from "./score.js";
import { type Token, tokenize } from "./tokens.js";

function findNames(text: string): Finding[] {
  const tokens = tokenize(text);
  const out: Finding[] = [];
  const blocked = overlapTest(blockedRanges(text));
  const languages: LanguageCache = {};
  for (const { run, index } of findRuns(text, tokens)) {
    let { tokens: rt, kinds } = run;
    let at = index;
    const lang = languageAt(text, rt[0].start, languages);
    // A capitalised sentence opener that is not a name ("Please", "Hello", "Will")
    // is prose; the rest of the run may still be a name. Outside English, so is a
    // function word of the sentence's language ("Si era ...", "Li te ...", "Una persona").
    while (
      rt.length > 0 &&
      sentenceStart(text, rt[0].start) &&
      (((kinds[0] === "givenCommon" || kinds[0] === "surnameCommon") && rt.length > 1) ||
        isForeignFunctionWord(rt[0].key, lang) ||
        (lang === "de" && GERMAN_DETERMINERS.has(rt[0].key)))
    ) {
      rt = rt.slice(1);
      kinds = kinds.slice(1);
      at++;
    }
    // Outside English a sentence often opens with a verb ("Vivo en ...", "Moro na ...", "Abito a ..."):
    // a lone capitalised word there, followed by a lower-case one, is not taken without a cue.
    if (
      lang !== "en" &&
      lang !== "und" &&
      rt.length === 1 &&
      sentenceStart(text, rt[0].start) &&
      /^ \p{Ll}/u.test(text.slice(rt[0].end, rt[0].end + 2)) &&
      !hasCue(text, rt[0].start, rt[0].end).strong
    )
      continue;
    // German capitalises nouns: leading nouns and the particles after them are not part of a name
    // ("Rekord von John Elway", "Verteidigung der Panthers").
    if (lang === "de") {
      while (rt.length > 1 && germanNoun(text, tokens, at, kinds[0])) {
        rt = rt.slice(1);
        kinds = kinds.slice(1);
        at++;
        while (rt.length > 1 && kinds[0] === "particle") {
          rt = rt.slice(1);
          kinds = kinds.slice(1);
          at++;
        }
      }
      // ... and trailing ones: "Peyton Manning zum Super".
      let p = kinds.indexOf("particle");
      while (p > 0 && p < kinds.length - 1 && !kinds.slice(p + 1).some((k) => k === "given" || k === "surname")) {
        rt = rt.slice(0, p);
        kinds = kinds.slice(0, p);
        p = kinds.indexOf("particle");
      }
    }
    while (rt.length > 0 && (kinds[0] === "particle" || (kinds[0] === "initial" && rt.length === 1))) {
      rt = rt.slice(1);
      kinds = kinds.slice(1);
      at++;
    }
    // Names end in a name, not an initial: "Franco S." is "Franco S.A.".
    while (rt.length > 1 && kinds[kinds.length - 1] === "initial") {
      rt = rt.slice(0, -1);
      kinds = kinds.slice(0, -1);
    }
    if (rt.length === 0) continue;
    if (rt.length === 1 && isDateWord(text, rt[0])) continue;
    if (blocked(rt[0].start, rt[rt.length - 1].end)) continue;
    const trimmed: Run = { tokens: rt, kinds };
    if (isPlaceRun(rt, kinds, text)) continue;
    if (isTown(text, rt, kinds)) continue;
    // "Stan 99", "Kat 8", "Lgh. 887": a unit word before its number in an address, not a person ("Stan", "Kat").
    if (rt.length === 1 && isUnitWord(rt[0].raw) && /^\.? \d/.test(text.slice(rt[0].end, rt[0].end + 3))) continue;
    if (KNOWN_FIRMS.has(text.slice(rt[0].start, rt[rt.length - 1].end).toLowerCase())) continue;
    if (isStreetName(text, trimmed, tokens, at)) continue;
    // "Công ty", "Cửa hàng", "Trung tâm": the first word of a Vietnamese company word.
    if (rt.length === 1 && COMPANY_WORD_AFTER.test(text.slice(rt[0].end, rt[0].end + 12))) continue;
    // A town on a line of its own, above a line with a country: "Tseung Kwan O\nKenya".
    if (townAboveCountry(text, rt[rt.length - 1].end)) continue;
    if (isFirm(text, trimmed, tokens, at)) continue;
    // "la Loi", "del Parque", "il Comune", "o Palácio": in French, Spanish, Italian and Portuguese
    // sentences a capitalised word after an article is an institution, a place or a title.
    if (ROMANCE.has(lang) && ROMANCE_ARTICLE.test(text.slice(Math.max(0, rt[0].start - 8), rt[0].start)) && !hasCue(text, rt[0].start, rt[rt.length - 1].end).strong)
      continue;
    // A German noun is a name only with a title or a cue: "Die Katze sitzt auf dem Tisch".
    if (lang === "de" && germanNounRun(text, tokens, at, kinds) && !hasCue(text, rt[0].start, rt[rt.length - 1].end).strong && !titledAt(text, tokens, at)) continue;
    const level = scoreRun(text, trimmed, tokens, at);
    if (level === "no_level") continue;
    out.push({ start: rt[0].start, end: rt[rt.length - 1].end, level });
  }
  // Han and Hangul names go through the same firm and address checks.
  for (const f of findCjkNames(text)) if (!blocked(f.start, f.end)) out.push(f);
  dropFirms(text, out);
  coordinate(text, out);
  return out;
}

/**
 * "assediarono Pechino", "the road to Москва": a word standing alone that no name list holds and the gazetteer
 * has as a town is the town, unless a person's cue says otherwise ("my name is ...", "... said"). So is a run of
 * towns joined by particles ("da Sparta da Atene"), and a town named like a person ("Nam Định", "Vicente López")
 * after a place's cue ("I am in ...", "flew to ...").
 */
function isTown(text: string, rt: Token[], kinds: Kind[]): boolean {
  const start = rt[0].start;
  const end = rt[rt.length - 1].end;
  if (townsOnly(rt, kinds) && !personEvidence(text, start, end)) return true;
  if (rt.length < 2 || !isKnownTown(text.slice(start, end).toLowerCase())) return false;
  const cue = hasCue(text, start, end);
  return cue.place && !cue.strong;
}

/** Every word of the run a town the name lists do not hold as a given name, particles between them. */
function townsOnly(rt: Token[], kinds: Kind[]): boolean {
  let towns = 0;
  for (let k = 0; k < rt.length; k++) {
    if (kinds[k] === "particle") continue;
    if (kinds[k] === "given" || kinds[k] === "givenCommon" || !isKnownTown(rt[k].key)) return false;
    // A surname alone is left to the surname rule, which weighs the verb after it.
    if (rt.length === 1 && kinds[k] !== "unknown" && kinds[k] !== "cyrillic") return false;
    towns++;
  }
  return towns > 0 && (towns === 1 || kinds.includes("particle"));
}

/** A cue that the word is a person's name ("my name is ...", "... said", "Gaj spent", "the Bernasconi novel"), not a place's. */
function personEvidence(text: string, start: number, end: number): boolean {
  const cue = hasCue(text, start, end);
  if (cue.place) return false;
  const after = text.slice(end, end + 16);
  return cue.strong || PERSON_VERB_AFTER.test(after) || NAMED_WORKS.test(after);
}

const ROMANCE = new Set(["fr", "es", "it", "pt", "ro"]);
const ROMANCE_ARTICLE =
  /(?:^|[^\p{L}])(?:la|le|les|l'|l’|el|los|las|del|al|il|lo|gli|della|dello|degli|dei|delle|alla|allo|nel|nella|sul|sulla|du|des|au|aux|o|os|as|do|da|dos|das|no|na|nos|nas|ao)\s*$/u;

// Words before a German noun: articles, determiners, and prepositions fused with an article.
const GERMAN_DETERMINERS = new Set(
  (
    "der die das dem den des ein eine einem einen einer eines kein keine keinem keinen keiner mein meine meinem meinen meiner dein deine " +
    "sein seine seinem seinen seiner ihr ihre ihrem ihren ihrer unser unsere unserem unseren euer eure jede jeder jedes jedem jeden " +
    "diese dieser dieses diesem diesen welche welcher welches welchem welchen alle viele einige manche zum zur im am vom beim ins ans"
  ).split(" "),
);

/** Is tokens[i] a German noun: after a determiner ("dem Tisch"), or a capitalised word no name list knows? */
function germanNoun(text: string, tokens: Token[], i: number, kind: string): boolean {
  if (afterDeterminer(text, tokens[i].start)) return true;
  return kind === "unknown" || kind === "word" || kind === "givenCommon" || kind === "surnameCommon" || kind === "cyrillic";
}

/** A run of German nouns only: no known given name in it, and not a surname standing on its own. */
function germanNounRun(text: string, tokens: Token[], at: number, kinds: Kind[]): boolean {
  for (let k = 0; k < kinds.length; k++) {
    if (kinds[k] === "particle" || kinds[k] === "initial") continue;
    // A known given name is a name, unless an article stands before it ("im Garten", "die Rose").
    if (kinds[k] === "given" && !(k === 0 && afterDeterminer(text, tokens[at].start))) return false;
    if (!germanNoun(text, tokens, at + k, kinds[k])) return false;
  }
  return true;
}

function afterDeterminer(text: string, start: number): boolean {
  const prev = /(\p{L}+)\s+$/u.exec(text.slice(Math.max(0, start - 16), start));
  return prev !== null && GERMAN_DETERMINERS.has(prev[1].toLowerCase());
}

/** The run ends its line, and the next line holds only a country ("... O\nWallis and Futuna", "...\n> Kenya 12345"). */
function townAboveCountry(text: string, end: number): boolean {
  const m = /^[ \t,]*\n[\s>?*]*([\p{L}][\p{L} .'’&-]{1,40}?)[ \t]*(?:[\p{Lu}\d][\p{Lu}\d -]{1,9})?[ \t]*(?:\n|$)/u.exec(text.slice(end, end + 64));
  return m !== null && PLACES.has(m[1].toLowerCase().replace(/ & /g, " and "));
}

/** A month or weekday next to a number is a date even when it is also a given name: "am 6. Oktober 1973", "Mai 2024", "15 août". */
function isDateWord(text: string, t: Token): boolean {
  return CALENDAR_WORDS.has(t.key) && (/\d\.?\s{0,2}$/.test(text.slice(Math.max(0, t.start - 4), t.start)) || /^,?\s{0,2}\d/.test(text.slice(t.end, t.end + 4)));
}

function titledAt(text: string, tokens: Token[], at: number): boolean {
  const prev = tokens[at - 1];
  return prev !== undefined && TITLES.has(prev.raw.toLowerCase()) && text.slice(prev.end, tokens[at].start).trim() === "";
}

export function detectName(text: string): Detection {
  return toDetection(findNames(text));
}

export const name = piiDetector("pii/name", "NAME", detectName);
