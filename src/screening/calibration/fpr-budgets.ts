// Level thresholds by false-positive budgets: the one method that sets the
// built-in text models' levels (training/text-model.ts) and the levels
// `parapet calibrate` writes for a model or judge of the user's
// (docs/learned-detectors.md#levels-and-calibration, docs/calibration.md).
import type { LevelThresholds } from "../detectors/learned/runtime/levels.js";
import { thresholds as LEVEL_ORDER } from "../vocabulary.js";

/** Never reached: no score in [0,1] is at or above it (a level the data gives no threshold for). */
export const UNREACHABLE = 2;

/**
 * Calibration by false-positive budgets, for the text models whose thresholds
 * are chosen on source families they never saw: each level's threshold is the
 * lowest score at which at most `budgets[level]` of the calibration negatives
 * score at or above it. Negatives are plentiful in every held-out fold and
 * stand for ordinary traffic; the positives of one fold (often a single
 * attack style) are not a sample of what will arrive, so a precision floor
 * chosen on them either leaves a level unreachable (no recall at all on the
 * next unseen family) or overfits it. The precision each level then reaches
 * is measured cross-source and documented (docs/learned-detectors.md#levels-and-calibration).
 */
export interface FprBudgets {
  budgets: LevelThresholds;
  /** No threshold below this score, whatever the negatives allow. */
  minScore: number;
  /**
   * When set, the budget holds in every group (language) with at least this many calibration negatives, not
   * only pooled: each threshold is the highest of the pooled one and the groups' own, so a level flags at most
   * its share of benign text in each language the calibration data holds enough of.
   */
  minGroupNegatives?: number;
}

/** `groups`: each row's group (its language; undefined for none), used with `minGroupNegatives`. */
export function calibrateByFpr(scores: number[], labels: number[], o: FprBudgets, groups?: readonly (string | undefined)[]): LevelThresholds {
  const out = byBudget(
    scores.filter((_, i) => labels[i] < 0.5),
    o,
  );
  if (!groups || o.minGroupNegatives === undefined) return out;
  const perGroup = new Map<string, number[]>();
  scores.forEach((s, i) => {
    const g = groups[i];
    if (labels[i] >= 0.5 || g === undefined) return;
    const list = perGroup.get(g) ?? [];
    list.push(s);
    perGroup.set(g, list);
  });
  for (const neg of perGroup.values()) {
    if (neg.length < o.minGroupNegatives) continue;
    const t = byBudget(neg, o);
    for (const level of LEVEL_ORDER) out[level] = Math.max(out[level], t[level]);
  }
  return out;
}

function byBudget(negatives: number[], o: FprBudgets): LevelThresholds {
  const neg = [...negatives].sort((a, b) => b - a);
  const out = {} as LevelThresholds;
  for (const level of LEVEL_ORDER) {
    // Allowed false positives; the threshold sits just above the next negative's score (ties flag together).
    const k = Math.floor(neg.length * o.budgets[level]);
    const t = k < neg.length ? nextAbove(neg[k]) : o.minScore;
    out[level] = neg.length ? Math.max(o.minScore, t) : UNREACHABLE;
  }
  return out;
}

function nextAbove(x: number): number {
  return x + Math.max(1e-9, Math.abs(x) * 1e-9);
}
