// prompt_attack: a linear model over hashed word and character n-grams of the
// text and its decoded views (docs/learned-detectors.md), or a configured
// model (PARAPET_PROMPT_ATTACK_MODEL) in its place or beside it. Tool
// definitions whose tool the policy lists in `allowed_tools` are not screened.
import { defineDetector, nothing, type Detection } from "../../detector.js";
import { withModel } from "../../models/runtime.js";
import type { Part } from "../../parts.js";
import { isAllowedTool } from "./agent-tools/allowed-tools.js";
import { withoutEvidence } from "./runtime/language-gate.js";
import { models, PROMPT_ATTACK_LOCATIONS } from "./runtime/models.js";
import { dataFeatures, DATA_LOCATIONS, type TextFeatures } from "./runtime/features.js";
import { cachedFeatures, headScore, textDetection } from "./runtime/text-scoring.js";

/** Data-location features of a text, kept with its cached features (runtime/features.ts#dataFeatures). */
const asData = new WeakMap<TextFeatures, TextFeatures>();

function builtIn(text: string, part: Part): Detection {
  const m = models().promptAttack;
  const unscored = withoutEvidence(m, text);
  if (unscored) return unscored;
  const head = m.heads.get("prompt_attack")!;
  let f = cachedFeatures(text, m.bits);
  if (DATA_LOCATIONS.has(part.location)) {
    let d = asData.get(f);
    if (!d) asData.set(f, (d = dataFeatures(f, m.bits)));
    f = d;
  }
  return textDetection(headScore(m, "prompt_attack", f, text.length), f, head.locations?.[part.location] ?? head.thresholds);
}

export const promptAttack = defineDetector({
  type: "prompt_attack",
  kind: "text_model",
  locations: PROMPT_ATTACK_LOCATIONS,
  meaningful: ["user::content", "assistant::content", "tool::content", "tool_definition::content"],
  accepts: ["allowed_tools"],
  logFamily: "prompt_attack",
  counter: "prompt_attack_flagged",
  console: { family: "Prompt attacks", defaults: ["user::content", "tool::content"] },
  detect(text, part, settings) {
    if (!text.trim()) return nothing;
    if (part.location === "tool_definition::content" && isAllowedTool(settings, part.toolName, text)) return nothing;
    return withModel("prompt_attack", "prompt_attack", text, part.location, builtIn, part);
  },
});
