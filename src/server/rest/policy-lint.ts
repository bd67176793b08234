// `POST /v2/policies/lint`, Lakera Guard's policy linter path, answered in its shape
// (`{passed, errors: [{message, severity}]}`) for a Parapet policy: the body is what
// `POST /v1/policies` takes, linted as `POST /v1-beta/policy-drafts/lint` lints a draft
// (docs/api.md#policy-lint). A policy that breaks the schema's rules is a lint
// finding here, not a 422: a linter's answer to a broken policy is the list of what
// is broken.
import { PolicyDraftService } from "../../../gen/parapet/v1/policy_drafts_pb.js";
import type { AdaptedCall, AdaptedRoute, CallFailure, JsonObject, Refusal } from "./adapted-route.js";

/** Lakera's self-hosted policy file holds every policy and project at once; Parapet lints one policy. */
function looksLikeLakeraPolicyFile(body: Record<string, unknown>): boolean {
  return !("name" in body) && (Array.isArray(body.policies) || Array.isArray(body.projects));
}

const lakeraFileNote = {
  message:
    "this looks like a Lakera Guard self-hosted policy file (policies, projects): Parapet lints one Parapet policy, the body of POST /v1/policies (name, default_threshold, detectors); projects are configured with /v1-beta/projects",
  severity: "error",
};

export const policyLintRoute: AdaptedRoute = {
  path: "/v2/policies/lint",
  method: PolicyDraftService.method.lintPolicyDraft,
  open(body: unknown): AdaptedCall | Refusal {
    if (body === null || typeof body !== "object" || Array.isArray(body)) {
      return { error: "malformed_json", message: "request body must be a JSON object (the policy, as POST /v1/policies takes it)" };
    }
    const lakeraFile = looksLikeLakeraPolicyFile(body as Record<string, unknown>);
    return {
      json: { policy: body },
      fieldOf: (p) => (p === "policy" ? "" : p.replace(/^policy\./, "")),
      answer: (out: JsonObject) => out.lint,
      failed(failure: CallFailure) {
        if (failure.error !== "validation_failed") return null;
        const errors = failure.violations.map((v) => ({ message: `${v.field || "(policy)"}: ${v.message}${v.rule ? ` [${v.rule}]` : ""}`, severity: "error" }));
        return { passed: false, errors: lakeraFile ? [lakeraFileNote, ...errors] : errors };
      },
    };
  },
};
