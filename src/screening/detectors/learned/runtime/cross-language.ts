// Signals of harmful content that carry across languages, for the moderation
// heads' cross-language model (docs/learned-detectors.md#languages). The
// n-gram heads know a language only from its labelled rows; text in a language
// they have no evidence for used to go unscreened. What does not depend on the
// language: the category words written for eighteen languages
// (category-words-multilingual.ts, the English lexicon), the attack cues, the
// obfuscation markers of the decoded views, and the framing of a request,
// written here for the same languages: "how do I / tell me the way" (a
// request for a method), "I want to / I will" (intent), "myself" (a
// first-person act), "someone / my neighbour" (a person as target), and the
// framings of care, prevention, history and news, which lower the score. The
// model over these tokens is small (a few hundred hashed buckets in use) and
// learns from every language at once, so "a weapons word inside a request for
// a method" learned from English and Arabic rows fires for German or Japanese.
// Patterns run on folded text (text-views.ts) and are folded the same way.
import type { Detection } from "../../../detector.js";
import { tokenFeatures, type TextFeatures } from "./features.js";
import { levelOf } from "./levels.js";
import { score } from "./linear.js";
import type { LoadedModel } from "./model-store.js";
import { lexiconTokens } from "./moderation-lexicon.js";
import { foldText, type Expanded } from "./text-views.js";

/** Hashed size of the cross-language model's features. */
export const CROSS_LANGUAGE_BITS = 12;

const FRAMES: Record<string, string[]> = {
  // A request for a method or for instructions.
  method: [
    "how to|how do i|how can i|how would i|how could i|how should i|step by step|steps to|tell me how|teach me|show me how|instructions for|guide to|best way to|easiest way to|a way to",
    "wie kann ich|wie mache ich|wie baue ich|wie bekomme ich|anleitung|schritt für schritt|bring mir bei|erkläre mir wie|sag mir wie|am besten",
    "comment puis-je|comment faire|comment fabriquer|comment tuer|étape par étape|explique-moi comment|apprends-moi|dis-moi comment|le meilleur moyen|la meilleure façon",
    "cómo puedo|cómo hago|cómo hacer|cómo fabricar|cómo se|paso a paso|enséñame|dime cómo|explícame cómo|la mejor manera|la mejor forma",
    "come posso|come faccio|come fare|come si|passo dopo passo|insegnami|dimmi come|spiegami come|il modo migliore",
    "como posso|como faço|como fazer|como fabricar|passo a passo|ensine-me|me ensine|me diga como|explique como|a melhor maneira",
    "hoe kan ik|hoe maak ik|stap voor stap|leer me|vertel me hoe|jak mogę|jak zrobić|krok po kroku|naucz mnie|powiedz mi jak",
    "как сделать|как мне|как можно|как убить|как изготовить|пошагово|научи меня|расскажи как|объясни как|лучший способ|способ",
    "nasıl yapılır|nasıl yapabilirim|adım adım|bana öğret|làm sao để|làm thế nào|cách để|hướng dẫn cách|bagaimana cara|langkah-langkah|ajari saya|jinsi ya|nifundishe",
    "كيف أصنع|كيف يمكنني|كيف اصنع|كيف أقتل|كيف|طريقة|خطوات|علمني|أخبرني كيف|اشرح لي",
    "कैसे बनाएं|कैसे करें|कैसे|तरीका|तरीके|तरीक़ा|बताओ|बताइए|सिखाओ|कदम",
    "কিভাবে|কীভাবে|উপায়|শেখাও|বলুন|বলো",
    "어떻게|방법|알려줘|알려 줘|알려주세요|가르쳐",
  ],
  method_cjk: ["怎么|怎样|如何|方法|步骤|教我|告诉我|やり方|教えて|手順|どうやって|どうすれば|作り方|วิธี|อย่างไร|ยังไง|สอน"],
  // First-person intent: what the writer means to do.
  intent: [
    "i want to|i wanna|i'm going to|im going to|i am going to|i will|i'll|gonna|i plan to|i need to|help me",
    "ich will|ich werde|ich möchte|hilf mir|je veux|je vais|aide-moi|quiero|voy a|ayúdame|voglio|sto per|aiutami|quero|vou|me ajude|ajude-me",
    "ik wil|ik ga|chcę|zamierzam|pomóż mi|я хочу|хочу|я собираюсь|собираюсь|помоги мне|istiyorum|yardım et|tôi muốn|giúp tôi|saya ingin|saya mau|nataka",
    "أريد|اريد|سوف|سأقوم|ساعدني|चाहता हूं|चाहता हूँ|चाहती हूं|चाहती हूँ|मदद करो|চাই|সাহায্য করো",
    "싶어|싶다|싶은데|할 거야|도와줘",
  ],
  intent_cjk: ["我想|我要|我打算|帮我|幫我|したい|つもり|手伝って|ฉันอยากจะ|ฉันจะ|ช่วยฉัน"],
  // The act turned on oneself (self-harm is a first-person act). A reflexive pronoun alone is ordinary in
  // most languages (Chinese 自己 is "one's own" in "保护自己的账户", Russian себе "for oneself", Korean 나를
  // "me"): the frame needs the pronoun with a harm verb or "my life", or it fires on safe text everywhere.
  self: [
    "hurt myself|kill myself|cut myself|harm myself|my life|kill me|end it all|mich selbst verletz*|mich umbringen|mir das leben|me faire du mal|me tuer|ma vie|mi vida|matarme|quitarme|hacerme daño|me matar|minha vida|me machucar|togliermi|uccidermi|farmi del male",
    "mezelf pijn|mezelf doden|zabić się|skrzywdzić siebie|убить себя|покончить с собой|навредить себе|порезать себя|лишить себя|kendimi öldür*|kendime zarar|tự tử|làm hại bản thân|bunuh diri|melukai diri|kujiua|أقتل نفسي|أؤذي نفسي|انتحار|खुद को मार*|खुद को नुकसान|अपनी जान|নিজেকে মেরে|নিজের ক্ষতি",
  ],
  self_cjk: [
    "伤害自己|傷害自己|杀死自己|殺死自己|结束自己|結束自己|了结自己|自残|自杀|自殺|自尽|割腕|自分を傷つけ|自分を殺|自傷|死にたい|想死|不想活|ทำร้ายตัวเอง|ฆ่าตัวตาย|자해|자살|목숨을 끊",
  ],
  // A person as the target.
  person: [
    "someone|somebody|a person|my wife|my husband|my neighbor|my neighbour|my boss|my ex|a child|people|him|her",
    "jemanden|jemand|meine frau|meinen mann|nachbarn|quelqu'un|ma femme|mon mari|voisin|alguien|mi esposa|mi marido|vecino|qualcuno|mia moglie|vicino|alguém|minha esposa|vizinho",
    "iemand|kogoś|кого-то|человека|жену|мужа|соседа|birini|ai đó|seseorang|mtu|شخص|زوجتي|جاري|किसी को|किसी|পত্নী|কাউকে|누군가|사람을",
  ],
  person_cjk: ["某人|别人|他人|一个人|人を|誰か|妻を|隣人|คน"],
  // Care, prevention, history, news: the topic without the harm.
  care: [
    "prevent|protect|safety|safe|report|recognize|signs of|symptoms|history of|why do|why did|help a friend|support|recovery|treatment|awareness|news",
    "verhinder*|schütz*|sicherheit|sicher|anzeichen|geschichte|hilfe|vorbeug*|préven*|protég*|sécurité|signes|histoire|aider un ami",
    "preven*|proteg*|seguridad|señales|historia|ayudar a un amigo|proteggi*|sicurezza|segnali|storia|aiutar*",
    "segurança|sinais|história|ajudar um amigo|voorkom*|bescherm*|veiligheid|zapobie*|chroni*|bezpieczeństw*",
    "предотвра*|защит*|безопасн*|признак*|истори*|помочь другу|önle*|koru*|güvenli*|phòng ngừa|bảo vệ|an toàn|mencegah|melindungi|keamanan",
    "الوقاية|حماية|السلامة|علامات|تاريخ|रोकथाम|सुरक्षा|बचाव|लक्षण|इतिहास|প্রতিরোধ|নিরাপত্তা|예방|보호|안전|증상|역사",
  ],
  care_cjk: ["预防|防止|保护|保護|安全|症状|历史|歷史|新闻|防ぐ|予防|歴史|ニュース|ป้องกัน|ปลอดภัย"],
};

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/**
 * Category words the shared lexicons lack (poison, overdose, drugs, scams, hacking, threats), added as the
 * same "xxlex_" markers but only here: the shared lexicons feed every text model's n-gram features, these
 * only the cross-language model. Spaced scripts match at a word start (inflections follow), the others anywhere.
 */
const MORE_WORDS: Record<string, string[]> = {
  violence: [
    "poison|vergift|empoisonn|envenen|veneno|avvelen|veleno|otru|trucizn|отрав|zehirle|đầu_độc|meracun|racun",
    "erwürg|erdrossel|étrangl|estrangul|strangol|wurg|задуш|boğaz|bóp_cổ|mencekik|اخنق|خنق|गला_घोंट|শ্বাসরোধ",
    "droh|menac|amenaz|minacc|ameaç|bedreig|grozi|угрож|tehdit|đe_dọa|mengancam|تهديد|धमकी|হুমকি|협박|위협",
    "leiche|cadavre|cadáver|cadavere|zwłoki|труп|ceset|xác_chết|mayat|جثة|लाश|লাশ|시체",
    "anschlag|attentat|atentado|attentato|aanslag|zamach|теракт|saldırı|khủng_bố|serangan|هجوم|हमला|হামলা|테러",
  ],
  violence_cjk: ["毒杀|毒殺|下毒|毒药|毒薬|毒を|绞死|勒死|絞め|尸体|屍体|死体|遺体|恐吓|脅迫|袭击|襲撃|テロ|恐怖袭击|독살|독극물|목을 졸|ยาพิษ|วางยา"],
  self_harm: [
    "überdosis|schlaftabletten|umbringen_will|nicht_mehr_leben|surdose|somnifères|me_suicider|sobredosis|somníferos|quitarme_la_vida|overdose|sonniferi|sonífero|overdosis|slaappillen|przedawkowanie|tabletki_nasenne",
    "передозировк|снотворн|покончить|не_хочу_жить|aşırı_doz|uyku_hapı|quá_liều|thuốc_ngủ|overdosis|obat_tidur|جرعة_زائدة|حبوب_منومة|ओवरडोज़|नींद_की_गोलियां|ঘুমের_ওষুধ|과다복용|수면제|죽고_싶",
  ],
  self_harm_cjk: ["安眠药|安眠藥|过量|過量|吃药自杀|睡眠薬|過剰摂取|飲んで死|死ぬ方法|ยานอนหลับ|กินยาเกินขนาด"],
  crime: [
    "betrüg|abzocke|phishing|erpress|escroqu|arnaque|hameçonnage|estafa|fraude|truffa|truffare|estorsione|golpe|oplichting|oszust|мошенни|обман|шантаж|dolandırıcı|penipu|kashfa|احتيال|نصب|धोखा|ठग|প্রতারণা|사기",
    "methamphetamin|méthamphétamine|metanfetamina|metamfetamina|metamfetamin|метамфетамин|кокаин|героин|наркотик|uyuşturucu|ma_túy|sabu|مخدرات|नशीली|মাদক|필로폰|마약",
    "hacken|pirater|piratear|hackerare|hackear|hacken|włamać|взломать|хакер|hackle|hack|meretas|اختراق|हैक|হ্যাক|해킹",
    "geldwäsche|blanchiment|blanqueo|riciclaggio|lavagem|witwassen|pranie|отмывани|kara_para|rửa_tiền|pencucian_uang|غسيل_الأموال|मनी_लॉन्ड्रिंग|অর্থ_পাচার|돈세탁",
    "einbrechen|cambrioler|robar|rubare|roubar|inbreken|ukraść|ограбить|украсть|trộm|mencuri|سرقة|चुराना|চুরি|훔치",
  ],
  crime_cjk: ["诈骗|詐騙|骗钱|騙|冰毒|甲基苯丙胺|贩毒|制毒|黑客|入侵|洗钱|抢劫|詐欺|覚醒剤|麻薬|ハッキング|マネーロンダリング|強盗|盗む|보이스피싱|ต้มตุ๋น|ยาบ้า"],
  weapons: [
    "rohrbombe|sprengsatz|bombe_artisanale|explosivo_casero|bomba_casera|ordigno|bomba_caseira|zelfgemaakte_bom|bomba_domowej|самодельн|взрывчатк|bomba_yapımı|bom_tự_chế|bom_rakitan|عبوة_ناسفة|बम_बनाने|বোমা_তৈরি|사제_폭탄|폭탄",
  ],
  weapons_cjk: ["自制炸弹|土制炸弹|爆弾の作り方|爆弾を|手製爆弾|パイプ爆弾|ระเบิดแสวงเครื่อง"],
};

/** Folded word starts (spaced scripts) and substrings (the others) of MORE_WORDS, one regex per category. */
const MORE_PATTERNS: { cat: string; re: RegExp }[] = Object.entries(MORE_WORDS).map(([key, lines]) => {
  const words = [...new Set(lines.flatMap((l) => l.split("|")).map((w) => foldText(w.trim().replace(/_/g, " "))))].filter(Boolean);
  const body = words
    .sort((a, b) => b.length - a.length)
    .map(escape)
    .join("|");
  return { cat: key.replace(/_cjk$/, ""), re: new RegExp(key.endsWith("_cjk") ? `(?:${body})` : `(?<![\\p{L}\\p{M}\\p{N}])(?:${body})`, "u") };
});

/** Folded alternation of one frame's phrases; spaced scripts match at word boundaries, unspaced ones anywhere. */
function frameRegex(lines: string[], spaced: boolean): RegExp {
  const phrases = [...new Set(lines.flatMap((l) => l.split("|")).map((p) => foldText(p.trim())))].filter(Boolean).sort((a, b) => b.length - a.length);
  // A trailing "*" marks a stem: its inflections follow ("schütz*": schützen, schütze).
  const body = phrases.map((p) => (p.endsWith("*") ? `${escape(p.slice(0, -1))}[\\p{L}\\p{M}]*` : escape(p))).join("|");
  return new RegExp(spaced ? `(?<![\\p{L}\\p{M}\\p{N}])(?:${body})(?![\\p{L}\\p{M}\\p{N}])` : `(?:${body})`, "u");
}

const FRAME_PATTERNS: { frame: string; re: RegExp }[] = Object.entries(FRAMES).map(([key, lines]) => ({
  frame: key.replace(/_cjk$/, ""),
  re: frameRegex(lines, !key.endsWith("_cjk")),
}));

/**
 * The cross-language tokens of a text (from its expanded view, which the text features already computed):
 * each category word and attack cue found, each framing found, each category paired with each framing
 * (a linear model cannot make "weapon word and a request for a method" out of the two alone), and the
 * obfuscation markers.
 */
export function crossLanguageTokens(expanded: Expanded): string[] {
  const folded = expanded.text;
  const lexicon = [...lexiconTokens(folded)];
  for (const p of MORE_PATTERNS) if (p.re.test(folded)) lexicon.push("xxlex_" + p.cat);
  const categories = [...new Set(lexicon.filter((t) => t.startsWith("xxlex_")))];
  const frames = [...new Set(FRAME_PATTERNS.filter((p) => p.re.test(folded)).map((p) => p.frame))];
  const out = ["xl_bias", ...lexicon, ...frames.map((f) => "xlf_" + f), ...expanded.markers];
  for (const c of categories) for (const f of frames) out.push(`${c}&${f}`);
  if (categories.length > 1) for (const c of categories) for (const d of categories) if (c < d) out.push(`${c}&${d}`);
  if (!categories.length) out.push("xl_no_category_word");
  return out;
}

const crossScores = new WeakMap<TextFeatures, Map<LoadedModel, Map<string, number>>>();

/**
 * A cross-language head's score of a text, from the text features the n-gram heads already computed
 * (their expanded view); the tokens are found once per text and model, for all six heads.
 */
function crossLanguageScore(model: LoadedModel, head: string, f: TextFeatures): number {
  let perModel = crossScores.get(f);
  if (!perModel) crossScores.set(f, (perModel = new Map<LoadedModel, Map<string, number>>()));
  let scores = perModel.get(model);
  if (!scores) {
    const x = tokenFeatures(crossLanguageTokens(f.expanded), model.bits);
    scores = new Map(model.names.map((n) => [n, score(model.heads.get(n)!, x)]));
    perModel.set(model, scores);
  }
  return scores.get(head)!;
}

/** The cross-language head's detection: the whole text at its level (the tokens have no position). */
export function crossLanguageDetection(model: LoadedModel, head: string, f: TextFeatures, textLength: number): Detection {
  const level = levelOf(crossLanguageScore(model, head, f), model.heads.get(head)!.thresholds);
  return { level, spans: level === "l5_unlikely" ? [] : [{ start: 0, end: textLength, level }] };
}
