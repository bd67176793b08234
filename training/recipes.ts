// The text models' recipes, shared by `npm run train` (the shipped models) and
// the cross-source evaluation (its round models), so that what is measured is
// how the shipped models are made.
import { textFeatures, type TextFeatures } from "../src/screening/detectors/learned/features.js";
import { identifyLanguage } from "../src/screening/language.js";
import { normalizeText } from "../src/screening/normalize.js";
import { SEED, moderationData, promptAttackData, type ModerationExample, type TextExample } from "./datasets.js";
import { CATEGORIES } from "./generators/moderation.js";
import { TEXT_BITS, type HeadRecipe } from "./text-model.js";

export interface TextCorpus<Row> {
  rows: Row[];
  feats: TextFeatures[];
  lengths: number[];
  /** Each row's language as the detectors identify it at run time, when the identification is reliable. */
  languages: (string | undefined)[];
  recipes: HeadRecipe[];
  /** The fold the shipped model holds out to choose its thresholds. */
  shippedCalibrationFold: number;
}

function featuresOf<Row extends { text: string }>(rows: Row[]) {
  return {
    feats: rows.map((r) => textFeatures(r.text, TEXT_BITS)),
    lengths: rows.map((r) => r.text.length),
    languages: rows.map((r) => {
      const id = identifyLanguage(normalizeText(r.text).text);
      return id.reliable ? id.lang : undefined;
    }),
  };
}

export function promptAttackCorpus(): TextCorpus<TextExample> {
  const rows = promptAttackData();
  return {
    rows,
    ...featuresOf(rows),
    recipes: [
      {
        name: "prompt_attack",
        labels: rows.map((r) => r.label),
        options: { dim: 1 << TEXT_BITS, epochs: 12, learningRate: 0.3, l2: 1e-6, seed: SEED },
        calibration: { maxFprAtL4: 0.01, minSupport: 5, l4: "f1" },
      },
    ],
    // GPTFuzz, GSM8K, Self-Instruct, MT-Bench and tweets: every other family, BIPIA's and ASB's injected documents included, is trained on.
    shippedCalibrationFold: 1,
  };
}

export function moderationCorpus(): TextCorpus<ModerationExample> {
  const rows = moderationData();
  return {
    rows,
    ...featuresOf(rows),
    recipes: CATEGORIES.map((c, k) => ({
      name: c,
      labels: rows.map((r) => r.labels[c]),
      options: { dim: 1 << TEXT_BITS, epochs: 10, learningRate: 0.3, l2: 1e-4, seed: SEED + 10 + k },
      calibration: { maxFprAtL4: 0.01, minSupport: 3, l4: "floor" as const },
    })),
    // Do-Not-Answer, HH red-team openers and chat benchmarks (plus a fifth of the multilingual sets).
    shippedCalibrationFold: 3,
  };
}
