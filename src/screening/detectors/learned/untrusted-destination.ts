// tool_risk/untrusted_destination: a tool call that sends data to a domain,
// address or IP that is neither well known nor internal. The level comes from
// the manifest's table for the destination's kind and the argument and tool
// name around it (docs/learned-detectors.md).
import { defineDetector, nothing, type Span } from "../../detector.js";
import { levelRank, type Level } from "../../vocabulary.js";
import { destinationContext, destinationSignature, destinationsIn } from "./agent-tools/destinations.js";
import { models, ruleLevel } from "./runtime/models.js";
import { argValues, nameWords } from "./agent-tools/tool-calls.js";

export const untrustedDestination = defineDetector({
  type: "tool_risk/untrusted_destination",
  kind: "tool_call_model",
  meaningful: ["assistant::tool_call"],
  logFamily: "tool_risk",
  console: { family: "Agent tools", defaults: ["assistant::tool_call"] },
  detect(text, part) {
    if (part.location !== "assistant::tool_call") return nothing;
    const table = models().manifest.rules.untrusted_destination;
    const words = nameWords(part.toolName ?? "");
    let any = false;
    let best: Level = "l5_unlikely";
    const spans: Span[] = [];
    for (const v of argValues(text)) {
      for (const d of destinationsIn(v.value)) {
        any = true;
        if (d.trusted || d.internal) continue;
        const level = ruleLevel(table, destinationSignature(d, destinationContext(v.key, words)));
        if (levelRank[level] < levelRank[best]) best = level;
        const start = v.offset >= 0 ? v.offset + d.start : 0;
        const end = v.offset >= 0 ? v.offset + d.end : text.length;
        spans.push({ start, end, level, labels: [d.domain] });
      }
    }
    return any ? { level: best, spans } : nothing;
  },
});
