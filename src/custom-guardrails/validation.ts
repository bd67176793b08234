// Custom guardrail rules that proto field rules cannot express. Run by the validation interceptor
// beside the proto rules, so one 422 names every violation (as for policies, src/policies/validation.ts).
import type { CustomGuardrail } from "../../gen/parapet/v1/custom_guardrails_pb.js";
import type { FieldViolation } from "../api/interceptors/validation.js";
import { compilePattern } from "../screening/patterns.js";

/** The name is not blank, every pattern compiles under RE2 (linear time), and there is a pattern or a policy in words. */
export function guardrailViolations(g: CustomGuardrail | undefined): FieldViolation[] {
  if (!g) return [];
  const out: FieldViolation[] = [];
  if (g.name.trim() === "") out.push({ field: "name", message: "must not be blank", rule: "custom_guardrail.name" });
  // A guardrail written in words (docs/judges.md#custom-guardrails-in-words) needs no pattern; any other needs one.
  if (g.patterns.length === 0 && g.judgePolicy.trim() === "") {
    out.push({
      field: "patterns",
      message: "must have at least 1 pattern, unless judge_policy gives the guardrail in words",
      rule: "custom_guardrail.patterns_or_judge_policy",
    });
  }
  g.patterns.forEach((p, i) => {
    const compiled = compilePattern(p);
    if (!compiled.ok) out.push({ field: `patterns[${i}]`, message: `not a valid RE2 expression (${compiled.reason})`, rule: "custom_guardrail.re2" });
  });
  return out;
}
