// The moderation heads' cross-language model (docs/learned-detectors.md#languages):
// one small linear head per category over the tokens that carry across
// languages (src/screening/detectors/learned/runtime/cross-language.ts),
// trained on every language's training rows at once and calibrated on held-out
// text that is not English, the only text it scores at run time. Shared by
// `npm run train` and the cross-source evaluation, like text-model.ts.
import { crossLanguageTokens, CROSS_LANGUAGE_BITS } from "../src/screening/detectors/learned/runtime/cross-language.js";
import { tokenFeatures, type SparseVector, type TextFeatures } from "../src/screening/detectors/learned/runtime/features.js";
import { dequantize, quantize, score, type LinearHead } from "../src/screening/detectors/learned/runtime/linear.js";
import { calibrateByFpr } from "../src/screening/calibration/fpr-budgets.js";
import type { HeadRecipe, Trained } from "./text-model.js";
import { trainLogistic } from "./trainer.js";

export function crossLanguageFeatures(feats: TextFeatures[]): SparseVector[] {
  return feats.map((f) => tokenFeatures(crossLanguageTokens(f.expanded), CROSS_LANGUAGE_BITS));
}

/** Whether a row's identified language is one the cross-language model answers for (reliably identified, not English). */
export const crossLanguageApplies = (lang: string | undefined): boolean => lang !== undefined && lang !== "en";

/**
 * One cross-language head per recipe: trained on `train` (every language), thresholds chosen by the recipe's
 * budgets on the `calibration` rows that are not English.
 */
export function fitCrossLanguageHeads(
  recipes: HeadRecipe[],
  xfeats: SparseVector[],
  languages: (string | undefined)[],
  train: number[],
  calibration: number[],
): Trained[] {
  const foreign = calibration.filter((i) => crossLanguageApplies(languages[i]));
  return recipes.map((recipe) => {
    const h = trainLogistic(
      train.map((i) => ({ x: xfeats[i], y: recipe.labels[i] })),
      { dim: 1 << CROSS_LANGUAGE_BITS, epochs: 8, learningRate: 0.2, l2: 1e-5, seed: recipe.options.seed + 100 },
    );
    const { q, scale } = quantize(h.weights);
    const head: LinearHead = { name: recipe.name, weights: dequantize(q, scale), bias: Math.fround(h.bias) };
    const thresholds = calibrateByFpr(
      foreign.map((i) => score(head, xfeats[i])),
      foreign.map((i) => recipe.labels[i]),
      recipe.calibration,
    );
    return { spec: { name: recipe.name, scale, bias: head.bias, thresholds }, q, head };
  });
}
