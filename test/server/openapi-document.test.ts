// gen/openapi.json: valid, fresh, complete (every REST path the service
// serves, nothing else), and served at GET /openapi.json without a key.
import { execFileSync } from "node:child_process";
import { copyFileSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { lintOpenApi, openApiFile } from "../../scripts/lint-openapi.js";
import { httpRuleOf } from "../../src/api/http-rules.js";
import { createOpenApiHandler } from "../../src/server/openapi-document.js";
import { apiServices } from "../../src/server/routes.js";
import { freePort, spawnServer, waitReady } from "../support/child-server.js";
import { startTestServer, type TestServer } from "../support/server.js";

const root = path.resolve(import.meta.dirname, "../..");
const text = readFileSync(openApiFile, "utf8");
const doc = JSON.parse(text);

describe("gen/openapi.json", () => {
  it("is a valid OpenAPI 3.1 document whose schemas compile in strict JSON Schema 2020-12", async () => {
    expect(doc.openapi).toBe("3.1.0");
    expect(await lintOpenApi(doc)).toEqual([]);
  });

  it("fails the check when broken", async () => {
    const noInfo = structuredClone(doc);
    delete noInfo.info;
    expect((await lintOpenApi(noInfo)).join("\n")).toMatch(/not a valid OpenAPI 3.1 document/);
    const typo = structuredClone(doc);
    typo.components.schemas["parapet.v1.Error"].properties.message = { type: "string", maxLenght: 3 };
    expect((await lintOpenApi(typo)).join("\n")).toMatch(/parapet\.v1\.Error: strict mode: unknown keyword: "maxLenght"/);
    const dangling = structuredClone(doc);
    dangling.paths["/v2/guard"].post.responses["200"].content["application/json"].schema = { $ref: "#/components/schemas/parapet.v1.Nope" };
    expect((await lintOpenApi(dangling)).join("\n")).toMatch(/POST \/v2\/guard 200 application\/json: can't resolve reference/);
  });

  it("says where the service is and under which licence", () => {
    expect(doc.info.license).toEqual({ name: "Apache-2.0", identifier: "Apache-2.0" });
    expect(JSON.parse(readFileSync(path.join(root, "package.json"), "utf8")).license).toBe(doc.info.license.identifier);
    expect(doc.servers[0]).toMatchObject({ url: "/" });
    expect(doc.servers[1]).toMatchObject({ url: "{scheme}://{host}:{port}", variables: { port: { default: "8080" }, host: { default: "localhost" } } });
  });

  it("requires the fields the service requires: protovalidate rules that refuse the empty value", () => {
    const schemas = doc.components.schemas;
    expect(schemas["parapet.v1.Message-Input"].required).toContain("role");
    expect(schemas["parapet.v1.PolicyRequest"].required).toEqual(expect.arrayContaining(["name", "default_threshold"]));
    expect(schemas["parapet.v1.GetLogsRequest"].required).toEqual(expect.arrayContaining(["start_time", "end_time"]));
    // "" is one of the allowed roles of a stream's message: not required.
    expect(schemas["parapet.v1.GuardStreamOpen"].required ?? []).not.toContain("role");
  });

  it("fails the check when an operation has no example or an example does not match its schema", async () => {
    const noExample = structuredClone(doc);
    delete noExample.paths["/v2/guard"].post.requestBody.content["application/json"].examples;
    delete noExample.paths["/v2/guard"].post.responses["200"].content["application/json"].examples;
    delete noExample.paths["/v1/policies/{policy_id}"].get.parameters[0].example;
    const problems = (await lintOpenApi(noExample)).join("\n");
    expect(problems).toMatch(/POST \/v2\/guard: the request body has no example/);
    expect(problems).toMatch(/POST \/v2\/guard: no answer has an example/);
    expect(problems).toMatch(/GET \/v1\/policies\/\{policy_id\}: path parameter policy_id has no example/);
    const wrong = structuredClone(doc);
    const policy = wrong.paths["/v1/policies"].post.requestBody.content["application/json"].examples.example.value;
    delete policy.default_threshold;
    wrong.paths["/v2/guard"].post.responses["200"].content["application/json"].examples.example.value.flagged = "yes";
    const wrongProblems = (await lintOpenApi(wrong)).join("\n");
    expect(wrongProblems).toMatch(/POST \/v1\/policies request application\/json example example: the example does not match its schema.*default_threshold/);
    expect(wrongProblems).toMatch(/POST \/v2\/guard 200 application\/json example example: the example does not match its schema/);
  });

  it("has exactly the REST paths the service serves", () => {
    const served = apiServices.flatMap((s) =>
      s.methods.flatMap((m) => {
        const rule = httpRuleOf(m);
        return rule ? [`${rule.verb} ${rule.pathTemplate.replace(/=\*\}/g, "}")} /${s.typeName}/${m.name}`] : [];
      }),
    );
    const documented = Object.entries<any>(doc.paths).flatMap(([p, item]) => Object.entries<any>(item).map(([verb, op]) => `${verb.toUpperCase()} ${p} ${op["x-rpc"]}`));
    expect(served.length).toBeGreaterThan(20);
    expect(documented.sort()).toEqual(served.sort());
  });

  it("is what the plugin generates from the protos now (run `npm run generate` when this fails)", () => {
    const out = mkdtempSync(path.join(tmpdir(), "parapet-openapi-gen-"));
    try {
      execFileSync(path.join(root, "node_modules/.bin/buf"), ["generate", "--template", "buf.gen.yaml", "-o", out], { cwd: root, stdio: "pipe" });
      expect(readFileSync(path.join(out, "gen/openapi.json"), "utf8")).toBe(text);
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  });
});

describe("GET /openapi.json", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.close());

  it("serves the document without a key, with an ETag", async () => {
    const res = await fetch(`${server.url}/openapi.json`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/json");
    expect(res.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
    expect(await res.text()).toBe(text);
    const etag = res.headers.get("etag")!;
    expect(etag).toMatch(/^"[\w-]+"$/);

    const again = await fetch(`${server.url}/openapi.json`, { headers: { "if-none-match": `"other", ${etag}` } });
    expect(again.status).toBe(304);
    expect(await again.text()).toBe("");
    const changed = await fetch(`${server.url}/openapi.json`, { headers: { "if-none-match": '"other"' } });
    expect(changed.status).toBe(200);
    await changed.arrayBuffer();
  });

  it("ignores keys, good or bad, and query strings; takes repeated slashes", async () => {
    for (const [p, auth] of [
      ["/openapi.json?format=yaml", "Bearer nonsense"],
      ["//openapi.json", `Bearer ${server.screeningKey}`],
      ["/openapi.json", "Basic Zm9vOmJhcg=="],
    ]) {
      const res = await fetch(server.url + p, { headers: { authorization: auth } });
      expect(res.status, p).toBe(200);
      expect(JSON.parse(await res.text()).openapi).toBe("3.1.0");
    }
  });

  it("answers HEAD with the headers only", async () => {
    const res = await fetch(`${server.url}/openapi.json`, { method: "HEAD" });
    expect(res.status).toBe(200);
    expect(Number(res.headers.get("content-length"))).toBe(Buffer.byteLength(text));
    expect(await res.text()).toBe("");
  });

  it("answers other methods 405 with the Error object and Allow", async () => {
    for (const method of ["POST", "PUT", "DELETE", "PATCH"]) {
      const res = await server.rest(method, "/openapi.json", { openapi: "3.1.0" }, null);
      expect(res.status, method).toBe(405);
      expect(res.headers.get("allow")).toBe("GET, HEAD");
      expect(res.body).toEqual({
        status: "error",
        error: "method_not_allowed",
        message: expect.stringContaining(method),
        code: 405,
        request_id: res.headers.get("x-request-id"),
      });
    }
  });

  it("is not a prefix route", async () => {
    for (const p of ["/openapi.json/x", "/openapi.jsonx", "/openapi"]) {
      const res = await server.rest("GET", p, undefined, null);
      expect(res.status, p).toBe(404);
      expect(res.body.error, p).toBe("route_not_found");
    }
  });
});

describe("the document in the shipped service", () => {
  it("is served by the compiled service (npm start)", async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), "parapet-openapi-compiled-"));
    const child = spawnServer(await freePort(), { PARAPET_DATA_DIR: dataDir });
    try {
      // Generous: on a loaded machine the compiled service takes a while to load its models.
      await waitReady(child.url, 60_000);
      const res = await fetch(`${child.url}/openapi.json`);
      expect(res.status).toBe(200);
      expect(await res.text()).toBe(text);
    } finally {
      child.child.kill("SIGTERM");
      await child.exited;
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it("is copied into the container image's run-time stage", () => {
    const dockerfile = readFileSync(path.join(root, "Dockerfile"), "utf8");
    const runtime = dockerfile.slice(dockerfile.lastIndexOf("\nFROM "));
    expect(runtime).toMatch(/^COPY gen\/openapi\.json gen\/openapi\.json$/m);
  });

  it("fails the request, naming the file, while the file is missing, and serves it once it is there", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "parapet-openapi-missing-"));
    const file = path.join(dir, "openapi.json");
    const handler = createOpenApiHandler(file);
    const failures: string[] = [];
    const server = http.createServer((req, res) => {
      const served = handler(req.url ?? "/", req, res, "test-request");
      if (!served) return void res.writeHead(404).end();
      served.catch((err: Error) => {
        failures.push(err.message);
        res.writeHead(500).end();
      });
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/openapi.json`;
    try {
      expect((await fetch(url)).status).toBe(500);
      expect(failures).toEqual([expect.stringContaining(file)]);
      copyFileSync(openApiFile, file);
      const res = await fetch(url);
      expect(res.status).toBe(200);
      expect(await res.text()).toBe(text);
    } finally {
      server.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
