// Context around a run of capitalised words: the words before it ("my name
// is", "Dear", "work for", "in") and after it ("said", "'s") that make it a
// person, a place or an organisation.
import { TITLES } from "./lexicons.js";

// Cue words right before a run (looked up as the last one, two or three words).
const CUES_BEFORE = new Set(
  [
    "my name is",
    "my name's",
    "name is",
    "name",
    "named",
    "called",
    "call me",
    "calls me",
    "called me",
    "i am",
    "i'm",
    "this is",
    "it's",
    "dear",
    "hi",
    "hello",
    "hey",
    "thanks",
    "thank you",
    "signed",
    "sincerely",
    "regards",
    "cheers",
    "best",
    "yours",
    "from",
    "to",
    "cc",
    "attn",
    "c/o",
    "contact",
    "ask for",
    "speak to",
    "speak with",
    "talk to",
    "talk with",
    "meet",
    "met",
    "married",
    "daughter",
    "son",
    "wife",
    "husband",
    "partner",
    "friend",
    "boss",
    "colleague",
    "manager",
    "brother",
    "sister",
    "mother",
    "father",
    "mom",
    "dad",
    "uncle",
    "aunt",
    "grandmother",
    "grandfather",
    "cousin",
    "kid",
    "child",
    "baby",
    "patient",
    "client",
    "customer",
    "guardian",
    "beneficiary",
    "under",
    "said",
    "says",
    "by",
    "with",
    "featuring",
    "feat",
    "starring",
    "directed by",
    "written by",
    "according to",
    "mr",
    "mrs",
    "ms",
    "dr",
    "ceo",
    "founder",
    "author",
    "singer",
    "producer",
    "director",
    "actor",
    "actress",
    "player",
    "coach",
    "teacher",
    "student",
    "assistant to",
    "and",
    "or",
    // Other languages: "mein Name ist", "je m'appelle", "me llamo", "mi chiamo", "меня зовут" ...
    "heiße",
    "heißt",
    "namens",
    "genannt",
    "ich bin",
    "liebe",
    "lieber",
    "hallo",
    "grüße",
    "gruß",
    "sagte",
    "m'appelle",
    "s'appelle",
    "appelle",
    "bonjour",
    "cher",
    "chère",
    "llamo",
    "llama",
    "nombre es",
    "hola",
    "querido",
    "querida",
    "estimado",
    "estimada",
    "chiamo",
    "chiama",
    "caro",
    "cara",
    "ciao",
    "nome é",
    "chamo",
    "chama",
    "olá",
    "naam is",
    "ik ben",
    "heet",
    "beste",
    "heter",
    "namn är",
    "hej",
    "nazywam się",
    "jmenuji se",
    "меня зовут",
    "зовут",
  ].filter((c) => !["from", "to", "and", "or"].includes(c)),
);
// Cues that only count when a colon follows them ("From: ...", "Name: ...").
const COLON_CUES = new Set(["name", "from", "to", "cc", "attn", "signed", "by", "contact", "patient", "client", "customer", "author", "user", "bot", "directed by"]);
const PLACE_CUES = new Set([
  "in",
  "from",
  "near",
  "visit",
  "visited",
  "visiting",
  "city of",
  "state of",
  "town of",
  "moved to",
  "moving to",
  "based in",
  "lives in",
  "live in",
  "trip to",
  "travelling to",
  "traveling to",
  "flew to",
  "fly to",
  "arrived at",
  "arrived in",
]);
const CUE_AFTER =
  /^(?:'s|’s|\s+(?:said|says|told|asked|replied|wrote|explained|added|shouted|whispered|is a \d|was born|who|himself|herself)\b|\s*,\s*(?:the|who|aged?|\d)\b|\s*\(\d)/;
export const NAMED_WORKS =
  /^\s(?:novel|novels|book|books|song|songs|album|biography|memoir|family|household|estate|administration|case|trial|era|years|brothers|sisters|twins|poem|play|painting|portrait|interview|quote|speech)\b/;
// Verbs that follow a person at the start of a sentence: "Chizoba is ...", "Martti had given ...".
export const PERSON_VERB_AFTER =
  /^\s+(?:is|was|has|had|have|says|said|spent|lives|lived|works|worked|went|gave|told|asked|wrote|called|loves|likes|wants|thinks|knows|became|joined|left|met|shouted|replied|will|would|can|could|did|does)\b/;

/** A list of names right after these words is a list of firms: "I work for Bonsra-Agyare and Andorful". */
export const ORG_LIST_CUE =
  /\b(?:work(?:s|ed|ing)? (?:for|at)|employed (?:by|at)|ceo of|cfo of|cto of|founder of|job at|position at|internship at|a year at|signed (?:to|with))\s*$/i;

// Words before a run that make it an organisation ("I work for Poirier EI").
const ORG_CUES = new Set([
  "work for",
  "works for",
  "worked for",
  "working for",
  "work at",
  "works at",
  "worked at",
  "working at",
  "employed by",
  "employed at",
  "a year at",
  "internship at",
  "job at",
  "position at",
  "ceo of",
  "cfo of",
  "cto of",
  "founder of",
  "co-founder of",
  "company",
  "firm",
  "agency",
  "startup",
  "brand",
  "recorded for",
  "signed to",
  "signed with",
  "label",
]);

const CUE_WORD = /[\p{L}\p{M}'’/]+/gu;

/** The last one, two and three lower-case words before `start` (same line, no sentence break), and whether a colon ends the gap. */
function cueWords(text: string, start: number): { words: string[]; colon: boolean } {
  // The line break is looked for inside the window only: lastIndexOf from `start` crossed the whole text before it.
  let window = text.slice(Math.max(0, start - 40), start);
  const nl = window.lastIndexOf("\n");
  if (nl >= 0) window = window.slice(nl + 1);
  const colon = /:\s*$/.test(window);
  // "What's your last name? Basson": a question about a name introduces one.
  if (/\bname\?\s*$/i.test(window)) return { words: ["name"], colon: true };
  // "Dr. 山根", "Miss 박": a title right before is a cue even with its period.
  const title = /(?:^|[\s(])([\p{L}]{1,9}\.?)\s*$/u.exec(window);
  if (title && TITLES.has(title[1].toLowerCase())) return { words: ["mr"], colon: false };
  // A sentence break between the cue and the run cuts the cue off ("Thanks. Kevin ...").
  if (/[.;!?)\]"”]\s*$/.test(window)) return { words: [], colon: false };
  const all = window.toLowerCase().match(CUE_WORD) ?? [];
  const words: string[] = [];
  const n = all.length;
  if (n >= 1) words.push(all[n - 1]);
  if (n >= 2) words.push(`${all[n - 2]} ${all[n - 1]}`);
  if (n >= 3) words.push(`${all[n - 3]} ${all[n - 2]} ${all[n - 1]}`);
  return { words, colon };
}

export function hasCue(text: string, start: number, end: number): { strong: boolean; place: boolean; org: boolean } {
  const { words, colon } = cueWords(text, start);
  let strong = false;
  let place = false;
  let org = false;
  for (const w of words) {
    if (CUES_BEFORE.has(w) || (colon && COLON_CUES.has(w))) strong = true;
    if (PLACE_CUES.has(w)) place = true;
    if (ORG_CUES.has(w)) org = true;
  }
  if (colon && words.length > 0 && COLON_CUES.has(words[0])) strong = true;
  if (!strong && CUE_AFTER.test(text.slice(end, end + 24))) strong = true;
  // Members of a list of people: "our 3 founders: Msibi, Taufratshofer and Holan".
  if (!strong) {
    const back = text.slice(Math.max(0, start - 100), start);
    if (back.includes(":") && LIST_CUE.test(back)) strong = true;
  }
  // Vocative: "Don't go to town, Silje!"
  if (!strong && /,\s*$/.test(text.slice(Math.max(0, start - 2), start)) && /^\s*[!?]/.test(text.slice(end, end + 3))) strong = true;
  // A speaker label at the start of a line: "Anna: hi".
  if (!strong && text[end] === ":" && (start === 0 || text[start - 1] === "\n")) strong = true;
  return { strong: strong && !org, place: place && !strong && !org, org };
}

export const PEOPLE_LIST_CUE =
  /\b(?:founders|co-founders|members|authors|friends|children|kids|guests|speakers|people|names|brothers|sisters|sons|daughters|students|employees|colleagues|artists|musicians|players|winners|candidates|partners|parents|grandparents|siblings|cousins|neighbours|neighbors)\b[^.]{0,12}:?\s*$/i;
const LIST_CUE =
  /\b(?:founders|co-founders|members|authors|friends|children|kids|guests|speakers|names|brothers|sisters|sons|daughters|students|employees|colleagues|artists|musicians|players|winners|candidates|parents|siblings|cousins)\b[^.:]{0,12}:\s*(?:[^,.:;!?]{1,40}(?:,\s*|\s+and\s+)){0,4}$/i;
