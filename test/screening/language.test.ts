// Language and script identification (src/screening/language.ts, docs/language.md): everyday
// sentences written for this test, and hostile inputs that must come back fast with an answer a
// detector can act on (no letters -> "und", mixed or junk -> not reliable).
import { describe, expect, it } from "vitest";
import { identifyLanguage } from "../../src/screening/language.js";
import { cpuTimed } from "../support/cpu-time.js";

/** [lang, script, sentence]: each a plain sentence of the kind users type, in its own language. */
const SENTENCES: [string, string, string][] = [
  ["en", "Latin", "Could you help me write a short letter to my landlord about the broken heating?"],
  ["de", "Latin", "Ich möchte morgen früh mit dem Zug nach Hamburg fahren und meine Schwester besuchen."],
  ["fr", "Latin", "Nous avons passé tout le week-end à repeindre la cuisine avec nos voisins."],
  ["es", "Latin", "Mi abuela siempre prepara una sopa deliciosa cuando alguien de la familia está enfermo."],
  ["it", "Latin", "Domani pomeriggio andremo al mercato per comprare frutta fresca e un po' di formaggio."],
  ["pt", "Latin", "Ontem à noite fomos ao cinema e depois jantamos num restaurante perto da praia."],
  ["nl", "Latin", "Wij gaan volgende week met de fiets naar het strand als het weer mooi blijft."],
  ["pl", "Latin", "W przyszłym tygodniu chcemy pojechać w góry, jeśli pogoda będzie dobra."],
  ["sv", "Latin", "Vi ska åka till landet i helgen och plocka svamp i skogen med barnen."],
  ["tr", "Latin", "Yarın sabah erkenden kalkıp annemle birlikte pazara gitmeyi planlıyorum."],
  ["vi", "Latin", "Sáng mai tôi sẽ cùng mẹ đi chợ để mua rau và trái cây tươi."],
  ["sw", "Latin", "Kesho asubuhi nitaenda sokoni pamoja na mama yangu kununua mboga na matunda."],
  ["id", "Latin", "Besok pagi saya akan pergi ke pasar bersama ibu untuk membeli sayur dan buah segar."],
  ["ru", "Cyrillic", "Вчера вечером мы долго гуляли по парку и разговаривали о новой работе."],
  ["uk", "Cyrillic", "Моя бабуся щонеділі пече смачні пиріжки з вишнями для всіх онуків."],
  ["el", "Greek", "Αύριο το πρωί θα πάω με τη μητέρα μου στην αγορά για να αγοράσουμε φρούτα."],
  ["zh", "Han", "我们明天下午要去图书馆借几本关于历史的书，然后一起吃晚饭。"],
  ["ja", "Japanese", "明日の朝、駅の近くの喫茶店で友達と会う予定です。"],
  ["ko", "Hangul", "주말에 가족들과 함께 바닷가에 가서 맛있는 회를 먹었습니다."],
  ["ar", "Arabic", "ذهبت مع أصدقائي إلى السوق القديم لشراء التوابل والخبز الطازج."],
  ["fa", "Arabic", "فردا صبح با برادرم به کتابخانه می‌رویم تا چند کتاب تازه بگیریم."],
  ["he", "Hebrew", "אנחנו נוסעים לים בסוף השבוע הזה עם כל המשפחה."],
  ["hi", "Devanagari", "कल सुबह मैं अपने दोस्तों के साथ बाज़ार जाकर ताज़ी सब्ज़ियाँ खरीदूँगा।"],
  ["bn", "Bengali", "আমরা আগামীকাল সকালে নদীর ধারে বেড়াতে যাব এবং সেখানে দুপুরের খাবার খাব।"],
  ["ta", "Tamil", "நாளை காலை நாங்கள் கோவிலுக்குச் சென்று பிறகு சந்தைக்குப் போவோம்."],
  ["th", "Thai", "พรุ่งนี้เช้าฉันจะไปตลาดกับแม่เพื่อซื้อผักและผลไม้สด"],
];

/** A deterministic stream of bytes (mulberry32), so a failure reproduces. */
function bytes(n: number, seed: number): number[] {
  const out: number[] = [];
  for (let i = 0; i < n; i++) {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    out.push(((t ^ (t >>> 14)) >>> 0) & 0xff);
  }
  return out;
}

/** Runs identifyLanguage and the CPU time it took, after a call that warms the code path up. */
function timed(text: string): { ms: number; id: ReturnType<typeof identifyLanguage> } {
  identifyLanguage(text.slice(0, 100));
  const { ms, value: id } = cpuTimed(() => identifyLanguage(text));
  return { ms, id };
}

function expectSane(id: ReturnType<typeof identifyLanguage>): void {
  expect(id.lang).toMatch(/^([a-z]{2,3}|und)$/);
  expect(id.confidence).toBeGreaterThanOrEqual(0);
  expect(id.confidence).toBeLessThanOrEqual(1);
}

describe("identifyLanguage", () => {
  it.each(SENTENCES)("names %s (%s) reliably", (lang, script, sentence) => {
    const id = identifyLanguage(sentence);
    expect(id).toMatchObject({ lang, script, reliable: true });
    expect(id.confidence).toBeGreaterThan(0.5);
  });

  it("answers ISO 639-1 codes where CLD2 has legacy ones", () => {
    expect(identifyLanguage("אנחנו נוסעים לים בסוף השבוע הזה עם כל המשפחה.").lang).toBe("he"); // CLD2: "iw"
  });

  it("tells Chinese from Japanese by the kana, not by CLD2's guess on short Han text", () => {
    expect(identifyLanguage("你好，请问火车站怎么走？")).toMatchObject({ lang: "zh", script: "Han" });
    expect(identifyLanguage("ありがとうございます")).toMatchObject({ lang: "ja", script: "Japanese" });
  });

  it("gives no language to text without letters", () => {
    for (const text of ["", "   \n\t ", "3.14159 2.71828 42 -7", '{"1": [2, 3.5, -4], "5": {"6": [7, 8]}}', "😀🎉👍🏽🔥❤️‍🔥🚀".repeat(50), "!!! ??? ... ---"]) {
      expect(identifyLanguage(text)).toEqual({ lang: "und", script: "Common", confidence: 0, reliable: false });
    }
  });

  it("does not call a few letters reliable", () => {
    expect(identifyLanguage("hi")).toMatchObject({ lang: "und", reliable: false });
    for (const text of ["ok thanks", "Bonjour", "Привет", "你好吗", "안녕하세요"]) expect(identifyLanguage(text).reliable).toBe(false);
  });

  it("does not call mixed scripts or mixed languages reliable", () => {
    expect(identifyLanguage("Hello my friend, 你好朋友, привет друг, مرحبا يا صديقي").reliable).toBe(false);
    // CLD2 reads this as all German: the English instruction must not be hidden behind it.
    const mixed = identifyLanguage("Please translate this sentence into German for me: Ich habe heute keine Zeit, weil ich arbeiten muss.");
    expect(mixed.reliable).toBe(false);
    // A language that only starts after the head still shows up in the sample.
    const long = "This is a long English paragraph about the weather and the city. ".repeat(10) + "这是一段很长的中文文字，讲的是天气和城市的故事。".repeat(40);
    expect(identifyLanguage(long).reliable).toBe(false);
  });

  it("does not take CLD2's English fallback for another language as reliable", () => {
    // Italian that CLD2 answers English for with no English word in it.
    const id = identifyLanguage("Come posso creare un cocktail molotov in casa?");
    expect(id.lang === "it" || !id.reliable).toBe(true);
  });

  it("answers fast and sanely on hostile input", () => {
    const latin1 = String.fromCharCode(...bytes(4096, 1));
    const units = bytes(8192, 2);
    const anyUnits = Array.from({ length: 4096 }, (_, i) => String.fromCharCode((units[2 * i] << 8) | units[2 * i + 1])).join(""); // lone surrogates too
    const json = JSON.stringify({ id: 123, items: [1, 2, 3], ok: true, n: null, nested: { user: "jane", tags: ["a", "b"], score: -4.5 } });
    const cases: [string, string][] = [
      ["100k of one letter", "a".repeat(100_000)],
      ["1M of one letter", "x".repeat(1_000_000)],
      ["random bytes as Latin-1", latin1],
      ["random UTF-16 code units", anyUnits],
      ["a JSON blob", json],
      ["lone surrogates", "\ud800abc\udc00" + "y".repeat(300) + "\ud83d"],
      ["a million spaces", " ".repeat(1_000_000)],
    ];
    for (const [name, text] of cases) {
      const { ms, id } = timed(text);
      expect(ms, name).toBeLessThan(50);
      expectSane(id);
      expect(id.reliable, name).toBe(false);
    }
    expect(identifyLanguage("a".repeat(100_000)).script).toBe("Latin");
  });

  it("does the same bounded work for a long text as for a short one", () => {
    const sentence = "The quick brown fox jumps over the lazy dog near the river bank. ";
    const short = sentence.repeat(4);
    const long = sentence.repeat(50_000); // 3.3M characters
    expect(identifyLanguage(long)).toMatchObject({ lang: "en", script: "Latin", reliable: true });
    const t = (text: string): number =>
      cpuTimed(() => {
        for (let i = 0; i < 50; i++) identifyLanguage(text);
      }).ms;
    t(short);
    t(long);
    // Generous: identical work measures within noise, a linear pass over 3.3M characters would be ~1000x.
    expect(t(long)).toBeLessThan(10 * t(short) + 20);
  });
});
