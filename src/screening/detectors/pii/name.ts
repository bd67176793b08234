// pii/name: people's names in running text, any culture: "María José
// García-López", "Nguyễn Văn An", "John F. Kennedy", "Aisha bin Rashid",
// "Siobhan O'Brien", "Анна Блинова", "山田 太郎".
//
// No model: capitalised runs of words are scored with a lexicon of given
// names and surnames (lexicons/name-lexicon.txt, built from MIT/Apache/ISC
// npm data packages and a hand-written list; see build-name-lexicon.ts),
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
// Han and Hangul names are found when a short run starts with a common
// surname and stands apart from other text in that script (inside Chinese
// or Korean prose words cannot be told from names without segmentation):
// l3, l2 with a second part ("山田 太郎") or a cue.
import { readFileSync } from "node:fs";
import type { Level } from "../../../policies/catalog.js";
import type { Detection } from "../../detector.js";
import { type Finding, overlapsAny, stronger, toDetection } from "../findings.js";
import { STREET_SUFFIXES, findAddresses } from "./address.js";
import { LEXICONS } from "../lexicons/dir.js";
import { projectFile } from "../../../paths.js";

export const nameTypes = ["pii/name"] as const;

// ---------------------------------------------------------------- lexicons

const GIVEN = new Set<string>();
const SURNAME = new Set<string>();
const COMMON = new Set<string>();
const HAN_SURNAMES = new Set<string>();
const HANGUL_SURNAMES = new Set<string>();
const ENGLISH = new Set<string>();
{
  const sets: Record<string, Set<string>> = {
    given: GIVEN,
    surname: SURNAME,
    common: COMMON,
    "han-surname": HAN_SURNAMES,
    "hangul-surname": HANGUL_SURNAMES,
    english: ENGLISH,
  };
  let current: Set<string> | undefined;
  const text = readFileSync(projectFile(LEXICONS, "name-lexicon.txt"), "utf8");
  for (const line of text.split("\n")) {
    if (!line || line.startsWith("#")) continue;
    if (line.startsWith("@")) current = sets[line.slice(1)];
    else current?.add(line);
  }
}

const PLACES = new Set<string>();
{
  const text = readFileSync(projectFile(LEXICONS, "places.txt"), "utf8");
  for (const line of text.split("\n")) if (line && !line.startsWith("#")) PLACES.add(line.trim().toLowerCase());
  // Countries, regions and languages in English, from ICU rather than a list to keep.
  const regions = new Intl.DisplayNames(["en"], { type: "region" });
  const languages = new Intl.DisplayNames(["en"], { type: "language" });
  const A = 65;
  for (let i = 0; i < 26; i++) {
    for (let j = 0; j < 26; j++) {
      const code = String.fromCharCode(A + i, A + j);
      const region = regions.of(code);
      if (region && region !== code) {
        const r = region.toLowerCase();
        PLACES.add(r);
        // "St. Kitts & Nevis" is also written "Saint Kitts and Nevis"; each part alone is a place too.
        PLACES.add(r.replace(/ & /g, " and ").replace(/^st\. /, "saint "));
        for (const part of r.split(/ [&(-] ?|, | and /)) PLACES.add(part.replace(/^st\. /, "saint ").replace(/\)$/, "").trim());
      }
      const language = languages.of(code.toLowerCase());
      if (language && language.toLowerCase() !== code.toLowerCase()) PLACES.add(language.toLowerCase());
    }
  }
  for (const extra of ["usa", "u.s.", "us", "uk", "u.k.", "uae", "eu", "america", "holland", "persia", "burma", "zaire", "czechia", "türkiye", "bonaire", "korea", "republic of korea", "holy see", "vatican", "vatican city", "keeling", "sint eustatius", "saba", "sint maarten", "saint martin", "saint barthélemy", "saint helena", "saint lucia", "saint vincent", "grenadines", "heard island", "mcdonald islands", "ivory coast"]) PLACES.add(extra);
}

// Nationalities and demonyms: capitalised in English, never a person's name.
const DEMONYMS = new Set(
  (
    "american british english scottish welsh irish french german italian spanish portuguese dutch belgian swiss austrian " +
    "swedish norwegian danish finnish icelandic polish czech slovak hungarian romanian bulgarian greek turkish russian " +
    "ukrainian belarusian serbian croatian bosnian slovenian albanian macedonian lithuanian latvian estonian chinese " +
    "japanese korean vietnamese thai cambodian laotian burmese malaysian indonesian filipino singaporean indian pakistani " +
    "bangladeshi nepalese sri lankan afghan iranian iraqi syrian lebanese jordanian israeli palestinian saudi emirati " +
    "qatari kuwaiti yemeni omani egyptian libyan tunisian algerian moroccan sudanese ethiopian eritrean somali kenyan " +
    "ugandan tanzanian rwandan nigerian ghanaian senegalese malian ivorian cameroonian congolese angolan zambian " +
    "zimbabwean mozambican south african namibian canadian mexican guatemalan cuban haitian dominican jamaican " +
    "puerto rican colombian venezuelan ecuadorian peruvian bolivian chilean argentine argentinian uruguayan paraguayan " +
    "brazilian australian kiwi european asian african arab arabic latino latina hispanic caucasian asian-american " +
    "african-american native indigenous aboriginal jewish muslim christian catholic protestant hindu buddhist sikh " +
    "americans brits germans italians spaniards chinese japanese koreans indians mexicans canadians australians " +
    "europeans africans asians arabs latinos russians ukrainians poles turks greeks swedes danes norwegians finns"
  ).split(" "),
);

// Words that are capitalised for reasons other than being a name.
const STOP = new Set(
  (
    "i i'm i've i'll i'd me my mine we our you your he him his she her they them their it its this that these those " +
    "the a an and or but nor so yet for of in on at to from by with without about into over under after before " +
    "is are was were be been am do does did have has had will would can could shall should may might must " +
    "what who whom whose which when where why how yes no not ok okay please thanks thank hello hi hey dear " +
    "monday tuesday wednesday thursday friday saturday sunday mon tue tues wed thu thur thurs fri sat sun " +
    "january february march april may june july august september october november december jan feb mar apr jun jul aug sep sept oct nov dec " +
    "christmas easter thanksgiving halloween ramadan eid diwali hanukkah passover labor labour memorial independence " +
    "god lord allah jesus christ buddha bible quran koran torah church mosque temple synagogue heaven hell " +
    "mr mrs ms miss dr prof sir madam mme mlle herr frau " +
    "internet web email e-mail online app apps website phone iphone android windows linux mac macos ios google facebook " +
    "twitter instagram youtube tiktok amazon apple microsoft netflix spotify uber whatsapp linkedin reddit wikipedia " +
    "bot ai chatgpt gpt openai user assistant system admin customer client manager team support service account " +
    "street st avenue ave road rd boulevard blvd lane ln drive dr court ct square sq park place pl highway hwy " +
    "northern southern eastern western central " +
    "university college school academy institute hospital clinic bank hotel restaurant cafe bar club museum library " +
    "airport station office department ministry council committee government police army navy court " +
    "company corporation group team inc ltd llc plc gmbh corp co " +
    "title review summary question answer sentence context article paragraph text story chapter section figure table " +
    "note notes example input output options option choice step steps part page total yes true false none null " +
    "president king queen prince princess duke duchess emperor pope saint st. senator governor mayor chairman ceo cfo cto " +
    "captain general colonel major lieutenant sergeant officer detective agent judge doctor professor nurse " +
    "republic democratic kingdom islands island federated federal principality emirates commonwealth territory territories"
  ).split(" "),
);

// Stop words that never continue a name even when a lexicon lists them.
const STOP_NEVER_NAME = new Set(["i", "the", "and", "or", "but", "of", "in", "on", "at", "to", "is", "are", "was", "were", "be", "mr", "mrs", "ms", "dr", "street", "st", "road", "avenue"]);

// Companies whose names are people's names; one list because no rule can tell them apart.
const KNOWN_FIRMS = new Set(
  [
    "goldman sachs", "morgan stanley", "jp morgan", "j.p. morgan", "merrill lynch", "lehman brothers", "wells fargo",
    "charles schwab", "johnson & johnson", "procter & gamble", "ernst & young", "marks & spencer", "dow jones",
    "rolls-royce", "mercedes-benz", "harley-davidson", "hewlett-packard", "hewlett packard", "louis vuitton", "calvin klein",
    "ralph lauren", "tommy hilfiger", "hugo boss", "estée lauder", "estee lauder", "walt disney", "warner bros",
    "warner brothers", "ben & jerry's", "baker mckenzie", "kirkland & ellis", "booz allen", "booz allen hamilton",
    "bain capital", "arthur andersen", "price waterhouse", "pricewaterhousecoopers", "deloitte touche", "jack daniels",
    "john deere", "john lewis", "dolce & gabbana", "christian dior", "yves saint laurent", "giorgio armani", "coco chanel",
    "wendy's", "mcdonald's", "sherwin-williams", "smith & wesson", "black & decker", "lloyds", "barclays", "sotheby's",
    "christie's", "bloomberg", "reuters", "thomson reuters", "tesla", "edison", "siemens", "philips", "porsche", "ferrari",
    "lamborghini", "peugeot", "citroën", "renault", "toyota", "honda", "suzuki", "yamaha", "kawasaki", "mitsubishi",
  ],
);

// Organisation words: a run containing or followed by one of these is a company or body.
const ORG_WORDS = new Set(
  (
    "inc inc. incorporated corp corp. corporation co co. company companies llc l.l.c. llp lp ltd ltd. limited plc gmbh ag kg " +
    "s.a. sas sarl srl s.r.l. s.p.a. bv b.v. n.v. oy a/s asa pty pte bhd sdn eireli ltda s.l. ohg mbh " +
    "group holdings holding partners partnership associates association society foundation trust fund capital ventures " +
    "industries enterprises technologies technology tech systems solutions software labs laboratories studios studio " +
    "media records entertainment productions pictures films publishing press news times post journal magazine network " +
    "networks broadcasting radio tv airlines airways motors automotive logistics shipping consulting consultants services " +
    "international global worldwide bank banking financial finance insurance investments securities exchange " +
    "university college school academy institute hospital clinic church orchestra band club team league federation " +
    "union council committee commission agency bureau department ministry office authority board court " +
    "hotel hotels restaurant restaurants cafe café bar pub store stores shop mart market supermarket pharmacy bakery " +
    "brothers bros sons söhne fils hijos figli e.v. ev gbr stiftung verein universität université universidad università " +
    "hermanos gruppe groep groupe grupo gruppo bedrijf comércio comercio zonen associados asociados eireli ltda kft zrt sp " +
    "museum gallery library center centre institute" 
  ).split(" "),
);

// Conjunctions in firm names ("Kuhic, Bahringer and Beer", "Huet et Laine", "Seigel, Grube und Martin").
const FIRM_CONJUNCTIONS = new Set(["and", "&", "und", "et", "e", "y", "en", "och", "og", "i", "és", "ve"]);

const TITLES = new Set(
  (
    "mr mr. mrs mrs. ms ms. miss mx mx. dr dr. prof prof. professor sir dame lord lady rev rev. reverend fr fr. father " +
    "sister brother mme mme. mlle mlle. m. monsieur madame mademoiselle herr frau fräulein sr sr. sra sra. srta srta. " +
    "señor señora señorita don doña dña sig sig. signor signora signorina sig.ra dott dott. sen. rep. gov. pres. " +
    "pan pani hr hr. fru heer mevrouw mevr mevr. dhr dhr. shri sri smt smt. sheikh shaikh hajji haji sayyid imam rabbi " +
    "uncle aunt auntie grandma grandpa capt capt. captain col col. colonel gen gen. general lt lt. lieutenant sgt sgt. " +
    "sergeant officer detective det. judge justice senator president governor mayor chancellor minister ambassador " +
    "coach nurse doctor dr dra dra. ing ing. eng eng. господин госпожа г-н г-жа"
  ).split(" "),
);

// Particles inside names: "Ludwig van Beethoven", "Aisha bin Rashid", "Leonardo da Vinci".
const PARTICLES = new Set(
  (
    "van von de da di del della dei des der den du le la las los dos das do zu ter ten te vom zum zur y i e bin binti bint " +
    "ibn bat ben ben- al el abu abd ap mac mc ó o' st. af av"
  ).split(" "),
);

// Place-name first words: "Lake Leila", "Port Keyon", "East Tyrese" are towns, not people.
const PLACE_PREFIXES = new Set(
  (
    "lake port fort mount mt mt. saint st st. san santa santo são sao los las el la le new north south east west " +
    "upper lower great little old glen rio puerto cape bad sankt villa ciudad nord ost süd sud castle castel castello " +
    "borgo quarto settimo porto monte rocca torre bourg saint-"
  )
    .trim()
    .split(" "),
);
const PLACE_SUFFIX = /(?:ville|burg|burgh|borough|boro|bury|chester|mouth|haven|stadt|furt|dorf|hausen|shire|view|side|port|polis|grad|abad|pur|pura|ness|wick|thorpe|caster|cester|minster|field|ford|ton|town|land|fort|stad|heim|berg|burn|bridge|castle|dale|hampton|worth|stead|mouth|stow|ham|wood|mere)$/;

// Cue words right before a run (looked up as the last one, two or three words).
const CUES_BEFORE = new Set(
  [
    "my name is", "my name's", "name is", "name", "named", "called", "call me", "calls me", "called me", "i am", "i'm", "im", "this is", "it's",
    "dear", "hi", "hello", "hey", "thanks", "thank you", "signed", "sincerely", "regards", "cheers", "best", "yours",
    "from", "to", "cc", "attn", "c/o", "contact", "ask for", "speak to", "speak with", "talk to", "talk with", "meet", "met",
    "married", "daughter", "son", "wife", "husband", "partner", "friend", "boss", "colleague", "manager", "brother", "sister",
    "mother", "father", "mom", "dad", "uncle", "aunt", "grandmother", "grandfather", "cousin", "kid", "child", "baby",
    "patient", "client", "customer", "guardian", "beneficiary", "under", "said", "says", "by", "with", "featuring", "feat",
    "starring", "directed by", "written by", "according to", "mr", "mrs", "ms", "dr", "ceo", "founder", "author", "singer",
    "producer", "director", "actor", "actress", "player", "coach", "teacher", "student", "assistant to", "and", "or",
  ].filter((c) => !["from", "to", "and", "or"].includes(c)),
);
// Cues that only count when a colon follows them ("From: ...", "Name: ...").
const COLON_CUES = new Set(["name", "from", "to", "cc", "attn", "signed", "by", "contact", "patient", "client", "customer", "author", "user", "bot", "directed by"]);
const PLACE_CUES = new Set([
  "in", "from", "near", "visit", "visited", "visiting", "city of", "state of", "town of", "moved to", "moving to",
  "based in", "lives in", "live in", "trip to", "travelling to", "traveling to", "flew to", "fly to", "arrived at", "arrived in",
]);
const CUE_AFTER = /^(?:'s|’s|\s+(?:said|says|told|asked|replied|wrote|explained|added|shouted|whispered|is a \d|was born|who|himself|herself)\b|\s*,\s*(?:the|who|aged?|\d)\b|\s*\(\d)/;
const NAMED_WORKS = /^\s(?:novel|novels|book|books|song|songs|album|biography|memoir|family|household|estate|administration|case|trial|era|years|brothers|sisters|twins|poem|play|painting|portrait|interview|quote|speech)\b/;
// Verbs that follow a person at the start of a sentence: "Chizoba is ...", "Martti had given ...".
const PERSON_VERB_AFTER = /^\s+(?:is|was|has|had|have|says|said|spent|lives|lived|works|worked|went|gave|told|asked|wrote|called|loves|likes|wants|thinks|knows|became|joined|left|met|shouted|replied|will|would|can|could|did|does)\b/;

// Words before a run that make it an organisation ("I work for Poirier EI").
const ORG_CUES = new Set([
  "work for", "works for", "worked for", "working for", "work at", "works at", "worked at", "working at", "employed by",
  "employed at", "a year at", "internship at", "job at", "position at", "ceo of", "cfo of", "cto of", "founder of",
  "co-founder of", "company", "firm", "agency", "startup", "brand", "recorded for", "signed to", "signed with", "label",
]);
// Company forms after a name: "Poirier EI", "Viale-Pagano SPA", "Sottile-Pittalis e figli", "Esquivel Fonseca S.A.".
const FIRM_SUFFIX =
  /^,? ?(?:s\.r\.l\.|s\.p\.a\.|S\.A\.|S\.L\.|S\.A\.S\.|S\.C\.|S\.?p\.?A\b|SPA\b|SRL\b|EURL\b|SARL\b|SAS\b|SA\b|SE\b|EI\b|SEM\b|SNC\b|GIE\b|SCA\b|SCS\b|Sp\. (?:k|j|z o\.o)\.|GmbH\b|AG\b|KG\b|OHG\b|UG\b|e\.V\.|Sp\. z o\.o\.|s\.r\.o\.|a\.s\.|Kft\.?|Zrt\.?|Bt\.|AB\b|ASA\b|AS\b|A\/S\b|ApS\b|Oy\b|Oyj\b|BV\b|B\.V\.|NV\b|N\.V\.|V\.O\.F\.|VOF\b|LLC\b|L\.L\.C\.|LLP\b|LP\b|Inc\b|Ltd\b|Limited\b|Corp\b|Co\.|PLC\b|plc\b|Pty\b|Pvt\b|Tbk\b|CC\b|EIRELI\b|Ltda\b|ME\b|S\/A\b|e (?:[Ff]igli|[Ff]ilhos)\b|y (?:[Aa]sociados|[Hh]ijos)\b|e [Aa]ssociados\b|und Söhne\b|et [Ff]ils\b|and Sons\b|& (?:Sons|Co)\b|Group\b|Gruppe\b|Groupe\b|Grupo\b|Gruppo\b|Hermanos\b|Asociados\b|Associados\b|Associates\b|Partners\b|Holdings?\b|Brothers\b|Bros\b)/;
const FIRM_PREFIX = /(?:\bPT|\bCV|\bAO|\bOOO|ООО|ОАО|ЗАО|ПАТ|ТОВ|ПАО|АО)\s+$/;
// Conjunctions of other languages joining capitalised words inside English text are firm names ("Martins e Reis").
const FOREIGN_CONJUNCTIONS = new Set(["e", "y", "und", "et", "en", "och", "og", "i", "és", "ve", "u"]);

const CUE_WORD = /[\p{L}\p{M}'’/]+/gu;

/** The last one, two and three lower-case words before `start` (same line, no sentence break), and whether a colon ends the gap. */
function cueWords(text: string, start: number): { words: string[]; colon: boolean } {
  let from = Math.max(0, start - 40);
  const nl = text.lastIndexOf("\n", start - 1);
  if (nl >= from) from = nl + 1;
  const window = text.slice(from, start);
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

function hasCue(text: string, start: number, end: number): { strong: boolean; place: boolean; org: boolean } {
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

// ---------------------------------------------------------------- tokens

interface Token {
  start: number;
  /** End excluding a possessive "'s" or a sentence period. */
  end: number;
  /** Lower case, without a trailing period or possessive. */
  key: string;
  raw: string;
}

// Words are letters with inner apostrophes and hyphens, and an optional final period (see words()).

const LETTER = /[\p{L}\p{M}]/u;

function isLetterAt(text: string, i: number): boolean {
  const c = text.charCodeAt(i);
  if (c < 128) return (c >= 65 && c <= 90) || (c >= 97 && c <= 122);
  if (c >= 0xd800 && c <= 0xdbff) return LETTER.test(text.slice(i, i + 2));
  if (c >= 0xdc00 && c <= 0xdfff) return i > 0 && LETTER.test(text.slice(i - 1, i + 1));
  return LETTER.test(text[i]);
}

/** Particles by their first two characters (char codes, the second 0 for one letter). */
const PARTICLE_STARTS = new Set([...PARTICLES].map((p) => startCode(p, 0, p.length)));

function startCode(text: string, start: number, end: number): number {
  return text.charCodeAt(start) * 65536 + (end - start > 1 ? text.charCodeAt(start + 1) : 0);
}

/** Is text[start, end), less a final period, a particle? Most lower-case words fail on the first two letters, before any substring. */
function isParticleAt(text: string, start: number, end: number): boolean {
  if (text.charCodeAt(end - 1) === 0x2e) end--;
  return PARTICLE_STARTS.has(startCode(text, start, end)) && PARTICLES.has(text.slice(start, end));
}

/**
 * Words (letters with inner apostrophes and hyphens, and an optional final
 * period) that can matter to a name: those starting with a capital letter and
 * lower-case particles ("van", "bin"). A hand scan: a /u regex over the whole
 * text costs several times more, and lower-case words are most of any text.
 */
function words(text: string): { index: number; word: string }[] {
  const out: { index: number; word: string }[] = [];
  const n = text.length;
  let i = 0;
  while (i < n) {
    if (!isLetterAt(text, i)) {
      i++;
      continue;
    }
    const start = i;
    for (;;) {
      while (i < n && isLetterAt(text, i)) i++;
      const c = text[i];
      if ((c === "'" || c === "’" || c === "-") && i + 1 < n && isLetterAt(text, i + 1)) {
        i++;
        continue;
      }
      break;
    }
    if (text[i] === ".") i++;
    const first = text.charCodeAt(start);
    const lowerAscii = first >= 97 && first <= 122;
    if (lowerAscii && (i - start > 6 || !isParticleAt(text, start, i))) continue;
    out.push({ index: start, word: text.slice(start, i) });
  }
  return out;
}

// Hoisted: a regex literal in a loop is a new RegExp object on every pass.
const POSSESSIVE = /['’]s$/i;

function tokenize(text: string): Token[] {
  const out: Token[] = [];
  for (const m of words(text)) {
    let raw = m.word;
    let end = m.index + raw.length;
    if (raw.endsWith(".") && raw.length > 2 && !TITLES.has(raw.toLowerCase())) {
      // A sentence period, not an initial or abbreviation.
      raw = raw.slice(0, -1);
      end--;
    }
    if (POSSESSIVE.test(raw) && raw.length > 3) {
      raw = raw.slice(0, -2);
      end -= 2;
    }
    out.push({ start: m.index, end, key: (raw.endsWith(".") ? raw.slice(0, -1) : raw).toLowerCase(), raw });
  }
  return out;
}

const UPPER_FIRST = /^\p{Lu}/u;
const HAS_LOWER = /\p{Ll}/u;
const isCap = (t: Token) => UPPER_FIRST.test(t.raw) && (HAS_LOWER.test(t.raw) || t.raw.length === 1);
const isInitial = (t: Token) => /^\p{Lu}\.?$/u.test(t.raw);
const stripMarks = (s: string) => s.normalize("NFD").replace(/\p{M}/gu, "");

type Kind = "given" | "givenCommon" | "surname" | "surnameCommon" | "unknown" | "cyrillic" | "word" | "initial" | "particle" | "stop" | "place" | "org";
const CYRILLIC_WORD = /^\p{Script=Cyrillic}+(?:['’-]\p{Script=Cyrillic}+)*$/u;
const LATIN_LETTERS = /\p{Script=Latin}{3}/u;

const CYRILLIC_SURNAME = /(?:ов|ова|ев|ева|ёв|ёва|ин|ина|ын|ына|ский|ская|цкий|цкая|ський|ська|цький|цька|енко|ук|юк|чук|ич|вич|ович|евич|йович|овна|евна|ична|івна|ївна|івич|ко)$/;
const LATIN_SURNAME = /(?:ski|ska|cki|cka|wicz|czyk|escu|poulos|opoulos|akis|idis|iadis|oglu|oğlu|ović|ovic|ević|evic|sson|dottir|dóttir|enko|chuk|shvili|dze|yan|ian)$/;

function lexiconKind(key: string): "given" | "givenCommon" | "surname" | "surnameCommon" | null {
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

const kindCache = new Map<string, Kind>();

function kindOf(t: Token): Kind {
  const cacheKey = t.raw;
  const hit = kindCache.get(cacheKey);
  if (hit !== undefined) return hit;
  const kind = computeKind(t);
  // Bounded: a long message of unique words must not grow the cache without limit.
  if (kindCache.size > 50_000) kindCache.clear();
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
  // CamelCase is code or a brand ("DataFrame", "ValueError", "MongoDB"), except name prefixes
  // ("McDonald", "MacArthur", "DeShawn", "LeBron", "DiCaprio", "VanDyke").
  if (/\p{Ll}\p{Lu}/u.test(t.raw) && !/^(?:Mc|Mac|Fitz|De|Di|Da|Du|La|Le|Van|Von|St)\p{Lu}\p{Ll}+$/u.test(t.raw.replace(/-.*$/, ""))) return "word";
  if (STOP.has(t.key) || DEMONYMS.has(t.key) || (t.key.endsWith("s") && DEMONYMS.has(t.key.slice(0, -1)))) return "stop";
  if (PLACES.has(t.key)) return "place";
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
  }
  // Towns built from a name and a suffix: "Mayertboro", "Fort Steviecester"'s "Steviecester".
  if (lex === null && (PLACE_SUFFIX.test(t.key) || /-(?:under|upon|on|le|en|sur|am|an|bei)-/.test(t.key))) return "place";
  return lex ?? "unknown";
}

// ---------------------------------------------------------------- runs

interface Run {
  tokens: Token[];
  kinds: Kind[];
}

/** Single spaces (or a line-internal "F. " initial gap) join name words; anything else ends a run. */
function joined(text: string, a: Token, b: Token): boolean {
  const gap = text.slice(a.end, b.start);
  if (gap === " " || gap === "\u00a0") return true;
  // "F. Kennedy": the initial's period was kept in the token, the gap is the space.
  return a.raw.endsWith(".") && a.end === b.start - 1 && text[a.end] === " ";
}

function sentenceStart(text: string, start: number): boolean {
  let i = start - 1;
  while (i >= 0 && (text[i] === " " || text[i] === "\t" || text[i] === '"' || text[i] === "“" || text[i] === "'" || text[i] === "(" || text[i] === "*" || text[i] === "-")) i--;
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
const TOPONYM_AFTER = /^ (?:do|da|de|dos|das) (?:Norte|Sul|Leste|Oeste|Descoberto|Nossa Senhora|Minas|Campo|Monte|Mar)\b|^ (?:sardo|ligure|salentino|laziale|calabro|veneto|umbro|lombardo|marittimo|terme|del friuli|nell'emilia|in chianti|sul mare|al mare)\b/;

function isPlaceRun(run: Token[], kinds: Kind[], text?: string): boolean {
  const phrase = run.map((t) => t.key).join(" ");
  // "Las Palmas de Gran Canaria", "La Coruña": a capitalised place article or prefix just before.
  if (text) {
    const prefix = /(?:^|[\s(])(\p{Lu}[\p{L}.]*) $/u.exec(text.slice(Math.max(0, run[0].start - 12), run[0].start));
    if (prefix && PLACE_PREFIXES.has(prefix[1].toLowerCase())) return true;
  }
  if (text && TOPONYM_AFTER.test(text.slice(run[run.length - 1].end, run[run.length - 1].end + 22))) return true;
  if (text && / (?:do|da|de|dos|das) (?:norte|sul|leste|oeste|descoberto|nossa senhora)\b/i.test(text.slice(run[0].start, run[run.length - 1].end + 14))) return true;
  if (PLACES.has(phrase)) return true;
  // "Lake Leila", "Port Keyon", "West Abigale": towns, whatever the second word is.
  if (run.length >= 2 && PLACE_PREFIXES.has(run[0].key)) return true;
  return kinds.includes("place");
}

function scoreRun(text: string, run: Run, allTokens: Token[], index: number): Level {
  const { tokens, kinds } = run;
  const first = tokens[0];
  const last = tokens[tokens.length - 1];
  const prev = index > 0 ? allTokens[index - 1] : undefined;
  const titled = prev !== undefined && TITLES.has(prev.raw.toLowerCase()) && joined(text, prev, first) && isCap(prev);
  const cue = hasCue(text, first.start, last.end);
  const strongCue = cue.strong;
  const placeCue = cue.place;
  // "Imke Peeters of Dickinson Group": after a name, "of" introduces an organisation.
  const ofAfterName = /\p{Lu}[\p{L}\p{M}'’-]+,? of $/u.test(text.slice(Math.max(0, first.start - 30), first.start));
  if (cue.org || ofAfterName) return kinds.includes("given") && tokens.length >= 2 ? "l4_less_likely" : "no_level";

  if (kinds.includes("cyrillic")) {
    const around = text.slice(Math.max(0, first.start - 30), first.start) + text.slice(last.end, last.end + 30);
    const inLatin = LATIN_LETTERS.test(around) && !/\p{Script=Cyrillic}{3}/u.test(around);
    kinds.forEach((k, i) => {
      if (k === "cyrillic") kinds[i] = inLatin ? "surname" : "unknown";
    });
  }
  const nameWords = kinds.filter((k) => k === "given" || k === "givenCommon" || k === "surname" || k === "surnameCommon" || k === "unknown");
  const givens = kinds.filter((k) => k === "given").length;
  const lexical = kinds.filter((k) => k === "given" || k === "surname").length;
  const weakLexical = kinds.filter((k) => k === "givenCommon" || k === "surnameCommon").length;
  const atStart = sentenceStart(text, first.start);
  // The run is a line by itself (a signature, an address block, "Name: ..." field).
  const lineStart = text.lastIndexOf("\n", first.start - 1) + 1;
  const lineEndAt = text.indexOf("\n", last.end);
  const lineText = text.slice(lineStart, lineEndAt < 0 ? text.length : lineEndAt);
  const wholeLine = /^[\s>?*•-]*(?:[\p{L} ]{1,20}:\s*)?$/u.test(text.slice(lineStart, first.start)) && /^[\s,.]*$/.test(text.slice(last.end, lineEndAt < 0 ? text.length : lineEndAt)) && lineText.length < 80;

  if (titled) return nameWords.length > 0 ? "l1_confident" : "no_level";
  // "the Becker website", "the Hobbits": an article before a capitalised word makes it a thing or a group.
  if (/\bthe\s+$/.test(text.slice(Math.max(0, first.start - 5), first.start))) {
    // ... unless the name qualifies a work or a family: "the Bodnár novel", "the Smith family".
    if (NAMED_WORKS.test(text.slice(last.end, last.end + 16)) && nameWords.length > 0) return "l4_less_likely";
    return givens > 0 && nameWords.length >= 2 ? "l4_less_likely" : "no_level";
  }
  // "Kołodziej-Polak", "Melo-Nogueira" alone are as often firms as people.
  if (nameWords.length === 1 && tokens.length === 1 && first.key.includes("-") && !strongCue) {
    // ... unless both parts are given names: "Jean-Pierre", "Anna-Lena".
    const parts = first.key.split("-");
    if (!parts.every((p) => GIVEN.has(p) && !SURNAME.has(p))) return "l5_unlikely";
  }
  if (nameWords.length >= 2) {
    if (givens > 0 || (lexical > 0 && kinds.includes("initial"))) {
      if (placeCue) return "l4_less_likely";
      return strongCue ? "l1_confident" : "l2_very_likely";
    }
    if (lexical >= 2) return strongCue ? "l2_very_likely" : placeCue ? "l5_unlikely" : "l3_likely";
    if (lexical + weakLexical >= 2 && lexical >= 1) return strongCue ? "l2_very_likely" : placeCue ? "l5_unlikely" : "l4_less_likely";
    const personAfter = PERSON_VERB_AFTER.test(text.slice(last.end, last.end + 12)) || /^\s+(?:from|of|lives|at)\b/.test(text.slice(last.end, last.end + 8));
    // "Adaeze Okonkwo says ...", "Tanaka Yuki": an unknown given name before a known surname (or the
    // reverse, family name first) is a name wherever it stands.
    const pair = tokens.length === 2 && ((kinds[0] === "unknown" && kinds[1] === "surname") || (kinds[0] === "surname" && kinds[1] === "unknown"));
    if (lexical >= 1) return strongCue ? "l2_very_likely" : placeCue ? "l5_unlikely" : wholeLine || !atStart || personAfter || pair ? "l4_less_likely" : "l5_unlikely";
    if (weakLexical >= 1 && strongCue) return "l3_likely";
    // Two or three capitalised words that are neither English words nor known
    // names: a name from a culture the lexicon misses, more likely on a line of its own.
    const unknowns = kinds.filter((k) => k === "unknown").length;
    if (unknowns === 0 || (weakLexical > 0 && !wholeLine && !strongCue)) return "no_level";
    if (strongCue) return "l3_likely";
    if (placeCue) return "no_level";
    return wholeLine || !atStart || personAfter ? "l4_less_likely" : "no_level";
  }
  if (nameWords.length === 1) {
    const k = kinds.find((x) => x !== "initial" && x !== "particle");
    // Part of a Title-Case phrase ("Internal Optimization Consultant", "Salesperson of the Month").
    const prevTok = allTokens[index - 1];
    const nextTok = allTokens[index + tokens.length];
    const titleCase = (t: Token | undefined, a: Token, b: Token) => {
      if (t === undefined || !isCap(t) || !joined(text, a, b)) return false;
      const kt = kindOf(t);
      return kt === "word" || kt === "org" || (kt === "stop" && t.key.length > 3);
    };
    const before = titleCase(prevTok, prevTok ?? first, first);
    const after = titleCase(nextTok, last, nextTok ?? last);
    if ((k === "unknown" || k === "surname") && !strongCue && (before || after)) return "no_level";
    // "the Customer Brand Strategist": a name-like word between two Title-Case words.
    if (k === "given" && before && after) return "no_level";
    if (k === "given") {
      if (placeCue) return "l5_unlikely";
      return strongCue ? "l2_very_likely" : "l3_likely";
    }
    if (k === "surname") {
      if (strongCue) return "l3_likely";
      if (atStart && PERSON_VERB_AFTER.test(text.slice(last.end, last.end + 12))) return "l4_less_likely";
      return atStart || placeCue ? "l5_unlikely" : "l4_less_likely";
    }
    if (k === "givenCommon") {
      if (strongCue && !atStart) return "l3_likely";
      return atStart || placeCue ? "no_level" : "l5_unlikely";
    }
    if (k === "surnameCommon") return strongCue && !atStart && !placeCue ? "l4_less_likely" : "no_level";
    if (k === "unknown") {
      // A capitalised word that is neither an English word nor a known place, mid-sentence.
      if (strongCue) return atStart ? "l4_less_likely" : "l3_likely";
      if (atStart && PERSON_VERB_AFTER.test(text.slice(last.end, last.end + 12))) return "l4_less_likely";
      // Addressing someone at the start: "Bongani, can I speak to your boss?"
      if (atStart && /^,\s+(?:can|could|would|will|please|i|we|you|do|did|are|is|have|thanks|thank|sorry|listen|look|come|let)\b/i.test(text.slice(last.end, last.end + 14))) return "l4_less_likely";
      return atStart || placeCue ? "no_level" : "l4_less_likely";
    }
  }
  return "no_level";
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
function findRuns(text: string, tokens: Token[]): { run: Run; index: number }[] {
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
    if (k === "stop" && isCap(tokens[i]) && GIVEN.has(tokens[i].key) && !STOP_NEVER_NAME.has(tokens[i].key) && hasCue(text, tokens[i].start, tokens[i].end).strong && !sentenceStart(text, tokens[i].start)) {
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

/** True when the run is part of a firm name: "X, Y and Z", "X - Y", "X und Y", "X LLC". */
function isFirm(text: string, run: Run, tokens: Token[], index: number): boolean {
  if (run.kinds.includes("org")) return true;
  const last = run.tokens[run.tokens.length - 1];
  const next = tokens[index + run.tokens.length];
  if (next && ORG_WORDS.has(next.key) && text.slice(last.end, next.start).trim() === "") return true;
  if (next && ORG_WORDS.has(next.key) && /^\s*[,&]?\s*$/.test(text.slice(last.end, next.start))) return true;
  // Spaced dash between two name words: "Conroy - Brown".
  if (/^ [-–] \p{L}/u.test(text.slice(last.end, last.end + 4))) return true;
  const before = text.slice(Math.max(0, run.tokens[0].start - 4), run.tokens[0].start);
  if (/ [-–] $/.test(before)) return true;
  // "Kuhic, Bahringer and Beer": surnames (not given names) joined by a comma and a conjunction.
  if (run.tokens.length === 1 && !run.kinds.includes("given")) {
    const after = text.slice(last.end, last.end + 40);
    const m = /^(?:, \p{Lu}[\p{L}'-]+)?,? (\S+) \p{Lu}[\p{L}'-]+/u.exec(after);
    if (m && FIRM_CONJUNCTIONS.has(m[1].toLowerCase()) && /^,/.test(after)) return true;
    const back = text.slice(Math.max(0, run.tokens[0].start - 40), run.tokens[0].start);
    const b = /\p{Lu}[\p{L}'-]+, (?:\p{Lu}[\p{L}'-]+,? )?(\S+) $/u.exec(back);
    if (b && FIRM_CONJUNCTIONS.has(b[1].toLowerCase())) {
      const firstWord = /(\p{Lu}[\p{L}'-]+),/u.exec(back);
      if (firstWord && lexiconKind(firstWord[1].toLowerCase()) !== "given") return true;
    }
    if (/^, \p{Lu}[\p{L}'-]+,? (?:and|und|et|e|y|&) /u.test(after)) return true;
  }
  return false;
}

/**
 * "Cassandre Parkway", "Maxime Mountains street": a run that ends in a street
 * suffix no one has as a surname, or is followed by "street"/"road", is a street.
 */
function isStreetName(text: string, run: Run, tokens: Token[], index: number): boolean {
  const lastIndex = run.tokens.length - 1;
  const last = run.tokens[lastIndex];
  if (run.tokens.length >= 2 && STREET_SUFFIXES.has(last.key)) {
    const k = run.kinds[lastIndex];
    if (k !== "given" && k !== "surname") return true;
  }
  const before = text.slice(Math.max(0, run.tokens[0].start - 60), run.tokens[0].start);
  if (/\b(?:corner of|intersection of|junction of)\s+(?:[^.,;!?]{1,40}\s+and\s+)?$/i.test(before)) return true;
  // "The bus station is on Halle Grove", "lives on Eloy Route": a street after "on".
  if (STREET_SUFFIXES.has(last.key) && run.tokens.length >= 2 && /\b(?:on|along|off|via|at the corner of|side of|end of|part of)\s+$/i.test(before)) return true;
  if (/^\s+and\s+\S+(?:\s+\S+)?\s*$/.test(text.slice(last.end, last.end + 30)) && /\b(?:corner of|intersection of)\b/i.test(text.slice(Math.max(0, run.tokens[0].start - 40), run.tokens[0].start))) return true;
  const next = tokens[index + run.tokens.length];
  if (next === undefined || !joined(text, last, next)) return false;
  // "Weber Motorway", "Cooper Mountains": a street suffix right after the run (a word no one has as a surname).
  return /^(?:street|st|road|rd|avenue|ave|lane|boulevard|blvd|drive|square|place|way)$/.test(next.key) || (isCap(next) && STREET_SUFFIXES.has(next.key) && kindOf(next) === "word");
}

/**
 * Firm names built from surnames: "Kuhic, Bahringer and Beer", "Martins e Reis",
 * "Fischer, Heinke und Heinig", "Espinosa Olmos y Laboy Ríos S.A.". Findings
 * joined by ", " and a final conjunction form a group; the group is a firm
 * when the conjunction is not English, when a company form follows it, or
 * when it has three or more members none of which starts with a given name.
 * Lone findings followed by a company form ("Poirier EI") are firms too.
 */
function dropFirms(text: string, found: Finding[]): void {
  found.sort((a, b) => a.start - b.start);
  const drop = new Set<Finding>();
  let i = 0;
  while (i < found.length) {
    let j = i;
    let conj = "";
    while (j + 1 < found.length) {
      const gap = text.slice(found[j].end, found[j + 1].start);
      const m = /^(?:,\s*|,?\s+(and|&|e|y|und|et|en|och|og|i|és|ve|u)\s+)$/.exec(gap);
      if (!m) break;
      j++;
      if (m[1]) {
        conj = m[1];
        break;
      }
    }
    const group = found.slice(i, j + 1);
    const after = text.slice(group[group.length - 1].end, group[group.length - 1].end + 24);
    const before = text.slice(Math.max(0, group[0].start - 6), group[0].start);
    const startsWithGiven = group.some((f) => lexiconKind(text.slice(f.start, f.end).split(/\s/)[0].toLowerCase()) === "given");
    const people = PEOPLE_LIST_CUE.test(text.slice(Math.max(0, group[0].start - 40), group[0].start));
    const firm =
      !people &&
      (
        FIRM_SUFFIX.test(after) ||
        FIRM_PREFIX.test(before) ||
        (conj !== "" && FOREIGN_CONJUNCTIONS.has(conj)) ||
        (conj !== "" && group.length >= 3 && !startsWithGiven));
    if (firm) for (const f of group) drop.add(f);
    i = j + 1;
  }
  for (let k = found.length - 1; k >= 0; k--) if (drop.has(found[k])) found.splice(k, 1);
}

/**
 * Names listed together share their evidence: in "Kowalczyk and Nowak" or
 * "Ana, Luis and Tomás" a weak member is raised to l4 when another is l4 or better.
 */
function coordinate(text: string, found: Finding[]): void {
  found.sort((a, b) => a.start - b.start);
  for (let pass = 0; pass < 2; pass++) {
    for (let i = 0; i + 1 < found.length; i++) {
      const a = found[i];
      const b = found[i + 1];
      if (!/^(?:,\s*|\s+(?:and|or|&|y|und|et|e)\s+|,\s*(?:and|or)\s+)$/.test(text.slice(a.end, b.start))) continue;
      const good = (f: Finding) => f.level !== "l5_unlikely";
      if (good(a) && !good(b)) b.level = "l4_less_likely";
      else if (good(b) && !good(a)) a.level = "l4_less_likely";
    }
  }
}

// ---------------------------------------------------------------- scripts without capitals

// Han runs, with the iteration mark "々" and the small "ヶ" Japanese names use ("菜々子", "佐々木").
const HAN_RUN = /[\p{Script=Han}々〆ヶ]+(?:[ 　][\p{Script=Han}々〆ヶ]+)?/gu;
const HANGUL_WORD = /[\uac00-\ud7a3]+/g;

/** Any Han ideograph (BMP blocks or a surrogate pair) or Hangul syllable? A char-code scan, no regex. */
function hasCjk(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if ((c >= 0x3400 && c <= 0x9fff) || (c >= 0xf900 && c <= 0xfaff) || (c >= 0xac00 && c <= 0xd7a3) || (c >= 0xd840 && c <= 0xd87f)) return true;
  }
  return false;
}

const CJK_NEAR = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\uac00-\ud7a3]/u;
// Words that introduce a character or a word rather than a person: "the character 水", "水 means water".
const CJK_AS_WORD_BEFORE = /\b(?:character|characters|kanji|hanzi|hanja|hangul|radical|symbol|glyph|word|words|term|phrase|means|meaning|translates?|translated|written|write|spelled|pronounced|say|says|reads?)\s*[:"'“‘「(]?\s*$/i;
const CJK_AS_WORD_AFTER = /^\s*(?:[)"'”’」=:(（]|means|meaning|is (?:the|a) (?:character|word)|stands for|translates)/i;

/**
 * A short Han or Hangul run standing as a word of its own in Latin-script prose: no other
 * CJK or kana within 20 characters, Latin words on both sides (or the text's edge), and
 * nothing that makes it a quoted word or character under discussion.
 */
function cjkAloneInLatin(text: string, start: number, end: number): boolean {
  const left = text.slice(Math.max(0, start - 20), start);
  const right = text.slice(end, end + 20);
  if (CJK_NEAR.test(left) || CJK_NEAR.test(right)) return false;
  if (!/\p{Script=Latin}{2}/u.test(left + right)) return false;
  if (!/(?:^|[\s,(])$/.test(left) || !/^(?:$|['’]s\b|[\s,.!?;:])/.test(right)) return false;
  // "the 水 radical" is a thing; "the 章 novel" is a person's work.
  if (/\bthe\s+$/i.test(left) && !NAMED_WORKS.test(right)) return false;
  return !CJK_AS_WORD_BEFORE.test(left) && !CJK_AS_WORD_AFTER.test(right);
}

function findCjkNames(text: string): Finding[] {
  const out: Finding[] = [];
  if (!hasCjk(text)) return out;
  for (const m of text.matchAll(HAN_RUN)) {
    const parts = m[0].split(/[ 　]/);
    const whole = parts.join("");
    if (whole.length > 5 || parts[0].length > 4) continue;
    if (whole.length === 1) {
      // One character ("白", "苏") is a name only when the text says a name comes ...
      if (HAN_SURNAMES.has(whole) && (hasCue(text, m.index, m.index + 1).strong || PERSON_VERB_AFTER.test(text.slice(m.index + 1, m.index + 13))) && !/\p{Script=Han}/u.test(text.slice(Math.max(0, m.index - 1), m.index) + text.slice(m.index + 1, m.index + 2))) {
        out.push({ start: m.index, end: m.index + 1, level: "l3_likely", labels: ["han"] });
      } else if (cjkAloneInLatin(text, m.index, m.index + 1)) {
        // ... or when it stands as a word of its own in Latin-script prose ("my kid 芳", "said 凜 to ..."):
        // a one-character given name or surname written in its own script.
        out.push({ start: m.index, end: m.index + 1, level: "l4_less_likely", labels: ["han"] });
      }
      continue;
    }
    // Only a run standing apart from other Han/kana text: inside Chinese or Japanese prose it could be any word.
    const left = text.slice(Math.max(0, m.index - 2), m.index);
    const right = text.slice(m.index + m[0].length, m.index + m[0].length + 2);
    if (/[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]/u.test(left.slice(-1)) || /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]/u.test(right.slice(0, 1))) continue;
    const surname = HAN_SURNAMES.has(whole.slice(0, 2)) || HAN_SURNAMES.has(whole.slice(0, 1)) || HAN_SURNAMES.has(parts[0]);
    const cue = hasCue(text, m.index, m.index + m[0].length).strong || /^(?:先生|女士|小姐|さん|様|氏)/.test(right);
    // Japanese names are written family name, space, given name: two short Han
    // runs apart from other Japanese text are a name even with a rare surname.
    const japaneseShape = parts.length === 2 && parts[0].length <= 3 && parts[1].length <= 3;
    const verb = PERSON_VERB_AFTER.test(text.slice(m.index + m[0].length, m.index + m[0].length + 12));
    let level: Level;
    if (surname) level = parts.length === 2 ? "l2_very_likely" : "l3_likely";
    else if (japaneseShape) level = "l3_likely";
    else if ((cue || verb) && whole.length <= 3) level = "l4_less_likely";
    else if (whole.length <= 3 && cjkAloneInLatin(text, m.index, m.index + m[0].length)) level = "l4_less_likely";
    else continue;
    if (cue) level = stronger(level);
    out.push({ start: m.index, end: m.index + m[0].length, level, labels: ["han"] });
  }
  for (const m of text.matchAll(HANGUL_WORD)) {
    const word = m[0];
    if (word.length > 4) continue;
    if (word.length === 1) {
      if (HANGUL_SURNAMES.has(word) && hasCue(text, m.index, m.index + 1).strong) out.push({ start: m.index, end: m.index + 1, level: "l3_likely", labels: ["hangul"] });
      // One syllable standing as a word of its own in Latin-script prose ("early 봉?"): a surname.
      else if (cjkAloneInLatin(text, m.index, m.index + 1)) out.push({ start: m.index, end: m.index + 1, level: "l4_less_likely", labels: ["hangul"] });
      continue;
    }
    const left = text.slice(Math.max(0, m.index - 12), m.index);
    const right = text.slice(m.index + word.length, m.index + word.length + 12);
    // Korean prose is all Hangul: only a word standing among other scripts is taken.
    if (/[\uac00-\ud7a3]/.test(left) || /[\uac00-\ud7a3]/.test(right)) continue;
    const surname = HANGUL_SURNAMES.has(word.slice(0, 2)) || HANGUL_SURNAMES.has(word.slice(0, 1));
    const cue = hasCue(text, m.index, m.index + word.length).strong;
    // Most Korean names are three syllables: one standing alone in other-script text is likely one.
    let level: Level;
    const verb = PERSON_VERB_AFTER.test(text.slice(m.index + word.length, m.index + word.length + 12));
    if (surname) level = word.length === 3 ? "l3_likely" : "l4_less_likely";
    else if (word.length === 3 || cue || verb || cjkAloneInLatin(text, m.index, m.index + word.length)) level = "l4_less_likely";
    else continue;
    if (cue) level = stronger(level);
    out.push({ start: m.index, end: m.index + word.length, level, labels: ["hangul"] });
  }
  return out;
}

// ---------------------------------------------------------------- detector

/** Regions other detectors own: e-mail addresses, URLs and street addresses hold name-like words. */
function blockedRanges(text: string): { start: number; end: number }[] {
  const out: { start: number; end: number }[] = [];
  // The whitespace-delimited chunk around each "@", "://" or "www." (found with indexOf: a
  // \S* regex would rescan long chunks from every position).
  for (const marker of ["@", "://", "www."]) {
    let at = text.indexOf(marker);
    while (at !== -1) {
      let s = at;
      while (s > 0 && !/\s/.test(text[s - 1])) s--;
      let e = at + marker.length;
      while (e < text.length && !/\s/.test(text[e])) e++;
      out.push({ start: s, end: e });
      at = text.indexOf(marker, e);
    }
  }
  for (const a of findAddresses(text)) {
    if (a.level === "l4_less_likely" || a.level === "l5_unlikely") continue;
    // The town after a street line ("354 Hintz Summit, Hagen") is part of the address.
    const rest = /^[^.!?]*?(?=[.!?](?:\s|$)|$)/.exec(text.slice(a.end, a.end + 60));
    const lineEnd = text.indexOf("\n", a.end);
    let end = a.end + (rest ? rest[0].length : 0);
    if (lineEnd >= 0 && lineEnd < end) end = lineEnd;
    // Multi-line blocks: the next two lines hold the town and country.
    if (lineEnd === a.end || (lineEnd > a.end && lineEnd - a.end < 3)) end = nthLineEnd(text, a.end, 3);
    out.push({ start: a.start, end });
  }
  // The list regex is costly over long texts: run it only near a conjunction between capitalised words.
  const windows: [number, number][] = [];
  for (const h of text.matchAll(FIRM_HINT)) {
    const from = Math.max(0, h.index - 160);
    const last = windows[windows.length - 1];
    if (last && from <= last[1]) last[1] = h.index + 80;
    else windows.push([from, h.index + 80]);
  }
  const firmMatches: { index: number; 0: string; 1: string }[] = [];
  for (const [from, to] of windows) {
    const chunk = text.slice(from, to);
    for (const m of chunk.matchAll(FIRM_LIST)) if (!firmMatches.some((f) => f.index === from + m.index)) firmMatches.push({ index: from + m.index, 0: m[0], 1: m[1] });
  }
  for (const m of firmMatches) {
    // "... y Véliz Ochoa's Бобров Сократ": the firm ends at its possessive.
    const possessive = m[0].search(/['’]s\s/);
    if (possessive > 0) m[0] = m[0].slice(0, possessive);
    const conj = m[1].toLowerCase();
    const items = m[0]
      .split(/,\s*|\s+(?:and|&|e|y|und|et|en|och|og|i|és|ve|u)\s+/)
      .map((it) => it.replace(/^(?:The|de|van|von|da|di|del|la|le|van de|van der|de la) /, ""));
    // People listed by given name ("Alice, Bob and Carol") versus firms of surnames, some
    // of which are also given names ("Hansen, Ryan and Green"): the majority decides.
    const givenCount = items.filter((it) => {
      const first = it.trim().split(/\s+/)[0]?.toLowerCase() ?? "";
      return lexiconKind(first) === "given" && !COMMON.has(first);
    }).length;
    const singleWords = items.every((it) => !/\s/.test(it.trim()));
    const givenStart = givenCount === items.length || !singleWords;
    // "our 3 founders: Msibi, Taufratshofer and Holan" lists people.
    const people = PEOPLE_LIST_CUE.test(text.slice(Math.max(0, m.index - 40), m.index));
    if (people) continue;
    if (FOREIGN_CONJUNCTIONS.has(conj) || (items.length >= 3 && !givenStart) || FIRM_SUFFIX.test(text.slice(m.index + m[0].length, m.index + m[0].length + 24))) {
      out.push({ start: m.index, end: m.index + m[0].length });
    }
  }
  return out;
}

function nthLineEnd(text: string, from: number, n: number): number {
  let at = from;
  for (let i = 0; i < n; i++) {
    const next = text.indexOf("\n", at + 1);
    if (next < 0) return text.length;
    at = next;
  }
  return at;
}

// "Kuhic, Bahringer and Beer", "Costa, Martins e Reis", "Carrasco Meraz y Zepeda Piña": capitalised
// items (1-4 words, inner particles allowed) joined by commas and a final conjunction.
const PEOPLE_LIST_CUE =
  /\b(?:founders|co-founders|members|authors|friends|children|kids|guests|speakers|people|names|brothers|sisters|sons|daughters|students|employees|colleagues|artists|musicians|players|winners|candidates|partners|parents|grandparents|siblings|cousins|neighbours|neighbors)\b[^.]{0,12}:?\s*$/i;
const LIST_CUE =
  /\b(?:founders|co-founders|members|authors|friends|children|kids|guests|speakers|names|brothers|sisters|sons|daughters|students|employees|colleagues|artists|musicians|players|winners|candidates|parents|siblings|cousins)\b[^.:]{0,12}:\s*(?:[^,.:;!?]{1,40}(?:,\s*|\s+and\s+)){0,4}$/i;
const FIRM_ITEM = "\\p{Lu}[\\p{L}\\p{M}'’-]*(?: (?:(?:de|van|der|den|da|di|del|la|le|von|do|dos|das) )*\\p{Lu}[\\p{L}\\p{M}'’-]*){0,3}";
// A cheap over-approximation of FIRM_LIST's conjunction (no /u: it is scanned over the whole text).
const FIRM_HINT = / (?:and|&|e|y|und|et|en|och|og|i|és|ve|u) (?:(?:de|van|von|da|di|del|la|le) )?[A-Z\u00c0-\u024f\u0400-\u04ff]/g;
const FIRM_LIST = new RegExp(`(?:(?:de|van|von|da|di|del|la|le) )?${FIRM_ITEM}(?:, (?:(?:de|van|von|da|di|del|la|le) )?${FIRM_ITEM})*,? (and|&|e|y|und|et|en|och|og|i|és|ve|u) (?:(?:de|van|von|da|di|del|la|le) )?${FIRM_ITEM}`, "gu");

export function findNames(text: string): Finding[] {
  const tokens = tokenize(text);
  const out: Finding[] = [];
  const blocked = blockedRanges(text);
  for (const { run, index } of findRuns(text, tokens)) {
    let { tokens: rt, kinds } = run;
    let at = index;
    // A capitalised sentence opener that is not a name ("Please", "Hello", "Will")
    // is prose; the rest of the run may still be a name.
    while (rt.length > 1 && sentenceStart(text, rt[0].start) && (kinds[0] === "givenCommon" || kinds[0] === "surnameCommon")) {
      rt = rt.slice(1);
      kinds = kinds.slice(1);
      at++;
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
    if (overlapsAny(rt[0].start, rt[rt.length - 1].end, blocked)) continue;
    const trimmed: Run = { tokens: rt, kinds };
    if (isPlaceRun(rt, kinds, text)) continue;
    if (KNOWN_FIRMS.has(text.slice(rt[0].start, rt[rt.length - 1].end).toLowerCase())) continue;
    if (isStreetName(text, trimmed, tokens, at)) continue;
    if (isFirm(text, trimmed, tokens, at)) continue;
    const level = scoreRun(text, trimmed, tokens, at);
    if (level === "no_level") continue;
    out.push({ start: rt[0].start, end: rt[rt.length - 1].end, level });
  }
  dropFirms(text, out);
  coordinate(text, out);
  out.push(...findCjkNames(text));
  return out;
}

export function detectName(text: string): Detection {
  return toDetection(findNames(text));
}
