// Projects and their modes (docs/api.md#projects) over REST and gRPC.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Code } from "@connectrpc/connect";
import { ProjectService } from "../../gen/parapet/v1/projects_pb.js";
import { rpcClient, startTestServer, type TestServer } from "../support/server.js";

let server: TestServer;
let policyId: string;
beforeAll(async () => {
  server = await startTestServer();
  const res = await server.rest("POST", "/v1/policies", {
    name: "projects test policy",
    default_threshold: "l1_confident",
    detectors: [{ type: "pii/email", location: "user::content" }],
  });
  policyId = res.body.id;
});
afterAll(async () => {
  await server?.close();
});

describe("projects over REST", () => {
  it("create returns the project with its id and action enforce by default", async () => {
    const res = await server.rest("POST", "/v1-beta/projects", { name: "Chat app", project_metadata: { team: "support", env: "prod" } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      id: expect.stringMatching(/^project-[A-Za-z0-9_-]{16}$/),
      name: "Chat app",
      policy_id: null,
      project_metadata: { team: "support", env: "prod" },
      action: "enforce",
    });
    const read = await server.rest("GET", `/v1-beta/projects/${res.body.id}`);
    expect(read.status).toBe(200);
    expect(read.body).toEqual(res.body);
  });

  it("create with a policy and detect mode", async () => {
    const res = await server.rest("POST", "/v1-beta/projects", { name: "Agent", policy_id: policyId, action: "detect" });
    expect(res.body).toMatchObject({ policy_id: policyId, action: "detect" });
  });

  it("update replaces the rest but keeps action when omitted", async () => {
    const created = (await server.rest("POST", "/v1-beta/projects", { name: "Keep", policy_id: policyId, action: "detect", project_metadata: { a: "1" } })).body;
    const upd = await server.rest("PUT", `/v1-beta/projects/${created.id}`, { name: "Kept", project_metadata: { b: "2" } });
    expect(upd.status).toBe(200);
    expect(upd.body).toEqual({ id: created.id, name: "Kept", policy_id: null, project_metadata: { b: "2" }, action: "detect" });
    const again = await server.rest("PUT", `/v1-beta/projects/${created.id}`, { name: "Kept", action: "enforce" });
    expect(again.body.action).toBe("enforce");
    expect((await server.rest("GET", `/v1-beta/projects/${created.id}`)).body.action).toBe("enforce");
  });

  it("delete returns {} and then 404", async () => {
    const created = (await server.rest("POST", "/v1-beta/projects", { name: "Temp" })).body;
    const del = await server.rest("DELETE", `/v1-beta/projects/${created.id}`);
    expect(del.status).toBe(200);
    expect(del.body).toEqual({});
    expect((await server.rest("GET", `/v1-beta/projects/${created.id}`)).status).toBe(404);
    expect((await server.rest("PUT", `/v1-beta/projects/${created.id}`, { name: "x" })).status).toBe(404);
    expect((await server.rest("DELETE", `/v1-beta/projects/${created.id}`)).status).toBe(404);
  });

  it("a policy_id that names no policy of the organization: 422", async () => {
    const res = await server.rest("POST", "/v1-beta/projects", { name: "Bad", policy_id: "policy-nope" });
    expect(res.status).toBe(422);
    expect(res.body.message).toContain("policy_id");
    const other = await server.newOrg();
    const cross = await server.rest("POST", "/v1-beta/projects", { name: "Cross", policy_id: policyId }, other.platformKey);
    expect(cross.status).toBe(422);
  });

  it("invalid bodies: 422", async () => {
    for (const body of [{}, { name: "" }, { name: "x", action: "block" }, { name: "x", project_metadata: { k: 1 } }, { name: "x", project_metadata: "tags" }]) {
      const res = await server.rest("POST", "/v1-beta/projects", body);
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect(res.body.error).toBe("validation_failed");
    }
  });

  it("the default project exists with its stable id, can be updated, not deleted", async () => {
    const read = await server.rest("GET", "/v1-beta/projects/project-default");
    expect(read.status).toBe(200);
    expect(read.body).toMatchObject({ id: "project-default", action: "enforce", policy_id: null });
    const upd = await server.rest("PUT", "/v1-beta/projects/project-default", { name: "Default", action: "detect" });
    expect(upd.body).toMatchObject({ id: "project-default", name: "Default", action: "detect" });
    expect((await server.rest("GET", "/v1-beta/projects/project-default")).body.action).toBe("detect");
    const del = await server.rest("DELETE", "/v1-beta/projects/project-default");
    expect(del.status).toBe(409);
  });

  it("projects of another organization behave as unknown", async () => {
    const created = (await server.rest("POST", "/v1-beta/projects", { name: "Mine" })).body;
    const other = await server.newOrg();
    expect((await server.rest("GET", `/v1-beta/projects/${created.id}`, undefined, other.platformKey)).status).toBe(404);
    expect((await server.rest("PUT", `/v1-beta/projects/${created.id}`, { name: "x" }, other.platformKey)).status).toBe(404);
    expect((await server.rest("DELETE", `/v1-beta/projects/${created.id}`, undefined, other.platformKey)).status).toBe(404);
  });

  it("read-only keys read projects but cannot write them", async () => {
    const ro = await server.readOnlyKey();
    const created = (await server.rest("POST", "/v1-beta/projects", { name: "RO" })).body;
    expect((await server.rest("GET", `/v1-beta/projects/${created.id}`, undefined, ro)).status).toBe(200);
    expect((await server.rest("POST", "/v1-beta/projects", { name: "RO2" }, ro)).status).toBe(403);
    expect((await server.rest("PUT", `/v1-beta/projects/${created.id}`, { name: "x" }, ro)).status).toBe(403);
    expect((await server.rest("DELETE", `/v1-beta/projects/${created.id}`, undefined, ro)).status).toBe(403);
  });
});

describe("projects over gRPC", () => {
  it("create, read, update keeping action, delete", async () => {
    const client = rpcClient(ProjectService, server, "grpc", server.platformKey);
    const created = await client.createProject({ project: { name: "grpc project", policyId, projectMetadata: { k: "v" } } });
    expect(created.action).toBe("enforce");
    expect(created.id).toMatch(/^project-/);
    const upd = await client.updateProject({ projectId: created.id, project: { name: "renamed", action: "detect" } });
    expect(upd).toMatchObject({ name: "renamed", action: "detect" });
    expect(upd.policyId).toBeUndefined();
    const kept = await client.updateProject({ projectId: created.id, project: { name: "renamed again" } });
    expect(kept.action).toBe("detect");
    await client.deleteProject({ projectId: created.id });
    const err = await client.getProject({ projectId: created.id }).catch((e) => e);
    expect(err.code).toBe(Code.NotFound);
  });
});
