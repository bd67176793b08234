// How the engine reads the judge's levels (docs/judges.md#combining): a judged
// detector reports the more severe of the judge's level and its built-in
// head's (`max`), or the judge's alone (`replace`); its span is the whole part,
// the text the judge read. A detector the judge did not decide (not mapped,
// or skipped with the project failing open) is the built-in one, unchanged.
import type { Detection } from "../detector.js";
import { levelRank, moreConfident, type Level } from "../vocabulary.js";
import type { JudgedLevel, PartJudgement } from "./part-judgement.js";

function flags(level: Level): boolean {
  return levelRank[level] < levelRank.l5_unlikely;
}

function detectionOf(v: JudgedLevel, model: string, text: string): Detection {
  return { level: v.level, spans: flags(v.level) ? [{ start: 0, end: text.length, level: v.level }] : [], model, note: v.note };
}

/** The detection of `type` on a part's normalized `text`, given what the judge left on the part. */
export function judgedDetection(j: PartJudgement | undefined, type: string, text: string, builtIn: () => Detection): Detection {
  const v = j?.detectors[type];
  if (!j || !v) return builtIn();
  const judged = detectionOf(v, j.model, text);
  if (j.combine === "replace") return judged;
  const own = builtIn();
  // A tie keeps the built-in detection: its spans are finer than the whole part.
  return moreConfident(judged, own);
}

/** A custom guardrail written in words, as the judge found it on this part: its spans (the whole part) and level, or undefined. */
export function judgedGuardrail(j: PartJudgement | undefined, id: string, text: string): Detection | undefined {
  const v = j?.guardrails[id];
  if (!j || !v?.matched) return undefined;
  return { ...detectionOf(v, j.model, text), spans: [{ start: 0, end: text.length }] };
}
