// Training one linear head over text features, the way the shipped
// prompt_attack and moderated_content models are trained and the way the
// cross-source evaluation trains its round models: fit on the training rows,
// then choose the level thresholds on rows from sources the head never saw.
import type { TextFeatures } from "../src/screening/detectors/learned/runtime/features.js";
import { dequantize, quantize, type LinearHead } from "../src/screening/detectors/learned/runtime/linear.js";
import type { LevelThresholds } from "../src/screening/detectors/learned/runtime/levels.js";
import type { HeadSpec } from "../src/screening/detectors/learned/runtime/model-store.js";
import { scoreFeatures } from "../src/screening/detectors/learned/runtime/text-scoring.js";
import { calibrateByFpr, type FprBudgets } from "../src/screening/calibration/fpr-budgets.js";
import { trainLogistic, type Example, type TrainOptions } from "./trainer.js";

export const TEXT_BITS = 18;

export interface Trained {
  spec: HeadSpec;
  q: Int16Array;
  head: LinearHead;
}

/** A head's recipe: its labels over the rows, training options and calibration rule. */
export interface HeadRecipe {
  name: string;
  labels: number[];
  options: TrainOptions;
  calibration: FprBudgets;
  /**
   * Locations with thresholds of their own, chosen on the calibration rows at
   * that location (`of`: each row's location), when they hold at least MIN_LOCATION_NEGATIVES negatives
   * from at least two source families (`families`: each row's family).
   */
  locations?: { of: string[]; families: string[]; calibrated: string[] };
}

/**
 * A location's own thresholds need this many held-out negatives there, from two families at least: one
 * family of clean documents (encyclopedia paragraphs alone) is easier than e-mails, tables and code, and
 * thresholds chosen on it flagged a quarter of an unseen family's clean documents. Otherwise the head's apply.
 */
const MIN_LOCATION_NEGATIVES = 200;

/** Chunks of long negative texts are negatives too (the detector scores windows of long texts). */
function textExamples(feats: TextFeatures[], idx: number[], labels: number[]): Example[] {
  const out: Example[] = [];
  for (const i of idx) {
    out.push({ x: feats[i].whole, y: labels[i] });
    if (labels[i] === 0) for (const c of feats[i].chunks) out.push({ x: c.vec, y: 0, weight: 0.5 });
  }
  return out;
}

/** The score the detector computes for row i (whole text and windows; text-scoring.ts). */
export function headScore(head: LinearHead, feats: TextFeatures[], lengths: number[], i: number): number {
  return scoreFeatures(head, feats[i], lengths[i]).score;
}

/**
 * Trains `recipe` on the rows `train` and calibrates its thresholds on the rows
 * `calibration` (held-out sources). Weights are quantized as shipped, and the
 * thresholds are chosen on the quantized head's scores. `languages`: each row's
 * language where the model scores it (calibrationLanguages), for budgets that
 * hold per language (FprBudgets.minGroupNegatives).
 */
export function fitTextHead(
  recipe: HeadRecipe,
  feats: TextFeatures[],
  lengths: number[],
  train: number[],
  calibration: number[],
  languages?: readonly (string | undefined)[],
): Trained {
  const h = trainLogistic(textExamples(feats, train, recipe.labels), recipe.options);
  const { q, scale } = quantize(h.weights);
  const head: LinearHead = { name: recipe.name, weights: dequantize(q, scale), bias: Math.fround(h.bias) };
  const scores = new Map(calibration.map((i) => [i, headScore(head, feats, lengths, i)]));
  const thresholdsOn = (rows: number[]) =>
    calibrateByFpr(
      rows.map((i) => scores.get(i)!),
      rows.map((i) => recipe.labels[i]),
      recipe.calibration,
      languages && rows.map((i) => languages[i]),
    );
  const thresholds = thresholdsOn(calibration);
  const locations: Record<string, LevelThresholds> = {};
  for (const location of recipe.locations?.calibrated ?? []) {
    const rows = calibration.filter((i) => recipe.locations!.of[i] === location);
    const negatives = rows.filter((i) => recipe.labels[i] === 0);
    if (negatives.length >= MIN_LOCATION_NEGATIVES && new Set(negatives.map((i) => recipe.locations!.families[i])).size >= 2) locations[location] = thresholdsOn(rows);
  }
  const spec: HeadSpec = { name: recipe.name, scale, bias: head.bias, thresholds, ...(Object.keys(locations).length ? { locations } : {}) };
  return { spec, q, head };
}

/** Rows of each class a language needs in the training data before a model scores text in it. */
export const MIN_LANGUAGE_EVIDENCE = 20;

/**
 * The languages the rows `train` give evidence for: at least
 * MIN_LANGUAGE_EVIDENCE rows of each class (positive for any head, negative
 * for all) among the rows whose language is reliably identified.
 */
export function evidenceLanguages(languages: (string | undefined)[], recipes: HeadRecipe[], train: number[]): string[] {
  const counts = new Map<string, { pos: number; neg: number }>();
  for (const i of train) {
    const lang = languages[i];
    if (!lang) continue;
    const c = counts.get(lang) ?? { pos: 0, neg: 0 };
    if (recipes.some((r) => r.labels[i] === 1)) c.pos++;
    else c.neg++;
    counts.set(lang, c);
  }
  return [...counts]
    .filter(([, c]) => c.pos >= MIN_LANGUAGE_EVIDENCE && c.neg >= MIN_LANGUAGE_EVIDENCE)
    .map(([lang]) => lang)
    .sort();
}

/**
 * Each row's language for calibration: its reliably identified language when the model scores that language
 * (`covered`, evidenceLanguages), else undefined. A language the gate skips at run time sets no threshold of
 * its own: its scores there are arbitrary and never seen by a user.
 */
export function calibrationLanguages(languages: readonly (string | undefined)[], covered: readonly string[]): (string | undefined)[] {
  const scored = new Set(covered);
  return languages.map((l) => (l !== undefined && scored.has(l) ? l : undefined));
}
