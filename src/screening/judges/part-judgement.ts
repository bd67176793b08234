// What the judge pre-pass leaves on a part for the engine (docs/judges.md#wiring):
// plain data, so it travels with the part to a screening worker. A module
// without imports of its own beyond the vocabulary: parts.ts names the type.
import type { Level } from "../vocabulary.js";

export interface JudgedLevel {
  level: Level;
  /** Why the level is not the judge's own (it was skipped and the project fails closed): dev_info. */
  note?: string;
}

export interface PartJudgement {
  /** `judge:<model>`, the Detection.model of what the judge decided. */
  model: string;
  /** How a detector's judged level meets its built-in head. */
  combine: "max" | "replace";
  /** Per detector type the judge decided at this part; a type left out keeps its built-in detector alone. */
  detectors: Record<string, JudgedLevel>;
  /** Per custom guardrail id written in words: whether the judge found the policy violated. */
  guardrails: Record<string, JudgedLevel & { matched: boolean }>;
}
