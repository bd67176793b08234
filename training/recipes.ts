// The text models' recipes, shared by `npm run train` (the shipped models) and
// the cross-source evaluation (its round models), so that what is measured is
// how the shipped models are made.
import { DATA_LOCATIONS, dataFeatures, textFeatures, type TextFeatures } from "../src/screening/detectors/learned/runtime/features.js";
import { identifyLanguage } from "../src/screening/language.js";
import { normalizeText } from "../src/screening/normalize.js";
import { SEED, moderationData, promptAttackData, type ModerationExample, type TextExample } from "./datasets.js";
import type { FprBudgets } from "../src/screening/calibration/fpr-budgets.js";
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
  /**
   * Whether the heads come with the cross-language model (cross-language-model.ts): it scores text in a
   * language without training evidence, and beside the n-gram heads any other text that is not English.
   */
  crossLanguage?: boolean;
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

/**
 * One level table for every text head (docs/learned-detectors.md#levels-and-calibration): the share of
 * held-out benign text each level may flag, in every language the model scores with at least 200 calibration
 * negatives as well as pooled, so a level means the same for every head and language. l1 is the precision
 * end (0.02%: cross-source precision 0.97 for prompt_attack), l4 the recall end (1%: fifty times l1's
 * budget). l4 was chosen on the cross-source figures (training/level-sweep.ts): looser l4 budgets raised
 * moderation recall a little and everyday false flags a lot; pooled budgets let English, whose benign text
 * scores highest, take most of the budget.
 */
const TEXT_BUDGETS: FprBudgets = {
  budgets: { l1_confident: 0.0002, l2_very_likely: 0.001, l3_likely: 0.003, l4_less_likely: 0.01 },
  minScore: 0.1,
  minGroupNegatives: 200,
};

export function promptAttackCorpus(): TextCorpus<TextExample> {
  const rows = promptAttackData();
  const base = featuresOf(rows);
  // As the detector reads them: text that arrives as data carries the data-location features.
  const feats = base.feats.map((f, i) => (DATA_LOCATIONS.has(rows[i].location) ? dataFeatures(f, TEXT_BITS) : f));
  return {
    rows,
    ...base,
    feats,
    recipes: [
      {
        name: "prompt_attack",
        labels: rows.map((r) => r.label),
        options: { dim: 1 << TEXT_BITS, epochs: 12, learningRate: 0.3, l2: 1e-6, seed: SEED },
        calibration: TEXT_BUDGETS,
        // Documents and tool results are calmer than chat: their own thresholds keep clean documents under budget without losing recall there.
        locations: { of: rows.map((r) => r.location), families: rows.map((r) => r.family), calibrated: ["tool::content"] },
      },
    ],
    // BIPIA, AlpacaEval, BBQ and ToxiGen: the fold whose clean documents (BIPIA's e-mails, tables and code
    // beside encyclopedia paragraphs) come from two families, so tool::content gets thresholds of its own;
    // ASB's injected documents are trained on.
    shippedCalibrationFold: 3,
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
      calibration: TEXT_BUDGETS,
    })),
    // Do-Not-Answer, HH red-team openers and chat benchmarks (plus a fifth of the multilingual sets).
    shippedCalibrationFold: 3,
    crossLanguage: true,
  };
}
