// Level thresholds by precision floors (the tool models), and the figures
// `npm run eval:learned` prints. The text models' false-positive budgets are
// src/screening/calibration/fpr-budgets.ts, shared with `parapet calibrate`.
import { PRECISION_FLOORS, type LevelThresholds } from "../src/screening/detectors/learned/runtime/levels.js";
import { thresholds as LEVEL_ORDER } from "../src/screening/vocabulary.js";
// A level whose floor no threshold met on validation is never reached.
import { UNREACHABLE } from "../src/screening/calibration/fpr-budgets.js";

export interface CalibrationOptions {
  /** Cap on the false-positive rate at the most sensitive level (the default policy threshold). */
  maxFprAtL4: number;
  /** A level needs at least this many true positives above its threshold. */
  minSupport: number;
  /**
   * How L4 is chosen among the cuts meeting its floor: "f1" the best F1 (fewer false positives on unseen
   * benign text), "floor" the lowest (more recall; steadier when validation has few positives).
   */
  l4: "f1" | "floor";
}

/**
 * For L1-L3, the lowest score t such that the precision of everything scored
 * >= t (what a policy threshold at that level flags) is at or above the
 * level's floor, with at least minSupport true positives. L4, the default
 * policy threshold, is the cut with the best F1 among those meeting its floor.
 * No threshold lets the validation FPR exceed maxFprAtL4. A level whose floor
 * no cut meets is raised to the next less confident level's threshold (or
 * never reached), so thresholds never decrease from L4 to L1.
 */
export function calibrate(scores: number[], labels: number[], o: CalibrationOptions): LevelThresholds {
  const order = scores.map((s, i) => i).sort((a, b) => scores[b] - scores[a]);
  const totalNeg = labels.filter((y) => y < 0.5).length;
  // Cut points: positions after a run of equal scores.
  const cuts: { t: number; tp: number; fp: number }[] = [];
  let tp = 0;
  let fp = 0;
  for (let k = 0; k < order.length; k++) {
    const i = order[k];
    if (labels[i] > 0.5) tp++;
    else fp++;
    if (k + 1 === order.length || scores[order[k + 1]] < scores[i]) cuts.push({ t: scores[i], tp, fp });
  }
  const totalPos = labels.length - totalNeg;
  const out = {} as LevelThresholds;
  for (const level of LEVEL_ORDER) {
    const floor = PRECISION_FLOORS[level];
    let best = UNREACHABLE;
    let bestF1 = -1;
    for (const c of cuts) {
      const precision = c.tp / (c.tp + c.fp);
      if (totalNeg > 0 && c.fp / totalNeg > o.maxFprAtL4) break; // whatever any level flags, L4 flags too
      if (precision < floor || c.tp < o.minSupport) continue;
      if (level !== "l4_less_likely" || o.l4 === "floor") best = c.t;
      else {
        // L4 is the default policy threshold: among the cuts meeting its floor, the best F1.
        const recall = totalPos ? c.tp / totalPos : 0;
        const f1 = (2 * precision * recall) / (precision + recall);
        if (f1 >= bestF1) {
          bestF1 = f1;
          best = c.t;
        }
      }
    }
    out[level] = best;
  }
  // Monotone: a more confident level never has a lower threshold than a less confident one.
  for (let k = LEVEL_ORDER.length - 1; k > 0; k--) {
    const l = LEVEL_ORDER[k];
    const above = LEVEL_ORDER[k - 1];
    if (out[above] < out[l]) out[above] = out[l];
  }
  return out;
}

export interface BinaryMetrics {
  n: number;
  positives: number;
  precision: number;
  recall: number;
  f1: number;
  /** True-positive rate at the score threshold where FPR <= 1%. */
  tprAt1Fpr: number;
  /**
   * Best F1 over every threshold, chosen on these very examples: an upper bound
   * for what any threshold (any calibration) could give with these scores, not a result.
   */
  bestF1: number;
  /** Precision of the examples at each level (exact level, not cumulative) and at-or-above. */
  perLevel: Record<string, { count: number; precision: number | null; cumulativePrecision: number | null }>;
  fpr: number;
}

export function metrics(scores: number[], labels: number[], t: LevelThresholds): BinaryMetrics {
  let tp = 0;
  let fp = 0;
  let fn = 0;
  let tn = 0;
  const threshold = t.l4_less_likely;
  for (let i = 0; i < scores.length; i++) {
    const flagged = scores[i] >= threshold;
    const pos = labels[i] > 0.5;
    if (flagged && pos) tp++;
    else if (flagged) fp++;
    else if (pos) fn++;
    else tn++;
  }
  const precision = tp + fp ? tp / (tp + fp) : 1;
  const recall = tp + fn ? tp / (tp + fn) : 0;
  const f1 = precision + recall ? (2 * precision * recall) / (precision + recall) : 0;
  // TPR at 1% FPR: the threshold just above the 1%-quantile of negative scores.
  const neg = scores.filter((_, i) => labels[i] < 0.5).sort((a, b) => b - a);
  const allowed = Math.floor(neg.length * 0.01);
  const cut = neg.length ? (neg[allowed] ?? -Infinity) : -Infinity;
  const posScores = scores.filter((_, i) => labels[i] > 0.5);
  const tprAt1Fpr = posScores.length ? posScores.filter((s) => s > cut).length / posScores.length : 0;
  const perLevel: BinaryMetrics["perLevel"] = {};
  let cumTp = 0;
  let cumN = 0;
  let upper = Infinity;
  for (const l of LEVEL_ORDER) {
    const lo = t[l];
    let n = 0;
    let p = 0;
    for (let i = 0; i < scores.length; i++) {
      if (scores[i] >= lo && scores[i] < upper) {
        n++;
        if (labels[i] > 0.5) p++;
      }
    }
    cumTp += p;
    cumN += n;
    perLevel[l] = { count: n, precision: n ? p / n : null, cumulativePrecision: cumN ? cumTp / cumN : null };
    upper = Math.min(upper, lo);
  }
  return { n: scores.length, positives: posScores.length, precision, recall, f1, bestF1: bestF1(scores, labels), tprAt1Fpr, perLevel, fpr: tn + fp ? fp / (tn + fp) : 0 };
}

function bestF1(scores: number[], labels: number[]): number {
  const order = scores.map((_, i) => i).sort((a, b) => scores[b] - scores[a]);
  const positives = labels.filter((y) => y > 0.5).length;
  let tp = 0;
  let best = 0;
  order.forEach((i, k) => {
    if (labels[i] > 0.5) tp++;
    // Ties flag together: only a cut between two different scores is a threshold.
    if (k + 1 < order.length && scores[order[k + 1]] === scores[i]) return;
    best = Math.max(best, (2 * tp) / (k + 1 + positives));
  });
  return best;
}
