// The judge formats by PARAPET_JUDGE_FORMAT name (docs/judges.md#formats).
import type { JudgeFormat } from "../format.js";
import type { JudgeFormatName } from "../settings.js";
import { gptOssSafeguard } from "./gpt-oss-safeguard.js";
import { graniteGuardian } from "./granite-guardian.js";
import { llamaGuard3, llamaGuard4 } from "./llama-guard.js";
import { shieldgemma } from "./shieldgemma.js";

export const judgeFormats: Readonly<Record<JudgeFormatName, JudgeFormat>> = {
  "llama-guard-3": llamaGuard3,
  "llama-guard-4": llamaGuard4,
  shieldgemma,
  "granite-guardian": graniteGuardian,
  "gpt-oss-safeguard": gptOssSafeguard,
};
