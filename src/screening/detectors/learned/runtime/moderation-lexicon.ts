// Category words for the moderation heads: each word of a
// text found here adds a "this is a violence word" feature, so a word the
// training data never used (strangle, tabun) still moves its category's head.
// Whether the text is harmful is left to the model, which also sees the
// framing (first person, "how do I", news, care): the words alone are topic.
import { LRUCache } from "lru-cache";
import { attackCueTokens } from "./attack-cues.js";
import { multilingualCategoryTokens } from "./category-words-multilingual.js";

const WORDS: Record<string, string> = {
  violence:
    "kill killing killed murder murdering stab stabbing stabbed shoot shooting strangle strangling choke choking beat beating punch punching kick " +
    "torture torturing slit slash behead decapitate dismember mutilate maim massacre slaughter bludgeon bash smash drown suffocate assault attack " +
    "hurt injure wound bleed blood bloody gore gory corpse bullet hostage lynch execute rape ambush bomb bombing shank knife machete hammer " +
    "burn arson violent violence threat threaten revenge cripple disfigure",
  weapons:
    "gun guns rifle pistol handgun shotgun firearm firearms ammo ammunition bullet bullets silencer suppressor ar-15 ak-47 glock bomb bombs explosive " +
    "explosives detonator ied grenade landmine napalm thermite molotov dynamite tnt c4 semtex fertilizer sarin vx ricin anthrax mustard chlorine phosgene " +
    "tabun bioweapon toxin botulinum plutonium uranium radiological weapon weapons weaponize weaponise full-auto untraceable " +
    "receiver serial caliber",
  self_harm:
    "suicide suicidal overdose cutting self-harm selfharm wrists noose pills " +
    "starve starving purging anorexia bulimia pro-ana thinspo dying worthless hopeless painless razor scars",
  sexual:
    "sex sexual sexy nude nudes naked porn porno pornographic erotic explicit orgasm masturbate masturbation oral blowjob genitals penis vagina " +
    "breasts boobs tits dick cock pussy fuck fucking horny kinky bdsm threesome sexting undress nsfw xxx aroused intercourse",
  hate:
    "subhuman vermin inferior exterminate extermination cockroaches parasites savages filth degenerate race racial racist slur immigrants " +
    "muslims jews blacks gays trans lesbians refugees arabs mexicans asians deport genocide supremacy nazi",
  crime:
    "steal stealing stole theft rob robbery burglary burglar shoplift shoplifting launder laundering fraud scam scamming phishing counterfeit " +
    "forge forgery smuggle smuggling traffic trafficking drugs meth heroin fentanyl cocaine crack dealer extort extortion blackmail bribe bribery " +
    "hack hacking ransomware embezzle evade evasion illegal illegally pickpocket carjack kidnap stalk",
};

const LEXICON = new Map<string, string[]>();
for (const [cat, words] of Object.entries(WORDS)) {
  for (const w of words.split(/\s+/)) {
    if (!w) continue;
    const list = LEXICON.get(w) ?? [];
    if (!list.includes(cat)) list.push(cat);
    LEXICON.set(w, list);
  }
}

function stem(w: string): string[] {
  const out = [w];
  if (w.endsWith("ing") && w.length > 5) out.push(w.slice(0, -3), w.slice(0, -3) + "e");
  if (w.endsWith("ed") && w.length > 4) out.push(w.slice(0, -2), w.slice(0, -1));
  if (w.endsWith("s") && w.length > 3) out.push(w.slice(0, -1));
  return out;
}

// The text features and the moderation heads' cross-language model (cross-language.ts) read the same folded
// text's markers: found once.
const found = new LRUCache<string, readonly string[]>({ max: 32 });

/** Marker tokens for the category words ("xxlex_violence", ...) and the attack cues ("xxcue_override", ...) of a folded text. */
export function lexiconTokens(folded: string): readonly string[] {
  let out = found.get(folded);
  if (!out) found.set(folded, (out = findLexiconTokens(folded)));
  return out;
}

function findLexiconTokens(folded: string): string[] {
  const out: string[] = [...attackCueTokens(folded), ...multilingualCategoryTokens(folded)];
  // Whole words only: "cut" in Romanian "făcut" or "stab" in German "Maßstab" is no English word.
  const re = /[\p{L}\d][\p{L}\d-]*/gu;
  for (let m = re.exec(folded); m; m = re.exec(folded)) {
    if (!/^[a-z0-9-]+$/.test(m[0])) continue;
    for (const s of stem(m[0])) {
      const cats = LEXICON.get(s);
      if (cats) {
        for (const c of cats) out.push("xxlex_" + c);
        break;
      }
    }
    if (out.length > 200) break;
  }
  return out;
}
