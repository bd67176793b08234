// The built-in national-ID guardrails end to end (docs/custom-guardrails.md#built-in-guardrails):
// a policy enables one by id, matches are custom_guardrail results labelled with
// the identifier, the policy threshold applies to their levels, and the
// guardrail reads like a custom guardrail but cannot be changed or deleted.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GuardService } from "../../gen/parapet/v1/guard_pb.js";
import { rpcClient, startTestServer, type TestServer } from "../support/server.js";

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server?.close();
});

const ALL = "custom-guardrail-builtin-national-ids";

async function projectWith(custom_guardrail_ids: string[], default_threshold = "l2_very_likely"): Promise<{ policy: string; project: string }> {
  const p = await server.rest("POST", "/v1/policies", { name: `p ${Math.random()}`, default_threshold, detectors: [], custom_guardrail_ids });
  expect(p.status, JSON.stringify(p.body)).toBe(200);
  const proj = await server.rest("POST", "/v1-beta/projects", { name: `proj ${Math.random()}`, policy_id: p.body.id, action: "enforce" });
  expect(proj.status).toBe(200);
  return { policy: p.body.id, project: proj.body.id };
}

describe("built-in national-ID guardrails", () => {
  it("a policy that names one flags national identifiers, with the identifier's label", async () => {
    const { policy, project } = await projectWith([ALL]);
    const content = "Mi DNI es 54362315K y mi CURP BOXW310820HNERXN09";
    const res = await server.rest("POST", "/v2/guard", { project_id: project, payload: true, messages: [{ role: "user", content }] }, server.screeningKey);
    expect(res.status).toBe(200);
    expect(res.body.flagged).toBe(true);
    expect(res.body.payload).toEqual([
      { start: 10, end: 19, text: "54362315K", detector_type: "custom_guardrail", labels: ["es_dni", "national_id"], message_id: 0 },
      { start: 30, end: 48, text: "BOXW310820HNERXN09", detector_type: "custom_guardrail", labels: ["mx_curp", "national_id"], message_id: 0 },
    ]);
    const results = await server.rest("POST", "/v2/guard/results", { project_id: project, messages: [{ role: "user", content }] }, server.screeningKey);
    expect(results.body.results).toEqual([
      { project_id: project, policy_id: policy, detector_id: ALL, detector_type: "custom_guardrail", result: "l1_confident", custom_matched: true, message_id: 0 },
    ]);
    const read = await server.rest("GET", `/v1/policies/${policy}`);
    expect(read.body.policy.custom_guardrails).toEqual([{ id: ALL, locations: ["user::content", "assistant::content", "assistant::tool_call", "tool::content"] }]);
  });

  it("applies the policy threshold to the levels of its matches", async () => {
    // A PAN without naming words is l3: under an l2 policy it does not flag, under l4 it does.
    const content = "holder ACUPA7085R";
    const strict = await projectWith([ALL], "l2_very_likely");
    const loose = await projectWith([ALL], "l4_less_likely");
    const guard = (project: string) =>
      server.rest("POST", "/v2/guard", { project_id: project, payload: true, messages: [{ role: "user", content }] }, server.screeningKey);
    const a = await guard(strict.project);
    expect(a.body.flagged).toBe(false);
    expect(a.body.payload).toEqual([]);
    const b = await guard(loose.project);
    expect(b.body.flagged).toBe(true);
    expect(b.body.payload.map((p: { text: string }) => p.text)).toEqual(["ACUPA7085R"]);
  });

  it("a country's guardrail finds that country's identifiers only, over gRPC too", async () => {
    const { project } = await projectWith([`${ALL}-nl`]);
    const client = rpcClient(GuardService, server, "grpc", server.screeningKey);
    const dutch = await client.guard({ projectId: project, messages: [{ role: "user", content: "Mijn BSN is 111222333" }] });
    expect(dutch.flagged).toBe(true);
    const spanish = await client.guard({ projectId: project, messages: [{ role: "user", content: "Mi DNI es 54362315K" }] });
    expect(spanish.flagged).toBe(false);
  });

  it("reads like a custom guardrail, is not listed among the organization's own, and cannot be changed or deleted", async () => {
    const got = await server.rest("GET", `/v1/custom-guardrails/${ALL}-de`);
    expect(got.status).toBe(200);
    expect(got.body).toMatchObject({ id: `${ALL}-de`, name: "National identifiers (built-in): German tax ID (Steuer-IdNr)", labels: ["national_id"], patterns: [] });
    const other = await server.newOrg();
    expect((await server.rest("GET", `/v1/custom-guardrails/${ALL}`, undefined, other.platformKey)).status).toBe(200);
    expect((await server.rest("GET", "/v1/custom-guardrails")).body.custom_guardrails ?? []).not.toContainEqual(expect.objectContaining({ id: ALL }));
    const put = await server.rest("PUT", `/v1/custom-guardrails/${ALL}`, { name: "mine", patterns: ["x"] });
    expect(put.status).toBe(403);
    expect(put.body.message).toContain("built-in");
    expect((await server.rest("DELETE", `/v1/custom-guardrails/${ALL}`)).status).toBe(403);
    expect((await server.rest("GET", `/v1/custom-guardrails/${ALL}-us`)).status).toBe(404);
  });

  it("policy health does not report a built-in guardrail as missing", async () => {
    const { project } = await projectWith([ALL]);
    const res = await server.rest("POST", "/v2/policies/health", { project_id: project });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ status: "ok", lint: { passed: true } });
  });
});
