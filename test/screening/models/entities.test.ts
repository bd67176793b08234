// Token classification into entities: Hugging Face's aggregation strategies over sub-words
// (simple, first, average, max) and the grouping of BIO / BIOES tags into entities.
import { describe, expect, it } from "vitest";
import { entitiesOf, type Aggregation } from "../../../src/screening/models/entities.js";
import { tagOf } from "../../../src/screening/models/labels.js";
import type { Tokenized } from "../../../src/screening/models/tokenizer.js";

const TAGS = ["O", "B-PER", "I-PER", "B-LOC", "I-LOC", "E-PER", "S-LOC"].map(tagOf);

/** Tokens laid end to end over `text`: [piece, starts a word, probabilities over TAGS]. */
function tokens(text: string, pieces: [string, 0 | 1, number[]][]): { t: Tokenized; probs: Float64Array } {
  const starts: number[] = [];
  const ends: number[] = [];
  let at = 0;
  for (const [piece] of pieces) {
    at = text.indexOf(piece, at);
    starts.push(at);
    ends.push((at += piece.length));
  }
  const probs = new Float64Array(pieces.length * TAGS.length);
  pieces.forEach(([, , p], j) => probs.set([...p, ...new Array(TAGS.length - p.length).fill(0)], j * TAGS.length));
  return {
    t: { ids: new Int32Array(pieces.length), starts: Int32Array.from(starts), ends: Int32Array.from(ends), wordStarts: Uint8Array.from(pieces.map(([, w]) => w)) },
    probs,
  };
}

const O = [0.9, 0.05, 0.05];
const found = (text: string, strategy: Aggregation, pieces: [string, 0 | 1, number[]][]) => {
  const { t, probs } = tokens(text, pieces);
  return entitiesOf(probs, TAGS.length, t, TAGS, strategy).map((e) => ({ entity: e.entity, text: text.slice(e.start, e.end), score: Number(e.score.toFixed(3)) }));
};

describe("aggregation over sub-words", () => {
  // "Tanaka" = "Tan" "aka": the model is sure of B-PER on the first piece and unsure of the second.
  const text = "meet Tanaka now";
  const pieces: [string, 0 | 1, number[]][] = [
    ["meet", 1, O],
    ["Tan", 1, [0.1, 0.8, 0.1]],
    ["aka", 0, [0.6, 0.1, 0.3]],
    ["now", 1, O],
  ];

  it("simple groups tokens by their own best tag, so an entity can end inside a word", () => {
    expect(found(text, "simple", pieces)).toEqual([{ entity: "PER", text: "Tan", score: 0.8 }]);
  });

  it("first gives the word its first token's tag", () => {
    expect(found(text, "first", pieces)).toEqual([{ entity: "PER", text: "Tanaka", score: 0.8 }]);
  });

  it("average gives the word its tokens' averaged scores' best tag", () => {
    // (0.1 + 0.6) / 2 = 0.35 on O, (0.8 + 0.1) / 2 = 0.45 on B-PER: B-PER wins.
    expect(found(text, "average", pieces)).toEqual([{ entity: "PER", text: "Tanaka", score: 0.45 }]);
    // (0.1 + 0.9) / 2 = 0.5 on O, (0.8 + 0.05) / 2 = 0.425 on B-PER: no entity, where first finds one.
    const unsure: [string, 0 | 1, number[]][] = [pieces[0], pieces[1], ["aka", 0, [0.9, 0.05, 0.05]], pieces[3]];
    expect(found(text, "average", unsure)).toEqual([]);
    expect(found(text, "first", unsure)).toEqual([{ entity: "PER", text: "Tanaka", score: 0.8 }]);
  });

  it("max gives the word its most confident token's tag", () => {
    expect(found(text, "max", [pieces[0], ["Tan", 1, [0.3, 0.6, 0.1]], ["aka", 0, [0.9, 0.05, 0.05]], pieces[3]])).toEqual([]);
    expect(found(text, "max", pieces)).toEqual([{ entity: "PER", text: "Tanaka", score: 0.8 }]);
  });
});

describe("tags into entities", () => {
  it("joins I after B of one entity, starts a new one at B or at another entity, and stops at O", () => {
    const text = "Alice Smith Bob Paris x London";
    const e = found(text, "simple", [
      ["Alice", 1, [0, 1]],
      ["Smith", 1, [0, 0, 1]],
      ["Bob", 1, [0, 1]],
      ["Paris", 1, [0, 0, 0, 0, 1]],
      ["x", 1, [1]],
      ["London", 1, [0, 0, 0, 0, 1]],
    ]);
    expect(e.map((x) => [x.entity, x.text])).toEqual([
      ["PER", "Alice Smith"],
      ["PER", "Bob"],
      ["LOC", "Paris"],
      ["LOC", "London"],
    ]);
  });

  it("ends an entity at E and makes S an entity of its own (BIOES)", () => {
    const text = "Ann Lee Kim Rome Oslo";
    const e = found(text, "simple", [
      ["Ann", 1, [0, 1]],
      ["Lee", 1, [0, 0, 0, 0, 0, 1]],
      ["Kim", 1, [0, 0, 1]],
      ["Rome", 1, [0, 0, 0, 0, 0, 0, 1]],
      ["Oslo", 1, [0, 0, 0, 0, 0, 0, 1]],
    ]);
    expect(e.map((x) => [x.entity, x.text])).toEqual([
      ["PER", "Ann Lee"],
      ["PER", "Kim"],
      ["LOC", "Rome"],
      ["LOC", "Oslo"],
    ]);
  });

  it("scores an entity as the mean of its tokens' scores", () => {
    expect(found("Alice Smith", "simple", [["Alice", 1, [0.2, 0.8]], ["Smith", 1, [0.4, 0, 0.6]]])).toEqual([{ entity: "PER", text: "Alice Smith", score: 0.7 }]);
  });
});
