// Score -> confidence level. Thresholds come from the
// manifest, where training put the lowest validation score at which each
// level's precision floor held; see docs/learned-detectors.md.
import { thresholds, type Level, type Threshold } from "../../../vocabulary.js";

/** The lowest score at which each level is given. */
export type LevelThresholds = Record<Threshold, number>;

/** Minimum precision each level must have on the validation split. */
export const PRECISION_FLOORS: LevelThresholds = {
  l1_confident: 0.99,
  l2_very_likely: 0.95,
  l3_likely: 0.85,
  l4_less_likely: 0.6,
};

/** The most confident level whose threshold the score reaches; l5_unlikely when scored but below all. */
export function levelOf(score: number, t: LevelThresholds): Level {
  for (const l of thresholds) if (score >= t[l]) return l;
  return "l5_unlikely";
}
