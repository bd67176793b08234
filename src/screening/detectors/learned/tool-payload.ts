// tool_risk/payload: argument values that carry an attack payload (shell,
// SQL, path traversal, code execution or template injection, markup/script,
// exfiltration links, SSRF). A value is a candidate only when a payload family
// matches it: the character n-gram model alone gave ids ("doc-1") and amounts
// high scores, and a payload detector that fires on ids is noise. The model
// then grades the candidates, so payload-looking syntax in an innocent context
// (a plain UNION query sent to a SQL tool) can stay under the threshold.
import { defineDetector, nothing, type Span } from "../../detector.js";
import { levelRank, type Level } from "../../vocabulary.js";
import { charFeatures } from "./runtime/features.js";
import { levelOf } from "./runtime/levels.js";
import { score } from "./runtime/linear.js";
import { models } from "./runtime/models.js";
import { familyHits, payloadMarkers } from "./agent-tools/payload.js";
import { argValues } from "./agent-tools/tool-calls.js";

export const toolPayload = defineDetector({
  type: "tool_risk/payload",
  kind: "tool_call_model",
  meaningful: ["assistant::tool_call"],
  logFamily: "tool_risk",
  console: { family: "Agent tools", defaults: ["assistant::tool_call"] },
  detect(text, part) {
    if (part.location !== "assistant::tool_call") return nothing;
    const values = argValues(text);
    if (values.length === 0) return nothing;
    const m = models().payload;
    const head = m.heads.get("payload")!;
    let best: Level = "l5_unlikely";
    const spans: Span[] = [];
    for (const v of values) {
      if (v.value.length < 2) continue;
      const hits = familyHits(v.value);
      if (hits.length === 0) continue;
      const level = levelOf(score(head, charFeatures(v.value, m.bits, payloadMarkers(hits))), head.thresholds);
      if (level === "l5_unlikely") continue;
      if (levelRank[level] < levelRank[best]) best = level;
      if (v.offset >= 0) for (const h of hits) spans.push({ start: v.offset + h.start, end: v.offset + h.end, level, labels: [h.family] });
      else spans.push({ start: 0, end: text.length, level, labels: [...new Set(hits.map((h) => h.family))] });
    }
    return { level: best, spans };
  },
});
