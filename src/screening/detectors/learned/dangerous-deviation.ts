// dangerous_deviation: a tool call whose action (send, delete, pay, grant...)
// neither the user's request nor the application's instructions asked for.
// Compares the call's action classes (from its name, arguments and, when the
// name is ambiguous, its definition's description) with the user's messages
// before it and the system/developer instructions; the manifest gives each
// mismatch signature its level.
import { defineDetector, nothing, type ScreeningContext } from "../../detector.js";
import type { Part } from "../../parts.js";
import { strongest } from "../../vocabulary.js";
import { actionClasses, askOf, deviationSignatures, expectedByInstructions, requestOfAsks, type Ask, type ActionClass } from "./agent-tools/deviation.js";
import { models, ruleLevel } from "./runtime/models.js";
import { definitionOf } from "./agent-tools/tool-calls.js";

// The user's messages are read once per screening, not once per tool call after them: an agent's
// run of a thousand messages would otherwise read each user message hundreds of times. Keyed by the
// screening's context and the instructions' array, which live as long as the screening.
interface UserAsks {
  /** Asks of the user messages without a message index: before every part. */
  always: Ask[];
  /** User messages with an index, in index order, and the union of the asks up to each. */
  ids: number[];
  upTo: Ask[];
}
const userAsksOf = new WeakMap<ScreeningContext, UserAsks>();
const expectations = new WeakMap<readonly string[], Set<ActionClass>>();

function indexUserAsks(context: ScreeningContext): UserAsks {
  const always: Ask[] = [];
  const indexed: { id: number; ask: Ask }[] = [];
  for (const p of context.parts) {
    if (p.location !== "user::content") continue;
    if (p.messageId === undefined) always.push(askOf(p.text));
    else indexed.push({ id: p.messageId, ask: askOf(p.text) });
  }
  indexed.sort((a, b) => a.id - b.id);
  const upTo: Ask[] = [];
  for (const { ask } of indexed) {
    const last = upTo[upTo.length - 1];
    upTo.push(last ? { classes: [...new Set([...last.classes, ...ask.classes])], readOnly: last.readOnly || ask.readOnly } : ask);
  }
  return { always, ids: indexed.map((x) => x.id), upTo };
}

/** What the user's messages before this part ask for (the request the agent is acting on); empty when there are none. */
function userAsks(part: Part, context: ScreeningContext): Ask[] {
  let index = userAsksOf.get(context);
  if (!index) userAsksOf.set(context, (index = indexUserAsks(context)));
  if (part.messageId === undefined) return index.upTo.length ? [...index.always, index.upTo[index.upTo.length - 1]] : index.always;
  // The last user message at or before this part's index.
  let lo = 0;
  let hi = index.ids.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (index.ids[mid] <= part.messageId) lo = mid + 1;
    else hi = mid;
  }
  return lo > 0 ? [...index.always, index.upTo[lo - 1]] : index.always;
}

function expectedOf(instructions: readonly string[] = []): Set<ActionClass> {
  let expected = expectations.get(instructions);
  if (!expected) expectations.set(instructions, (expected = expectedByInstructions(instructions)));
  return expected;
}

export const dangerousDeviation = defineDetector({
  type: "dangerous_deviation",
  kind: "tool_call_model",
  meaningful: ["assistant::tool_call"],
  logFamily: "dangerous_deviation",
  console: { family: "Agent tools", defaults: ["assistant::tool_call"] },
  detect(text, part, _settings, context) {
    if (part.location !== "assistant::tool_call") return nothing;
    const asked = userAsks(part, context);
    if (asked.length === 0) return nothing; // nothing to compare with
    const classes = actionClasses(part.toolName ?? "", text, definitionOf(part.toolName, context));
    const signatures = deviationSignatures(classes, requestOfAsks(asked, expectedOf(context.instructions)));
    if (signatures.length === 0) return { level: "l5_unlikely", spans: [] };
    const table = models().manifest.rules.dangerous_deviation;
    const best = strongest(["l5_unlikely", ...signatures.map((s) => ruleLevel(table, s))]);
    return { level: best, spans: text.length ? [{ start: 0, end: text.length, level: best, labels: signatures.map((s) => s.split(":")[0]) }] : [] };
  },
});
