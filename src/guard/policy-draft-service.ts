// PolicyDraftService handlers (docs/api.md#policy-drafts), for a policy that is not saved yet.
// PreviewPolicyImpact runs the draft over a project's most recent logged requests and compares
// it with what was detected when they were logged; LintPolicyDraft runs the policy health lint,
// so an editor can show warnings while typing. Read-only: nothing is stored, no log written.
import { create } from "@bufbuild/protobuf";
import type { HandlerContext, ServiceImpl } from "@connectrpc/connect";
import { MessageSchema, type Message } from "../../gen/parapet/v1/guard_pb.js";
import type { PolicyDraftService, PreviewPolicyImpactRequest, PreviewPolicyImpactResponse } from "../../gen/parapet/v1/policy_drafts_pb.js";
import { ApiError, validationFailed } from "../api/errors.js";
import { callerOrg, callerOrgWith, requireFeature } from "../api/tenant.js";
import type { Organizations } from "../auth/organizations-repository.js";
import type { CustomGuardrails } from "../custom-guardrails/repository.js";
import { GuardrailCache } from "./guardrail-cache.js";
import type { GuardLogs, StoredLog, StoredLogMessage } from "../logs/repository.js";
import type { Projects } from "../projects/repository.js";
import { screen, type Screening } from "../screening/engine.js";
import { apiErrorOf } from "./request-screener.js";
import { screeningPolicyOf } from "./screening-policy.js";
import { partsOf } from "../screening/parts.js";
import { detectFnOf, type PrepareDetectors } from "../screening/registry.js";
import { policyInputOf } from "../policies/convert.js";
import { lintPolicy, type LintJudge } from "./lint.js";
import type { Resolved } from "./resolve.js";

/** Logged requests screened when the request names no limit. */
const DEFAULT_IMPACT_LIMIT = 100;

export interface PolicyDraftServiceDeps {
  orgs: Organizations;
  projects: Projects;
  guardrails: CustomGuardrails;
  logs: GuardLogs;
  /** The LLM judge, when one is configured: the draft lint says when a guardrail in words would not be applied. */
  judges?: LintJudge;
  /** Asynchronous pre-pass before screening (ONNX inference), as for /v2/guard. */
  prepare?: PrepareDetectors;
  /** The request deadline; screening many logs is the slowest read there is. */
  requestTimeoutMs?: number;
}

/** The logged conversation as the screening engine takes it; text only, as it was screened. */
function messageOf(m: StoredLogMessage): Message {
  return create(MessageSchema, {
    role: m.role,
    content: m.role === "assistant" && m.content === "" && m.tool_calls.length > 0 ? undefined : m.content,
    toolCalls: m.tool_calls.map((c) => ({ id: c.id, type: c.type, function: { name: c.function.name, arguments: c.function.arguments } })),
    name: m.name || undefined,
    toolCallId: m.tool_call_id || undefined,
  });
}

/** Detector types that fired, as the log stores them (`custom_guardrail` for custom guardrails). */
function firedOf(s: Screening): string[] {
  return [...new Set(s.outcomes.filter((o) => o.flagged).map((o) => o.detectorType))];
}

function sameSet(a: string[], b: string[]): boolean {
  return a.length === b.length && a.every((x) => b.includes(x));
}

// eslint-disable-next-line max-lines-per-function -- the service's two handlers in one object, each short; the factory is their list
export function policyDraftService(deps: PolicyDraftServiceDeps): ServiceImpl<typeof PolicyDraftService> {
  const cache = new GuardrailCache();
  return {
    async previewPolicyImpact(req: PreviewPolicyImpactRequest, ctx: HandlerContext): Promise<PreviewPolicyImpactResponse> {
      const started = Date.now();
      const org = requireFeature(requireFeature(await callerOrg(ctx, deps.orgs), "logs_analytics"), "policies");
      const project = await deps.projects.get(org._id, req.projectId, org.default_project_id);
      if (!project) throw new ApiError("not_found", `no project '${req.projectId}' in this organization`);
      if (!req.policy) throw validationFailed([{ field: "policy", message: "value is required", rule: "required" }]);
      const draft = policyInputOf(req.policy);
      const stored = await deps.guardrails.many(org._id, draft.custom_guardrail_ids);
      const missing = draft.custom_guardrail_ids.filter((id) => !stored.some((g) => g._id === id));
      if (missing.length > 0) throw new ApiError("not_found", `no custom guardrail '${missing[0]}' in this organization`);
      const policy = screeningPolicyOf({ ...draft, _id: "draft" });
      const guardrails = cache.active(stored);

      const limit = req.limit ?? DEFAULT_IMPACT_LIMIT;
      const logs: StoredLog[] = await deps.logs.logs.find({ "meta.org_id": org._id, "meta.project_id": project._id }, { sort: { timestamp: -1, _id: -1 }, limit });
      const clientMs = ctx.timeoutMs();
      const deadline = Math.min(started + (deps.requestTimeoutMs ?? 30_000), clientMs !== undefined ? Date.now() + clientMs : Infinity);

      const counts = new Map<string, { then: number; now: number }>();
      const count = (type: string, key: "then" | "now") => {
        const c = counts.get(type) ?? { then: 0, now: 0 };
        c[key]++;
        counts.set(type, c);
      };
      let detectedThen = 0;
      let detectedNow = 0;
      const changes: PreviewPolicyImpactResponse["changes"] = [];
      for (const log of logs) {
        // Screening is synchronous: yield between requests so a preview of hundreds of them
        // does not hold up every other call on this process.
        await new Promise((resolve) => setImmediate(resolve));
        const parts = partsOf(log.messages.map(messageOf), []);
        let screening: Screening;
        try {
          await deps.prepare?.(parts, policy.detectors, deadline);
          screening = screen(policy, guardrails, parts, detectFnOf, { deadline });
        } catch (err) {
          throw apiErrorOf(err, "the preview did not complete within the request deadline; ask for fewer requests (limit)");
        }
        const firedNow = firedOf(screening);
        if (log.detected) detectedThen++;
        if (screening.detected) detectedNow++;
        for (const t of log.fired) count(t, "then");
        for (const t of firedNow) count(t, "now");
        if (log.detected !== screening.detected || !sameSet(log.fired, firedNow)) {
          changes.push({
            $typeName: "parapet.v1.ImpactChange",
            requestUuid: log._id,
            timestamp: log.timestamp.toISOString(),
            detectedThen: log.detected,
            detectedNow: screening.detected,
            firedThen: log.fired,
            firedNow,
          });
        }
      }
      return {
        $typeName: "parapet.v1.PreviewPolicyImpactResponse",
        evaluated: logs.length,
        detectedThen,
        detectedNow,
        detectors: [...counts.entries()]
          .sort(([a], [b]) => a.localeCompare(b))
          .map(([detectorType, c]) => ({ $typeName: "parapet.v1.DetectorImpact", detectorType, countThen: c.then, countNow: c.now })),
        changes,
      };
    },

    async lintPolicyDraft(req, ctx) {
      const org = await callerOrgWith(ctx, deps.orgs, "policies");
      if (!req.policy) throw validationFailed([{ field: "policy", message: "value is required", rule: "required" }]);
      const draft = policyInputOf(req.policy);
      const guardrails = await deps.guardrails.many(org._id, draft.custom_guardrail_ids);
      // The lint reads the policy and its guardrails only; a draft has no project and no stored identity.
      const resolved = {
        project: null,
        policy: { ...draft, _id: "draft", org_id: org._id, version_id: 0, created_at: new Date(), updated_at: null },
        isDefault: false,
        danglingPolicyId: null,
        guardrails,
      } as unknown as Resolved;
      const items = lintPolicy(resolved, deps.judges);
      return { lint: { passed: !items.some((i) => i.severity === "error"), errors: items } };
    },
  };
}
