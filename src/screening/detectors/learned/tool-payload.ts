// tool_risk/payload: argument values that carry an attack payload (shell,
// SQL, path traversal, template or script injection), scored per value by a
// character n-gram model with the payload families' markers as extra features.
import { defineDetector, nothing, type Span } from "../../detector.js";
import { levelRank, type Level } from "../../vocabulary.js";
import { charFeatures } from "./features.js";
import { levelOf } from "./levels.js";
import { score } from "./linear.js";
import { models } from "./models.js";
import { familyHits, payloadMarkers } from "./payload.js";
import { argValues } from "./tool-calls.js";

function payloadScore(value: string): { score: number; hits: ReturnType<typeof familyHits> } {
  const m = models().payload;
  const hits = familyHits(value);
  return { score: score(m.heads.get("payload")!, charFeatures(value, m.bits, payloadMarkers(hits))), hits };
}

export const toolPayload = defineDetector({
  type: "tool_risk/payload",
  meaningful: ["assistant::tool_call"],
  logFamily: "tool_risk",
  detect(text, part) {
    if (part.location !== "assistant::tool_call") return nothing;
    const values = argValues(text);
    if (values.length === 0) return nothing;
    const thresholds = models().payload.heads.get("payload")!.thresholds;
    let best: Level = "l5_unlikely";
    const spans: Span[] = [];
    for (const v of values) {
      if (v.value.length < 2) continue;
      const { score: s, hits } = payloadScore(v.value);
      const level = levelOf(s, thresholds);
      if (level === "l5_unlikely") continue;
      if (levelRank[level] < levelRank[best]) best = level;
      if (v.offset >= 0 && hits.length) for (const h of hits) spans.push({ start: v.offset + h.start, end: v.offset + h.end, level, labels: [h.family] });
      else if (v.offset >= 0) spans.push({ start: v.offset, end: v.offset + v.value.length, level });
      else spans.push({ start: 0, end: text.length, level });
    }
    return { level: best, spans };
  },
});
