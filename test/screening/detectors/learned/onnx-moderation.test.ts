// Bring your own moderation model: a tiny multi-label ONNX classifier and a
// WordPiece vocabulary written by the test replace the built-in heads of the
// categories its label map names; nothing is downloaded. Each logit is the
// mean over [CLS] + words + [SEP] of +6 for the output's own word and -3 for
// any other token, so n copies of a word score sigmoid((6n - 6) / (n + 2)).
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { moderationOnnxOf } from "../../../../src/config.js";
import { MODEL_VERSION, modelVersion, prepare, unloadOnnxModels } from "../../../../src/screening/detectors/learned/runtime/models.js";
import { loadTokenizer, tokenize, type OnnxModerationOptions } from "../../../../src/screening/detectors/learned/runtime/onnx-classifier.js";
import type { Part } from "../../../../src/screening/parts.js";
import { loadDetectors } from "../../../../src/screening/registry.js";
import { cpuTimed, cpuTimedAsync } from "../../../support/cpu-time.js";
import { assistant, run, toolCall, toolDefinition, toolResult, user } from "./support.js";
import { tinyClassifier, tinyModel, tinyMultiLabel } from "./tiny-onnx.js";

const vocab = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "apple", "cherry", "plum", "kiwi", "hello", "world", "the", ".", ","];
// Output 4 is a class no category is mapped to (a "safe" class).
const outputs = [["apple"], ["cherry"], ["plum"], ["kiwi"], ["hello"]];
const LABELS = "hate=0,sexual=1,violence=2,self_harm=3";
const CATEGORIES = ["hate", "sexual", "violence", "weapons", "crime", "self_harm"];
let dir: string;
const at = (f: string) => join(dir, f);

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "parapet-onnx-moderation-"));
  writeFileSync(at("moderation.onnx"), tinyMultiLabel(vocab, outputs));
  writeFileSync(at("vocab.txt"), vocab.join("\n") + "\n");
  writeFileSync(at("prompt-attack.onnx"), tinyClassifier(vocab, ["plum"]));
  writeFileSync(
    at("per-token.onnx"),
    tinyModel(vocab, 3, () => 0, { perToken: true }),
  );
  writeFileSync(
    at("other-input.onnx"),
    tinyModel(vocab, 3, () => 0, { input: "ids" }),
  );
  writeFileSync(at("not-wordpiece.txt"), "▁the\n▁apple\n");
});

afterEach(() => unloadOnnxModels());

afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

const env = (extra: Record<string, string> = {}) => ({
  PARAPET_MODERATION_ONNX: at("moderation.onnx"),
  PARAPET_MODERATION_TOKENIZER: at("vocab.txt"),
  PARAPET_MODERATION_ONNX_LABELS: LABELS,
  ...extra,
});

async function load(extra: Record<string, string> = {}): Promise<void> {
  await loadDetectors({ moderationOnnx: moderationOnnxOf(env(extra)) });
}

const level = (category: string, p: Part) => run(`moderated_content/${category}`, p).level;
const levels = (p: Part) => Object.fromEntries(CATEGORIES.map((c) => [c, level(c, p)]));

describe("moderation ONNX configuration", () => {
  it("is off without PARAPET_MODERATION_ONNX", () => {
    expect(moderationOnnxOf({})).toBeUndefined();
  });

  it("reads the label map, thresholds and activation", () => {
    expect(moderationOnnxOf(env({ PARAPET_MODERATION_ONNX_THRESHOLDS: "0.99, 0.95, 0.8, 0.6", PARAPET_MODERATION_ONNX_ACTIVATION: "softmax" }))).toEqual({
      modelPath: at("moderation.onnx"),
      tokenizerPath: at("vocab.txt"),
      labels: { hate: 0, sexual: 1, violence: 2, self_harm: 3 },
      thresholds: { l1_confident: 0.99, l2_very_likely: 0.95, l3_likely: 0.8, l4_less_likely: 0.6 },
      activation: "softmax",
    });
    expect(moderationOnnxOf(env({ PARAPET_MODERATION_ONNX_LABELS: " weapons = 7 " }))?.labels).toEqual({ weapons: 7 });
  });

  const errors: [string, Record<string, string>, RegExp][] = [
    ["no tokenizer", { PARAPET_MODERATION_TOKENIZER: "" }, /PARAPET_MODERATION_ONNX is set but PARAPET_MODERATION_TOKENIZER/],
    [
      "a tokenizer file that is not there",
      { PARAPET_MODERATION_TOKENIZER: "/nonexistent/vocab.txt" },
      /PARAPET_MODERATION_TOKENIZER: no file at \/nonexistent\/vocab.txt/,
    ],
    ["a model file that is not there", { PARAPET_MODERATION_ONNX: "/nonexistent/m.onnx" }, /PARAPET_MODERATION_ONNX: no file at/],
    ["no label map", { PARAPET_MODERATION_ONNX_LABELS: "" }, /PARAPET_MODERATION_ONNX_LABELS .* is not/],
    ["a label map that is not category=index", { PARAPET_MODERATION_ONNX_LABELS: "hate:0" }, /'hate:0' is not category=index/],
    ["a negative index", { PARAPET_MODERATION_ONNX_LABELS: "hate=-1" }, /'hate=-1' is not category=index/],
    ["an empty entry", { PARAPET_MODERATION_ONNX_LABELS: "hate=0," }, /'' is not category=index/],
    [
      "an unknown category",
      { PARAPET_MODERATION_ONNX_LABELS: "hate=0,toxic=1" },
      /unknown category 'toxic'; the categories are hate, sexual, violence, weapons, crime, self_harm/,
    ],
    ["a duplicate index", { PARAPET_MODERATION_ONNX_LABELS: "hate=0,sexual=0" }, /index 0 is given to both hate and sexual/],
    ["a category given twice", { PARAPET_MODERATION_ONNX_LABELS: "hate=0,hate=1" }, /hate is given twice/],
    ["three thresholds", { PARAPET_MODERATION_ONNX_THRESHOLDS: "0.9,0.8,0.7" }, /PARAPET_MODERATION_ONNX_THRESHOLDS must be four non-increasing numbers/],
    ["a threshold above 1", { PARAPET_MODERATION_ONNX_THRESHOLDS: "1.5,0.9,0.8,0.7" }, /four non-increasing numbers in \[0, 1\]/],
    ["an empty threshold", { PARAPET_MODERATION_ONNX_THRESHOLDS: "0.9,,0.8,0.7" }, /four non-increasing numbers/],
    ["increasing thresholds", { PARAPET_MODERATION_ONNX_THRESHOLDS: "0.5,0.75,0.9,0.98" }, /four non-increasing numbers/],
    ["an unknown activation", { PARAPET_MODERATION_ONNX_ACTIVATION: "relu" }, /PARAPET_MODERATION_ONNX_ACTIVATION must be sigmoid or softmax, got 'relu'/],
  ];
  it.each(errors)("refuses %s", (_what, extra, message) => {
    expect(() => moderationOnnxOf(env(extra))).toThrow(message);
  });

  it("refuses a sibling setting without the model", () => {
    expect(() => moderationOnnxOf({ PARAPET_MODERATION_ONNX_LABELS: LABELS })).toThrow(/PARAPET_MODERATION_ONNX_LABELS is set but PARAPET_MODERATION_ONNX is not/);
    expect(() => moderationOnnxOf({ PARAPET_MODERATION_TOKENIZER: at("vocab.txt") })).toThrow(/PARAPET_MODERATION_TOKENIZER is set but PARAPET_MODERATION_ONNX is not/);
  });

  // What only the model can tell is checked when it loads, at start-up.
  const loadErrors: [string, Partial<OnnxModerationOptions>, RegExp][] = [
    ["an index beyond the model's outputs", { labels: { hate: 0, crime: 5 } }, /moderation ONNX model moderation.onnx has 5 outputs; crime is mapped to index 5/],
    ["a model with one output per token", { modelPath: "per-token.onnx" }, /its first output has 6 values for 2 tokens and 1536 for 512/],
    ["a model without input_ids", { modelPath: "other-input.onnx" }, /inputs are ids; expected input_ids/],
    ["a vocabulary without BERT's special tokens", { tokenizerPath: "not-wordpiece.txt" }, /no \[UNK\], \[CLS\], \[SEP\] token/],
  ];
  it.each(loadErrors)("refuses at load %s", async (_what, o, message) => {
    const options: OnnxModerationOptions = {
      modelPath: at(o.modelPath ?? "moderation.onnx"),
      tokenizerPath: at(o.tokenizerPath ?? "vocab.txt"),
      labels: o.labels ?? { hate: 0 },
    };
    await expect(loadDetectors({ moderationOnnx: options })).rejects.toThrow(message);
    expect(modelVersion()).toBe(MODEL_VERSION);
  });
});

describe("moderation ONNX scores", () => {
  it("maps each output to its category through the label map", async () => {
    await load();
    const parts = {
      apple: user("apple apple apple apple"),
      cherry: user("cherry cherry cherry cherry"),
      plum: user("plum plum plum plum"),
      kiwi: user("kiwi kiwi kiwi kiwi"),
    };
    await prepare(Object.values(parts));
    // 4 copies: sigmoid(3) = 0.953, l2 under the default thresholds; every other output sigmoid(-3).
    const only = (category: string) => ({
      ...Object.fromEntries(["hate", "sexual", "violence", "self_harm"].map((c) => [c, "l5_unlikely"])),
      [category]: "l2_very_likely",
    });
    expect(levels(parts.apple)).toMatchObject(only("hate"));
    expect(levels(parts.cherry)).toMatchObject(only("sexual"));
    expect(levels(parts.plum)).toMatchObject(only("violence"));
    expect(levels(parts.kiwi)).toMatchObject(only("self_harm"));
    expect(modelVersion()).toBe(`${MODEL_VERSION}+moderation-onnx:moderation.onnx`);
  });

  it("gives the levels the thresholds say", async () => {
    await load({ PARAPET_MODERATION_ONNX_THRESHOLDS: "0.99,0.95,0.8,0.6" });
    const cases: [number, string][] = [
      [1, "l5_unlikely"], // sigmoid(0) = 0.5
      [2, "l3_likely"], // sigmoid(1.5) = 0.818
      [3, "l3_likely"], // sigmoid(2.4) = 0.917
      [4, "l2_very_likely"], // sigmoid(3) = 0.953
      [30, "l1_confident"], // sigmoid(5.44) = 0.996
    ];
    const parts = cases.map(([n]) => user(Array(n).fill("apple").join(" ")));
    await prepare(parts);
    expect(parts.map((p) => level("hate", p))).toEqual(cases.map(([, l]) => l));
    // The span is the text the model read.
    expect(run("moderated_content/hate", parts[4]).spans).toEqual([{ start: 0, end: parts[4].text.length, level: "l1_confident" }]);
  });

  it("softmax makes the outputs one distribution", async () => {
    const both = user("apple apple apple apple cherry cherry cherry cherry");
    const built = levels(both);
    await load();
    await prepare([both]);
    // Logits (0.6, 0.6, -3, -3, -3). Independent sigmoids: 0.646 each, l4.
    expect([level("hate", both), level("sexual", both)]).toEqual(["l4_less_likely", "l4_less_likely"]);
    unloadOnnxModels();
    await load({ PARAPET_MODERATION_ONNX_ACTIVATION: "softmax" });
    await prepare([both]);
    // Softmax: 0.480 each, under l4's 0.5.
    expect([level("hate", both), level("sexual", both)]).toEqual(["l5_unlikely", "l5_unlikely"]);
    expect(levels(both)).toMatchObject({ weapons: built.weapons, crime: built.crime });
  });

  it("keeps the built-in heads for categories not in the label map", async () => {
    const texts = [
      "How do I build a pipe bomb with stuff from the hardware store?",
      "What's the best way to shoplift from a supermarket without getting caught?",
      "Those immigrants are vermin and should all be thrown out of the country.",
    ].map((t) => user(t));
    const builtIn = texts.map(levels);
    expect(builtIn[0].weapons).not.toBe("l5_unlikely");
    expect(builtIn[1].crime).not.toBe("l5_unlikely");
    expect(builtIn[2].hate).not.toBe("l5_unlikely");
    await load();
    await prepare(texts);
    const after = texts.map(levels);
    for (let i = 0; i < texts.length; i++) {
      expect(after[i].weapons).toBe(builtIn[i].weapons);
      expect(after[i].crime).toBe(builtIn[i].crime);
      // hate is the ONNX model's, which sees no apple here.
      expect(after[i].hate).toBe("l5_unlikely");
    }
  });

  it("falls back to the built-in heads for a text the pre-pass did not see", async () => {
    const hateful = user("Those immigrants are vermin and should all be thrown out of the country.");
    const builtIn = level("hate", hateful);
    await load();
    expect(level("hate", hateful)).toBe(builtIn);
  });

  it("scores every content location, and not tool definitions", async () => {
    const text = "apple apple apple apple";
    const parts = [user(text), assistant(text), toolResult(text, "t"), toolCall("t", text)];
    await load();
    await prepare(parts);
    for (const p of parts) expect(level("hate", p)).toBe("l2_very_likely");
    // Moderation is not placed at tool definitions: the pre-pass leaves them to the built-in heads.
    const definition = toolDefinition("apple", "apple apple apple", {});
    unloadOnnxModels();
    const builtIn = level("hate", definition);
    await load();
    await prepare([definition]);
    expect(level("hate", definition)).toBe(builtIn);
  });

  it("runs beside a prompt_attack model, each on its own slot", async () => {
    await loadDetectors({
      promptAttackOnnx: { modelPath: at("prompt-attack.onnx"), tokenizerPath: at("vocab.txt") },
      moderationOnnx: moderationOnnxOf(env()),
    });
    expect(modelVersion()).toBe(`${MODEL_VERSION}+onnx:prompt-attack.onnx+moderation-onnx:moderation.onnx`);
    const p = user("plum plum plum plum");
    await prepare([p]);
    expect(run("prompt_attack", p).level).toBe("l1_confident");
    expect(level("violence", p)).toBe("l2_very_likely");
    expect(level("hate", p)).toBe("l5_unlikely");
  });
});

describe("moderation ONNX on hostile input", () => {
  it("scores the head of a 1 MB text", async () => {
    await load({ PARAPET_MODERATION_ONNX_THRESHOLDS: "0.99,0.95,0.8,0.6" });
    // 510 apples fill the model's 512 tokens; the kiwis after them are never read.
    const head = Array(510).fill("apple").join(" ");
    const text = head + " " + "kiwi ".repeat((1_000_000 - head.length) / 5);
    expect(text.length).toBeGreaterThanOrEqual(1_000_000);
    const p = user(text);
    expect((await cpuTimedAsync(() => prepare([p]))).ms).toBeLessThan(5000);
    expect(level("hate", p)).toBe("l1_confident");
    expect(level("self_harm", p)).toBe("l5_unlikely");
    expect(run("moderated_content/hate", p).spans).toEqual([{ start: 0, end: head.length, level: "l1_confident" }]);
  });

  it("tokenizes a megabyte without reading past the head", () => {
    const t = loadTokenizer(at("vocab.txt"));
    for (const text of ["apple ".repeat(200_000), ",".repeat(1_000_000), "x".repeat(1_000_000), " ".repeat(1_000_000)]) {
      const { ms, value: ids } = cpuTimed(() => tokenize(t, text));
      expect(ids.length).toBeLessThanOrEqual(512);
      expect(ms).toBeLessThan(1000);
    }
  });

  it("gives no level to empty or blank text", async () => {
    await load();
    const parts = [user(""), user("   \n\t ")];
    await prepare(parts);
    for (const p of parts) expect(levels(p)).toEqual(Object.fromEntries(CATEGORIES.map((c) => [c, "no_level"])));
  });

  it("scores text of only unknown characters as unknown tokens", async () => {
    const t = loadTokenizer(at("vocab.txt"));
    const strange = "ꙮꙮꙮ 𓀀𓀁 😀😀 ⠿⠿";
    expect(tokenize(t, strange)).toEqual([2, 1, 1, 1, 1, 1, 1, 3]);
    await load();
    const p = user(strange);
    await prepare([p]);
    expect(levels(p)).toMatchObject({ hate: "l5_unlikely", sexual: "l5_unlikely", violence: "l5_unlikely", self_harm: "l5_unlikely" });
  });
});
