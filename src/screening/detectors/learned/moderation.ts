// moderated_content/* other than profanity (an exact lexicon detector): six
// heads of one linear model over the same text features, so the six detectors
// of a part hash the text once (text-scoring.ts caches the features). A
// bring-your-own ONNX model replaces the heads of the categories its label
// map names.
import { defineDetector, nothing, type DetectorDefinition } from "../../detector.js";
import { withoutEvidence } from "./runtime/language-gate.js";
import { models, onnxDetection } from "./runtime/models.js";
import type { ModerationCategory } from "./runtime/onnx-classifier.js";
import { cachedFeatures, headScore, textDetection } from "./runtime/text-scoring.js";

function moderation(category: ModerationCategory): DetectorDefinition {
  return defineDetector({
    type: `moderated_content/${category}`,
    kind: "text_model",
    meaningful: ["user::content", "assistant::content"],
    logFamily: "content_violation",
    counter: "moderation_flagged",
    console: { family: "Content moderation", defaults: ["user::content", "assistant::content"] },
    detect(text) {
      if (!text.trim()) return nothing;
      const onnx = onnxDetection("moderation", category, text);
      if (onnx) return onnx;
      const m = models().moderation;
      const unscored = withoutEvidence(m, text);
      if (unscored) return unscored;
      const head = m.heads.get(category)!;
      const f = cachedFeatures(text, m.bits);
      return textDetection(headScore(m, category, f, text.length), f, head.thresholds);
    },
  });
}

export const hate = moderation("hate");
export const sexual = moderation("sexual");
export const violence = moderation("violence");
export const weapons = moderation("weapons");
export const crime = moderation("crime");
export const selfHarm = moderation("self_harm");
