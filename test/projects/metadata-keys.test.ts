// project_metadata keys MongoDB cannot store faithfully are refused with 422 (docs/api.md#projects).
import { afterAll, beforeAll, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../support/server.js";

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server?.close();
});

it("a key starting with '$' or holding a NUL answers 422 naming each key; '.' and other characters are kept", async () => {
  const bad = await server.rest("POST", "/v1-beta/projects", { name: "p", project_metadata: { $date: "2020-01-01", "a\u0000b": "x", ok: "y" } });
  expect(bad.status).toBe(422);
  expect(bad.body.message).toContain('project_metadata["$date"]');
  expect(bad.body.message).toContain('project_metadata["a\\u0000b"]');
  expect(bad.body.message).toContain("[project.metadata_key]");
  const created = await server.rest("POST", "/v1-beta/projects", { name: "p", project_metadata: { "a.b": "1", x$: "2", "ü ": "3" } });
  expect(created.status).toBe(200);
  const read = await server.rest("GET", `/v1-beta/projects/${created.body.id}`);
  expect(read.body.project_metadata).toEqual({ "a.b": "1", x$: "2", "ü ": "3" });
  const update = await server.rest("PUT", `/v1-beta/projects/${created.body.id}`, { name: "p", project_metadata: { $set: "x" } });
  expect(update.status).toBe(422);
});
