// Policy messages <-> stored documents. Configuration fields that do not apply
// to a detector type are stored and returned as null (docs/api.md#detectors).
import { create } from "@bufbuild/protobuf";
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import { CustomPolicySchema, DetectorConfigSchema, type CustomPolicy, type DetectorConfig, type PolicyRequest } from "../../gen/parapet/v1/policies_pb.js";
import { definitionOf } from "../screening/registry.js";
import { DEFAULT_GUARDRAIL_LOCATIONS, type Location } from "../screening/vocabulary.js";
import type { PolicyInput, StoredDetector, StoredPolicy } from "./repository.js";

/** A project as a policy lists it among the projects it screens. */
export interface PolicyProject {
  _id: string;
  name: string;
  action: string;
}

function toStoredDetector(d: DetectorConfig): StoredDetector {
  const accepts: readonly string[] = definitionOf(d.type)?.accepts ?? [];
  const list = <T>(field: string, values: T[]): T[] | null => (accepts.includes(field) && values.length > 0 ? values : null);
  return {
    type: d.type,
    // The proto's `string.in` rule has checked it.
    location: d.location as Location,
    allowed_domains: list(
      "allowed_domains",
      d.allowedDomains.map((x) => x.toLowerCase()),
    ),
    override_list: list("override_list", d.overrideList),
    tool_access_action: accepts.includes("tool_access_action") ? ((d.toolAccessAction as "allow" | "deny" | undefined) ?? null) : null,
    tool_access_list: list("tool_access_list", d.toolAccessList),
    allowed_tools: list(
      "allowed_tools",
      d.allowedTools.map((t) => ({ tool_name: t.toolName, tool_matcher: t.toolMatcher })),
    ),
  };
}

export function policyInputOf(p: PolicyRequest): PolicyInput {
  return {
    name: p.name.trim(),
    default_threshold: p.defaultThreshold,
    detectors: p.detectors.map(toStoredDetector),
    custom_guardrail_ids: [...p.customGuardrailIds],
  };
}

export function toDetectorConfig(d: StoredDetector): DetectorConfig {
  return create(DetectorConfigSchema, {
    type: d.type,
    location: d.location,
    allowedDomains: d.allowed_domains ?? [],
    overrideList: d.override_list ?? [],
    toolAccessAction: d.tool_access_action ?? undefined,
    toolAccessList: d.tool_access_list ?? [],
    allowedTools: (d.allowed_tools ?? []).map((t) => ({ toolName: t.tool_name, toolMatcher: t.tool_matcher })),
  });
}

export function customPolicyOf(p: StoredPolicy, projects: PolicyProject[], guardrailLocations: Map<string, string[]>): CustomPolicy {
  return create(CustomPolicySchema, {
    policyId: p._id,
    versionId: p.version_id,
    name: p.name,
    defaultThreshold: p.default_threshold,
    detectors: p.detectors.map(toDetectorConfig),
    customGuardrails: p.custom_guardrail_ids.map((id) => ({
      id,
      locations: guardrailLocations.get(id) ?? [...DEFAULT_GUARDRAIL_LOCATIONS],
    })),
    updatedAt: p.updated_at ? timestampFromDate(p.updated_at) : undefined,
    projects: projects.map((x) => ({ id: x._id, name: x.name, action: x.action })),
  });
}
