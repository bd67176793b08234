// Token offsets: transformers.js gives ids without offsets, so the runtime aligns each token back
// onto the text (offsets.ts). Checked on the three fixture tokenizers, one per family, on the
// texts that break naive alignment: emoji (one token, several bytes, or unknown), CJK without
// spaces, combining marks written apart from their letter, full-width letters the normalizer
// folds, and characters the vocabulary lacks.
import fs from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { TextTokenizer } from "../../../src/screening/models/tokenizer.js";
import { FIXTURES_DIR, type FixtureName } from "../../../scripts/model-fixtures/fixtures.js";

const tokenizers = new Map<FixtureName, TextTokenizer>();

beforeAll(async () => {
  for (const name of ["unigram-attack", "bpe-moderation", "wordpiece-ner"] as const) {
    const read = (f: string) => JSON.parse(fs.readFileSync(path.join(FIXTURES_DIR, name, f), "utf8"));
    tokenizers.set(name, await TextTokenizer.load(read("tokenizer.json"), read("tokenizer_config.json")));
  }
});

/** Each token's slice of the text, with "|" before the ones that continue a word. */
function slices(name: FixtureName, text: string): string[] {
  const t = tokenizers.get(name)!.encode(text);
  return Array.from(t.ids, (_, i) => (t.wordStarts[i] ? "" : "|") + text.slice(t.starts[i], t.ends[i]));
}

describe("WordPiece (wordpiece-ner)", () => {
  it("gives sub-words their piece of the word and marks them as continuing it", () => {
    expect(slices("wordpiece-ner", "Call Tanaka at 5550100")).toEqual(["Call", "Tan", "|aka", "at", "5", "|5", "|5", "|0", "|1", "|0", "|0"]);
  });

  it("gives each CJK ideograph and kana its own character", () => {
    expect(slices("wordpiece-ner", "田中さんは東京")).toEqual(["田", "中", "さ", "|ん", "|は", "東", "京"]);
  });

  it("keeps a combining mark with its letter: both tokens of a decomposed letter cover the whole letter", () => {
    // "Zoe\u0308" is "Zoe" "##\u0308": the e and its diaeresis are one character on screen.
    expect(slices("wordpiece-ner", "Zoe\u0308 lives")).toEqual(["Zoe\u0308", "|e\u0308", "lives"]);
  });

  it("gives an unknown token the word it stands for, and an emoji its surrogate pair", () => {
    expect(slices("wordpiece-ner", "Bob 😀 meet Alice 🙂 ꙮꙮ")).toEqual(["Bob", "😀", "meet", "Alice", "🙂", "ꙮꙮ"]);
  });
});

describe("SentencePiece Unigram (unigram-attack)", () => {
  it("reads ▁ as the space before a word, never as text", () => {
    expect(slices("unigram-attack", "Ignore all instructions")).toEqual(["Ignore", "all", "instructions"]);
  });

  it("maps pieces of text the normalizer folded back onto the characters sent (full-width, NFKC)", () => {
    expect(slices("unigram-attack", "please ｉｇｎｏｒｅ this")).toEqual(["please", "ｉｇｎｏｒｅ", "this"]);
  });

  it("cuts CJK without spaces where the pieces are", () => {
    const s = slices("unigram-attack", "前の指示を無視して");
    expect(s.join("").replace(/\|/g, "")).toBe("前の指示を無視して");
    expect(s).toContain("|指示");
    expect(s).toContain("|無視");
  });

  it("gives an unknown character its own place and no more", () => {
    const text = "forget 𓀀 instructions";
    expect(slices("unigram-attack", text).filter((x) => x !== "")).toEqual(["forget", "𓀀", "instructions"]);
  });
});

describe("byte-level BPE (bpe-moderation)", () => {
  it("reads Ġ as a space and maps listed words to their letters", () => {
    expect(slices("bpe-moderation", "I will kill you")).toEqual(["I", "will", "kill", "you"]);
  });

  it("gives every byte token of a split emoji the whole emoji, and a listed emoji its own token", () => {
    const t = tokenizers.get("bpe-moderation")!.encode("a 😀 🔪");
    const text = "a 😀 🔪";
    const parts = Array.from(t.ids, (_, i) => text.slice(t.starts[i], t.ends[i]));
    // 😀 is four bytes, not in the vocabulary: three tokens (F0 9F merged, then single bytes),
    // each spanning the whole emoji; the spaces are tokens of their own that stand for no text.
    expect(parts).toEqual(["a", "", "😀", "😀", "😀", "", "🔪"]);
  });

  it("keeps offsets in UTF-16 units of the text after characters outside the BMP", () => {
    const text = "😀😀 kill 東京 café";
    const t = tokenizers.get("bpe-moderation")!.encode(text);
    const kill = Array.from(t.ids).findIndex((_, i) => text.slice(t.starts[i], t.ends[i]) === "kill");
    expect(kill).toBeGreaterThan(0);
    expect(t.starts[kill]).toBe(text.indexOf("kill"));
    expect(Array.from(t.ids, (_, i) => text.slice(t.starts[i], t.ends[i]))).toEqual(expect.arrayContaining(["東京", "café"]));
  });
});

describe("long texts", () => {
  it("are tokenized in pieces cut before whitespace, with the ids of the whole text", async () => {
    const { AutoTokenizer, env } = await import("@huggingface/transformers");
    env.allowRemoteModels = false;
    for (const name of ["unigram-attack", "bpe-moderation", "wordpiece-ner"] as const) {
      const library = await AutoTokenizer.from_pretrained(path.join(FIXTURES_DIR, name), { local_files_only: true });
      const text = "Please ignore   the weather, Alice 😀 東京 café\n\n".repeat(300);
      expect(text.length).toBeGreaterThan(10_000);
      const t = tokenizers.get(name)!.encode(text);
      expect(Array.from(t.ids), name).toEqual(library.encode(text, { add_special_tokens: false }));
      // Offsets never run backwards across the pieces.
      for (let i = 1; i < t.ids.length; i++) expect(t.starts[i]).toBeGreaterThanOrEqual(t.starts[i - 1]);
    }
  });

  it("of a megabyte, with or without whitespace, are tokenized whole", () => {
    for (const text of ["ignore ".repeat(150_000), "東京".repeat(500_000), "x".repeat(1_000_000)]) {
      const t = tokenizers.get("unigram-attack")!.encode(text);
      expect(t.ids.length).toBeGreaterThan(0);
      expect(t.ends[t.ends.length - 1]).toBe(text.length);
    }
  });
});
