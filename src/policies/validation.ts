// Policy rules that proto field rules cannot express (the cross-field rules and
// per-type applicability of docs/api.md#policy-request). Runs inside the validation interceptor
// together with the protovalidate rules, so one 422 names every violation.
import type { DetectorConfig, PolicyRequest } from "../../gen/parapet/v1/policies_pb.js";
import type { FieldViolation } from "../api/interceptors/validation.js";
import { allowedDomainProblem } from "../screening/detectors/unknown-links.js";
import { definitionOf, detectors } from "../screening/registry.js";
import { configFields, type ConfigField, type Location } from "../screening/vocabulary.js";

const NAME_MAX = 100;

/** Config fields as they appear on a decoded DetectorConfig: null/[] both mean "not given". */
function given(d: DetectorConfig, field: ConfigField): boolean {
  switch (field) {
    case "allowed_domains":
      return d.allowedDomains.length > 0;
    case "override_list":
      return d.overrideList.length > 0;
    case "tool_access_action":
      return d.toolAccessAction !== undefined;
    case "tool_access_list":
      return d.toolAccessList.length > 0;
    case "allowed_tools":
      return d.allowedTools.length > 0;
  }
}

export function policyRequestViolations(policy: PolicyRequest | undefined): FieldViolation[] {
  if (!policy) return [];
  const out: FieldViolation[] = [];
  const v = (field: string, message: string, rule: string) => out.push({ field, message, rule });

  const name = policy.name.trim();
  if (name.length === 0 || [...name].length > NAME_MAX) {
    v("name", `must be 1 to ${NAME_MAX} characters after stripping surrounding whitespace`, "policy.name_length");
  }
  if (policy.detectors.length === 0 && policy.customGuardrailIds.length === 0) {
    v("", "a policy needs at least one detector or one custom guardrail", "policy.not_empty");
  }

  const seen = new Map<string, number>();
  policy.detectors.forEach((d, i) => {
    const at = `detectors[${i}]`;
    const pair = `${d.type}|${d.location}`;
    const first = seen.get(pair);
    if (first !== undefined) {
      v(at, `duplicates detectors[${first}]: type ${d.type} is already configured at ${d.location}`, "policy.unique_detector_location");
    } else {
      seen.set(pair, i);
    }
    const kind = definitionOf(d.type);
    if (!kind) return; // reported by the proto rule on `type`
    const location = d.location as Location;
    if (!kind.locations.includes(location)) {
      const placeable = detectors.filter((x) => x.locations.includes(location)).map((x) => x.type);
      v(`${at}.location`, `${location} is valid only for the ${placeable.join(", ")} detector`, "policy.tool_definition_location");
    }
    for (const field of kind.requires) {
      if (!given(d, field)) v(`${at}.${field}`, `is required for ${d.type}`, "detector.required_config");
    }
    for (const field of configFields) {
      if (given(d, field) && !kind.accepts.includes(field)) {
        v(`${at}.${field}`, `is not applicable to ${d.type}; omit it or send null`, "detector.not_applicable");
      }
    }
    d.allowedDomains.forEach((domain, j) => {
      const problem = allowedDomainProblem(domain);
      if (problem) v(`${at}.allowed_domains[${j}]`, `'${domain}' ${problem}`, "detector.allowed_domain");
    });
    const tools = new Map<string, number>();
    d.allowedTools.forEach((t, j) => {
      const key = JSON.stringify([t.toolName, t.toolMatcher]);
      const firstTool = tools.get(key);
      if (firstTool !== undefined) {
        v(`${at}.allowed_tools[${j}]`, `duplicates allowed_tools[${firstTool}] (same tool_name and tool_matcher)`, "detector.allowed_tools_unique");
      } else {
        tools.set(key, j);
      }
    });
  });
  return out;
}
