// Cross-source folds: a source family sits in one fold, translations of one
// prompt stay together, generated data is always trained on, and every round
// tests and calibrates on folds its model never trained on.
import { describe, expect, it } from "vitest";
import { ALWAYS_TRAIN, FOLDS, ROUNDS, calibratesOn, familyOf, inTraining, moderationFold, promptAttackFold, trainable } from "../../../../training/folds.js";
import { EVAL_ONLY_FAMILIES } from "../../../../training/datasets.js";

describe("cross-source folds", () => {
  it("name a row's family by its source up to the first colon", () => {
    expect(familyOf("bipia:email:3")).toBe("bipia");
    expect(familyOf("asb+medquad")).toBe("asb+medquad");
  });

  it("put a whole family in one fold, and families that share documents together", () => {
    expect(new Set(["a", "b", "c"].map((g) => promptAttackFold("bipia", g))).size).toBe(1);
    expect(promptAttackFold("asb", "x")).toBe(promptAttackFold("medquad", "y"));
    expect(promptAttackFold("asb+medquad", "x")).toBe(promptAttackFold("medquad", "y"));
  });

  it("spread the multilingual sets by translation group, the same group always in the same fold", () => {
    const folds = new Set(Array.from({ length: 200 }, (_, k) => moderationFold("multijail", `multijail:id:${k}`)));
    expect(folds.size).toBe(FOLDS);
    expect(moderationFold("multijail", "multijail:id:7")).toBe(moderationFold("multijail", "multijail:id:7"));
  });

  it("never hold out generated data, and refuse a family with no fold", () => {
    expect(promptAttackFold("generated", "gen:attack:1")).toBe(ALWAYS_TRAIN);
    expect(inTraining(ALWAYS_TRAIN, [0, 1, 2, 3, 4])).toBe(true);
    expect(() => promptAttackFold("some-new-source", "x")).toThrow(/folds\.ts/);
  });

  it("test every fold exactly once, on a calibration fold that is neither trained on nor the test", () => {
    expect(ROUNDS.map((r) => r.test).sort()).toEqual([...Array(FOLDS).keys()]);
    for (const r of ROUNDS) {
      expect(r.calibration).not.toBe(r.test);
      expect(inTraining(r.test, [r.test, r.calibration])).toBe(false);
      expect(inTraining(r.calibration, [r.test, r.calibration])).toBe(false);
    }
  });

  it("fold every family of the multilingual moderation extra; Multilingual HateCheck by template, XSafety by prompt id", () => {
    for (const family of ["cold", "korean-hate-speech", "hatemojicheck", "hatemojibuild", "simplesafetytests"])
      expect(moderationFold(family, "x")).toBeGreaterThanOrEqual(0);
    // Both emoji hate sets test the same functionalities: one fold, so neither is measured after training on the other.
    expect(moderationFold("hatemojicheck", "x")).toBe(moderationFold("hatemojibuild", "y"));
    for (const family of ["mhc", "xsafety"]) {
      const folds = new Set(Array.from({ length: 200 }, (_, k) => moderationFold(family, `template:${family}:${k}`)));
      expect(folds.size, family).toBe(FOLDS);
    }
  });

  it("never train or calibrate on evaluation-only rows (XSafety, whose licence asks for research use), but test them", () => {
    expect(EVAL_ONLY_FAMILIES.has("xsafety")).toBe(true);
    const row = { fold: 2, evalOnly: true };
    for (const r of ROUNDS) {
      expect(trainable(row, [r.test, r.calibration])).toBe(false);
      expect(calibratesOn(row, r.calibration)).toBe(false);
    }
    expect(trainable({ fold: 2 }, [0, 1])).toBe(true);
    expect(calibratesOn({ fold: 2 }, 2)).toBe(true);
    expect(ROUNDS.filter((r) => r.test === row.fold)).toHaveLength(1);
  });
});
