// moderated_content/* other than profanity (an exact lexicon detector): six
// heads of one linear model over the same text features, so the six detectors
// of a part hash the text once (text-scoring.ts caches the features). A
// configured model (PARAPET_MODERATION_MODEL) serves the categories its label
// map names, in the heads' place or beside them.
import { defineDetector, nothing, type Detection, type DetectorDefinition } from "../../detector.js";
import { withModel } from "../../models/runtime.js";
import { withoutEvidence } from "./runtime/language-gate.js";
import { models } from "./runtime/models.js";
import { cachedFeatures, headScore, textDetection } from "./runtime/text-scoring.js";

type ModerationCategory = "hate" | "sexual" | "violence" | "weapons" | "crime" | "self_harm";

function builtIn(text: string, category: ModerationCategory): Detection {
  const m = models().moderation;
  const unscored = withoutEvidence(m, text);
  if (unscored) return unscored;
  const head = m.heads.get(category)!;
  const f = cachedFeatures(text, m.bits);
  return textDetection(headScore(m, category, f, text.length), f, head.thresholds);
}

function moderation(category: ModerationCategory): DetectorDefinition {
  return defineDetector({
    type: `moderated_content/${category}`,
    kind: "text_model",
    meaningful: ["user::content", "assistant::content"],
    logFamily: "content_violation",
    counter: "moderation_flagged",
    console: { family: "Content moderation", defaults: ["user::content", "assistant::content"] },
    detect(text, part) {
      if (!text.trim()) return nothing;
      return withModel("moderation", category, text, part.location, builtIn, category);
    },
  });
}

export const hate = moderation("hate");
export const sexual = moderation("sexual");
export const violence = moderation("violence");
export const weapons = moderation("weapons");
export const crime = moderation("crime");
export const selfHarm = moderation("self_harm");
