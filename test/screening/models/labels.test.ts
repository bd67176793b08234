// Label maps: which of a model's outputs feed which detector, read off config.json's id2label
// names of published models, or given by a slot's _LABELS setting (by name or index); a map
// that names nothing, or names what the model or the slot lacks, is one clear line.
import { describe, expect, it } from "vitest";
import { classMap, parseLabelPairs, tagMap, tagOf } from "../../../src/screening/models/labels.js";

const S = "PARAPET_X_MODEL_LABELS";

describe("text classifier label maps from id2label", () => {
  it.each([
    [["SAFE", "INJECTION"], { labels: ["prompt_attack"], indexes: [[1]] }],
    [["BENIGN", "INJECTION", "JAILBREAK"], { labels: ["prompt_attack"], indexes: [[1, 2]] }],
    [["LABEL_0", "LABEL_1"], { labels: ["prompt_attack"], indexes: [[1]] }],
    [["legit", "malicious"], { labels: ["prompt_attack"], indexes: [[1]] }],
    [["logit"], { labels: ["prompt_attack"], indexes: [[0]] }],
  ])("prompt_attack from %j", (names, map) => {
    expect(classMap("prompt_attack", names, undefined, S)).toEqual(map);
  });

  it("moderation: category names, published synonyms and compound names, the rest left out", () => {
    const names = ["toxic", "severe_toxic", "obscene", "threat", "insult", "identity_hate", "sexual/minors", "self-harm/intent", "Violence", "neutral", "non_toxic"];
    expect(classMap("moderation", names, undefined, S)).toEqual({
      labels: ["hate", "sexual", "violence", "self_harm"],
      indexes: [[0, 1, 4, 5], [6], [3, 8], [7]],
    });
  });

  it("takes an override by name, by index and in any case, and only what it names", () => {
    const names = ["neutral", "toxic", "sexual", "weapon_talk"];
    expect(classMap("moderation", names, parseLabelPairs("hate=TOXIC, weapons=3", S), S)).toEqual({ labels: ["hate", "weapons"], indexes: [[1], [3]] });
    expect(classMap("prompt_attack", ["a", "b", "c"], parseLabelPairs("prompt_attack=b,prompt_attack=2", S), S)).toEqual({ labels: ["prompt_attack"], indexes: [[1, 2]] });
  });

  it.each([
    ["moderation", ["joy", "anger"], undefined, /none of the model's labels \(joy, anger\) maps to a moderation detector label .*; name them in PARAPET_X_MODEL_LABELS/],
    ["prompt_attack", ["negative", "positive"], undefined, /none of the model's labels \(negative, positive\) maps to a prompt_attack detector label/],
    ["moderation", ["toxic"], "toxic=0", /PARAPET_X_MODEL_LABELS: unknown detector label 'toxic'; the moderation labels are hate, sexual, violence, weapons, crime, self_harm/],
    ["moderation", ["toxic"], "hate=insult", /PARAPET_X_MODEL_LABELS: the model has no label 'insult' \(its labels: toxic\)/],
    ["moderation", ["toxic", "sexual"], "hate=2", /the model has 2 outputs; index 2 is beyond them/],
    ["moderation", ["toxic", "sexual"], "hate=0,sexual=0", /output 0 \(toxic\) is given to both hate and sexual/],
    ["moderation", ["toxic", "sexual"], "hate=0,hate=toxic", /hate=toxic is given twice/],
  ] as const)("refuses %s %j with %s", (slot, names, raw, message) => {
    expect(() => classMap(slot, names, raw === undefined ? undefined : parseLabelPairs(raw, S), S)).toThrow(message);
  });

  it("refuses an override entry that is not a pair", () => {
    expect(() => parseLabelPairs("hate", S)).toThrow(/PARAPET_X_MODEL_LABELS: 'hate' is not detector_label=model_label/);
    expect(() => parseLabelPairs("hate=0,", S)).toThrow(/'' is not detector_label=model_label/);
  });
});

describe("token classifier tags and entity maps", () => {
  it("reads BIO, BIOES and BILOU prefixes (L and U as E and S) and plain entity names", () => {
    expect(["O", "B-PER", "I-PER", "E-LOC", "S-LOC", "L-ORG", "U-ORG", "I_CITY", "PERSON"].map(tagOf)).toEqual([
      { prefix: "O", entity: "" },
      { prefix: "B", entity: "PER" },
      { prefix: "I", entity: "PER" },
      { prefix: "E", entity: "LOC" },
      { prefix: "S", entity: "LOC" },
      { prefix: "E", entity: "ORG" },
      { prefix: "S", entity: "ORG" },
      { prefix: "I", entity: "CITY" },
      { prefix: "I", entity: "PERSON" },
    ]);
  });

  it("maps entity names of published NER and PII models onto pii labels; ORG and MISC stay out", () => {
    const names = ["O", "B-PER", "I-PER", "B-ORG", "I-ORG", "B-LOC", "I-LOC", "B-MISC", "I-TELEPHONENUM", "I-EMAIL", "I-GIVENNAME", "I-SURNAME", "I-ZIPCODE", "I-SOCIALNUM"];
    expect(Object.fromEntries(tagMap(names, undefined, S).entities)).toEqual({
      PER: "name",
      LOC: "address",
      TELEPHONENUM: "phone_number",
      EMAIL: "email",
      GIVENNAME: "name",
      SURNAME: "name",
      ZIPCODE: "address",
      SOCIALNUM: "us_social_security_number",
    });
  });

  it("takes an override by entity name or by a tag's index", () => {
    const names = ["O", "B-ANIMAL", "I-ANIMAL", "B-PLACE", "I-PLACE"];
    expect(Object.fromEntries(tagMap(names, parseLabelPairs("name=animal,address=4", S), S).entities)).toEqual({ ANIMAL: "name", PLACE: "address" });
    expect(() => tagMap(names, parseLabelPairs("name=0", S), S)).toThrow(/output 0 is the outside tag O, not an entity/);
    expect(() => tagMap(names, parseLabelPairs("name=PER", S), S)).toThrow(/the model has no entity 'PER' \(its entities: ANIMAL, PLACE\)/);
    expect(() => tagMap(names, parseLabelPairs("name=ANIMAL,address=ANIMAL", S), S)).toThrow(/entity ANIMAL is given to both name and address/);
  });

  it("refuses tags that map to no pii label", () => {
    expect(() => tagMap(["O", "B-ANIMAL", "I-ANIMAL"], undefined, S)).toThrow(/none of the model's entities \(ANIMAL\) maps to a pii detector label .*; name them in PARAPET_X_MODEL_LABELS, e\.g\. name=ANIMAL/);
  });
});
