// The held-out hand-written set (docs/training.md#the-held-out-hand-written-set): texts written for the
// evaluation only. NEVER train, tune, calibrate or choose a threshold on them, never copy one (or a near copy)
// into training data, generators, lexicons or probes: the set measures what the models do on text they
// could not have been fitted to, and a text used once for fitting stops measuring that.
import type { Location } from "../../src/screening/vocabulary.js";

export interface HoldoutText {
  /** ISO 639-1 code of the language the text is written in. */
  lang: string;
  text: string;
  /** Where it is screened: a user's message, or a tool result / document the agent reads. */
  at: Extract<Location, "user::content" | "tool::content">;
  /** A sub-group for the report (e.g. "safe-but-scary", "tool-injection"). */
  kind: string;
}

export interface HarmfulText extends HoldoutText {
  /** The moderation category a reader would give it. */
  category: "crime" | "violence" | "weapons" | "self_harm" | "sexual" | "hate";
}

export interface PiiText extends HoldoutText {
  /** The detector that should report it: a pii/* type, or the built-in national-ID guardrail pack. */
  expect: `pii/${string}` | "national_id";
}
