// The examples of gen/openapi.json (proto/openapi-examples.json) against the
// real service: every operation's example request is sent as written, in an
// order where each one finds what the earlier ones created, and must get the
// status its example answer has, with the same yes/no answers (`flagged`,
// `stop`, ...). That the examples match their schemas is `npm run lint:openapi`'s
// check (test/server/openapi-document.test.ts).
import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openApiFile } from "../../scripts/lint-openapi.js";
import { startTestServer, type TestServer } from "../support/server.js";

const doc = JSON.parse(readFileSync(openApiFile, "utf8"));

/** Creations first, then what uses them, deletions last. */
const order = [
  "SystemService_Ping",
  "CustomGuardrailService_CreateCustomGuardrail",
  "CustomGuardrailService_ListCustomGuardrails",
  "CustomGuardrailService_GetCustomGuardrail",
  "CustomGuardrailService_UpdateCustomGuardrail",
  "PolicyService_CreatePolicy",
  "PolicyService_ListPolicies",
  "PolicyService_GetPolicy",
  "PolicyService_UpdatePolicy",
  "PolicyService_ListPolicyVersions",
  "ProjectService_CreateProject",
  "ProjectService_ListProjects",
  "ProjectService_GetProject",
  "ProjectService_UpdateProject",
  "GuardService_Guard",
  "GuardService_GetGuardResults",
  "GuardService_RestoreText",
  "GuardService_CheckPolicyHealth",
  "GuardService_OpenGuardStream",
  "GuardService_AppendGuardStream",
  "GuardService_CloseGuardStream",
  "LogService_GetLogs",
  "AnalyticsService_GetAnalytics",
  "PolicyDraftService_PreviewPolicyImpact",
  "PolicyDraftService_LintPolicyDraft",
  "ApiKeyService_CreateApiKey",
  "ApiKeyService_ListApiKeys",
  "ApiKeyService_UpdateApiKey",
  "ApiKeyService_RevokeApiKey",
  "ProjectService_DeleteProject",
  "PolicyService_DeletePolicy",
  "CustomGuardrailService_DeleteCustomGuardrail",
  "RetiredPolicyService_CreatePolicyV1Beta",
  "RetiredPolicyService_GetPolicyV1Beta",
  "RetiredPolicyService_UpdatePolicyV1Beta",
  "RetiredPolicyService_DeletePolicyV1Beta",
];

interface Example {
  verb: string;
  template: string;
  tag: string;
  parameters: [name: string, where: string, value: unknown][];
  request?: unknown;
  status: number;
  response: unknown;
}

function examplesOf(): Map<string, Example> {
  const out = new Map<string, Example>();
  for (const [template, item] of Object.entries<any>(doc.paths)) {
    for (const [verb, op] of Object.entries<any>(item)) {
      const answered = Object.entries<any>(op.responses).find(([, r]) => r.content?.["application/json"]?.examples);
      const media: any = Object.values(op.requestBody?.content ?? {})[0];
      out.set(op.operationId, {
        verb: verb.toUpperCase(),
        template,
        tag: op.tags[0],
        parameters: (op.parameters ?? []).filter((p: any) => p.example !== undefined).map((p: any) => [p.name, p.in, p.example]),
        request: media?.examples ? Object.values<any>(media.examples)[0].value : undefined,
        status: Number(answered?.[0]),
        response: answered ? Object.values<any>(answered[1].content["application/json"].examples)[0].value : undefined,
      });
    }
  }
  return out;
}

const ids = /^(policy|project|custom-guardrail|key)-|^(vlt|gst)_/;

/** Pairs of (example id, real id) at the same place in the example answer and the real one. */
function idPairs(example: unknown, real: unknown, out: [string, string][] = []): [string, string][] {
  if (typeof example === "string" && typeof real === "string" && ids.test(example) && example !== real) out.push([example, real]);
  else if (Array.isArray(example) && Array.isArray(real)) example.forEach((e, i) => idPairs(e, real[i], out));
  else if (example && real && typeof example === "object" && typeof real === "object") {
    for (const [k, v] of Object.entries(example)) idPairs(v, (real as Record<string, unknown>)[k], out);
  }
  return out;
}

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ PARAPET_VAULT_KEY: Buffer.alloc(32, 7).toString("base64") });
});
afterAll(() => server?.close());

describe("the OpenAPI document's examples", () => {
  const examples = examplesOf();

  it("cover every operation, and this test sends each of them", () => {
    expect([...examples.keys()].sort()).toEqual([...order].sort());
    for (const [id, ex] of examples) {
      expect(ex.response, `${id}: an answer example`).toBeDefined();
      expect(ex.status, id).toBeGreaterThanOrEqual(200);
    }
  });

  it("are answered by the service as they say", async () => {
    // The examples' ids stand for what the earlier examples created; the real ids replace them.
    const real = new Map<string, string>();
    const swap = (v: unknown): unknown =>
      typeof v === "string"
        ? (real.get(v) ?? v)
        : Array.isArray(v)
          ? v.map(swap)
          : v && typeof v === "object"
            ? Object.fromEntries(Object.entries(v).map(([k, x]) => [k, swap(x)]))
            : v;
    for (const id of order) {
      const ex = examples.get(id)!;
      const params = Object.fromEntries(ex.parameters.map(([name, , value]) => [name, String(swap(value))]));
      let path = ex.template.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(params[name]));
      const query = ex.parameters.filter(([, where]) => where === "query").map(([name]) => [name, params[name]]);
      if (query.length > 0) path += `?${new URLSearchParams(query).toString()}`;
      const key = ex.tag === "GuardService" ? server.screeningKey : server.platformKey;
      const res = await server.rest(ex.verb, path, ex.request === undefined ? undefined : swap(ex.request), key);
      const what = `${id}: ${ex.verb} ${path} -> ${res.status} ${JSON.stringify(res.body).slice(0, 400)}`;
      expect(res.status, what).toBe(ex.status);
      for (const [k, v] of Object.entries(ex.response as Record<string, unknown>)) {
        if (typeof v === "boolean") expect(res.body[k], `${what}: ${k}`).toBe(v);
      }
      for (const [exampleId, realId] of idPairs(ex.response, res.body)) if (!real.has(exampleId)) real.set(exampleId, realId);
    }
    // Every id the examples use was created by an example (none is left to chance).
    expect([...real.keys()].sort()).toEqual(
      expect.arrayContaining([
        "custom-guardrail-Xq2vJd0bZ8wL4nRt",
        "gst_4mQk8ZrT1vXbN6pWc3sYd0fHj9aLe2uG",
        "key-K7dW2pQx9mZb",
        "policy-ahtbQCrw-m8r6EF7",
        "project-eWfa3XWX5M0Q1bLR",
        "vlt_Jq3hT0sVb8zP1mYc4nWk7dXe2aLu9fRg",
      ]),
    );
  });
});
