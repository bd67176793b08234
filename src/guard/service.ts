// GuardService handlers: POST /v2/guard (decision + request log),
// /v2/guard/results (levels only, no writes) and /v2/policies/health.
import { create, type MessageInitShape } from "@bufbuild/protobuf";
import type { HandlerContext, ServiceImpl } from "@connectrpc/connect";
import { v7 as uuidv7 } from "uuid";
import { DevInfoSchema, type GuardService, type Message, type ResultItemSchema, type ToolResultItemSchema } from "../../gen/parapet/v1/guard_pb.js";
import { principalKey, requestIdOf } from "../api/context.js";
import { validationFailed } from "../api/errors.js";
import { callerOrg } from "../api/tenant.js";
import { checkSanitizeRequest, restoreTextHandler, sanitizeAnswer, type SanitizeDeps } from "../sanitize/service.js";
import type { MetadataScreen } from "../sanitize/metadata.js";
import type { Screening } from "../screening/engine.js";
import { partsOf, skippedPartNotes } from "../screening/parts.js";
import { breakdownItemOf, payloadOf } from "./answer-items.js";
import { buildInfo } from "./build-info.js";
import type { GuardDeps } from "./deps.js";
import { lintPolicy } from "./lint.js";
import { logOf } from "./log-entry.js";
import { observeDecision } from "./observe-decision.js";
import { RequestScreener } from "./request-screener.js";
import { resolvePolicy, resolvePolicyById, type Resolved } from "./resolve.js";
import { screeningPolicyOf } from "./screening-policy.js";
import type { GuardStreamMethod } from "./stream/service.js";

function devInfo(deps: GuardDeps, screening: Screening, messages: readonly Message[]) {
  const b = buildInfo(deps.build);
  const notes: string[] = skippedPartNotes(messages);
  for (const o of screening.outcomes) {
    if (!o.note) continue;
    const where = o.location === "tool_definition::content" ? `tool ${o.toolId}` : `message ${o.messageId}${o.toolId !== undefined ? `, tool call ${o.toolId}` : ""}`;
    notes.push(`${o.detectorType}, ${where}: ${o.note}`);
  }
  if (screening.notes) notes.push(...screening.notes);
  return create(DevInfoSchema, { gitRevision: b.gitRevision, gitTimestamp: b.gitTimestamp, modelVersion: deps.modelVersion(), version: b.version, notes });
}

/** Detailed results: every outcome's level, the tool definitions' apart. */
function detailedResultsOf(screening: Screening, base: { projectId: string; policyId: string }) {
  const results: MessageInitShape<typeof ResultItemSchema>[] = [];
  const toolResults: MessageInitShape<typeof ToolResultItemSchema>[] = [];
  for (const o of screening.outcomes) {
    const item = { ...base, detectorId: o.detectorId, detectorType: o.detectorType, result: o.level, customMatched: o.customMatched };
    if (o.location === "tool_definition::content") toolResults.push({ ...item, toolId: o.toolId });
    else results.push({ ...item, messageId: o.messageId });
  }
  return { results, toolResults };
}

/** Sanitize screens a logged request's metadata values with its policy, guardrails and deadline (docs/sanitize.md). */
function metadataScreenOf(screener: RequestScreener, resolved: Pick<Resolved, "policy" | "guardrails">, org: string, deadline: number): MetadataScreen {
  const policy = screeningPolicyOf(resolved.policy);
  return (parts, keep, guardrails) =>
    screener.screen({ ...policy, detectors: policy.detectors.filter(keep) }, guardrails ? resolved.guardrails : [], parts, org, deadline);
}

function checkCounts(max: number, messages: number, tools: number): void {
  if (messages > max || tools > max) {
    const field = messages > max ? "messages" : "tools";
    throw validationFailed([{ field, message: `a request may carry at most ${max} messages and ${max} tools`, rule: "" }]);
  }
}

// GuardStream and its REST calls are served by stream/service.ts, built apart because it holds
// open sessions to close on shutdown; `streams` are its handlers, one GuardService on the wire.
export function guardService(deps: GuardDeps, streams: Pick<ServiceImpl<typeof GuardService>, GuardStreamMethod>): ServiceImpl<typeof GuardService> {
  const screener = new RequestScreener(deps);
  const sanitizeDeps: SanitizeDeps = { ...deps.sanitize, orgs: deps.orgs };

  /** `screenWith`: a project id (or none: the default project), or `{ policyId }` for detailed results' extension. */
  async function run(ctx: HandlerContext, screenWith: string | undefined | { policyId: string }, messages: Message[], tools: Parameters<typeof partsOf>[1]) {
    const started = Date.now();
    checkCounts(deps.maxMessages, messages.length, tools.length);
    const org = await callerOrg(ctx, deps.orgs);
    const resolved = typeof screenWith === "object" ? await resolvePolicyById(deps, org, screenWith.policyId) : await resolvePolicy(deps, org, screenWith);
    const parts = partsOf(messages, tools);
    // The server's timeout, or the client's own deadline (gRPC, Connect) when it is sooner.
    const clientMs = ctx.timeoutMs();
    const deadline = Math.min(started + deps.requestTimeoutMs, clientMs !== undefined ? Date.now() + clientMs : Infinity);
    const screeningStarted = performance.now();
    const judging = { projectMetadata: resolved.project.project_metadata };
    const screening = await screener.screen(screeningPolicyOf(resolved.policy), resolved.guardrails, parts, org._id, deadline, "auto", judging);
    const screenMetadata = metadataScreenOf(screener, resolved, org._id, deadline);
    return { org, resolved, screening, screeningMs: performance.now() - screeningStarted, screenMetadata };
  }

  return {
    ...streams,

    async guard(req, ctx) {
      const at = new Date();
      // The X-Request-Id of this call: one id joins the service log, the answer and the request log.
      const requestUuid = requestIdOf(ctx) ?? uuidv7();
      checkSanitizeRequest(sanitizeDeps, req.sanitize, ctx);
      const { org, resolved, screening, screeningMs, screenMetadata } = await run(ctx, req.projectId, req.messages, req.tools);
      const flagged = resolved.project.action === "enforce" && screening.detected;
      // With sanitize the log keeps the sanitized conversation and metadata, never the values it masked (docs/sanitize.md#request-logs-and-service-logs).
      const logged = req.metadata && { metadata: req.metadata, screen: screenMetadata };
      const sanitized = req.sanitize && (await sanitizeAnswer(sanitizeDeps, org._id, req.sanitize, req.messages, screening, logged));
      const metadata = JSON.stringify(sanitized?.metadata ?? req.metadata ?? {});
      const log = logOf(requestUuid, at, org._id, resolved, flagged, screening, sanitized?.messages ?? req.messages, metadata, {
        screeningMs,
        sanitized: sanitized !== undefined,
        keyId: ctx.values.get(principalKey)?.keyId,
      });
      // Durable before the answer: a caller that saw this response finds its log.
      const writeStarted = performance.now();
      await Promise.all([deps.logs.append(log), deps.rollups.record(org._id, resolved.project._id, at, log.fired, { flagged, screeningMs: log.screening_ms })]);
      deps.metrics?.storageLatency.observe((performance.now() - writeStarted) / 1000);
      observeDecision(deps, log);

      const base = { projectId: resolved.project._id, policyId: resolved.policy._id };
      return {
        flagged,
        breakdown: req.breakdown ? screening.outcomes.map((o) => breakdownItemOf(o, base)) : [],
        payload: req.payload ? payloadOf(screening.outcomes) : [],
        devInfo: req.devInfo ? devInfo(deps, screening, req.messages) : undefined,
        metadata: { requestUuid },
        ...sanitized?.fields,
      };
    },

    async getGuardResults(req, ctx) {
      checkSanitizeRequest(sanitizeDeps, req.sanitize, ctx);
      const { org, resolved, screening } = await run(ctx, req.policyId !== undefined ? { policyId: req.policyId } : req.projectId, req.messages, req.tools);
      const { results, toolResults } = detailedResultsOf(screening, { projectId: resolved.project._id, policyId: resolved.policy._id });
      const screensTools = req.tools.length > 0 && resolved.policy.detectors.some((d) => d.location === "tool_definition::content");
      return {
        results,
        tools: screensTools ? { flagged: screening.outcomes.some((o) => o.location === "tool_definition::content" && o.flagged), results: toolResults } : undefined,
        devInfo: req.devInfo ? devInfo(deps, screening, req.messages) : undefined,
        ...(req.sanitize ? (await sanitizeAnswer(sanitizeDeps, org._id, req.sanitize, req.messages, screening)).fields : undefined),
      };
    },

    restoreText: restoreTextHandler(sanitizeDeps),

    async checkPolicyHealth(req, ctx) {
      const org = await callerOrg(ctx, deps.orgs);
      const resolved = await resolvePolicy(deps, org, req.projectId);
      const lint = lintPolicy(resolved, deps.judges);
      const hasErrors = lint.some((e) => e.severity === "error");
      return {
        status: hasErrors ? "error" : "ok",
        isDefault: resolved.isDefault,
        message: resolved.danglingPolicyId
          ? `project policy '${resolved.danglingPolicyId}' no longer exists; the default policy applies`
          : hasErrors
            ? "the policy has configuration errors"
            : undefined,
        lint: { passed: !hasErrors, errors: lint },
      };
    },
  };
}
