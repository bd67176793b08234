// Lakera Guard's first API, still called by LiteLLM's legacy `lakera` guardrail and by
// LangChain's chainguard (docs/lakera-compatibility.md#lakera-guard-v1):
// `POST /v1/prompt_injection` with `{"input": text or messages}` answers
// `{model, results: [{categories, category_scores, flagged, payload}], dev_info}`.
// Parapet screens it as `POST /v2/guard` of the organization's default project
// and answers what its prompt_attack detector found; the other v1 classifiers
// have no v1 answer here and point at /v2/guard.
import { GuardService } from "../../../gen/parapet/v1/guard_pb.js";
import type { FieldViolation } from "../../api/errors.js";
import type { AdaptedCall, AdaptedRoute, JsonObject, PointerRoute, Refusal } from "./adapted-route.js";

/** The detector behind both of v1's categories: Parapet's prompt_attack covers injections and jailbreaks alike. */
const promptAttack = "prompt_attack";

function describedType(value: unknown): string {
  if (value === undefined) return "nothing";
  return value === null ? "null" : Array.isArray(value) ? "an array" : typeof value === "object" ? "an object" : `a ${typeof value}`;
}

/**
 * v1's `input` as /v2/guard messages. v1 clients send the last system, user and
 * assistant message with `content` null or "" where they had none (LiteLLM
 * keeps `message.get("content")`, chainguard fills in ""): no content is empty
 * content here, not a 422 as on /v2/guard.
 */
function messagesOf(input: unknown): { messages: unknown[]; fieldOf: (path: string) => string } | FieldViolation {
  if (typeof input === "string") {
    return { messages: [{ role: "user", content: input }], fieldOf: (p) => p.replace(/^messages\[0\]\.content(?=$|[.[])/, "input").replace(/^messages\[0\]/, "input") };
  }
  if (Array.isArray(input)) {
    const messages = input.map((m: unknown) => {
      if (m === null || typeof m !== "object" || Array.isArray(m)) return m;
      const message = { ...(m as Record<string, unknown>) };
      if (message.content === null || message.content === undefined) message.content = "";
      return message;
    });
    return { messages, fieldOf: (p) => p.replace(/^messages(?=\[)/, "input") };
  }
  return { field: "input", message: `expected a string or an array of messages ({role, content}), got ${describedType(input)}`, rule: "" };
}

function answerOf(out: JsonObject): unknown {
  const breakdown = (out.breakdown ?? []) as JsonObject[];
  const detected = breakdown.some((b) => b.detector_type === promptAttack && b.detected === true);
  const devInfo = (out.dev_info ?? {}) as JsonObject;
  const score = detected ? 1 : 0;
  return {
    model: devInfo.model_version ?? "",
    results: [
      {
        categories: { prompt_injection: detected, jailbreak: detected },
        category_scores: { prompt_injection: score, jailbreak: score },
        // A detect-mode project reports what it found and never flags (docs/api.md#project-mode):
        // /v2/guard's flagged carries the mode.
        flagged: detected && out.flagged === true,
        payload: {},
      },
    ],
    dev_info: devInfo,
  };
}

const promptInjection: AdaptedRoute = {
  path: "/v1/prompt_injection",
  method: GuardService.method.guard,
  open(body: unknown): AdaptedCall | Refusal {
    if (body === null || typeof body !== "object" || Array.isArray(body)) return { error: "malformed_json", message: "request body must be a JSON object" };
    const { input, project_id: projectId } = body as Record<string, unknown>;
    const read = messagesOf(input);
    const json: Record<string, unknown> = { breakdown: true, dev_info: true };
    // Not v1's: a Parapet project for clients that can add body fields (chainguard's classifier_args).
    if (typeof projectId === "string") json.project_id = projectId;
    if ("field" in read) return { json, violations: [read], fieldOf: (p) => p, answer: answerOf, failed: () => null };
    json.messages = read.messages;
    return { json, fieldOf: read.fieldOf, answer: answerOf, failed: () => null };
  },
};

export const lakeraV1Routes: AdaptedRoute[] = [promptInjection];

/** v1 classifiers whose answers have no counterpart here: a policy chooses what /v2/guard screens for. */
export const lakeraV1Pointers: PointerRoute[] = ["moderation", "pii", "unknown_links", "relevant_language", "sentiment"].map((name) => ({
  path: `/v1/${name}`,
  error: "route_not_found",
  message: `/v1/${name} is Lakera Guard's v1 ${name} classifier, which Parapet does not serve: screen with POST /v2/guard, whose project's policy chooses the detectors (only /v1/prompt_injection is kept for v1 clients)`,
}));
