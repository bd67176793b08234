// Thresholds by false-positive budgets: the method the built-in text models are
// calibrated with (training) and `parapet calibrate` applies to a user's model.
import { describe, expect, it } from "vitest";
import { calibrateByFpr, UNREACHABLE } from "../../../src/screening/calibration/fpr-budgets.js";

describe("calibrateByFpr", () => {
  it("calibration by false-positive budget gives four distinct levels whatever the fold's positives", () => {
    // 1000 negatives at 0, 0.001, ..., 0.999 and a handful of positives scoring low (a style the head never saw):
    // a precision floor could not be met at any cut, a false-positive budget always can.
    const scores = [...Array.from({ length: 1000 }, (_, i) => i / 1000), 0.2, 0.3, 0.4];
    const labels = [...Array(1000).fill(0), 1, 1, 1];
    const budgets = { l1_confident: 0.001, l2_very_likely: 0.005, l3_likely: 0.01, l4_less_likely: 0.05 };
    const t = calibrateByFpr(scores, labels, { budgets, minScore: 0.1 });
    const flaggedNegatives = (x: number, on = scores) => on.filter((s, i) => labels[i] === 0 && s >= x).length;
    expect(flaggedNegatives(t.l1_confident)).toBe(1);
    expect(flaggedNegatives(t.l2_very_likely)).toBe(5);
    expect(flaggedNegatives(t.l3_likely)).toBe(10);
    expect(flaggedNegatives(t.l4_less_likely)).toBe(50);
    expect(new Set(Object.values(t)).size).toBe(4);
    // Never under the minimum score, even when the negatives would allow it.
    expect(calibrateByFpr([0, 0, 0, 1], [0, 0, 0, 1], { budgets, minScore: 0.1 }).l4_less_likely).toBe(0.1);
    // Ties flag together: a budget of one row among tied negatives does not cut the tie.
    const tied = Array<number>(1000).fill(0.5);
    expect(flaggedNegatives(calibrateByFpr(tied, Array(1000).fill(0), { budgets, minScore: 0.1 }).l4_less_likely, tied)).toBe(0);
  });

  it("gives the thresholds it gave in training/calibrate.ts before it moved here", () => {
    // Pinned from the implementation training used until the move, on a fixed score set: training's output is unchanged.
    const scores = Array.from({ length: 5000 }, (_, i) => Math.round((((i * 7919) % 10007) / 10007) ** 3 * 1e4) / 1e4);
    const labels = scores.map((_, i) => (i % 7 === 0 ? 1 : 0));
    const moderation = { budgets: { l1_confident: 0.0005, l2_very_likely: 0.00125, l3_likely: 0.0025, l4_less_likely: 0.005 }, minScore: 0.1 };
    expect(calibrateByFpr(scores, labels, moderation)).toEqual({
      l1_confident: 0.999100001,
      l2_very_likely: 0.996700001,
      l3_likely: 0.993700001,
      l4_less_likely: 0.985400001,
    });
    expect(calibrateByFpr(scores.slice(0, 300), labels.slice(0, 300), moderation)).toEqual({
      l1_confident: 0.9913000009999999,
      l2_very_likely: 0.9913000009999999,
      l3_likely: 0.9913000009999999,
      l4_less_likely: 0.982700001,
    });
    expect(
      calibrateByFpr(
        scores.map((s) => s / 20),
        labels,
        moderation,
      ),
    ).toEqual({ l1_confident: 0.1, l2_very_likely: 0.1, l3_likely: 0.1, l4_less_likely: 0.1 });
  });

  it("is chosen on the negatives alone, and leaves every level unreachable without them", () => {
    const budgets = { l1_confident: 0.01, l2_very_likely: 0.02, l3_likely: 0.05, l4_less_likely: 0.1 };
    const negatives = Array.from({ length: 100 }, (_, i) => i / 100);
    const withFewPositives = calibrateByFpr([...negatives, 0.05], [...Array(100).fill(0), 1], { budgets, minScore: 0 });
    const withManyPositives = calibrateByFpr([...negatives, ...Array(50).fill(0.999)], [...Array(100).fill(0), ...Array(50).fill(1)], { budgets, minScore: 0 });
    expect(withManyPositives).toEqual(withFewPositives);
    expect(calibrateByFpr([0.9, 0.8], [1, 1], { budgets, minScore: 0.1 })).toEqual({
      l1_confident: UNREACHABLE,
      l2_very_likely: UNREACHABLE,
      l3_likely: UNREACHABLE,
      l4_less_likely: UNREACHABLE,
    });
  });

  it("with minGroupNegatives, keeps to the budget in every group that has enough negatives, not only pooled", () => {
    const budgets = { l1_confident: 0.01, l2_very_likely: 0.02, l3_likely: 0.05, l4_less_likely: 0.1 };
    // 900 negatives of one language scoring low, 100 of another scoring high, 50 of a third (too few to count).
    const low = Array.from({ length: 900 }, (_, i) => i / 2000);
    const high = Array.from({ length: 100 }, (_, i) => 0.5 + i / 200);
    const few = Array.from({ length: 50 }, () => 0.99);
    const scores = [...low, ...high, ...few];
    const labels = scores.map(() => 0);
    const groups = [...low.map(() => "en"), ...high.map(() => "de"), ...few.map(() => "ja")];
    const pooled = calibrateByFpr(scores, labels, { budgets, minScore: 0 }, groups);
    const perGroup = calibrateByFpr(scores, labels, { budgets, minScore: 0, minGroupNegatives: 100 }, groups);
    const flagged = (t: number, g: string) => scores.filter((s, i) => groups[i] === g && s >= t).length;
    // Pooled, the high-scoring language takes the whole budget and more of its rows are flagged than the budget.
    expect(flagged(pooled.l4_less_likely, "de")).toBeGreaterThan(10);
    // Per group, each language with enough negatives keeps to it; a group under the minimum does not set a threshold.
    for (const level of ["l1_confident", "l2_very_likely", "l3_likely", "l4_less_likely"] as const) {
      expect(flagged(perGroup[level], "de")).toBeLessThanOrEqual(Math.floor(100 * budgets[level]));
      expect(flagged(perGroup[level], "en")).toBeLessThanOrEqual(Math.floor(900 * budgets[level]));
      expect(perGroup[level]).toBeGreaterThanOrEqual(pooled[level]);
    }
    expect(perGroup.l4_less_likely).toBeLessThan(0.99);
    // Without groups the option changes nothing.
    expect(calibrateByFpr(scores, labels, { budgets, minScore: 0, minGroupNegatives: 100 })).toEqual(pooled);
  });
});
