// moderated_content/* other than profanity (an exact lexicon detector): six
// heads of one linear model over the same text features, so the six detectors
// of a part hash the text once (text-scoring.ts caches the features).
import { defineDetector, nothing, type DetectorDefinition } from "../../detector.js";
import { withoutEvidence } from "./language-gate.js";
import { models } from "./models.js";
import { cachedFeatures, scoreModel, textDetection } from "./text-scoring.js";

function moderation(category: string): DetectorDefinition {
  return defineDetector({
    type: `moderated_content/${category}`,
    meaningful: ["user::content", "assistant::content"],
    logFamily: "content_violation",
    counter: "moderation_flagged",
    detect(text) {
      if (!text.trim()) return nothing;
      const m = models().moderation;
      const unscored = withoutEvidence(m, text);
      if (unscored) return unscored;
      const head = m.heads.get(category)!;
      const f = cachedFeatures(text, m.bits);
      return textDetection(scoreModel(m, f, text.length)[m.names.indexOf(category)], f, head.thresholds);
    },
  });
}

export const hate = moderation("hate");
export const sexual = moderation("sexual");
export const violence = moderation("violence");
export const weapons = moderation("weapons");
export const crime = moderation("crime");
export const selfHarm = moderation("self_harm");
