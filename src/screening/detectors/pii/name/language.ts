// The language of the sentence around a run, told from its function words
// (articles, pronouns, prepositions, auxiliaries), for two decisions pii/name
// makes differently outside English:
//   German (and Luxembourgish) capitalises every noun: "Die Katze sitzt auf
//   dem Tisch", "Der Vertrag wurde gestern unterschrieben". A capitalised word
//   there is a noun unless a title, a cue or the name lexicon says otherwise.
//   In any other language, a capitalised function word opening a sentence
//   ("Si era rotta", "Li te vide", "Una persona") is that word, not the given
//   name it also is ("Si", "Li", "Una").
// Only the sentence (up to 240 characters either side) around a run is read,
// once per sentence, so the cost stays linear.

// Frequent function words, lower case, chosen to be rare as English words.
const WORDS: Record<string, string> = {
  de:
    "der das und ist nicht ein eine einen einem einer eines dem den des mit auf für von zu im wie wer wurde wurden sind sich auch ich er sie wir " +
    "bei nach aus oder aber als noch haben wird werden waren nur schon über unter vor durch dass daß kann können zum zur vom beim ins ans " +
    "diese dieser dieses welche welcher welches viele wenn dann hier dort gestern heute sehr mein meine dein deine sein seine ihr ihre unser " +
    "kein keine nichts etwas immer wieder gegen ohne zwischen während weil damit jetzt wurde hatte hatten gibt",
  fr:
    "le les des du une et est dans pour qui pas sur au aux avec cette il elle nous vous ils sont été était par plus ou mais comme tout leur " +
    "je tu ne ces ses mon ma mes son sa lui y où quand quel quelle",
  es:
    "el los las del una es en que por para con se su sus lo como más pero fue son está este esta qué cuál cuántos cuántas quién dónde cuándo " +
    "al muy yo tú él ella nosotros ellos hay también sobre entre cuando sin ya",
  it:
    "il lo gli della delle dei degli di una è che per con non si sua suo sono era come più ma anche questo questa chi dove quando nel nella " +
    "alla dal dalla ha hanno io lui lei noi voi loro",
  pt: "os um uma é em que para com não no na por mais como mas foi são está qual quem onde ao à seu sua eu ele ela nós eles também muito",
  nl: "het een en is van dat op zijn niet met voor er aan ook als bij maar om wordt door naar ik jij hij zij wij deze dit die wat wie hoe",
  ht: "li te pou nan yo mwen ou se ak sou ki pa gen nou fè yon sa",
  ro: "și este în pe cu la din care mai pentru ca sunt fost un o nu se al ale lui ei el ea",
  tr: "ve bir bu için ile da de ne kim ki olarak olan gibi daha çok en",
  id: "yang dan di ke dari ini itu dengan untuk tidak ada akan pada juga saya kamu dia mereka",
  vi: "của và là có không được trong cho những người một các với này đã đến bạn tôi anh em chị rất nhiều ơn cảm gì sao nào ở khi thì mà nhưng",
  pl: "i w na z że się nie do jest to jak ale od po za czy są był była",
  sv: "och att det som är på för med den till inte har av om ett jag du han hon vi min mitt mina",
  da: "og at det som er på for med den til ikke har af om et jeg du han hun vi min mit mine",
  en: "the and of to is was that it for on are with as at be this from have or by not but what all were when we there can an which their said if would",
};

const LANG_OF = new Map<string, string[]>();
for (const [lang, list] of Object.entries(WORDS)) {
  for (const w of list.split(" ")) LANG_OF.set(w, [...(LANG_OF.get(w) ?? []), lang]);
}

/** Function words of every language but English: a sentence-opening capital on one of these is not a name there. */
export function isForeignFunctionWord(key: string, lang: string): boolean {
  return lang !== "en" && lang !== "und" && (LANG_OF.get(key) ?? []).includes(lang);
}

const WORD = /\p{L}+/gu;
const BOUNDARY = /[.!?\n;]/;

/** The last sentence read (runs are scored in text order, so one is enough). */
export interface LanguageCache {
  last?: { start: number; end: number; lang: string };
}

/**
 * The language of the sentence holding `pos`: "de", "en", "fr" ..., or "und"
 * when fewer than two function words decide it.
 */
export function languageAt(text: string, pos: number, cache: LanguageCache): string {
  const last = cache.last;
  if (last && pos >= last.start && pos < last.end) return last.lang;
  let start = pos;
  const lower = Math.max(0, pos - 240);
  while (start > lower && !BOUNDARY.test(text[start - 1])) start--;
  let end = pos;
  const upper = Math.min(text.length, pos + 240);
  while (end < upper && !BOUNDARY.test(text[end])) end++;
  const counts = new Map<string, number>();
  for (const m of text.slice(start, end).toLowerCase().matchAll(WORD)) {
    const langs = LANG_OF.get(m[0]);
    if (!langs) continue;
    for (const l of langs) counts.set(l, (counts.get(l) ?? 0) + 1);
  }
  let lang = "und";
  let best = 0;
  for (const [l, n] of counts) {
    // Ties go to English: a mixed sentence keeps the English rules.
    if (n > best || (n === best && l === "en")) {
      lang = l;
      best = n;
    }
  }
  // One function word decides only a sentence with no English one: "Die Wohnung liegt in der Hauptstraße."
  if (best < 2 && (best === 0 || (counts.get("en") ?? 0) > 0)) lang = "und";
  cache.last = { start, end: Math.max(end, pos + 1), lang };
  return lang;
}
