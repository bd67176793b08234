// The service backbone over real sockets: one port for REST, Connect, gRPC and
// gRPC-Web; the Error object; request ids; body limits; probes.
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Code, ConnectError } from "@connectrpc/connect";
import { ErrorDetailSchema } from "../../gen/parapet/v1/errors_pb.js";
import { PolicyService } from "../../gen/parapet/v1/policies_pb.js";
import { rpcClient, rpcProtocols, startTestServer, type TestServer } from "../support/server.js";

const run = promisify(execFile);
let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server?.close();
});

function expectErrorObject(body: any, status: number, error: string) {
  expect(body).toMatchObject({ status: "error", error, code: status });
  expect(typeof body.message).toBe("string");
  expect(body.message.length).toBeGreaterThan(0);
  expect(body.request_id).toMatch(/^[0-9a-f-]{36}$/);
}

describe("probes", () => {
  it.each(["/livez", "/readyz", "/startupz"])("%s answers 200 without a key", async (p) => {
    const res = await server.rest("GET", p, undefined, null);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: "ok" });
  });
});

describe("REST errors", () => {
  it("unknown path: 404 Error object whose request_id matches X-Request-Id", async () => {
    const res = await server.rest("GET", "/v1/nothing-here");
    expect(res.status).toBe(404);
    expectErrorObject(res.body, 404, "route_not_found");
    expect(res.headers.get("x-request-id")).toBe(res.body.request_id);
  });

  it("every response carries a distinct X-Request-Id", async () => {
    const a = await server.rest("GET", "/livez", undefined, null);
    const b = await server.rest("GET", "/v1/policies/policy-default");
    expect(a.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
    expect(b.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
    expect(a.headers.get("x-request-id")).not.toBe(b.headers.get("x-request-id"));
  });

  it("wrong method: 405 with Allow", async () => {
    const res = await server.rest("PATCH", "/v1/policies");
    expect(res.status).toBe(405);
    expectErrorObject(res.body, 405, "method_not_allowed");
    expect(res.headers.get("allow")).toBe("POST, GET");
  });

  it("malformed JSON: 400", async () => {
    const res = await server.rest("POST", "/v1/policies", '{"name": "x",');
    expect(res.status).toBe(400);
    expectErrorObject(res.body, 400, "malformed_json");
  });

  it("wrong field type: the endpoint's validation status (422), naming the field", async () => {
    const res = await server.rest("POST", "/v1/policies", { name: 5, default_threshold: "l1_confident" });
    expect(res.status).toBe(422);
    expectErrorObject(res.body, 422, "validation_failed");
    expect(res.body.message).toContain("name");
    expect(res.body.message).not.toMatch(/at .*\.ts:\d+/);
  });

  it("body over 1 MiB: 413", async () => {
    const big = { name: "x".repeat(1024 * 1024), default_threshold: "l1_confident" };
    const res = await server.rest("POST", "/v1/policies", big);
    expect(res.status).toBe(413);
    expectErrorObject(res.body, 413, "payload_too_large");
  });

  it("a body just under the limit is read", async () => {
    const res = await server.rest("POST", "/v1/policies", { name: "y".repeat(1000 * 1000), default_threshold: "l1_confident" });
    expect(res.status).toBe(422); // name too long: the body was parsed and validated
  });
});

describe("authentication and authorization over REST", () => {
  it("missing key: 401", async () => {
    const res = await server.rest("GET", "/v1/policies/policy-default", undefined, null);
    expect(res.status).toBe(401);
    expectErrorObject(res.body, 401, "unauthenticated");
  });

  it("unknown key: 401", async () => {
    const res = await server.rest("GET", "/v1/policies/policy-default", undefined, "ppk_not_a_key");
    expect(res.status).toBe(401);
  });

  it("malformed Authorization header: 401", async () => {
    const res = await fetch(`${server.url}/v1/policies/policy-default`, { headers: { authorization: "Basic abc" } });
    expect(res.status).toBe(401);
  });

  it("revoked key: 401", async () => {
    const { key, record } = await server.app.repos.keys.create("org-default", "platform", "read-write");
    expect((await server.rest("GET", "/v1/policies/policy-default", undefined, key)).status).toBe(200);
    await server.app.repos.keys.revoke(record._id);
    expect((await server.rest("GET", "/v1/policies/policy-default", undefined, key)).status).toBe(401);
  });

  it("read-only key: reads pass, writes 403", async () => {
    const ro = await server.readOnlyKey();
    expect((await server.rest("GET", "/v1/policies/policy-default", undefined, ro)).status).toBe(200);
    const write = await server.rest(
      "POST",
      "/v1/policies",
      { name: "ro", default_threshold: "l1_confident", detectors: [{ type: "pii/email", location: "user::content" }] },
      ro,
    );
    expect(write.status).toBe(403);
    expectErrorObject(write.body, 403, "forbidden");
  });

  it("screening key on the management interface: 403", async () => {
    const res = await server.rest("GET", "/v1/policies/policy-default", undefined, server.screeningKey);
    expect(res.status).toBe(403);
    expectErrorObject(res.body, 403, "forbidden");
  });

  it("platform key on POST /v2/guard: 403", async () => {
    const res = await server.rest("POST", "/v2/guard", { messages: [{ role: "user", content: "hi" }] });
    expect(res.status).toBe(403);
  });

  it("/v2/guard/results and /v2/policies/health accept screening keys and platform keys of either scope", async () => {
    const ro = await server.readOnlyKey();
    for (const key of [server.screeningKey, server.platformKey, ro]) {
      for (const [p, body] of [
        ["/v2/guard/results", { messages: [{ role: "user", content: "hi" }] }],
        ["/v2/policies/health", {}],
      ] as const) {
        const res = await server.rest("POST", p, body, key);
        expect([401, 403]).not.toContain(res.status);
      }
    }
  });
});

describe("the same errors over every RPC protocol", () => {
  it.each(rpcProtocols)("%s: unauthenticated carries code, identifier and request id", async (protocol) => {
    const client = rpcClient(PolicyService, server, protocol, null);
    const err = await client.getPolicy({ policyId: "policy-default" }).catch((e) => e);
    expect(err).toBeInstanceOf(ConnectError);
    expect(err.code).toBe(Code.Unauthenticated);
    const [detail] = err.findDetails(ErrorDetailSchema);
    expect(detail.error).toBe("unauthenticated");
    expect(detail.httpStatus).toBe(401);
    expect(detail.requestId).toMatch(/^[0-9a-f-]{36}$/);
  });

  it.each(rpcProtocols)("%s: validation failure is InvalidArgument with validation_failed", async (protocol) => {
    const client = rpcClient(PolicyService, server, protocol, server.platformKey);
    const err = await client.createPolicy({ policy: { name: "", defaultThreshold: "nope" } }).catch((e) => e);
    expect(err.code).toBe(Code.InvalidArgument);
    const [detail] = err.findDetails(ErrorDetailSchema);
    expect(detail.error).toBe("validation_failed");
    expect(err.rawMessage).toContain("default_threshold");
  });

  it.each(rpcProtocols)("%s: an authorized read succeeds", async (protocol) => {
    const client = rpcClient(PolicyService, server, protocol, server.platformKey);
    const res = await client.getPolicy({ policyId: "policy-default" });
    expect(res.policy?.policyId).toBe("policy-default");
    expect(res.policy?.defaultThreshold).toBe("l4_less_likely");
  });
});

describe("one port", () => {
  it("REST over HTTP/2 prior knowledge reaches the same routes", async () => {
    const http2 = await import("node:http2");
    const session = http2.connect(server.url);
    try {
      const { status, body } = await new Promise<{ status: number; body: string }>((resolve, reject) => {
        const req = session.request({ ":path": "/v1/policies/policy-default", authorization: `Bearer ${server.platformKey}` });
        let status = 0;
        let body = "";
        req.on("response", (h) => (status = Number(h[":status"])));
        req.setEncoding("utf8");
        req.on("data", (c) => (body += c));
        req.on("end", () => resolve({ status, body }));
        req.on("error", reject);
      });
      expect(status).toBe(200);
      expect(JSON.parse(body).policy.policy_id).toBe("policy-default");
    } finally {
      session.close();
    }
  });

  it("gRPC reflection lists every service (buf curl)", async () => {
    const { stdout } = await run("npx", ["--no-install", "buf", "curl", "--protocol", "grpc", "--http2-prior-knowledge", "--list-services", server.url]);
    for (const s of ["parapet.v1.PolicyService", "parapet.v1.ProjectService", "parapet.v1.GuardService", "parapet.v1.LogService", "parapet.v1.AnalyticsService"]) {
      expect(stdout).toContain(s);
    }
  });

  it("buf curl invokes a method through reflection with a bearer key", async () => {
    const { stdout } = await run("npx", [
      "--no-install",
      "buf",
      "curl",
      "--protocol",
      "grpc",
      "--http2-prior-knowledge",
      "-H",
      `Authorization: Bearer ${server.platformKey}`,
      "-d",
      '{"policy_id":"policy-default"}',
      `${server.url}/parapet.v1.PolicyService/GetPolicy`,
    ]);
    expect(JSON.parse(stdout).policy.policyId).toBe("policy-default");
  });
});
