// What each token is: a given name or surname (from the lexicon or its
// shape), a particle, an initial, a stop word, a place, an organisation
// word, or an unknown capitalised word.
import { LRUCache } from "lru-cache";
import { CALENDAR_WORDS, COMMON, DEMONYMS, ENGLISH, GIVEN, ORG_WORDS, PARTICLES, PLACE_SUFFIX, PLACES, STOP, SURNAME } from "./lexicons.js";
import { isCap, isInitial, type Token } from "./tokens.js";

const stripMarks = (s: string) => s.normalize("NFD").replace(/\p{M}/gu, "");

export type Kind = "given" | "givenCommon" | "surname" | "surnameCommon" | "unknown" | "cyrillic" | "word" | "initial" | "particle" | "stop" | "place" | "org";
const ENGLISH_SUFFIX = /(?:ous|ive|less|able|ible|tion|sion|ment|ness|ity|ism|ize|ise|ized|ised|ical|ally|ings)$/;
const GERMAN_SUFFIX = /^\p{Ll}+(?:ung|heit|keit|schaft|ität|ismus|nisse?)$/u;
const TEAM_COMPOUND = /^\p{L}{3,}(?:team|teams|abteilung|gruppe|bereich|afdeling|avdelning|avdeling|osztály|csapat)$/u;
const CYRILLIC_WORD = /^\p{Script=Cyrillic}+(?:['’-]\p{Script=Cyrillic}+)*$/u;

const CYRILLIC_SURNAME =
  /(?:ов|ова|ев|ева|ёв|ёва|ин|ина|ын|ына|ский|ская|цкий|цкая|ський|ська|цький|цька|енко|ук|юк|чук|ич|вич|ович|евич|йович|овна|евна|ична|івна|ївна|івич|ко)$/;
const LATIN_SURNAME = /(?:ski|ska|cki|cka|wicz|czyk|escu|poulos|opoulos|akis|idis|iadis|oglu|oğlu|ović|ovic|ević|evic|sson|dottir|dóttir|enko|chuk|shvili|dze|yan|ian)$/;

export function lexiconKind(key: string): "given" | "givenCommon" | "surname" | "surnameCommon" | null {
  let k = key;
  let given = GIVEN.has(k);
  let surname = !given && SURNAME.has(k);
  if (!given && !surname && /[^\x00-\x7f]/.test(key)) {
    k = stripMarks(key);
    given = GIVEN.has(k);
    surname = !given && SURNAME.has(k);
  }
  if (!given && !surname) {
    // Double-barrelled names: every part a name ("García-López", "White-O'Connell").
    if (key.includes("-")) {
      const parts = key.split("-").map((p) => lexiconKind(p));
      if (parts.every((p) => p !== null)) return parts[0] === "given" ? "given" : "surname";
      if (parts.some((p) => p === "given" || p === "surname")) return "surname";
    }
    if (CYRILLIC_SURNAME.test(key) && key.length > 4) return "surname";
    if (LATIN_SURNAME.test(key) && key.length > 5) return "surname";
    // "O'Brien", "D'Angelo", "McDonald", "MacArthur".
    if (/^(?:o'|o’|d'|d’|mc|mac|fitz)\p{L}{3,}/u.test(key)) return "surname";
    return null;
  }
  const common = COMMON.has(k);
  if (given) return common ? "givenCommon" : "given";
  return common ? "surnameCommon" : "surname";
}

// Bounded: a long message of unique words must not grow the cache without limit.
// A kind is never undefined, so an undefined get() is a miss.
const kindCache = new LRUCache<string, Kind>({ max: 50_000 });

export function kindOf(t: Token): Kind {
  const cacheKey = t.raw;
  const hit = kindCache.get(cacheKey);
  if (hit !== undefined) return hit;
  const kind = computeKind(t);
  kindCache.set(cacheKey, kind);
  return kind;
}

function computeKind(t: Token): Kind {
  if (PARTICLES.has(t.key) || PARTICLES.has(t.raw.toLowerCase())) {
    // Capitalised "Van", "De" may also start a surname; treated as particles either way.
    return "particle";
  }
  if (isInitial(t)) return "initial";
  if (!isCap(t)) return "stop";
  if (ORG_WORDS.has(t.key)) return "org";
  // "Infrastruktur-Team", "IT-Abteilung", "Vertriebsabteilung", "Marketingteam": a team or a department.
  if (TEAM_COMPOUND.test(t.key) || (t.key.includes("-") && ORG_WORDS.has(t.key.slice(t.key.lastIndexOf("-") + 1)))) return "org";
  // CamelCase is code or a brand ("DataFrame", "ValueError", "MongoDB"), except name prefixes
  // ("McDonald", "MacArthur", "DeShawn", "LeBron", "DiCaprio", "VanDyke").
  if (/\p{Ll}\p{Lu}/u.test(t.raw) && !/^(?:Mc|Mac|Fitz|De|Di|Da|Du|La|Le|Van|Von|St)\p{Lu}\p{Ll}+$/u.test(t.raw.replace(/-.*$/, ""))) return "word";
  if (STOP.has(t.key) || DEMONYMS.has(t.key) || (t.key.endsWith("s") && DEMONYMS.has(t.key.slice(0, -1)))) return "stop";
  if (PLACES.has(t.key)) return "place";
  // "Oktober", "Donnerstag", "Maret": a month or weekday that no name list holds.
  if (CALENDAR_WORDS.has(t.key) && lexiconKind(t.key) === null) return "stop";
  const lex = lexiconKind(t.key);
  // A capitalised Cyrillic word inside Latin-script text is most often a name
  // written in its own script ("... but Ратибор just has to ..."); scored by the caller's context.
  if (lex === null && CYRILLIC_WORD.test(t.raw)) return "cyrillic";
  // A frequent English word that is no name: "Guilty Pleasures", "Statement", "You're".
  if (lex === null) {
    const base = t.key.replace(/['’](?:re|ve|ll|d|m|s|t)$/, "").replace(/n['’]t$/, "");
    if (ENGLISH.has(base) || STOP.has(base) || (base.endsWith("s") && (ENGLISH.has(base.slice(0, -1)) || DEMONYMS.has(base.slice(0, -1))))) return "word";
    // "CEOs", "APIs": acronym plurals.
    if (/^\p{Lu}{2,}s$/u.test(t.raw)) return "word";
    // "Saturdays", "Mondays": calendar words in the plural.
    if (/^(?:mon|tues|wednes|thurs|fri|satur|sun)days$/.test(t.key)) return "stop";
    // English derivational endings no name has: "Asynchronous", "Configuration", "Deployment".
    if (t.key.length >= 8 && /^[a-z]+$/.test(t.key) && ENGLISH_SUFFIX.test(t.key)) return "word";
    // German nouns of the same kind ("Besprechung", "Sicherheit", "Mannschaft"): no name ends so.
    if (t.key.length >= 8 && GERMAN_SUFFIX.test(t.key)) return "word";
  }
  // Towns built from a name and a suffix: "Mayertboro", "Fort Steviecester"'s "Steviecester".
  if (lex === null && (PLACE_SUFFIX.test(t.key) || /-(?:under|upon|on|le|en|sur|am|an|bei)-/.test(t.key))) return "place";
  return lex ?? "unknown";
}
