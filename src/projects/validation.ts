// Project rules that proto field rules cannot express. Run by the validation interceptor beside
// the proto rules, so one 422 names every violation (as for policies, src/policies/validation.ts).
import type { Project } from "../../gen/parapet/v1/projects_pb.js";
import type { FieldViolation } from "../api/interceptors/validation.js";
import { FAIL_MODE_METADATA_KEY, FAIL_MODES } from "../screening/judges/settings.js";

const NAME_MAX = 200;

export function projectRequestViolations(project: Project | undefined): FieldViolation[] {
  if (!project) return [];
  const violations: FieldViolation[] = [];
  // Names are stored trimmed, as policy names are: "  " would be a project nobody can tell apart.
  const name = project.name.trim();
  if (name.length === 0 || [...name].length > NAME_MAX) {
    violations.push({ field: "name", message: `must be 1 to ${NAME_MAX} characters after stripping surrounding whitespace`, rule: "project.name_length" });
  }
  for (const key of Object.keys(project.projectMetadata)) {
    // Metadata keys become field names of the stored project: MongoDB cannot store a NUL in one, and
    // reads a leading `$` as an operator in updates and as a type in Extended JSON (docs/api.md#projects).
    if (key.startsWith("$") || key.includes("\0")) {
      violations.push({
        field: `project_metadata[${JSON.stringify(key)}]`,
        message: "keys may not start with '$' or contain a NUL character",
        rule: "project.metadata_key",
      });
    }
  }
  // The judge's fail mode for this project (docs/judges.md#fail-modes): a typo must not silently fall back to the service's.
  const failMode = project.projectMetadata[FAIL_MODE_METADATA_KEY];
  if (failMode !== undefined && !(FAIL_MODES as readonly string[]).includes(failMode)) {
    violations.push({
      field: `project_metadata[${JSON.stringify(FAIL_MODE_METADATA_KEY)}]`,
      message: `must be ${FAIL_MODES.join(" or ")} (the LLM judge's fail mode for this project)`,
      rule: "project.judge_fail_mode",
    });
  }
  return violations;
}
