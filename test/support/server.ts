// Starts the real service (embedded storage, real listener on an ephemeral
// loopback port) for a test file, with known keys and helpers to make more.
import { randomBytes } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { createClient, type Client } from "@connectrpc/connect";
import { createConnectTransport, createGrpcTransport, createGrpcWebTransport } from "@connectrpc/connect-node";
import type { DescService } from "@bufbuild/protobuf";
import { startApp, type App } from "../../src/app.js";
import { loadConfig } from "../../src/config.js";
import { createLogger } from "../../src/observability/logger.js";

export interface TestServer {
  app: App;
  url: string;
  dataDir: string;
  platformKey: string;
  screeningKey: string;
  /** A read-only platform key of the default organization. */
  readOnlyKey(): Promise<string>;
  /** A new organization with a read-write platform key and a screening key. */
  newOrg(): Promise<{ orgId: string; platformKey: string; screeningKey: string }>;
  /** REST call with plain fetch; returns status, parsed JSON body and headers. */
  rest(method: string, path: string, body?: unknown, key?: string | null): Promise<RestResult>;
  close(): Promise<void>;
}

export interface RestResult {
  status: number;
  body: any;
  headers: Headers;
}

/** `log`: the service log, silent unless a test reads it. */
export async function startTestServer(env: Record<string, string> = {}, log = createLogger("silent")): Promise<TestServer> {
  const dataDir = await mkdtemp(path.join(tmpdir(), "parapet-test-"));
  const platformKey = `ppk_test_${randomBytes(12).toString("hex")}`;
  const screeningKey = `psk_test_${randomBytes(12).toString("hex")}`;
  const config = loadConfig({
    HOST: "127.0.0.1",
    PORT: "0",
    PARAPET_DATA_DIR: dataDir,
    PARAPET_BOOTSTRAP_PLATFORM_KEY: platformKey,
    PARAPET_BOOTSTRAP_SCREENING_KEY: screeningKey,
    // Tests start many servers on a shared machine: the warm-up is tested on its own (test/guard/warm-up.test.ts).
    PARAPET_WARMUP_MS: "0",
    ...env,
  });
  const app = await startApp(config, log);
  const url = `http://127.0.0.1:${app.port}`;
  const { orgs, keys } = app.repos;

  return {
    app,
    url,
    dataDir,
    platformKey,
    screeningKey,
    async readOnlyKey() {
      return (await keys.create("org-default", "platform", "read-only")).key;
    },
    async newOrg() {
      const org = await orgs.create(`org ${randomBytes(3).toString("hex")}`);
      return {
        orgId: org._id,
        platformKey: (await keys.create(org._id, "platform", "read-write")).key,
        screeningKey: (await keys.create(org._id, "screening", null)).key,
      };
    },
    async rest(method, p, body, key = platformKey) {
      const headers: Record<string, string> = {};
      if (key !== null) headers.authorization = `Bearer ${key}`;
      let payload: string | undefined;
      if (body !== undefined) {
        headers["content-type"] = "application/json";
        payload = typeof body === "string" ? body : JSON.stringify(body);
      }
      const res = await fetch(url + p, { method, headers, body: payload });
      const text = await res.text();
      let parsed: unknown = text;
      try {
        parsed = text ? JSON.parse(text) : undefined;
      } catch {
        // not JSON: keep the text for the assertion message
      }
      return { status: res.status, body: parsed, headers: res.headers };
    },
    async close() {
      await app.close();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

export type Protocol = "connect-json" | "connect-binary" | "grpc" | "grpc-web";
export const rpcProtocols: Protocol[] = ["connect-json", "connect-binary", "grpc", "grpc-web"];

/** A generated client over one of the RPC protocols, sending `key` as bearer credential. */
export function rpcClient<S extends DescService>(service: S, server: TestServer, protocol: Protocol, key: string | null): Client<S> {
  return rpcClientWithAuthorization(service, server, protocol, key === null ? null : `Bearer ${key}`);
}

/** A generated client whose every call carries the Authorization header exactly as given (none for null). */
export function rpcClientWithAuthorization<S extends DescService>(service: S, server: TestServer, protocol: Protocol, authorization: string | null): Client<S> {
  const interceptors =
    authorization === null
      ? []
      : [
          (next: any) => (req: any) => {
            req.header.set("authorization", authorization);
            return next(req);
          },
        ];
  const baseUrl = server.url;
  const transport =
    protocol === "grpc"
      ? createGrpcTransport({ baseUrl, interceptors })
      : protocol === "grpc-web"
        ? createGrpcWebTransport({ baseUrl, httpVersion: "1.1", interceptors })
        : createConnectTransport({ baseUrl, httpVersion: "1.1", useBinaryFormat: protocol === "connect-binary", interceptors });
  return createClient(service, transport);
}
