// Policy health lint (docs/api.md#policy-health): configuration that validation
// accepts but that cannot work as the author expects.
import safeRegex from "safe-regex2";
import { normalizeOverrideText as normalizeOverride } from "../screening/detectors/overrides.js";
import { allowedDomainProblem } from "../screening/detectors/unknown-links.js";
import { compilePattern } from "../screening/patterns.js";
import { definitionOf } from "../screening/registry.js";
import type { Resolved } from "./resolve.js";

export interface LintItem {
  message: string;
  severity: "error" | "warning";
}

/** The configured LLM judge, as far as the lint needs it; undefined when none is configured. */
export interface LintJudge {
  readsPoliciesInWords: boolean;
}

export function lintPolicy(r: Resolved, judge?: LintJudge): LintItem[] {
  const out: LintItem[] = [];
  const error = (message: string) => out.push({ message, severity: "error" });
  const warning = (message: string) => out.push({ message, severity: "warning" });
  const p = r.policy;

  if (r.danglingPolicyId) error(`project ${r.project._id} names policy '${r.danglingPolicyId}', which does not exist; requests are screened with the default policy`);

  const found = new Map(r.guardrails.map((g) => [g._id, g]));
  for (const id of p.custom_guardrail_ids) {
    const g = found.get(id);
    if (!g) {
      error(`custom guardrail '${id}' does not exist in this organization; it screens nothing`);
      continue;
    }
    if (g.judge_policy && !judge?.readsPoliciesInWords) {
      warning(
        `custom guardrail '${id}' is written in words (judge_policy), which only a gpt-oss-safeguard judge applies, and ${judge ? "the configured judge's format does not read it" : "no judge is configured (PARAPET_JUDGE_URL)"}; it screens ${g.patterns.length ? "with its patterns only" : "nothing"}`,
      );
    }
    g.patterns.forEach((source, i) => {
      const compiled = compilePattern(source);
      if (!compiled.ok) error(`custom guardrail '${id}' pattern ${i} is not a valid RE2 expression (${compiled.reason}); it is skipped`);
      else if (!safeRegex(source)) {
        warning(
          `custom guardrail '${id}' pattern ${i} would backtrack catastrophically in a backtracking engine; Parapet runs it in linear time, but do not reuse it elsewhere`,
        );
      }
    });
  }

  p.detectors.forEach((d, i) => {
    const at = `detectors[${i}] (${d.type} at ${d.location})`;
    const kind = definitionOf(d.type);
    if (!kind) {
      // Validation accepts only known types: this is a policy stored by a build that had one more.
      warning(`${at}: this build has no implementation of ${d.type}; it reports no_level`);
      return;
    }
    if (!kind.meaningful.includes(d.location)) {
      warning(`${at}: no traffic this detector screens reaches ${d.location}; it never fires there (it screens ${kind.meaningful.join(", ")})`);
    }
    for (const domain of d.allowed_domains ?? []) {
      const problem = allowedDomainProblem(domain);
      if (problem) error(`${at}: allowed domain '${domain}' ${problem}`);
    }
    const seen = new Set<string>();
    for (const entry of d.override_list ?? []) {
      const normalized = normalizeOverride(entry);
      if (normalized === "") error(`${at}: override entry ${JSON.stringify(entry)} is empty after normalization and can never match`);
      else if (seen.has(normalized)) warning(`${at}: override entry ${JSON.stringify(entry)} repeats another entry after normalization`);
      seen.add(normalized);
    }
  });

  // An allow entry shadows a deny entry it contains: a message equal to the
  // allow entry is let through although the deny entry occurs in it.
  for (const deny of p.detectors.filter((d) => d.type === "override_deny")) {
    for (const allow of p.detectors.filter((d) => d.type === "override_allow" && d.location === deny.location)) {
      for (const de of deny.override_list ?? []) {
        const dn = normalizeOverride(de);
        for (const ae of allow.override_list ?? []) {
          if (dn !== "" && normalizeOverride(ae).includes(dn)) {
            warning(
              `override_deny entry ${JSON.stringify(de)} at ${deny.location} is shadowed by override_allow entry ${JSON.stringify(ae)}: a message equal to the allow entry passes although it contains the deny entry`,
            );
          }
        }
      }
    }
  }
  return out;
}
