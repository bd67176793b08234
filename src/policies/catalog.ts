// What each detector type is, where it can run and what configuration it takes
// (spec 2.3, DESIGN.md section 5). Validation, the default policy, policy
// health lint and the logs filters all read this one table.
export const thresholds = ["l1_confident", "l2_very_likely", "l3_likely", "l4_less_likely"] as const;
export type Threshold = (typeof thresholds)[number];

/** Confidence levels in screening results, most confident first (spec 2.2). */
export const levels = ["l1_confident", "l2_very_likely", "l3_likely", "l4_less_likely", "l5_unlikely", "no_level"] as const;
export type Level = (typeof levels)[number];

export const locations = [
  "user::content",
  "assistant::content",
  "assistant::tool_call",
  "tool::content",
  "tool_definition::content",
] as const;
export type Location = (typeof locations)[number];

type ConfigField = "allowed_domains" | "override_list" | "tool_access_action" | "tool_access_list" | "allowed_tools";

export interface DetectorKind {
  /** Locations the spec accepts for the type. */
  valid: readonly Location[];
  /** Locations where the detector sees traffic it is built for; others are linted as unreachable. */
  meaningful: readonly Location[];
  /** Configuration fields that must be given (non-empty). */
  requires: readonly ConfigField[];
  /** Configuration fields that may be given; every other config field is "not applicable". */
  accepts: readonly ConfigField[];
}

const content: Location[] = ["user::content", "assistant::content", "assistant::tool_call", "tool::content"];
const toolCall: Location[] = ["assistant::tool_call"];

const kind = (meaningful: Location[], requires: ConfigField[] = [], accepts: ConfigField[] = requires): DetectorKind => ({
  valid: content,
  meaningful,
  requires,
  accepts,
});

const moderation = kind(["user::content", "assistant::content"]);
const pii = kind(content);

export const detectorKinds = {
  prompt_attack: {
    valid: locations,
    meaningful: ["user::content", "assistant::content", "tool::content", "tool_definition::content"],
    requires: [],
    accepts: ["allowed_tools"],
  },
  "moderated_content/hate": moderation,
  "moderated_content/sexual": moderation,
  "moderated_content/profanity": moderation,
  "moderated_content/violence": moderation,
  "moderated_content/weapons": moderation,
  "moderated_content/crime": moderation,
  "moderated_content/self_harm": moderation,
  "pii/address": pii,
  "pii/credit_card": pii,
  "pii/email": pii,
  "pii/ip_address": pii,
  "pii/name": pii,
  "pii/phone_number": pii,
  "pii/us_social_security_number": pii,
  "pii/iban_code": pii,
  unknown_links: kind(content, [], ["allowed_domains"]),
  override_allow: kind(content, ["override_list"]),
  override_deny: kind(content, ["override_list"]),
  "tool_risk/payload": kind(toolCall),
  "tool_risk/create": kind(toolCall),
  "tool_risk/read": kind(toolCall),
  "tool_risk/update": kind(toolCall),
  "tool_risk/delete": kind(toolCall),
  "tool_risk/untrusted_destination": kind(toolCall),
  "tool_risk/untrusted_source": kind(["tool::content"]),
  dangerous_deviation: kind(toolCall),
  tool_access_control: kind(toolCall, ["tool_access_action", "tool_access_list"]),
} as const satisfies Record<string, DetectorKind>;

export type DetectorType = keyof typeof detectorKinds;
export const detectorTypes = Object.keys(detectorKinds) as DetectorType[];

export function isDetectorType(t: string): t is DetectorType {
  return Object.hasOwn(detectorKinds, t);
}

export const configFields: readonly ConfigField[] = ["allowed_domains", "override_list", "tool_access_action", "tool_access_list", "allowed_tools"];
export type { ConfigField };

/** Detectors that need no configuration run in the default policy, at every meaningful location. */
export function needsConfig(type: DetectorType): boolean {
  return detectorKinds[type].requires.length > 0;
}

