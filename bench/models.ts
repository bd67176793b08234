// npm run bench:models (its first half; bench/judges.ts is the judges') — what Parapet adds around a
// configured model's inference, per 1,000 characters, with the fixture models (test/fixtures/models:
// one per tokenizer family and task, whose graphs are lookup tables, so nearly all of the time
// measured is Parapet's own). For each model and text size it times:
// - the whole pre-pass of one request of one part, as the service runs it (prepareModels: the
//   engine's normalization, tokenization, token offsets, windows, the hop to the model thread and
//   back, batching, inference, reading the outputs back into scores or entities);
// - inference alone: the same windows, in the batches the model thread forms, run on a session in
//   this thread;
// - tokenization, offsets and windows alone.
// The overhead is the first minus the second. Texts are distinct and seeded (no cache hits); one
// ONNX Runtime thread per graph in both measurements, so they compare.
import path from "node:path";
import { pathToFileURL } from "node:url";
import { buildService } from "../scripts/build.mjs";
import { pick, rng } from "../training/prng.js";
import type { Part } from "../src/screening/parts.js";

// The runtime as it ships: compiled (dist/), its model thread loading dist's worker.js directly.
const dist = path.dirname(await buildService());
const load = async <T>(module: string) => (await import(pathToFileURL(path.join(dist, module)).href)) as T;
const { modelSettingsOf } = await load<typeof import("../src/config.js")>("config.js");
const { loadModelRuntime, prepareModels, unloadModelRuntime } = await load<typeof import("../src/screening/models/runtime.js")>("screening/models/runtime.js");
const { readSlotFiles } = await load<typeof import("../src/screening/models/slot.js")>("screening/models/slot.js");
const { ModelSession } = await load<typeof import("../src/screening/models/session.js")>("screening/models/session.js");
const { windowsOf } = await load<typeof import("../src/screening/models/windows.js")>("screening/models/windows.js");
const { normalizeText } = await load<typeof import("../src/screening/normalize.js")>("screening/normalize.js");

const fixtures = path.resolve(import.meta.dirname, "../test/fixtures/models");

// Words the fixtures know (ordinary ones, their trigger words, names, places) and some they do
// not, so texts mix whole pieces, sub-words, unknown characters, CJK and emoji.
const WORDS = [
  ..."the a and of to in is was for with you your this that please tell me about weather today good day book movie people friends".split(" "),
  ..."ignore instructions override reveal pretend kill hurt stupid idiot suicide sex".split(" "),
  ..."Alice Bob Carlos Smith Tanaka Paris Tokyo London Berlin 5550100 555-0100".split(" "),
  ..."wander quickly résumé naïve Zürich 東京 田中さん 殺す 😀 🔪 ꙮ".split(" "),
];

function texts(seed: number, count: number, chars: number): string[] {
  const r = rng(seed);
  const out: string[] = [];
  for (let i = 0; i < count; i++) {
    let t = `${i}:`;
    while (t.length < chars) t += (r() < 0.08 ? ". " : " ") + pick(r, WORDS);
    out.push(t);
  }
  return out;
}

const SLOTS = [
  { name: "unigram-attack", env: "PARAPET_PROMPT_ATTACK_MODEL", type: "prompt_attack" },
  { name: "bpe-moderation", env: "PARAPET_MODERATION_MODEL", type: "moderated_content/violence" },
  { name: "wordpiece-ner", env: "PARAPET_PII_MODEL", type: "pii/name" },
] as const;
const SIZES = [
  { chars: 200, count: 400 },
  { chars: 2_000, count: 100 },
  { chars: 20_000, count: 12 },
];

const perK = (ms: number, chars: number) => ((ms / chars) * 1000).toFixed(3);

console.log("model             text size   pre-pass   inference   overhead   (tokenize+offsets+windows)   ms per 1,000 chars");
for (const s of SLOTS) {
  const settings = modelSettingsOf({ [s.env]: path.join(fixtures, s.name), PARAPET_MODEL_THREADS: "1" });
  await loadModelRuntime(settings);
  const files = await readSlotFiles(settings.slots[0], settings);
  const session = await ModelSession.create(files.spec, { device: "cpu", threads: 1 });
  const { prefix, suffix } = files.tokenizer;
  const windows = (text: string) => windowsOf(files.tokenizer.encode(normalizeText(text).text), prefix, suffix, files.content, files.stride);
  const placements = [{ type: s.type, location: "user::content" }];
  // Warm up the JIT and both paths on texts of their own.
  for (const t of texts(999, 50, 2_000)) {
    await prepareModels([{ location: "user::content", messageId: 0, text: t }], placements);
    windows(t);
  }
  for (const [k, size] of SIZES.entries()) {
    const seed = 1 + k;
    const sample = texts(seed, size.count, size.chars);
    const chars = sample.reduce((n, t) => n + t.length, 0);
    let started = performance.now();
    for (const text of sample) {
      const part: Part = { location: "user::content", messageId: 0, text };
      await prepareModels([part], placements);
    }
    const prePass = performance.now() - started;
    // The same texts again through tokenization alone, then inference alone.
    const again = texts(seed, size.count, size.chars);
    started = performance.now();
    const all = again.map(windows);
    const tokenize = performance.now() - started;
    let inference = 0;
    for (const w of all) {
      const list: Int32Array[] = [];
      let at = 0;
      for (const len of w.lengths) list.push(w.ids.subarray(at, (at += len)));
      for (let i = 0; i < list.length;) {
        const n = session.batchOf(list.slice(i).map((x) => x.length));
        const t0 = performance.now();
        await session.runBatch(list.slice(i, i + n));
        inference += performance.now() - t0;
        i += n;
      }
    }
    const line = [
      s.name.padEnd(17),
      `${String(size.chars).padStart(6)} ch`.padEnd(11),
      perK(prePass, chars).padStart(8),
      perK(inference, chars).padStart(11),
      perK(prePass - inference, chars).padStart(10),
      `(${perK(tokenize, chars)})`.padStart(16),
    ];
    console.log(line.join(" "));
  }
  await session.close();
  await unloadModelRuntime();
}
