// Policies (docs/api.md#policies), their retired endpoints, errors and limits, over REST and the RPC protocols.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import fc from "fast-check";
import { Code } from "@connectrpc/connect";
import { ErrorDetailSchema } from "../../gen/parapet/v1/errors_pb.js";
import { PolicyService } from "../../gen/parapet/v1/policies_pb.js";
import { rpcClient, startTestServer, type TestServer } from "../support/server.js";

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server?.close();
});

let n = 0;
const uniqueName = (base = "policy") => `${base} ${++n} ${Date.now()}`;
const minimal = (extra: Record<string, unknown> = {}) => ({
  name: uniqueName(),
  default_threshold: "l2_very_likely",
  detectors: [{ type: "pii/email", location: "user::content" }],
  ...extra,
});

async function createPolicy(body: Record<string, unknown> = minimal(), key?: string): Promise<string> {
  const res = await server.rest("POST", "/v1/policies", body, key);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.id;
}

async function expect422(body: unknown, ...fragments: string[]) {
  const res = await server.rest("POST", "/v1/policies", body);
  expect(res.status, JSON.stringify(res.body)).toBe(422);
  expect(res.body.error).toBe("validation_failed");
  for (const f of fragments) expect(res.body.message).toContain(f);
  return res.body.message as string;
}

describe("create and read", () => {
  it("creates a policy and reads it back exactly", async () => {
    const body = {
      name: "  Support bot  ",
      default_threshold: "l3_likely",
      detectors: [
        { type: "prompt_attack", location: "tool_definition::content", allowed_tools: [{ tool_name: "search", tool_matcher: '{"name":"search"}' }] },
        { type: "unknown_links", location: "assistant::content", allowed_domains: ["example.com", "Example.co.uk"] },
        { type: "override_deny", location: "user::content", override_list: ["forbidden phrase"] },
        { type: "tool_access_control", location: "assistant::tool_call", tool_access_action: "deny", tool_access_list: ["rm"] },
      ],
      custom_guardrail_ids: ["custom-guardrail-abc"],
    };
    const created = await server.rest("POST", "/v1/policies", body);
    expect(created.status).toBe(200);
    expect(created.body).toEqual({ status: "ok", message: expect.any(String), id: expect.stringMatching(/^policy-[A-Za-z0-9_-]{16}$/) });

    const read = await server.rest("GET", `/v1/policies/${created.body.id}`);
    expect(read.status).toBe(200);
    const p = read.body.policy;
    expect(p.policy_id).toBe(created.body.id);
    expect(p.version_id).toBe(1);
    expect(p.name).toBe("Support bot");
    expect(p.default_threshold).toBe("l3_likely");
    expect(new Date(p.updated_at).getTime()).toBeGreaterThan(Date.now() - 60_000);
    expect(p.detectors).toEqual([
      {
        type: "prompt_attack",
        location: "tool_definition::content",
        allowed_domains: null,
        override_list: null,
        tool_access_action: null,
        tool_access_list: null,
        allowed_tools: [{ tool_name: "search", tool_matcher: '{"name":"search"}' }],
      },
      {
        type: "unknown_links",
        location: "assistant::content",
        allowed_domains: ["example.com", "example.co.uk"],
        override_list: null,
        tool_access_action: null,
        tool_access_list: null,
        allowed_tools: null,
      },
      {
        type: "override_deny",
        location: "user::content",
        allowed_domains: null,
        override_list: ["forbidden phrase"],
        tool_access_action: null,
        tool_access_list: null,
        allowed_tools: null,
      },
      {
        type: "tool_access_control",
        location: "assistant::tool_call",
        allowed_domains: null,
        override_list: null,
        tool_access_action: "deny",
        tool_access_list: ["rm"],
        allowed_tools: null,
      },
    ]);
    expect(p.custom_guardrails).toEqual([{ id: "custom-guardrail-abc", locations: ["user::content", "assistant::content"] }]);
    expect(p.projects).toEqual([]);
  });

  it("accepts null for the 'or null' fields", async () => {
    const id = await createPolicy(
      minimal({
        detectors: [
          {
            type: "pii/email",
            location: "user::content",
            allowed_domains: null,
            override_list: null,
            tool_access_action: null,
            tool_access_list: null,
            allowed_tools: null,
          },
        ],
      }),
    );
    expect((await server.rest("GET", `/v1/policies/${id}`)).status).toBe(200);
  });

  it("a policy with only a custom guardrail is valid", async () => {
    await createPolicy({ name: uniqueName(), default_threshold: "l1_confident", custom_guardrail_ids: ["custom-guardrail-x"] });
  });

  it("the built-in default policy reads with its stable id", async () => {
    const res = await server.rest("GET", "/v1/policies/policy-default");
    expect(res.status).toBe(200);
    expect(res.body.policy.default_threshold).toBe("l4_less_likely");
    const types = new Set(res.body.policy.detectors.map((d: any) => d.type));
    expect(types.has("prompt_attack")).toBe(true);
    expect(types.has("pii/email")).toBe(true);
    expect(types.has("override_allow")).toBe(false); // needs configuration
    expect(res.body.policy.projects.map((p: any) => p.id)).toContain("project-default");
  });

  it("unknown id: 404", async () => {
    const res = await server.rest("GET", "/v1/policies/policy-doesnotexist");
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ status: "error", error: "not_found", code: 404 });
  });
});

describe("validation: every rule answers 422 naming the field and rule", () => {
  it("name: stripped, 1-100 characters", async () => {
    await expect422(minimal({ name: "   " }), "name");
    await expect422(minimal({ name: "x".repeat(101) }), "name");
    const exactly100 = uniqueName().padEnd(100, "z");
    const id = await createPolicy(minimal({ name: `  ${exactly100}  ` }));
    expect((await server.rest("GET", `/v1/policies/${id}`)).body.policy.name).toBe(exactly100);
  });
  it("name and default_threshold are required", async () => {
    await expect422({ default_threshold: "l1_confident", detectors: [{ type: "pii/email", location: "user::content" }] }, "name");
    await expect422({ name: uniqueName(), detectors: [{ type: "pii/email", location: "user::content" }] }, "default_threshold");
  });
  it("default_threshold must be a threshold value", async () => {
    await expect422(minimal({ default_threshold: "l5_unlikely" }), "default_threshold");
  });
  it("at least one detector or custom guardrail", async () => {
    await expect422({ name: uniqueName(), default_threshold: "l1_confident" }, "at least one detector");
  });
  it("no two detectors with the same type and location", async () => {
    await expect422(
      minimal({
        detectors: [
          { type: "pii/email", location: "user::content" },
          { type: "pii/email", location: "user::content" },
        ],
      }),
      "detectors[1]",
    );
  });
  it("the same type at two locations is fine", async () => {
    await createPolicy(
      minimal({
        detectors: [
          { type: "pii/email", location: "user::content" },
          { type: "pii/email", location: "assistant::content" },
        ],
      }),
    );
  });
  it("tool_definition::content only for prompt_attack", async () => {
    await expect422(minimal({ detectors: [{ type: "pii/email", location: "tool_definition::content" }] }), "detectors[0].location", "prompt_attack");
  });
  it("unknown type and location values", async () => {
    await expect422(minimal({ detectors: [{ type: "pii/dna", location: "user::content" }] }), "detectors[0].type");
    await expect422(minimal({ detectors: [{ type: "pii/email", location: "system::content" }] }), "detectors[0].location");
  });
  it("custom_guardrail_ids: pattern and no duplicates", async () => {
    await expect422(minimal({ custom_guardrail_ids: ["guardrail-1"] }), "custom_guardrail_ids[0]");
    await expect422(minimal({ custom_guardrail_ids: ["custom-guardrail-a", "custom-guardrail-a"] }), "custom_guardrail_ids");
  });
  it("override_list is required for override_allow and override_deny", async () => {
    await expect422(minimal({ detectors: [{ type: "override_allow", location: "user::content" }] }), "detectors[0].override_list");
    await expect422(minimal({ detectors: [{ type: "override_deny", location: "user::content", override_list: [] }] }), "detectors[0].override_list");
  });
  it("tool_access_action and tool_access_list are required for tool_access_control", async () => {
    const msg = await expect422(minimal({ detectors: [{ type: "tool_access_control", location: "assistant::tool_call" }] }));
    expect(msg).toContain("detectors[0].tool_access_action");
    expect(msg).toContain("detectors[0].tool_access_list");
    await expect422(
      minimal({ detectors: [{ type: "tool_access_control", location: "assistant::tool_call", tool_access_action: "maybe", tool_access_list: ["x"] }] }),
      "tool_access_action",
    );
  });
  it("fields not applicable to a type are rejected when non-null", async () => {
    await expect422(minimal({ detectors: [{ type: "pii/email", location: "user::content", allowed_domains: ["example.com"] }] }), "allowed_domains", "not applicable");
    await expect422(minimal({ detectors: [{ type: "pii/email", location: "user::content", override_list: ["x"] }] }), "override_list");
    await expect422(minimal({ detectors: [{ type: "pii/email", location: "user::content", tool_access_action: "allow" }] }), "tool_access_action");
    await expect422(
      minimal({ detectors: [{ type: "unknown_links", location: "user::content", allowed_tools: [{ tool_name: "a", tool_matcher: "b" }] }] }),
      "allowed_tools",
    );
  });
  it("allowed_domains: domain and top-level domain only", async () => {
    for (const bad of ["https://example.com", "www.example.com", "api.example.com", "example.com/path", "example.com:8080", "localhost", "10.0.0.1", "com"]) {
      await expect422(minimal({ detectors: [{ type: "unknown_links", location: "user::content", allowed_domains: [bad] }] }), "allowed_domains[0]");
    }
    await createPolicy(minimal({ detectors: [{ type: "unknown_links", location: "user::content", allowed_domains: ["example.com", "bbc.co.uk"] }] }));
  });
  it("allowed_tools: lengths and uniqueness", async () => {
    const d = (tools: unknown[]) => minimal({ detectors: [{ type: "prompt_attack", location: "tool_definition::content", allowed_tools: tools }] });
    await expect422(d([{ tool_name: "", tool_matcher: "x" }]), "allowed_tools[0].tool_name");
    await expect422(d([{ tool_name: "x".repeat(257), tool_matcher: "x" }]), "allowed_tools[0].tool_name");
    await expect422(d([{ tool_name: "a", tool_matcher: "x".repeat(20001) }]), "allowed_tools[0].tool_matcher");
    await expect422(
      d([
        { tool_name: "a", tool_matcher: "m" },
        { tool_name: "a", tool_matcher: "m" },
      ]),
      "allowed_tools[1]",
    );
    await createPolicy(
      d([
        { tool_name: "a".repeat(256), tool_matcher: "m".repeat(20000) },
        { tool_name: "a", tool_matcher: "other" },
      ]),
    );
  });
  it("several violations are all named in one answer", async () => {
    const msg = await expect422({
      name: " ",
      default_threshold: "high",
      detectors: [
        { type: "pii/email", location: "tool_definition::content" },
        { type: "override_deny", location: "user::content" },
      ],
      custom_guardrail_ids: ["nope"],
    });
    for (const f of ["name", "default_threshold", "detectors[0].location", "detectors[1].override_list", "custom_guardrail_ids[0]"]) expect(msg).toContain(f);
  });
  it("random invalid bodies always get 422 or 400, never 5xx", async () => {
    const detector = fc.record(
      {
        type: fc.oneof(fc.constantFrom("prompt_attack", "pii/email", "override_allow", "tool_access_control", "unknown_links"), fc.string()),
        location: fc.oneof(fc.constantFrom("user::content", "tool_definition::content"), fc.string()),
        allowed_domains: fc.oneof(fc.constant(null), fc.array(fc.string(), { maxLength: 3 })),
        override_list: fc.oneof(fc.constant(null), fc.array(fc.string(), { maxLength: 3 })),
        tool_access_action: fc.oneof(fc.constant(null), fc.string()),
        tool_access_list: fc.oneof(fc.constant(null), fc.array(fc.string(), { maxLength: 2 })),
        allowed_tools: fc.oneof(fc.constant(null), fc.array(fc.record({ tool_name: fc.string(), tool_matcher: fc.string() }), { maxLength: 2 })),
      },
      { requiredKeys: [] },
    );
    const body = fc.record(
      {
        name: fc.oneof(fc.string({ maxLength: 120 }), fc.integer(), fc.constant(null)),
        default_threshold: fc.oneof(fc.constantFrom("l1_confident", "l9"), fc.string()),
        detectors: fc.oneof(fc.array(detector, { maxLength: 4 }), fc.string(), fc.constant(null)),
        custom_guardrail_ids: fc.oneof(fc.array(fc.string(), { maxLength: 3 }), fc.integer()),
      },
      { requiredKeys: [] },
    );
    await fc.assert(
      fc.asyncProperty(body, async (b) => {
        const res = await server.rest("POST", "/v1/policies", b);
        expect(res.status).toBeLessThan(500);
        if (res.status !== 200) {
          expect([400, 422]).toContain(res.status);
          expect(res.body.status).toBe("error");
        }
      }),
      { numRuns: 150, seed: 42 },
    );
  });
});

describe("update", () => {
  it("full replacement: new version, omitted detectors and guardrails removed", async () => {
    const id = await createPolicy(
      minimal({
        custom_guardrail_ids: ["custom-guardrail-1"],
        detectors: [
          { type: "pii/email", location: "user::content" },
          { type: "pii/name", location: "user::content" },
        ],
      }),
    );
    const before = (await server.rest("GET", `/v1/policies/${id}`)).body.policy;
    const name = uniqueName("renamed");
    const res = await server.rest("PUT", `/v1/policies/${id}`, {
      name,
      default_threshold: "l1_confident",
      detectors: [{ type: "prompt_attack", location: "user::content" }],
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: "ok", id });
    const after = (await server.rest("GET", `/v1/policies/${id}`)).body.policy;
    expect(after.version_id).toBe(2);
    expect(after.name).toBe(name);
    expect(after.detectors.map((d: any) => d.type)).toEqual(["prompt_attack"]);
    expect(after.custom_guardrails).toEqual([]);
    expect(new Date(after.updated_at).getTime()).toBeGreaterThanOrEqual(new Date(before.updated_at).getTime());
    const versions = await server.app.repos.policies.versionsOf("org-default", id);
    expect(versions.map((v) => v.version_id)).toEqual([1, 2]);
    expect(versions[0].detectors.map((d) => d.type)).toEqual(["pii/email", "pii/name"]);
  });

  it("validation applies to updates", async () => {
    const id = await createPolicy();
    const res = await server.rest("PUT", `/v1/policies/${id}`, { name: "x", default_threshold: "l1_confident" });
    expect(res.status).toBe(422);
  });

  it("unknown id: 404", async () => {
    const res = await server.rest("PUT", "/v1/policies/policy-missing", minimal());
    expect(res.status).toBe(404);
  });

  it("renaming to another policy's name: 400", async () => {
    const taken = uniqueName("taken");
    await createPolicy(minimal({ name: taken }));
    const id = await createPolicy();
    const res = await server.rest("PUT", `/v1/policies/${id}`, minimal({ name: ` ${taken} ` }));
    expect(res.status).toBe(400);
    expect(res.body.error).toBe("duplicate_name");
  });

  it("keeping its own name is not a duplicate", async () => {
    const body = minimal();
    const id = await createPolicy(body);
    expect((await server.rest("PUT", `/v1/policies/${id}`, body)).status).toBe(200);
  });

  it("the built-in default policy cannot be changed", async () => {
    expect((await server.rest("PUT", "/v1/policies/policy-default", minimal())).status).toBe(403);
    expect((await server.rest("DELETE", "/v1/policies/policy-default")).status).toBe(403);
  });
});

describe("names are unique within an organization", () => {
  it("a duplicate name on create: 400", async () => {
    const body = minimal();
    await createPolicy(body);
    const res = await server.rest("POST", "/v1/policies", { ...body, name: ` ${body.name}\t` });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ status: "error", error: "duplicate_name", code: 400 });
  });

  it("another organization may use the same name", async () => {
    const other = await server.newOrg();
    const body = minimal();
    await createPolicy(body);
    await createPolicy(body, other.platformKey);
  });

  it("two simultaneous creates with one name: exactly one succeeds", async () => {
    const body = minimal();
    const results = await Promise.all(Array.from({ length: 8 }, () => server.rest("POST", "/v1/policies", body)));
    expect(results.filter((r) => r.status === 200)).toHaveLength(1);
    expect(results.filter((r) => r.status === 400)).toHaveLength(7);
  });

  it("simultaneous updates of one policy: distinct versions, none lost", async () => {
    const id = await createPolicy();
    const results = await Promise.all(Array.from({ length: 10 }, (_, i) => server.rest("PUT", `/v1/policies/${id}`, minimal({ name: uniqueName(`concurrent ${i}`) }))));
    expect(results.every((r) => r.status === 200)).toBe(true);
    const versions = await server.app.repos.policies.versionsOf("org-default", id);
    expect(versions.map((v) => v.version_id)).toEqual(Array.from({ length: 11 }, (_, i) => i + 1));
    expect((await server.rest("GET", `/v1/policies/${id}`)).body.policy.version_id).toBe(11);
  });
});

describe("delete", () => {
  it("deletes, then 404", async () => {
    const id = await createPolicy();
    const res = await server.rest("DELETE", `/v1/policies/${id}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: "ok", message: expect.any(String), id });
    expect((await server.rest("GET", `/v1/policies/${id}`)).status).toBe(404);
    expect((await server.rest("DELETE", `/v1/policies/${id}`)).status).toBe(404);
  });

  it("409 while a project uses it; the policy lists its projects", async () => {
    const id = await createPolicy();
    const project = await server.rest("POST", "/v1-beta/projects", { name: "uses policy", policy_id: id, action: "detect" });
    expect(project.status).toBe(200);
    const read = await server.rest("GET", `/v1/policies/${id}`);
    expect(read.body.policy.projects).toEqual([{ id: project.body.id, name: "uses policy", action: "detect" }]);
    const del = await server.rest("DELETE", `/v1/policies/${id}`);
    expect(del.status).toBe(409);
    expect(del.body).toMatchObject({ status: "error", error: "policy_in_use", code: 409 });
    expect(del.body.message).toContain(project.body.id);
    await server.rest("PUT", `/v1-beta/projects/${project.body.id}`, { name: "uses policy" });
    expect((await server.rest("DELETE", `/v1/policies/${id}`)).status).toBe(200);
  });
});

describe("organization limits and switches", () => {
  it("ids of another organization behave as unknown", async () => {
    const id = await createPolicy();
    const other = await server.newOrg();
    expect((await server.rest("GET", `/v1/policies/${id}`, undefined, other.platformKey)).status).toBe(404);
    expect((await server.rest("PUT", `/v1/policies/${id}`, minimal(), other.platformKey)).status).toBe(404);
    expect((await server.rest("DELETE", `/v1/policies/${id}`, undefined, other.platformKey)).status).toBe(404);
    expect((await server.rest("GET", `/v1/policies/${id}`)).status).toBe(200);
  });

  it("creating beyond the policy maximum: 403", async () => {
    const other = await server.newOrg();
    await server.app.repos.orgs.update(other.orgId, { max_policies: 2 });
    await createPolicy(minimal(), other.platformKey);
    await createPolicy(minimal(), other.platformKey);
    const res = await server.rest("POST", "/v1/policies", minimal(), other.platformKey);
    expect(res.status).toBe(403);
    expect(res.body.error).toBe("policy_limit_reached");
  });

  it("policies feature switched off: 403 on every policy endpoint", async () => {
    const other = await server.newOrg();
    const id = await createPolicy(minimal(), other.platformKey);
    await server.app.repos.orgs.update(other.orgId, { features: { policies: false } });
    for (const [m, p, b] of [
      ["POST", "/v1/policies", minimal()],
      ["GET", `/v1/policies/${id}`],
      ["PUT", `/v1/policies/${id}`, minimal()],
      ["DELETE", `/v1/policies/${id}`],
    ] as const) {
      const res = await server.rest(m, p, b, other.platformKey);
      expect(res.status).toBe(403);
      expect(res.body.error).toBe("feature_disabled");
    }
  });
});

describe("retired /v1-beta/policies endpoints", () => {
  it.each([
    ["POST", "/v1-beta/policies", "POST /v1/policies"],
    ["GET", "/v1-beta/policies/p1", "GET /v1/policies/{policyId}"],
    ["PUT", "/v1-beta/policies/p1", "PUT /v1/policies/{policyId}"],
    ["DELETE", "/v1-beta/policies/p1", "DELETE /v1/policies/{policyId}"],
  ])("%s %s answers 410 naming %s, whatever the body", async (method, p, replacement) => {
    for (const body of [undefined, { name: "legacy", policy_mode: "IO", input_detectors: [] }, "not json at all {"]) {
      const res = await server.rest(method, p, method === "GET" || method === "DELETE" ? undefined : body);
      expect(res.status).toBe(410);
      expect(res.body).toMatchObject({ status: "error", error: "endpoint_retired", code: 410 });
      expect(res.body.message).toContain(replacement);
    }
  });
});

describe("RPC protocols behave like REST", () => {
  it("create, read, update, delete over gRPC", async () => {
    const client = rpcClient(PolicyService, server, "grpc", server.platformKey);
    const name = uniqueName("grpc");
    const created = await client.createPolicy({ policy: { name, defaultThreshold: "l1_confident", detectors: [{ type: "pii/email", location: "user::content" }] } });
    expect(created.status).toBe("ok");
    const read = await client.getPolicy({ policyId: created.id });
    expect(read.policy?.name).toBe(name);
    const dup = await client
      .createPolicy({ policy: { name, defaultThreshold: "l1_confident", detectors: [{ type: "pii/email", location: "user::content" }] } })
      .catch((e) => e);
    expect(dup.code).toBe(Code.AlreadyExists);
    expect(dup.findDetails(ErrorDetailSchema)[0].httpStatus).toBe(400);
    const upd = await client.updatePolicy({ policyId: created.id, policy: { name, defaultThreshold: "l2_very_likely", customGuardrailIds: ["custom-guardrail-z"] } });
    expect(upd.id).toBe(created.id);
    expect((await client.getPolicy({ policyId: created.id })).policy?.versionId).toBe(2);
    await client.deletePolicy({ policyId: created.id });
    const gone = await client.getPolicy({ policyId: created.id }).catch((e) => e);
    expect(gone.code).toBe(Code.NotFound);
  });

  it("validation over Connect names every violation", async () => {
    const client = rpcClient(PolicyService, server, "connect-json", server.platformKey);
    const err = await client
      .createPolicy({ policy: { name: " ", defaultThreshold: "l1_confident", detectors: [{ type: "pii/email", location: "tool_definition::content" }] } })
      .catch((e) => e);
    expect(err.code).toBe(Code.InvalidArgument);
    expect(err.rawMessage).toContain("name");
    expect(err.rawMessage).toContain("detectors[0].location");
  });
});
