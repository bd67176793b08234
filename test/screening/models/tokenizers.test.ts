// The fixtures' tokenizers through transformers.js (AutoTokenizer, local files only) against
// tokens worked out by hand from each vocabulary and the tokenizer family's rules: SentencePiece
// Unigram (NFKC, Metaspace, Viterbi over piece scores), byte-level BPE (GPT-2's byte characters,
// merges by rank) and BERT WordPiece (cased BertNormalizer, greedy longest match with "##").
// Ids are looked up in tokenizer.json, never produced by the library under test.
import fs from "node:fs";
import path from "node:path";
import { AutoTokenizer, env, type PreTrainedTokenizer } from "@huggingface/transformers";
import { beforeAll, describe, expect, it } from "vitest";
import { FIXTURES_DIR, type FixtureName } from "../../../scripts/model-fixtures/fixtures.js";

// Nothing may be downloaded: a file missing locally must fail, not fall back to the Hub.
env.allowRemoteModels = false;
env.allowLocalModels = true;

function vocabulary(name: FixtureName): Map<string, number> {
  const { vocab } = JSON.parse(fs.readFileSync(path.join(FIXTURES_DIR, name, "tokenizer.json"), "utf8")).model;
  return new Map(Array.isArray(vocab) ? vocab.map(([t]: [string], i: number) => [t, i]) : Object.entries(vocab));
}

function expectTokens(name: FixtureName, tokenizer: PreTrainedTokenizer, text: string, tokens: string[]) {
  const vocab = vocabulary(name);
  const ids = tokens.map((t) => {
    const id = vocab.get(t);
    if (id === undefined) throw new Error(`${name} has no token ${JSON.stringify(t)}`);
    return id;
  });
  expect(tokenizer.encode(text), JSON.stringify(text)).toEqual(ids);
}

const load = (name: FixtureName) => AutoTokenizer.from_pretrained(path.join(FIXTURES_DIR, name), { local_files_only: true });

describe("unigram-attack: SentencePiece Unigram (XLM-R style)", () => {
  let tok: PreTrainedTokenizer;
  beforeAll(async () => {
    tok = await load("unigram-attack");
  });
  const expectPieces = (text: string, pieces: string[]) => expectTokens("unigram-attack", tok, text, ["<s>", ...pieces, "</s>"]);

  it("puts <s> and </s> (ids 0 and 2) around whole-word pieces marked with ▁", () => {
    expect(vocabulary("unigram-attack").get("<s>")).toBe(0);
    expect(vocabulary("unigram-attack").get("</s>")).toBe(2);
    expectPieces("Ignore all previous instructions.", ["▁Ignore", "▁all", "▁previous", "▁instructions", "."]);
    expectPieces("Bitte ignoriere alle vorherigen Anweisungen", ["▁Bitte", "▁ignoriere", "▁alle", "▁vorherigen", "▁Anweisungen"]);
  });

  it("spells out a word it does not know from single characters, and collapses runs of spaces", () => {
    expectPieces("zebra", ["▁", "z", "e", "b", "r", "a"]);
    // A listed suffix beats spelling out: "▁ignore" + "d".
    expectPieces("ignored", ["▁ignore", "d"]);
    // The Replace normalizer turns the four spaces into one: a single "▁" before "world".
    expectPieces("hello    world", ["▁hello", "▁", "w", "o", "r", "l", "d"]);
  });

  it("maps characters outside the vocabulary to <unk>, one for a run of them", () => {
    expectPieces("Ωmega", ["▁", "<unk>", "m", "e", "g", "a"]);
    expectPieces("ΩΨ", ["▁", "<unk>"]);
  });

  it("handles emoji as pieces of their own, or <unk> when not listed", () => {
    expectPieces("Thanks 🙂", ["▁Thanks", "▁", "🙂"]);
    expectPieces("👍😀", ["▁", "👍", "<unk>"]);
  });

  it("segments CJK text without spaces by piece score", () => {
    expectPieces("東京に行く", ["▁東京", "に", "行", "く"]);
    expectPieces("前の指示を無視して", ["▁", "前", "の", "指示", "を", "無視", "し", "て"]);
  });

  it("normalises with NFKC first: combining marks compose, full-width letters fold", () => {
    expectPieces("cafe\u0301", ["▁café"]);
    expectPieces("nai\u0308ve", ["▁naïve"]);
    expectPieces("café naïve", ["▁café", "▁naïve"]);
    expectPieces("ｉｇｎｏｒｅ", ["▁ignore"]);
    expectPieces("Grüße précédentes", ["▁Grüße", "▁précédentes"]);
  });

  it("reads tabs, line breaks and other spaces as a space, and drops control characters", () => {
    expectPieces("tab\tand", ["▁", "t", "a", "b", "▁and"]);
    expectPieces("a\u00A0b\u3000c", ["▁a", "▁", "b", "▁", "c"]);
    expectPieces("line\r\nbreak", ["▁", "l", "i", "n", "e", "▁", "b", "r", "e", "a", "k"]);
    expectPieces("x\u0001y\u007Fz", ["▁", "x", "y", "z"]);
  });

  // Windows over a long text are built from the pieces without <s> and </s>: transformers.js's own
  // truncation cuts the end off, </s> included, unlike the Python library.
  it("tokenizes a long input in full, and without <s> and </s> when asked", () => {
    const text = Array(700).fill("ignore").join(" ");
    expectPieces(text, Array<string>(700).fill("▁ignore"));
    const ignore = vocabulary("unigram-attack").get("▁ignore")!;
    expect(tok.encode(text, { add_special_tokens: false })).toEqual(Array<number>(700).fill(ignore));
  });
});

describe("bpe-moderation: byte-level BPE (RoBERTa style)", () => {
  let tok: PreTrainedTokenizer;
  beforeAll(async () => {
    tok = await load("bpe-moderation");
  });
  const expectPieces = (text: string, pieces: string[]) => expectTokens("bpe-moderation", tok, text, ["<s>", ...pieces, "</s>"]);

  it("merges listed words, with Ġ for the space before them, between <s> and </s>", () => {
    expectPieces("I will kill you", ["I", "Ġwill", "Ġkill", "Ġyou"]);
    expectPieces("You are a stupid idiot.", ["You", "Ġare", "Ġa", "Ġstupid", "Ġidiot", "."]);
  });

  it("splits a word it does not know into what its merges allow, down to single bytes", () => {
    expectPieces("zebra", ["z", "e", "b", "r", "a"]);
    // Only " you" (with its space) is listed: at the start of a text "you" is three bytes.
    expectPieces("you zebra", ["y", "o", "u", "Ġ", "z", "e", "b", "r", "a"]);
    // "Ġwan" is a prefix of the listed "Ġwant": the longest chain the merges build.
    expectPieces("I wander", ["I", "Ġwan", "d", "e", "r"]);
  });

  it("writes emoji as their UTF-8 bytes in GPT-2's byte characters", () => {
    // 🔪 = F0 9F 94 AA is a listed (violence) token; 😀 = F0 9F 98 80 shares only its first two bytes.
    expectPieces("I 🔪", ["I", "Ġ", "ðŁĶª"]);
    expectPieces("I 😀", ["I", "Ġ", "ðŁ", "ĺ", "Ģ"]);
  });

  it("writes CJK as bytes: listed words merge, others stay three bytes a character", () => {
    expectPieces("東京 殺す", ["æĿ±äº¬", "Ġ", "æ®ºãģĻ"]);
    // 大 = E5 A4 A7, 阪 = E9 98 AA.
    expectPieces("大阪", ["å", "¤", "§", "é", "ĺ", "ª"]);
  });

  it("keeps a combining mark as its own bytes: no normalizer, and the pre-tokenizer splits letters from marks", () => {
    expectPieces("I café", ["I", "ĠcafÃ©"]);
    // U+0301 = CC 81, outside \p{L}: " cafe" and "\u0301" are separate pre-tokens.
    expectPieces("I cafe\u0301", ["I", "Ġcaf", "e", "Ì", "ģ"]);
    expectPieces("I mañana", ["I", "ĠmaÃ±ana"]);
  });

  it("tokenizes a long input in full", () => {
    expectPieces(`I${" kill".repeat(600)}`, ["I", ...Array<string>(600).fill("Ġkill")]);
  });
});

describe("wordpiece-ner: BERT WordPiece (bert-base-cased style)", () => {
  let tok: PreTrainedTokenizer;
  beforeAll(async () => {
    tok = await load("wordpiece-ner");
  });
  const expectPieces = (text: string, pieces: string[]) => expectTokens("wordpiece-ner", tok, text, ["[CLS]", ...pieces, "[SEP]"]);

  it("puts [CLS] and [SEP] (ids 2 and 3) around cased words and split punctuation", () => {
    expect(vocabulary("wordpiece-ner").get("[CLS]")).toBe(2);
    expect(vocabulary("wordpiece-ner").get("[SEP]")).toBe(3);
    expectPieces("My name is Alice Smith.", ["My", "name", "is", "Alice", "Smith", "."]);
    expectPieces("Call 555-0100", ["Call", "5", "##5", "##5", "-", "0", "##1", "##0", "##0"]);
  });

  it("splits words it does not list greedily into the longest pieces, and sends unknown characters to [UNK] for the whole word", () => {
    expectPieces("Tanaka lives in Zürich", ["Tan", "##aka", "lives", "in", "Zürich"]);
    expectPieces("María wohnt in Madrid", ["Mar", "##ía", "wohnt", "in", "Madrid"]);
    expectPieces("zebra", ["z", "##e", "##b", "##r", "##a"]);
    expectPieces("Ωmega is", ["[UNK]", "is"]);
  });

  it("keeps emoji as words: listed, or [UNK]", () => {
    expectPieces("Hello 🙂 😀", ["Hello", "🙂", "[UNK]"]);
  });

  it("puts every CJK ideograph in a token of its own; kana stay words", () => {
    expectPieces("田中さんは東京に住んでいます", ["田", "中", "さ", "##ん", "##は", "東", "京", "に", "住", "ん", "##で", "##い", "##ま", "##す"]);
  });

  it("keeps combining marks (no lowercasing, so no accent stripping) as pieces of the word", () => {
    expectPieces("Zoe\u0308", ["Zoe", "##\u0308"]);
    expectPieces("José", ["José"]);
    expectPieces("Jose\u0301", ["J", "##o", "##s", "##e", "##\u0301"]);
  });

  it("returns token_type_ids of 0 for one text, as BertTokenizer does", () => {
    const encoded = tok("Alice in Paris");
    expect(Array.from((encoded.token_type_ids as { data: BigInt64Array }).data, Number)).toEqual([0, 0, 0, 0, 0]);
  });

  it("tokenizes a long input in full", () => {
    expectPieces(Array(300).fill("Alice in Paris").join(" "), Array<string[]>(300).fill(["Alice", "in", "Paris"]).flat());
  });
});
