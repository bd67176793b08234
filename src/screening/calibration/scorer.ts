// What `parapet calibrate` needs from a model or a judge: scores for labelled
// rows, one per label, without levels or thresholds (those are what it chooses).
// The model runtime and the judges each provide one (docs/calibration.md).
import type { Location } from "../vocabulary.js";

export interface CalibrationScorer {
  /** What the calibration file records as `model`: the model folder's name, or `judge:<model>`. */
  name: string;
  /** The detector labels scored, in the order of each row's scores. */
  labels: readonly string[];
  /** The locations it scores, when not every one: rows elsewhere are refused by line before any is scored. */
  locations?: readonly Location[];
  /** Per row, a score in [0,1] per label in `labels` order. */
  score(rows: { text: string; location: Location }[]): Promise<number[][]>;
  close(): Promise<void>;
}
