// tool_access_control: the engine gives this detector the function name of
// an assistant tool call (assistant::tool_call) and the policy's
// `tool_access_action` and `tool_access_list`.
//   deny:  flag a name that is in the list
//   allow: flag a name that is NOT in the list
// Names are compared exactly and case-sensitively, after trimming surrounding
// whitespace from both sides: tool names are identifiers, and "send_email" and
// "Send_Email" may be different tools to the application. A match is reported
// at l1_confident with one span over the (untrimmed) name. Without an action
// or with a missing list the detector reports nothing (policy validation
// requires both, docs/api.md#detectors).
import { defineDetector, nothing, type Detection } from "../detector.js";
import type { DetectorConfig } from "../vocabulary.js";

export function detectToolAccessControl(toolName: string, config: DetectorConfig): Detection {
  const action = config.tool_access_action;
  const list = config.tool_access_list;
  if (!action || !list) return nothing;
  const name = toolName.trim();
  const listedName = list.some((entry) => entry.trim() === name);
  const flagged = action === "deny" ? listedName : !listedName;
  if (!flagged) return nothing;
  return { level: "l1_confident", spans: [{ start: 0, end: toolName.length, level: "l1_confident", labels: [name] }] };
}

export const toolAccessControl = defineDetector({
  type: "tool_access_control",
  kind: "exact",
  meaningful: ["assistant::tool_call"],
  requires: ["tool_access_action", "tool_access_list"],
  logFamily: "tool_access_control",
  console: { family: "Agent tools", defaults: ["assistant::tool_call"] },
  // It judges the called function's name, not its arguments.
  detect: (_text, part, settings) => detectToolAccessControl(part.toolName ?? "", settings),
});
