// The cross-source rounds' raw scores, kept so that level rules can be compared without retraining
// (docs/learned-detectors.md#levels-and-calibration): each round trains a head with the shipped recipe on
// three folds, then scores the calibration fold (where thresholds are chosen) and the test fold (where they
// are measured). A level rule (fpr-budgets.ts) is a function of those two score sets only, so one training
// pass serves every rule compared. Same rounds, language gate and scoring as cross-source.ts.
import { levelOf } from "../src/screening/detectors/learned/runtime/levels.js";
import { score } from "../src/screening/detectors/learned/runtime/linear.js";
import type { Level } from "../src/screening/vocabulary.js";
import { crossLanguageApplies, crossLanguageFeatures, fitCrossLanguageHeads } from "./cross-language-model.js";
import { ROUNDS, calibratesOn, trainable } from "./folds.js";
import type { TextCorpus } from "./recipes.js";
import { calibrationLanguages, evidenceLanguages, fitTextHead, headScore } from "./text-model.js";

export interface RoundScores {
  test: number[];
  calibration: number[];
  /** Per recipe, the score of every test and calibration row (NaN elsewhere; -1 for a test row the language gate skips). */
  scores: Map<string, Float64Array>;
  /**
   * Per recipe, the cross-language head's level of each test row that is not English (moderation only; its thresholds are
   * the round's own, chosen as the shipped model's: runtime/cross-language.ts). The detector reports the more confident of
   * it and the n-gram head's.
   */
  cross?: Map<string, (Level | undefined)[]>;
  /** Test rows the round's n-gram heads score (their language has training evidence, or is not reliably identified). */
  evidence: Set<number>;
}

export function roundScores<Row extends { fold: number; evalOnly?: boolean }>(corpus: TextCorpus<Row>, log: (s: string) => void = () => {}): RoundScores[] {
  const out: RoundScores[] = [];
  const xfeats = corpus.crossLanguage ? crossLanguageFeatures(corpus.feats) : undefined;
  for (const [k, round] of ROUNDS.entries()) {
    const held = [round.test, round.calibration];
    const train: number[] = [];
    const calibration: number[] = [];
    const test: number[] = [];
    corpus.rows.forEach((r, i) => {
      if (r.fold === round.test) test.push(i);
      else if (calibratesOn(r, round.calibration)) calibration.push(i);
      else if (trainable(r, held)) train.push(i);
    });
    const t0 = performance.now();
    const evidence = roundLanguages(corpus, k);
    const covered = new Set(evidence);
    const scored = (i: number) => corpus.languages[i] === undefined || covered.has(corpus.languages[i]);
    const scores = new Map<string, Float64Array>();
    for (const recipe of corpus.recipes) {
      const t = fitTextHead(recipe, corpus.feats, corpus.lengths, train, calibration, calibrationLanguages(corpus.languages, evidence));
      const s = new Float64Array(corpus.rows.length).fill(NaN);
      // Calibration rows are scored whatever their language, as fitTextHead chooses the thresholds; a test row
      // the gate skips gets -1, below every threshold, as the detector's l5_unlikely.
      for (const i of calibration) s[i] = headScore(t.head, corpus.feats, corpus.lengths, i);
      for (const i of test) s[i] = scored(i) ? headScore(t.head, corpus.feats, corpus.lengths, i) : -1;
      scores.set(recipe.name, s);
    }
    let cross: RoundScores["cross"];
    if (xfeats) {
      const heads = fitCrossLanguageHeads(corpus.recipes, xfeats, corpus.languages, train, calibration);
      cross = new Map(
        corpus.recipes.map((recipe, k) => {
          const levels = new Array<Level | undefined>(corpus.rows.length);
          for (const i of test) if (crossLanguageApplies(corpus.languages[i])) levels[i] = levelOf(score(heads[k].head, xfeats[i]), heads[k].spec.thresholds);
          return [recipe.name, levels];
        }),
      );
    }
    out.push({ test, calibration, scores, cross, evidence: new Set(test.filter(scored)) });
    log(`  round test=${round.test} calibration=${round.calibration}: ${train.length} train, ${((performance.now() - t0) / 1000).toFixed(0)} s`);
  }
  return out;
}

/** The languages round `k`'s model scores: its training rows' evidence, as the detectors' language gate. */
export function roundLanguages<Row extends { fold: number; evalOnly?: boolean }>(corpus: TextCorpus<Row>, k: number): string[] {
  const held = [ROUNDS[k].test, ROUNDS[k].calibration];
  const train = corpus.rows.flatMap((r, i) => (trainable(r, held) ? [i] : []));
  return evidenceLanguages(corpus.languages, corpus.recipes, train);
}
