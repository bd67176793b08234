// The words of the policy API (docs/api.md#detectors): detector types, their
// usual locations, thresholds and the logs filter families. Thresholds,
// locations and filters are the server's own lists (a module without imports,
// bundled into the console as is).
import { locations, logFilters, thresholds } from "../../src/screening/vocabulary.js";

export { locations, thresholds };

const content = ["user::content", "assistant::content"];
const toolCall = ["assistant::tool_call"];

/** Detector types in catalogue order with the locations a new entry starts with. */
export const detectorCatalogue: { type: string; family: string; defaults: string[] }[] = [
  { type: "prompt_attack", family: "Prompt attacks", defaults: ["user::content", "tool::content"] },
  ...["hate", "sexual", "profanity", "violence", "weapons", "crime", "self_harm"].map((k) => ({
    type: `moderated_content/${k}`,
    family: "Content moderation",
    defaults: content,
  })),
  ...["address", "credit_card", "email", "ip_address", "name", "phone_number", "us_social_security_number", "iban_code"].map((k) => ({
    type: `pii/${k}`,
    family: "Personal data",
    defaults: content,
  })),
  { type: "unknown_links", family: "Links", defaults: ["assistant::content"] },
  { type: "override_allow", family: "Overrides", defaults: ["user::content"] },
  { type: "override_deny", family: "Overrides", defaults: ["user::content"] },
  ...["payload", "create", "read", "update", "delete", "untrusted_destination", "untrusted_source"].map((k) => ({
    type: `tool_risk/${k}`,
    family: "Agent tools",
    defaults: toolCall,
  })),
  { type: "dangerous_deviation", family: "Agent tools", defaults: toolCall },
  { type: "tool_access_control", family: "Agent tools", defaults: toolCall },
];

/** The logs endpoint's detector_types filter values with a detector in this build (audio_prompt_attack matches nothing). */
export const logFamilies = logFilters.filter((f) => f !== "audio_prompt_attack");

/** A stable colour slot per detector family, for highlights and badges. */
export function colourOf(detectorType: string): number {
  if (detectorType.startsWith("prompt_attack")) return 1;
  if (detectorType.startsWith("pii/")) return 2;
  if (detectorType.startsWith("moderated_content/")) return 3;
  if (detectorType === "unknown_links") return 4;
  if (detectorType.startsWith("override_")) return 5;
  return 6;
}

/** Levels some policy threshold flags at (l5_unlikely and no_level never flag). */
export function isFlagLevel(level: string | undefined): boolean {
  return level !== undefined && (thresholds as readonly string[]).includes(level);
}
