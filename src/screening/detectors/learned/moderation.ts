// moderated_content/* other than profanity (an exact lexicon detector): six
// heads of one linear model over the same text features, so the six detectors
// of a part hash the text once (text-scoring.ts caches the features). A
// configured model (PARAPET_MODERATION_MODEL) serves the categories its label
// map names, in the heads' place or beside them.
import { defineDetector, nothing, type Detection, type DetectorDefinition } from "../../detector.js";
import { withModel } from "../../models/runtime.js";
import { crossLanguageDetection } from "./runtime/cross-language.js";
import { languageWithoutEvidence, notScored, reliableLanguage } from "./runtime/language-gate.js";
import { models } from "./runtime/models.js";
import { cachedFeatures, headScore, textDetection } from "./runtime/text-scoring.js";
import { moreConfident } from "../../vocabulary.js";

type ModerationCategory = "hate" | "sexual" | "violence" | "weapons" | "crime" | "self_harm";

/** What dev_info says about a part in a language the n-gram heads have no evidence for. */
export const crossLanguageNote = (lang: string) =>
  `n-gram heads not scored: no training evidence for language '${lang}'; scored by the cross-language signals (category words, request framing, attack cues, decoded views)`;

/**
 * The n-gram head where the language has training evidence; text reliably identified as another language
 * than English also gets the cross-language head (docs/learned-detectors.md#languages), and the more
 * confident of the two counts; a language without evidence gets the cross-language head alone.
 */
function builtIn(text: string, category: ModerationCategory): Detection {
  const { moderation: m, moderationCrossLanguage: xl } = models();
  const gap = languageWithoutEvidence(m, text);
  if (gap !== undefined) {
    return xl ? { ...crossLanguageDetection(xl, category, cachedFeatures(text, m.bits), text.length), note: crossLanguageNote(gap) } : notScored(gap);
  }
  const f = cachedFeatures(text, m.bits);
  const own = textDetection(headScore(m, category, f, text.length), f, m.heads.get(category)!.thresholds);
  const lang = xl ? reliableLanguage(text) : undefined;
  if (!xl || lang === undefined || lang === "en") return own;
  return moreConfident(crossLanguageDetection(xl, category, f, text.length), own);
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
