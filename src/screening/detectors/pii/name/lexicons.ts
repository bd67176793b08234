// The word lists pii/name scores with: names and frequent English words
// (name-lexicon.txt), places (places.txt and ICU's region and language
// names), and hand-kept lists of words capitalised for other reasons than
// being a name. Built once, when the module loads, and shared by every call.
import { readFileSync } from "node:fs";
import { LEXICONS } from "../../lexicons/dir.js";
import { projectFile } from "../../../../paths.js";

export const GIVEN = new Set<string>();
export const SURNAME = new Set<string>();
export const COMMON = new Set<string>();
export const HAN_SURNAMES = new Set<string>();
export const HANGUL_SURNAMES = new Set<string>();
export const ENGLISH = new Set<string>();
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

/** Every two-letter code, "AA" to "ZZ": ICU names the regions among them. */
const TWO_LETTER_CODES = Array.from({ length: 26 * 26 }, (_, k) => String.fromCharCode(65 + Math.floor(k / 26), 65 + (k % 26)));

export const PLACES = new Set<string>();
{
  const text = readFileSync(projectFile(LEXICONS, "places.txt"), "utf8");
  for (const line of text.split("\n")) if (line && !line.startsWith("#")) PLACES.add(line.trim().toLowerCase());
  // Countries, regions and languages in English, from ICU rather than a list to keep.
  const regions = new Intl.DisplayNames(["en"], { type: "region" });
  const languages = new Intl.DisplayNames(["en"], { type: "language" });
  for (const code of TWO_LETTER_CODES) {
    const region = regions.of(code);
    if (region && region !== code) {
      const r = region.toLowerCase();
      PLACES.add(r);
      // "St. Kitts & Nevis" is also written "Saint Kitts and Nevis"; each part alone is a place too.
      PLACES.add(r.replace(/ & /g, " and ").replace(/^st\. /, "saint "));
      for (const part of r.split(/ [&(-] ?|, | and /))
        PLACES.add(
          part
            .replace(/^st\. /, "saint ")
            .replace(/\)$/, "")
            .trim(),
        );
    }
    const language = languages.of(code.toLowerCase());
    if (language && language.toLowerCase() !== code.toLowerCase()) PLACES.add(language.toLowerCase());
  }
  for (const extra of [
    "usa",
    "u.s.",
    "us",
    "uk",
    "u.k.",
    "uae",
    "eu",
    "america",
    "holland",
    "persia",
    "burma",
    "zaire",
    "czechia",
    "türkiye",
    "bonaire",
    "korea",
    "republic of korea",
    "holy see",
    "vatican",
    "vatican city",
    "keeling",
    "macao",
    "macau",
    "brunei darussalam",
    "falkland islands",
    "malvinas",
    "sao tome",
    "principe",
    "sao tome and principe",
    "sint eustatius",
    "saba",
    "sint maarten",
    "saint martin",
    "saint barthélemy",
    "saint helena",
    "saint lucia",
    "saint vincent",
    "grenadines",
    "heard island",
    "mcdonald islands",
    "ivory coast",
  ])
    PLACES.add(extra);
}

// The languages pii/name meets outside English, for the names ICU knows in each: countries and regions
// ("Italien", "Alemania", "Германия") and months and weekdays ("Oktober", "Donnerstag", "Maret"). German
// capitalises them mid-sentence, other languages at a sentence's start, and both read as unknown
// capitalised words, which pii/name reports. A word that is also a given name or a surname in the lexicon
// ("Maurice", "Guadalupe", "Italia", "Mai") is left to the name rules (dates: see `isDateWord`).
const NAME_LOCALES = "de fr es it pt nl ro tr id vi pl sv da nb fi cs sk hu hr sl sr lt lv et ru uk bg el ms sw af ca".split(" ");
const isLexiconName = (w: string) => GIVEN.has(w) || SURNAME.has(w);
for (const locale of NAME_LOCALES) {
  const regions = new Intl.DisplayNames([locale], { type: "region" });
  for (const code of TWO_LETTER_CODES) {
    const region = regions.of(code)?.toLowerCase();
    if (region && region !== code.toLowerCase() && !isLexiconName(region)) PLACES.add(region);
  }
}

/** Month and weekday names, long forms, in English and NAME_LOCALES (lower case). */
export const CALENDAR_WORDS = new Set<string>();
for (const locale of ["en", ...NAME_LOCALES]) {
  const months = new Intl.DateTimeFormat(locale, { month: "long", day: "numeric", timeZone: "UTC" });
  const standalone = new Intl.DateTimeFormat(locale, { month: "long", timeZone: "UTC" });
  const weekdays = new Intl.DateTimeFormat(locale, { weekday: "long", timeZone: "UTC" });
  for (let m = 0; m < 12; m++) {
    const day = new Date(Date.UTC(2021, m, 15));
    for (const part of months.formatToParts(day)) if (part.type === "month") CALENDAR_WORDS.add(part.value.toLowerCase());
    CALENDAR_WORDS.add(standalone.format(day).toLowerCase());
  }
  // 2021-01-03 was a Sunday: seven days from it name every weekday.
  for (let d = 0; d < 7; d++) CALENDAR_WORDS.add(weekdays.format(new Date(Date.UTC(2021, 0, 3 + d))).toLowerCase());
}

// Nationalities and demonyms: capitalised in English, never a person's name.
export const DEMONYMS = new Set(
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
export const STOP = new Set(
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
    // Form labels in other languages ("Adresse:", "Indirizzo:", "Адрес:", "Cím:", "Telefon:").
    "adresse anschrift indirizzo dirección direccion endereço endereco morada adres adresa adresas adrese adresi adresim cím osoite adress " +
    "adressen adressi адрес адреса адресу телефон телефона telefon telefono teléfono téléphone telefone telefoon puhelin nombre nom nome " +
    "naam namn navn imię jméno meno név имя фамилия ім'я прізвище correo courriel posta pošta почта " +
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
export const STOP_NEVER_NAME = new Set([
  "i",
  "the",
  "and",
  "or",
  "but",
  "of",
  "in",
  "on",
  "at",
  "to",
  "is",
  "are",
  "was",
  "were",
  "be",
  "mr",
  "mrs",
  "ms",
  "dr",
  "street",
  "st",
  "road",
  "avenue",
]);

// Companies whose names are people's names; one list because no rule can tell them apart.
export const KNOWN_FIRMS = new Set([
  "goldman sachs",
  "morgan stanley",
  "jp morgan",
  "j.p. morgan",
  "merrill lynch",
  "lehman brothers",
  "wells fargo",
  "charles schwab",
  "johnson & johnson",
  "procter & gamble",
  "ernst & young",
  "marks & spencer",
  "dow jones",
  "rolls-royce",
  "mercedes-benz",
  "harley-davidson",
  "hewlett-packard",
  "hewlett packard",
  "louis vuitton",
  "calvin klein",
  "ralph lauren",
  "tommy hilfiger",
  "hugo boss",
  "estée lauder",
  "estee lauder",
  "walt disney",
  "warner bros",
  "warner brothers",
  "ben & jerry's",
  "baker mckenzie",
  "kirkland & ellis",
  "booz allen",
  "booz allen hamilton",
  "bain capital",
  "arthur andersen",
  "price waterhouse",
  "pricewaterhousecoopers",
  "deloitte touche",
  "jack daniels",
  "john deere",
  "john lewis",
  "dolce & gabbana",
  "christian dior",
  "yves saint laurent",
  "giorgio armani",
  "coco chanel",
  "wendy's",
  "mcdonald's",
  "sherwin-williams",
  "smith & wesson",
  "black & decker",
  "lloyds",
  "barclays",
  "sotheby's",
  "christie's",
  "bloomberg",
  "reuters",
  "thomson reuters",
  "tesla",
  "edison",
  "siemens",
  "philips",
  "porsche",
  "ferrari",
  "lamborghini",
  "peugeot",
  "citroën",
  "renault",
  "toyota",
  "honda",
  "suzuki",
  "yamaha",
  "kawasaki",
  "mitsubishi",
]);

// Organisation words: a run containing or followed by one of these is a company or body.
export const ORG_WORDS = new Set(
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
    "museum gallery library center centre institute gruppen koncernen bolaget bt kkt nyrt kommanditbolag handelsbolag aktiebolag " +
    "kommandittselskap interessentskab osakeyhtiö avoin " +
    // Company forms of more countries: Malaysia, India, Singapore, Japan, Belgium, the Balkans, Finland, Indonesia, Spain, Italy, France.
    "berhad bhd pvt pte k.k. kk bvba vzw asbl aps d.o.o. doo sro oyj tbk s.l.u. slu s.a.u. snc sas s.a.s. sapi cia cía " +
    // Trade words in company names ("Kumar Traders", "Osei Brothers Imports"): no one is named like this.
    "venture investment kv kv. " +
    "traders trading imports exports supplies supply wholesale wholesalers distributors distribution manufacturing manufacturers " +
    "builders contractors engineering electronics electricals pharmaceuticals pharma foods farms textiles garments jewellers jewelers " +
    "realty properties estates developers hardware furniture apparel fashions cosmetics chemicals telecom communications " +
    "consultancy advisors advisory accountants solicitors attorneys lawyers outfitters dairy brewery brewing distillery winery " +
    "vineyards nursery dental plumbing roofing catering cleaning travels tours transport freight couriers aviation petroleum " +
    // Teams and departments, in English and other languages ("the Phoenix Team", "Abteilung Einkauf", "Equipo Norte").
    "teams squad dept division abteilung équipe equipe equipo squadra reparto ufficio dipartimento departamento département " +
    "afdeling avdelning avdeling zespół dział oddělení tým csapat osztály ekibi ekip departmanı команда отдел"
  ).split(" "),
);

// Conjunctions in firm names ("Kuhic, Bahringer and Beer", "Huet et Laine", "Seigel, Grube und Martin").
export const FIRM_CONJUNCTIONS = new Set(["and", "&", "und", "et", "e", "y", "en", "och", "og", "i", "és", "ve", "un", "a", "ir", "ja"]);

export const TITLES = new Set(
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
export const PARTICLES = new Set(
  (
    "van von de da di del della dei des der den du le la las los dos das do zu ter ten te vom zum zur y i e bin binti bint " +
    "ibn bat ben ben- al el abu abd ap mac mc ó o' st. af av"
  ).split(" "),
);

// Place-name first words: "Lake Leila", "Port Keyon", "East Tyrese" are towns, not people.
export const PLACE_PREFIXES = new Set(
  (
    "lake port fort mount mt mt. saint st st. san santa santo são sao los las el la le new north south east west " +
    "upper lower great little old glen rio puerto cape bad sankt villa ciudad nord ost süd sud castle castel castello " +
    "borgo quarto settimo porto monte rocca torre bourg saint-"
  )
    .trim()
    .split(" "),
);
export const PLACE_SUFFIX =
  /(?:ville|burg|burgh|borough|boro|bury|chester|mouth|haven|stadt|furt|dorf|hausen|shire|view|side|port|polis|grad|abad|pur|pura|ness|wick|thorpe|caster|cester|minster|field|ford|ton|town|land|fort|stad|heim|berg|burn|bridge|castle|dale|hampton|worth|stead|mouth|stow|ham|wood|mere)$/;
