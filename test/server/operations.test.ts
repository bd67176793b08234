// Start-up, administration and transport options: bootstrap keys, the
// `parapet` command, TLS on the one port, and the typed-client example.
import { execFile } from "node:child_process";
import { mkdtemp, readFile, rm, stat } from "node:fs/promises";
import https from "node:https";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createClient } from "@connectrpc/connect";
import { createGrpcTransport } from "@connectrpc/connect-node";
import { PolicyService } from "../../gen/parapet/v1/policies_pb.js";
import { startApp } from "../../src/app.js";
import { loadConfig } from "../../src/config.js";
import { createLogger } from "../../src/observability/logger.js";
import { startTestServer } from "../support/server.js";

const run = promisify(execFile);
const root = path.resolve(import.meta.dirname, "../..");
const cli = (dataDir: string, ...args: string[]) =>
  run(process.execPath, [path.join(root, "bin/parapet.js"), ...args], { env: { ...process.env, PARAPET_DATA_DIR: dataDir, MONGODB_URI: "" } });

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), "parapet-ops-"));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function start(dataDir: string, env: Record<string, string> = {}) {
  return startApp(loadConfig({ HOST: "127.0.0.1", PORT: "0", PARAPET_DATA_DIR: dataDir, ...env }), createLogger("silent"));
}

async function get(url: string, key: string) {
  const res = await fetch(url, { headers: { authorization: `Bearer ${key}` } });
  return res.status;
}

describe("bootstrap", () => {
  it("a fresh store gets a default organization and generated keys, saved with mode 0600", async () => {
    const dataDir = path.join(dir, "fresh");
    const app = await start(dataDir);
    try {
      const file = path.join(dataDir, "bootstrap-keys.json");
      expect((await stat(file)).mode & 0o777).toBe(0o600);
      const keys = JSON.parse(await readFile(file, "utf8"));
      expect(keys.organization_id).toBe("org-default");
      expect(keys.platform_key).toMatch(/^ppk_[A-Za-z0-9_-]{43}$/);
      expect(keys.screening_key).toMatch(/^psk_[A-Za-z0-9_-]{43}$/);
      const url = `http://127.0.0.1:${app.port}`;
      expect(await get(`${url}/v1/policies/policy-default`, keys.platform_key)).toBe(200);
      const stored = await app.repos.keys.list("org-default");
      expect(stored.every((k) => !JSON.stringify(k).includes(keys.platform_key))).toBe(true);
    } finally {
      await app.close();
    }
    // A restart does not create more keys or organizations.
    const again = await start(dataDir);
    try {
      expect(await again.repos.orgs.count()).toBe(1);
      expect(await again.repos.keys.list()).toHaveLength(2);
    } finally {
      await again.close();
    }
  });
});

describe("the parapet command", () => {
  it("creates, lists and revokes keys and manages organizations on a stopped store", async () => {
    const dataDir = path.join(dir, "cli");
    await (
      await start(dataDir, {
        PARAPET_BOOTSTRAP_PLATFORM_KEY: "ppk_bootstrap_cli_test_key_000000000000",
        PARAPET_BOOTSTRAP_SCREENING_KEY: "psk_bootstrap_cli_test_key_0000000000000",
      })
    ).close();

    const created = await cli(dataDir, "keys", "create", "--kind", "platform", "--scope", "read-only");
    const roKey = created.stdout.trim();
    expect(created.stdout).toBe(`${roKey}\n`);
    expect(roKey).toMatch(/^ppk_/);
    const orgId = (await cli(dataDir, "orgs", "create", "--name", "Team B")).stdout.trim();
    expect(orgId).toMatch(/^org-/);
    const teamKey = (await cli(dataDir, "keys", "create", "--kind", "screening", "--org", orgId)).stdout.trim();
    expect(teamKey).toMatch(/^psk_/);
    await cli(dataDir, "orgs", "set", orgId, "--max-policies", "3", "--feature", "agentic=off");
    const orgs = (await cli(dataDir, "orgs", "list")).stdout;
    expect(orgs).toContain(`${orgId}\tTeam B\tdefault_project=project-default-${orgId.slice(4)}\tmax_policies=3\tpolicies=on,logs_analytics=on,agentic=off`);
    const listed = (await cli(dataDir, "keys", "list")).stdout.trim().split("\n");
    expect(listed).toHaveLength(4);
    expect(listed.join("\n")).not.toContain(roKey);

    const app = await start(dataDir);
    const url = `http://127.0.0.1:${app.port}`;
    try {
      expect(await get(`${url}/v1/policies/policy-default`, roKey)).toBe(200);
      const write = await fetch(`${url}/v1-beta/projects`, { method: "POST", headers: { authorization: `Bearer ${roKey}` }, body: '{"name":"x"}' });
      expect(write.status).toBe(403);

      // With the embedded engine the running service holds the store's lock.
      const locked = await cli(dataDir, "keys", "list").catch((e) => e);
      expect(locked.code).toBe(1);
      expect(locked.stderr).toMatch(/lock|in use|running/i);
    } finally {
      await app.close();
    }

    const roId = listed.find((l) => l.includes("read-only"))!.split("\t")[0];
    expect((await cli(dataDir, "keys", "revoke", roId)).stdout).toBe(`revoked ${roId}\n`);
    const app2 = await start(dataDir);
    try {
      expect(await get(`http://127.0.0.1:${app2.port}/v1/policies/policy-default`, roKey)).toBe(401);
    } finally {
      await app2.close();
    }
  });

  it("exports the embedded store to an NDJSON file; import and migrate need MONGODB_URI", async () => {
    const dataDir = path.join(dir, "export");
    const app = await start(dataDir, { PARAPET_BOOTSTRAP_PLATFORM_KEY: "ppk_export_test_key_0000000000000000000000" });
    await fetch(`http://127.0.0.1:${app.port}/v1/policies`, {
      method: "POST",
      headers: { authorization: "Bearer ppk_export_test_key_0000000000000000000000" },
      body: JSON.stringify({ name: "exported", default_threshold: "l1_confident", detectors: [{ type: "pii/email", location: "user::content" }] }),
    });
    await app.close();
    const file = path.join(dir, "export.ndjson");
    const { stdout } = await cli(dataDir, "export", file);
    expect(stdout).toMatch(/^policies\t1 documents$/m);
    expect(stdout).toMatch(/^api_keys\t\d+ documents$/m);
    const lines = (await readFile(file, "utf8")).trim().split("\n");
    expect(lines.some((l) => l.includes('"name":"exported"'))).toBe(true);
    const noUri = await cli(dataDir, "import", file).catch((e) => e);
    expect(noUri.code).toBe(2);
    expect(noUri.stderr).toContain("MONGODB_URI");
  });

  it("usage errors exit 2 with a message", async () => {
    const err = await cli(path.join(dir, "usage"), "keys", "create", "--kind", "admin").catch((e) => e);
    expect(err.code).toBe(2);
    expect(err.stderr).toContain("--kind must be one of: platform, screening");
  });
});

describe("TLS on the one port", () => {
  it("serves HTTPS (HTTP/1.1) and gRPC over TLS", async () => {
    const certDir = path.join(dir, "tls");
    await run("mkdir", ["-p", certDir]);
    await run("openssl", [
      "req",
      "-x509",
      "-newkey",
      "rsa:2048",
      "-nodes",
      "-days",
      "1",
      "-subj",
      "/CN=localhost",
      "-keyout",
      path.join(certDir, "key.pem"),
      "-out",
      path.join(certDir, "cert.pem"),
    ]);
    const server = await startTestServer({ TLS_CERT_FILE: path.join(certDir, "cert.pem"), TLS_KEY_FILE: path.join(certDir, "key.pem") });
    try {
      const body = await new Promise<string>((resolve, reject) => {
        const req = https.get(
          `https://127.0.0.1:${server.app.port}/v1/policies/policy-default`,
          { headers: { authorization: `Bearer ${server.platformKey}` }, rejectUnauthorized: false },
          (res) => {
            let text = "";
            res.setEncoding("utf8");
            res.on("data", (c) => (text += c));
            res.on("end", () => resolve(`${res.statusCode} ${res.httpVersion} ${text}`));
          },
        );
        req.on("error", reject);
      });
      expect(body.startsWith("200 1.1 ")).toBe(true);
      const transport = createGrpcTransport({
        baseUrl: `https://127.0.0.1:${server.app.port}`,
        nodeOptions: { rejectUnauthorized: false },
        interceptors: [(next) => (req) => (req.header.set("authorization", `Bearer ${server.platformKey}`), next(req))],
      });
      const res = await createClient(PolicyService, transport).getPolicy({ policyId: "policy-default" });
      expect(res.policy?.policyId).toBe("policy-default");
    } finally {
      await server.close();
    }
  });
});

describe("the typed-client example", () => {
  it("runs against the service over Connect and gRPC", async () => {
    const server = await startTestServer();
    try {
      const { stdout } = await run(process.execPath, ["--import", "tsx", path.join(root, "examples/client.ts")], {
        cwd: root,
        env: { ...process.env, PARAPET_URL: server.url, PARAPET_PLATFORM_KEY: server.platformKey },
      });
      expect(stdout).toMatch(/^connect: policy policy-\S+ v1 used by project-\S+$/m);
      expect(stdout).toMatch(/^grpc: policy policy-\S+ v1 used by project-\S+$/m);
    } finally {
      await server.close();
    }
  });
});
