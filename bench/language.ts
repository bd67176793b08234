// Speed of language identification (src/screening/language.ts, docs/language.md): microseconds
// per text and per 1,000 characters, by text length, on one core. Every text is distinct (a fresh
// shuffle of words, numbered), so nothing is answered from a cache, and texts are flat strings, as
// JSON parsing delivers them.
const rss0 = process.memoryUsage().rss;
const t0 = performance.now();
const { identifyLanguage } = await import("../src/screening/language.js");
const loadMs = performance.now() - t0;
const t1 = performance.now();
identifyLanguage("A first call, which sets the native library up.");
const firstMs = performance.now() - t1;
console.log(
  `load: ${loadMs.toFixed(1)} ms (import, through tsx), first call ${firstMs.toFixed(2)} ms, resident memory +${((process.memoryUsage().rss - rss0) / 2 ** 20).toFixed(1)} MiB`,
);

/** Words of a few everyday sentences per language, reshuffled into new texts. */
const WORDS: Record<string, string[]> = {
  en: "could you please check whether the meeting room on the third floor is free tomorrow afternoon for our weekly planning call".split(" "),
  de: "könnten sie bitte nachsehen ob der besprechungsraum im dritten stock morgen nachmittag für unsere wöchentliche planung frei ist".split(" "),
  es: "podrías comprobar si la sala de reuniones del tercer piso está libre mañana por la tarde para nuestra llamada semanal".split(" "),
  ru: "не могли бы вы проверить свободна ли переговорная на третьем этаже завтра после обеда для нашей еженедельной встречи".split(" "),
  zh: "请 帮 我 看 一下 明天 下午 三楼 的 会议室 是否 空着 我们 要 开 每周 的 计划 会议".split(" "),
  ar: "هل يمكنك التحقق مما إذا كانت غرفة الاجتماعات في الطابق الثالث متاحة غدا بعد الظهر لاجتماعنا الأسبوعي".split(" "),
};
const LANGS = Object.keys(WORDS);

let seed = 1;
function random(): number {
  seed = (seed + 0x6d2b79f5) | 0;
  let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
}

function text(n: number, i: number): string {
  const words = WORDS[LANGS[i % LANGS.length]];
  const sep = LANGS[i % LANGS.length] === "zh" ? "" : " ";
  const parts: string[] = [String(i)];
  let length = parts[0].length;
  while (length < n) {
    const w = words[Math.floor(random() * words.length)];
    parts.push(w);
    length += w.length + sep.length;
  }
  // Round-tripped through a Buffer: a flat string, not a rope V8 would flatten inside the timing.
  return Buffer.from(parts.join(sep).slice(0, n)).toString();
}

const SIZES: [number, number][] = [
  [30, 20_000],
  [100, 20_000],
  [300, 10_000],
  [1_000, 10_000],
  [10_000, 2_000],
  [100_000, 200],
];

let warm = 0;
for (let i = 0; i < 5_000; i++) warm += identifyLanguage(text(200, i)).confidence;

console.log("characters  texts    µs/text  µs/1,000 chars");
for (const [n, count] of SIZES) {
  const texts = Array.from({ length: count }, (_, i) => text(n, i + 1_000_000));
  const start = performance.now();
  for (const t of texts) warm += identifyLanguage(t).confidence;
  const us = ((performance.now() - start) * 1000) / count;
  console.log(`${String(n).padStart(10)}  ${String(count).padStart(6)}  ${us.toFixed(1).padStart(8)}  ${((us * 1000) / n).toFixed(1).padStart(14)}`);
}
// Keeps the calls from being optimised away.
if (Number.isNaN(warm)) console.log(warm);
