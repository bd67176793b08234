// tool_risk/untrusted_source: a tool result whose content came from an
// untrusted origin — where the calling tool fetched from, the origin the
// result declares, or links it merely contains, in that order of weight.
import { defineDetector, nothing, type Span } from "../../detector.js";
import { levelRank, type Level } from "../../vocabulary.js";
import { destinationsIn } from "./agent-tools/destinations.js";
import { models, ruleLevel } from "./runtime/models.js";
import { argValues, callOf, nameWords } from "./agent-tools/tool-calls.js";

const FETCH_WORDS = new Set("fetch get browse read download scrape open crawl visit load retrieve search http request curl wget url web page".split(" "));
const ORIGIN_KEY = /^(url|uri|link|source|source_url|origin|from|sender|href|site|domain|page_url|canonical_url|reply_to)$/i;

export const untrustedSource = defineDetector({
  type: "tool_risk/untrusted_source",
  kind: "tool_call_model",
  meaningful: ["tool::content"],
  logFamily: "tool_risk",
  console: { family: "Agent tools", defaults: ["tool::content"] },
  detect(text, part, _settings, context) {
    if (part.location !== "tool::content") return nothing;
    const table = models().manifest.rules.untrusted_source;
    let any = false;
    let best: Level = "l5_unlikely";
    const spans: Span[] = [];
    const note = (signature: string, domain: string, start: number, end: number) => {
      const level = ruleLevel(table, signature);
      if (levelRank[level] < levelRank[best]) best = level;
      spans.push({ start, end, level, labels: [domain] });
    };
    // 1. Where the calling tool fetched from.
    const call = callOf(part, context);
    if (call && nameWords(call.toolName ?? "").some((w) => FETCH_WORDS.has(w))) {
      for (const v of argValues(call.text)) {
        for (const d of destinationsIn(v.value)) {
          if (d.kind === "email") continue;
          any = true;
          if (!d.trusted && !d.internal) note("call_origin", d.domain, 0, text.length);
        }
      }
    }
    // 2. Origins the result declares (url/source/from fields, "From:" / "Source:" lines), then 3. links it merely contains.
    const declared = new Set<string>();
    for (const v of argValues(text)) {
      if (!ORIGIN_KEY.test(v.key)) continue;
      for (const d of destinationsIn(v.value)) {
        any = true;
        declared.add(`${v.offset + d.start}`);
        if (!d.trusted && !d.internal) note("declared_origin", d.domain, v.offset >= 0 ? v.offset + d.start : 0, v.offset >= 0 ? v.offset + d.end : text.length);
      }
    }
    for (const m of text.matchAll(/^(?:from|source|url|sender|reply-to)\s*:\s*(.{1,300})$/gim)) {
      const lineStart = m.index + m[0].length - m[1].length;
      for (const d of destinationsIn(m[1])) {
        any = true;
        declared.add(`${lineStart + d.start}`);
        if (!d.trusted && !d.internal) note("declared_origin", d.domain, lineStart + d.start, lineStart + d.end);
      }
    }
    for (const d of destinationsIn(text.length > 20000 ? text.slice(0, 20000) : text)) {
      if (d.kind === "email" || declared.has(`${d.start}`)) continue;
      any = true;
      if (!d.trusted && !d.internal) note("mentioned", d.domain, d.start, d.end);
    }
    return any ? { level: best, spans } : nothing;
  },
});
