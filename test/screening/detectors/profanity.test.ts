// Fixtures for an English profanity filter necessarily contain profanity.
import { describe, expect, it } from "vitest";
import { detectProfanity } from "../../../src/screening/detectors/profanity.js";
import { covered, expectNothing } from "./helpers.js";

describe("moderated_content/profanity", () => {
  it("finds plain words with severity levels", () => {
    expect(detectProfanity("what the fuck").level).toBe("l1_confident");
    expect(detectProfanity("this is shit").level).toBe("l2_very_likely");
    expect(detectProfanity("oh damn, the crap printer").level).toBe("l3_likely");
    expect(detectProfanity("bloody hell").level).toBe("l4_less_likely");
  });

  it("sees through obfuscation", () => {
    for (const [text, word] of [
      ["what the f*ck", "f*ck"],
      ["f u c k you", "f u c k"],
      ["f.u.c.k off", "f.u.c.k"],
      ["fuuuuuck", "fuuuuuck"],
      ["sh1t happens", "sh1t"],
      ["you b!tch", "b!tch"],
      ["ƒսck", "ƒսck"],
      ["а$$hole", "а$$hole"],
      ["mother-fucker", "mother-fucker"],
      ["FUCKING hell", "FUCKING"],
    ]) {
      expect(covered(text, detectProfanity(text))[0], text).toBe(word);
    }
  });

  it("reads letters spelled out with wider or other separators, one span per spelled word", () => {
    for (const [text, words] of [
      ["what the f  u  c  k", ["f  u  c  k"]],
      ["f . u . c . k off", ["f . u . c . k"]],
      ["s - h - i - t happens", ["s - h - i - t"]],
      ["f u c k  y o u", ["f u c k"]],
      ["you are a s  h  i  t  h  e  a  d", ["s  h  i  t  h  e  a  d"]],
      ["a  f  u  c  k", ["f  u  c  k"]],
    ] as const) {
      expect(covered(text, detectProfanity(text)), text).toEqual(words);
    }
  });

  it("leaves spelled-out clean words alone", () => {
    for (const text of ["this place is s l o w", "C L A S S  A S S E S S M E N T", "the x y z axes", "J. R. R. Tolkien", "g r a p e  j u i c e"]) {
      expectNothing(detectProfanity(text));
    }
  });

  it("gives one span per word with exact offsets past emoji", () => {
    const text = "😡😡 shit, damn! 😡";
    const d = detectProfanity(text);
    expect(covered(text, d)).toEqual(["shit", "damn"]);
  });

  it("avoids the Scunthorpe problem", () => {
    for (const text of [
      "Scunthorpe United won",
      "the assassin was caught",
      "our class assessed the cocktail",
      "hello from the shell",
      "Dick Van Dyke starred; Moby Dick is long",
      "he graduated magna cum laude",
      "as it was, pass the grape",
      "a cocker spaniel in Essex and Sussex",
      "3.14 costs $5!",
      "he'll be there with Shiite and Sunni scholars",
    ]) {
      expectNothing(detectProfanity(text));
    }
  });
});
