// What configures an LLM judge (docs/judges.md#settings). config.ts reads the
// environment into this shape; the judge, its pre-pass and its calibration
// scorer take it as given.
import type { CalibrationFile } from "../calibration/file.js";

export const JUDGE_FORMATS = ["llama-guard-3", "llama-guard-4", "shieldgemma", "granite-guardian", "gpt-oss-safeguard"] as const;
export type JudgeFormatName = (typeof JUDGE_FORMATS)[number];

/** What a request gets when the judge cannot answer in time: `open` lets the built-in detectors decide, `closed` flags. */
export type FailMode = "open" | "closed";
export const FAIL_MODES: readonly FailMode[] = ["open", "closed"];

/** How a judge's verdict meets the built-in head of the same detector: the more severe of the two, or the judge's alone. */
export type JudgeCombine = "max" | "replace";

export interface JudgeSettings {
  /** Base URL of the OpenAI-compatible API, without a trailing slash: Parapet POSTs `<url>/chat/completions`. */
  url: string;
  model: string;
  format: JudgeFormatName;
  apiKey?: string;
  /** The longest one judge call may take (the request's remaining deadline may cut it shorter). */
  timeoutMs: number;
  /** Judge calls in flight at once, over all requests. */
  concurrency: number;
  failMode: FailMode;
  combine: JudgeCombine;
  /** Per detector label and location, the scores at which levels start (`parapet calibrate --model judge`). */
  calibration?: CalibrationFile;
  /** Consecutive failed calls that open the circuit, and how long it stays open before one call may try again. */
  breakerFailures: number;
  breakerCooldownMs: number;
}

export const JUDGE_DEFAULTS = {
  timeoutMs: 2_000,
  concurrency: 16,
  failMode: "open",
  combine: "max",
  breakerFailures: 5,
  breakerCooldownMs: 10_000,
} as const satisfies Partial<JudgeSettings>;

/** The project_metadata key a project sets to override PARAPET_JUDGE_FAIL_MODE (docs/judges.md#fail-modes). */
export const FAIL_MODE_METADATA_KEY = "parapet.judge_fail_mode";

/** The project's fail mode when its metadata names a valid one, else the service's. */
export function failModeOf(metadata: Readonly<Record<string, string>> | undefined, fallback: FailMode): FailMode {
  const value = metadata?.[FAIL_MODE_METADATA_KEY]?.trim().toLowerCase();
  return value === "open" || value === "closed" ? value : fallback;
}

/** How detections, logs and calibration files name the judge's model. */
export function judgeModelName(s: Pick<JudgeSettings, "model">): string {
  return `judge:${s.model}`;
}
