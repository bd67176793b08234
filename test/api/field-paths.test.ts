// Every 422 names each offending field by its JSON path and says what was expected, all in one
// answer (docs/api.md#field-paths): in the REST Error object (message and `violations`) and in
// the RPC ErrorDetail. Values of the wrong JSON type (found before decoding, REST) and rule
// violations (protovalidate, cross-field rules) come together; hostile requests get bounded answers.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ConnectError, Code } from "@connectrpc/connect";
import { ErrorDetailSchema } from "../../gen/parapet/v1/errors_pb.js";
import { GuardService } from "../../gen/parapet/v1/guard_pb.js";
import { PolicyService } from "../../gen/parapet/v1/policies_pb.js";
import { rpcClient, rpcProtocols, startTestServer, type TestServer } from "../support/server.js";

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server?.close();
});

const guard = (body: unknown) => server.rest("POST", "/v2/guard", body, server.screeningKey);
const fields = (body: any) => (body.violations as { field: string }[]).map((v) => v.field);

describe("REST: values of the wrong JSON type", () => {
  it("a bad nested value is named by its path, with what was expected", async () => {
    const res = await guard({ messages: [{ role: "user", content: 5 }] });
    expect(res.status).toBe(422);
    expect(res.body).toMatchObject({ status: "error", error: "validation_failed", code: 422 });
    expect(res.body.message).toBe("validation failed: messages[0].content: expected a string, null, or an array of content parts, got 5");
    expect(res.body.violations).toEqual([{ field: "messages[0].content", message: "expected a string, null, or an array of content parts, got 5", rule: "" }]);
  });

  it('"sanitize": true names sanitize and the object it takes', async () => {
    const res = await guard({ messages: [{ role: "user", content: "hi" }], sanitize: true });
    expect(res.status).toBe(422);
    expect(res.body.message).toBe("validation failed: sanitize: expected an object (SanitizeOptions), got true");
  });

  it("every violation at once: type errors and rule violations in one answer", async () => {
    const res = await guard({
      messages: [
        { role: "user", content: 5 },
        { role: "bogus", content: "x" },
        { role: "assistant", content: null, tool_calls: [{ id: "c1", type: "function", function: { name: "f", arguments: { city: "Paris" } } }] },
        7,
      ],
      sanitize: true,
      breakdown: "yes",
      metadata: [],
    });
    expect(res.status).toBe(422);
    expect(fields(res.body)).toEqual([
      "messages[0].content",
      "messages[2].tool_calls[0].function.arguments",
      "messages[3]",
      "sanitize",
      "breakdown",
      "metadata",
      "messages[1].role",
    ]);
    expect(res.body.violations.find((v: any) => v.field === "messages[1].role")).toMatchObject({ rule: "string.in" });
    expect(res.body.message).toContain("messages[2].tool_calls[0].function.arguments: expected a string, got an object");
    expect(res.body.message).toContain('breakdown: expected true or false, got "yes"');
    expect(res.body.message).toContain("metadata: expected a JSON object, got an array");
    // A rule about a value taken out (content required once `content` went) says nothing more.
    expect(res.body.message).not.toContain("content is required");
  });

  it("the JSON name of a field (camelCase) is reported by its API name", async () => {
    const res = await guard({ messages: [{ role: "assistant", content: null, toolCalls: "none" }] });
    expect(fields(res.body)).toContain("messages[0].tool_calls");
  });

  it("a body that is one resource: paths start at the resource, beside its rule violations", async () => {
    const res = await server.rest("POST", "/v1/policies", {
      name: 5,
      detectors: [{ type: "prompt_attack", location: 7 }, "x"],
      custom_guardrail_ids: [1, "custom-guardrail-a"],
    });
    expect(res.status).toBe(422);
    expect(fields(res.body)).toEqual(["name", "detectors[0].location", "detectors[1]", "custom_guardrail_ids[0]", "default_threshold"]);
  });

  it("query parameters and map values are named too", async () => {
    const list = await server.rest("GET", "/v1/policies?limit=abc");
    expect(list.status).toBe(422);
    expect(list.body.message).toBe('validation failed: limit: expected a 32-bit integer, got "abc"');
    const project = await server.rest("POST", "/v1-beta/projects", { name: "p", project_metadata: { team: 5, ok: "yes" } });
    expect(project.status).toBe(422);
    expect(fields(project.body)).toEqual(['project_metadata["team"]']);
  });

  it("a request is authenticated before its field errors are told", async () => {
    expect((await server.rest("POST", "/v2/guard", { messages: [{ role: "user", content: 5 }] }, null)).status).toBe(401);
  });

  it("errors that are not validation failures carry no violations", async () => {
    const res = await server.rest("GET", "/v1/policies/policy-unknown");
    expect(res.status).toBe(404);
    expect(res.body).not.toHaveProperty("violations");
  });
});

describe("REST: hostile requests get bounded answers", () => {
  it("thousands of bad entries: 100 listed, the rest counted", async () => {
    const messages = Array.from({ length: 5000 }, () => ({ role: "user", content: 5 }));
    const res = await guard({ messages });
    expect(res.status).toBe(422);
    expect(res.body.violations).toHaveLength(100);
    expect(res.body.message).toMatch(/; and 4900 more violations$/);
    expect(JSON.stringify(res.body).length).toBeLessThan(40_000);
  });

  it("a path holding a huge client string (a map key) is cut", async () => {
    const key = "k".repeat(100_000);
    const res = await server.rest("POST", "/v1-beta/projects", { name: "p", project_metadata: { [key]: 5 } });
    expect(res.status).toBe(422);
    expect(res.body.violations[0].field.length).toBeLessThanOrEqual(200);
    expect(res.body.violations[0].field).toMatch(/^project_metadata\["kkk.*…$/);
    expect(JSON.stringify(res.body).length).toBeLessThan(2_000);
  });

  it("deep nesting where an object or a string is expected is not descended into", async () => {
    const deep = "[".repeat(5000) + '"x"' + "]".repeat(5000);
    const res = await server.rest("POST", "/v2/guard", `{"messages": [{"role": "user", "content": "hi", "name": ${deep}}], "sanitize": ${deep}}`, server.screeningKey);
    expect(res.status).toBe(422);
    expect(fields(res.body)).toEqual(["messages[0].name", "sanitize"]);
  });

  it("a long string of the wrong type is described, not echoed", async () => {
    const res = await server.rest("GET", `/v1/policies?limit=${"9".repeat(5000)}`);
    expect(res.status).toBe(422);
    expect(res.body.message).toBe("validation failed: limit: expected a 32-bit integer, got a string");
  });
});

describe("RPC: violations in the ErrorDetail", () => {
  it.each(rpcProtocols)("%s: every rule violation, with its path and rule", async (protocol) => {
    const client = rpcClient(GuardService, server, protocol, server.screeningKey);
    const err = await client
      .guard({
        messages: [
          { role: "bogus", content: "x" },
          { role: "assistant", toolCalls: [{ id: "", type: "function", function: { name: "f" } }] },
        ],
      })
      .then(
        () => undefined,
        (e: unknown) => ConnectError.from(e),
      );
    expect(err?.code).toBe(Code.InvalidArgument);
    const detail = err!.findDetails(ErrorDetailSchema)[0];
    expect(detail).toMatchObject({ error: "validation_failed", httpStatus: 422 });
    expect(detail.violations.map((v) => [v.field, v.rule])).toEqual([
      ["messages[0].role", "string.in"],
      ["messages[1].tool_calls[0].function.arguments", "required"],
      ["messages[1].tool_calls[0].id", "string.min_len"],
    ]);
    expect(err!.rawMessage).toContain("messages[1].tool_calls[0].id: must be at least 1 characters [string.min_len]");
  });

  it("a resource's violations are rooted at the resource, cross-field rules included", async () => {
    const client = rpcClient(PolicyService, server, "connect-json", server.platformKey);
    const err = await client
      .createPolicy({
        policy: { name: "", defaultThreshold: "l9", detectors: [{ type: "prompt_attack", location: "tool_definition::content", allowedDomains: ["x.com"] }] },
      })
      .then(
        () => undefined,
        (e: unknown) => ConnectError.from(e),
      );
    const violations = err!.findDetails(ErrorDetailSchema)[0].violations;
    expect(violations.map((v) => v.field)).toEqual(expect.arrayContaining(["name", "default_threshold", "detectors[0].allowed_domains"]));
    expect(violations.every((v) => !v.field.startsWith("policy."))).toBe(true);
  });
});
