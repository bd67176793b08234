// dangerous_deviation: a tool call whose action (send, delete, pay, grant...)
// neither the user's request nor the application's instructions asked for.
// Compares the call's action classes (from its name, arguments and, when the
// name is ambiguous, its definition's description) with the user's messages
// before it and the system/developer instructions; the manifest gives each
// mismatch signature its level.
import { defineDetector, nothing } from "../../detector.js";
import { strongest } from "../../vocabulary.js";
import { actionClasses, deviationSignatures, requestOf } from "./agent-tools/deviation.js";
import { models, ruleLevel } from "./runtime/models.js";
import { definitionOf, userRequest } from "./agent-tools/tool-calls.js";

export const dangerousDeviation = defineDetector({
  type: "dangerous_deviation",
  kind: "tool_call_model",
  meaningful: ["assistant::tool_call"],
  logFamily: "dangerous_deviation",
  console: { family: "Agent tools", defaults: ["assistant::tool_call"] },
  detect(text, part, _settings, context) {
    if (part.location !== "assistant::tool_call") return nothing;
    const asked = userRequest(part, context);
    if (asked.length === 0) return nothing; // nothing to compare with
    const classes = actionClasses(part.toolName ?? "", text, definitionOf(part.toolName, context));
    const signatures = deviationSignatures(classes, requestOf(asked, context.instructions));
    if (signatures.length === 0) return { level: "l5_unlikely", spans: [] };
    const table = models().manifest.rules.dangerous_deviation;
    const best = strongest(["l5_unlikely", ...signatures.map((s) => ruleLevel(table, s))]);
    return { level: best, spans: text.length ? [{ start: 0, end: text.length, level: best, labels: signatures.map((s) => s.split(":")[0]) }] : [] };
  },
});
