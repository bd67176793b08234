// The words a policy and a screening result are written in: confidence levels
// (one order, most confident first), thresholds, locations and per-detector
// configuration fields. The protos' `string.in` lists carry the same values;
// test/screening/registry.test.ts keeps the two equal.

/** Confidence levels, most confident first (docs/api.md#confidence-levels). */
export const levels = ["l1_confident", "l2_very_likely", "l3_likely", "l4_less_likely", "l5_unlikely", "no_level"] as const;
export type Level = (typeof levels)[number];

/** The levels a policy may set as its threshold: every level that can flag. */
export const thresholds = ["l1_confident", "l2_very_likely", "l3_likely", "l4_less_likely"] as const satisfies readonly Level[];
export type Threshold = (typeof thresholds)[number];

/** Orders levels: lower is more confident. Derived from `levels`, so the order is declared once. */
export const levelRank = Object.fromEntries(levels.map((l, i) => [l, i + 1])) as Record<Level, number>;

/** The most confident of several levels. */
export function strongest(of: Iterable<Level>): Level {
  let best: Level = "no_level";
  for (const l of of) if (levelRank[l] < levelRank[best]) best = l;
  return best;
}

/** `challenger` when it is strictly more confident than `kept`, else `kept`: a tie keeps `kept`. */
export function moreConfident<T extends { level: Level }>(challenger: T, kept: T): T {
  return levelRank[challenger.level] < levelRank[kept.level] ? challenger : kept;
}

/** True when `level` is at least as confident as `threshold` (an unknown threshold counts as l4). */
export function atOrOver(level: Level, threshold: string): boolean {
  return levelRank[level] <= (levelRank[threshold as Level] ?? levelRank.l4_less_likely);
}

export const locations = ["user::content", "assistant::content", "assistant::tool_call", "tool::content", "tool_definition::content"] as const;
export type Location = (typeof locations)[number];

/** Where a custom guardrail runs unless its definition names locations. */
export const DEFAULT_GUARDRAIL_LOCATIONS: readonly Location[] = ["user::content", "assistant::content"];

export const configFields = ["allowed_domains", "override_list", "tool_access_action", "tool_access_list", "allowed_tools"] as const;
export type ConfigField = (typeof configFields)[number];

/** A detector's configuration in a policy; only the fields its type accepts are set. */
export interface DetectorConfig {
  allowed_domains?: string[] | null;
  override_list?: string[] | null;
  tool_access_action?: "allow" | "deny" | null;
  tool_access_list?: string[] | null;
  allowed_tools?: { tool_name: string; tool_matcher: string }[] | null;
}

/** One detector entry of a policy, as the engine runs it: a type at a location with its configuration. */
export interface DetectorSettings extends DetectorConfig {
  type: string;
  location: Location;
}

/**
 * The logs endpoint's `detector_types` filter values (docs/api.md#logs).
 * `audio_prompt_attack` has no detector in this build: the filter is accepted
 * and matches nothing.
 */
export const logFilters = [
  "prompt_attack",
  "data_leakage",
  "content_violation",
  "unknown_links",
  "deny_listed",
  "tool_access_control",
  "dangerous_deviation",
  "custom_guardrail",
  "audio_prompt_attack",
  "no_detections",
] as const;

/**
 * What a request log records for a detector that flagged: a filter value, or
 * `tool_risk`, which the contract has no filter for (recorded all the same so
 * the family is in the stored data should a filter come).
 */
export type LogFamily = Exclude<(typeof logFilters)[number], "audio_prompt_attack"> | "tool_risk";

/** Analytics counters that count requests flagged by one detector family (docs/api.md#analytics). */
export const familyCounters = ["prompt_attack_flagged", "moderation_flagged", "pii_flagged", "unknown_links_flagged", "override_deny_flagged"] as const;
export type FamilyCounter = (typeof familyCounters)[number];
