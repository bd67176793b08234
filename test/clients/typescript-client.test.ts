// The typed client package, @parapet/client (clients/typescript), against a
// real service on every protocol it offers, and as it is published: built by
// its own `npm run build`, installed outside the repository and run with
// plain Node, so a published package cannot depend on the repository's files.
import { execFile } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { builtinModules } from "node:module";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { create, type DescService } from "@bufbuild/protobuf";
import { Code, type Interceptor } from "@connectrpc/connect";
import * as api from "@parapet/client";
import {
  GuardService,
  ParapetError,
  createParapetClient,
  createParapetClients,
  createParapetTransport as createFetchTransport,
  errorIds,
  screen,
  type ChatMessage,
} from "@parapet/client";
import { createParapetTransport as createNodeTransport } from "@parapet/client/node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { errorKinds } from "../../src/api/errors.js";
import { freePort } from "../support/child-server.js";
import { startTestServer, type TestServer } from "../support/server.js";

const run = promisify(execFile);
const root = path.resolve(import.meta.dirname, "../..");
const packageDir = path.join(root, "clients/typescript");
const uuidV7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

/** Over PARAPET_MAX_BODY_BYTES (1 MiB). */
const huge: ChatMessage[] = [{ role: "user", content: "a".repeat(2 * 1024 * 1024) }];
const email: ChatMessage[] = [{ role: "user", content: "Where is my order? Write to jane.doe@example.com" }];

// An idle HTTP/2 connection is closed soon, so that closing a test's service does not wait for it.
const http2 = { idleConnectionTimeoutMs: 100 };

/** Every transport the package offers, by name. */
const transports = {
  "node connect": (baseUrl: string, apiKey: string) => createNodeTransport({ baseUrl, apiKey }),
  "node connect binary over HTTP/2": (baseUrl: string, apiKey: string) => createNodeTransport({ baseUrl, apiKey, binary: true, httpVersion: "2", http2 }),
  "node grpc": (baseUrl: string, apiKey: string) => createNodeTransport({ baseUrl, apiKey, protocol: "grpc", http2 }),
  "node grpc-web": (baseUrl: string, apiKey: string) => createNodeTransport({ baseUrl, apiKey, protocol: "grpc-web" }),
  "fetch connect": (baseUrl: string, apiKey: string) => createFetchTransport({ baseUrl, apiKey }),
  "fetch grpc-web JSON": (baseUrl: string, apiKey: string) => createFetchTransport({ baseUrl, apiKey, protocol: "grpc-web", binary: false }),
};

async function rejection(promise: Promise<unknown>): Promise<ParapetError> {
  try {
    await promise;
  } catch (err) {
    expect(err).toBeInstanceOf(ParapetError);
    return err as ParapetError;
  }
  throw new Error("expected the call to fail");
}

describe("@parapet/client against a real service", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(async () => {
    await server?.close();
  });

  describe.each(Object.keys(transports) as (keyof typeof transports)[])("screen() over %s", (name) => {
    const transport = () => transports[name](server.url, server.screeningKey);

    it("answers the decision, the breakdown, the spans and the request id", async () => {
      const result = await screen(transport(), { messages: email, breakdown: true, payload: true });
      expect(result.flagged).toBe(true);
      expect(result.requestId).toMatch(uuidV7);
      expect(result.breakdown.find((b) => b.detectorType === "pii/email" && b.detected)?.messageId).toBe(0);
      const span = result.payload.find((p) => p.detectorType === "pii/email");
      expect(span && [span.start, span.end, span.text]).toEqual([28, 48, "jane.doe@example.com"]);
      expect(result.devInfo).toBeUndefined();
    });

    it("refuses an invalid message with validation_failed, 422 and the request id", async () => {
      const err = await rejection(screen(transport(), { messages: [{ role: "wizard", content: "hi" }] }));
      expect(err.error).toBe("validation_failed");
      expect(err.httpStatus).toBe(422);
      expect(err.rpcCode).toBe(Code.InvalidArgument);
      expect(err.requestId).toMatch(uuidV7);
      expect(err.message).toMatch(/role/);
    });

    it("refuses a platform key with forbidden (the endpoint takes a screening key)", async () => {
      const err = await rejection(screen(transports[name](server.url, server.platformKey), { messages: email }));
      expect([err.error, err.httpStatus, err.rpcCode]).toEqual(["forbidden", 403, Code.PermissionDenied]);
      expect(err.requestId).toMatch(uuidV7);
    });
  });

  it("sends chat-completions messages as they are: content parts, tool calls, tools and metadata reach the request log", async () => {
    const before = new Date(Date.now() - 1000).toISOString();
    // The base URL and key alone make a fetch transport; a trailing slash is fine.
    const result = await screen(
      { baseUrl: `${server.url}/`, apiKey: server.screeningKey },
      {
        messages: [
          { role: "system", content: "You are the assistant of an online shop." },
          {
            role: "user",
            content: [
              { type: "text", text: "Where is my order?" },
              { type: "image_url", image_url: { url: "https://example.com/parcel.png" } },
              { type: "text", text: "jane.doe@example.com" },
            ],
          },
          { role: "assistant", content: null, tool_calls: [{ id: "call_1", type: "function", function: { name: "lookup_order", arguments: '{"id":42}' } }] },
          { role: "tool", tool_call_id: "call_1", content: "shipped yesterday" },
        ],
        tools: [
          { type: "function", function: { name: "lookup_order", description: "Finds an order", parameters: { type: "object", properties: { id: { type: "number" } } } } },
        ],
        payload: true,
        devInfo: true,
        metadata: { session: "s-1", nested: { turn: 3 } },
      },
    );
    expect(result.flagged).toBe(true);
    const span = result.payload.find((p) => p.detectorType === "pii/email");
    // Text parts are joined by "\n": the address starts after the first part and the separator.
    expect(span && [span.messageId, span.start, span.text]).toEqual([1, "Where is my order?".length + 1, "jane.doe@example.com"]);
    expect(result.devInfo?.notes).toContain("content parts, message 1: not screened: 1 non-text part (image_url x1)");

    const { log } = createParapetClients(createNodeTransport({ baseUrl: server.url, apiKey: server.platformKey }));
    const { logs } = await log.getLogs({ startTime: before, endTime: new Date(Date.now() + 60_000).toISOString(), limit: 1000 });
    const stored = logs.find((l) => l.requestUuid === result.requestId);
    expect(stored?.messages.map((m) => m.role)).toEqual(["system", "user", "assistant", "tool"]);
    expect(stored?.messages[2]?.toolCalls[0]?.function?.name).toBe("lookup_order");
    expect(stored?.messages[3]?.toolCallId).toBe("call_1");
    expect(JSON.parse(stored?.eventMetadata ?? "{}")).toMatchObject({ session: "s-1", nested: { turn: 3 } });
  });

  it("screens under a project's policy, and answers not_found for an unknown project", async () => {
    const { policy, project } = createParapetClients(createNodeTransport({ baseUrl: server.url, apiKey: server.platformKey, protocol: "grpc" }));
    const created = await policy.createPolicy({
      policy: { name: `client package ${Date.now()}`, defaultThreshold: "l2_very_likely", detectors: [{ type: "pii/email", location: "user::content" }] },
    });
    const { id: projectId } = await project.createProject({ project: { name: "client package", policyId: created.id } });
    const result = await screen(createNodeTransport({ baseUrl: server.url, apiKey: server.screeningKey, protocol: "grpc" }), {
      messages: email,
      projectId,
      breakdown: true,
    });
    expect(result.breakdown.map((b) => [b.projectId, b.policyId, b.detectorType, b.detected])).toEqual([[projectId, created.id, "pii/email", true]]);

    for (const protocol of ["connect", "grpc"] as const) {
      const err = await rejection(
        screen(createNodeTransport({ baseUrl: server.url, apiKey: server.screeningKey, protocol }), { messages: email, projectId: "project-does-not-exist" }),
      );
      expect([err.error, err.httpStatus, err.rpcCode]).toEqual(["not_found", 404, Code.NotFound]);
      expect(err.requestId).toMatch(uuidV7);
    }
  });

  it("answers unauthenticated for an unknown key, with the same Error object as REST", async () => {
    const rest = await server.rest("POST", "/v2/guard", { messages: [{ role: "user", content: "hi" }] }, "psk_not_a_key");
    for (const transport of [
      createNodeTransport({ baseUrl: server.url, apiKey: "psk_not_a_key" }),
      createNodeTransport({ baseUrl: server.url, apiKey: "psk_not_a_key", protocol: "grpc" }),
      createFetchTransport({ baseUrl: server.url, apiKey: "psk_not_a_key" }),
    ]) {
      const err = await rejection(screen(transport, { messages: email }));
      const body = err.toJSON();
      expect({ ...body, request_id: "" }).toEqual({ ...rest.body, request_id: "" });
      expect(body.request_id).toMatch(uuidV7);
      expect(JSON.parse(JSON.stringify(err))).toEqual(body);
    }
  });

  it("answers the typed error, not a crash, for empty, huge (on HTTP/2) and malformed requests", async () => {
    const transport = createNodeTransport({ baseUrl: server.url, apiKey: server.screeningKey });
    const grpc = createNodeTransport({ baseUrl: server.url, apiKey: server.screeningKey, protocol: "grpc" });

    const empty = await rejection(screen(transport, { messages: [] }));
    expect([empty.error, empty.httpStatus]).toEqual(["validation_failed", 422]);
    expect(empty.requestId).toMatch(uuidV7);

    for (const name of ["node connect binary over HTTP/2", "node grpc"] as const) {
      const err = await rejection(screen(transports[name](server.url, server.screeningKey), { messages: huge }));
      expect([err.error, err.httpStatus, err.rpcCode, name]).toEqual(["payload_too_large", 413, Code.ResourceExhausted, name]);
      expect(err.requestId).toMatch(uuidV7);
    }

    // What cannot be encoded is refused before sending, with the identifier the service uses and no request id.
    const circular: Record<string, unknown> = {};
    circular.self = circular;
    const malformed: unknown[] = [
      undefined,
      { messages: "hello" },
      { messages: [null] },
      { messages: [{ role: 7, content: "hi" }] },
      { messages: [{ role: "user", content: 42 }] },
      { messages: [{ role: "user", content: [{ text: "no type" }] }] },
      { messages: [{ role: "assistant", tool_calls: [{ id: "c", type: "function" }] }] },
      { messages: email, tools: "none" },
      { messages: email, metadata: circular },
      { messages: email, metadata: { big: 10n } },
      { messages: email, breakdown: "yes" },
      { messages: email, projectId: 5 },
    ];
    for (const request of malformed) {
      const err = await rejection(screen(transport, request as never));
      expect([err.error, err.httpStatus, err.requestId]).toEqual(["validation_failed", 422, undefined]);
    }

    // Text with no UTF-8 encoding (a lone surrogate) is refused the same way; paired surrogates are fine.
    const broken = await rejection(screen(grpc, { messages: [{ role: "user", content: "broken \ud800 text" }] }));
    expect([broken.error, broken.requestId]).toEqual(["validation_failed", undefined]);
    expect(broken.message).toMatch(/^messages\[0\]\.content: /);
    expect((await screen(grpc, { messages: [{ role: "user", content: "emoji \ud83d\ude00" }] })).requestId).toMatch(uuidV7);
  });

  it("reports an unreachable service, a deadline and a refused configuration as such", async () => {
    const port = await freePort();
    for (const transport of [
      createNodeTransport({ baseUrl: `http://127.0.0.1:${port}`, apiKey: "psk_x" }),
      createNodeTransport({ baseUrl: `http://127.0.0.1:${port}`, apiKey: "psk_x", protocol: "grpc" }),
      createFetchTransport({ baseUrl: `http://127.0.0.1:${port}`, apiKey: "psk_x" }),
    ]) {
      const err = await rejection(screen(transport, { messages: email }));
      expect([err.error, err.httpStatus, err.rpcCode, err.requestId]).toEqual(["unavailable", 503, Code.Unavailable, undefined]);
    }
    const late = await rejection(screen(createNodeTransport({ baseUrl: server.url, apiKey: server.screeningKey }), { messages: email, timeoutMs: 1 }));
    expect([late.error, late.rpcCode]).toEqual(["timeout", Code.DeadlineExceeded]);

    for (const options of [
      { baseUrl: server.url, apiKey: "" },
      { baseUrl: server.url, apiKey: "psk_a\r\nx-injected: 1" },
      { baseUrl: "localhost:8080", apiKey: "psk_x" },
      { baseUrl: "ftp://localhost", apiKey: "psk_x" },
      { baseUrl: server.url, apiKey: "psk_x", timeoutMs: -1 },
      { baseUrl: server.url, apiKey: "psk_x", protocol: "smtp" },
    ]) {
      expect(() => createNodeTransport(options as never)).toThrow(TypeError);
      expect(() => createFetchTransport(options as never)).toThrow(TypeError);
    }
  });

  it("encodes JSON on Connect and binary on gRPC and gRPC-Web unless told otherwise", async () => {
    const sent: string[] = [];
    const interceptors = [
      (next: Parameters<Interceptor>[0]) => (req: Parameters<ReturnType<Interceptor>>[0]) => (sent.push(req.header.get("content-type") ?? ""), next(req)),
    ];
    const apiKey = server.screeningKey;
    for (const transport of [
      createNodeTransport({ baseUrl: server.url, apiKey, interceptors }),
      createNodeTransport({ baseUrl: server.url, apiKey, interceptors, protocol: "grpc", binary: false }),
      createNodeTransport({ baseUrl: server.url, apiKey, interceptors, protocol: "grpc-web" }),
      createFetchTransport({ baseUrl: server.url, apiKey, interceptors, protocol: "grpc-web" }),
      createFetchTransport({ baseUrl: server.url, apiKey, interceptors, binary: true }),
    ]) {
      await screen(transport, { messages: email });
    }
    expect(sent).toEqual(["application/json", "application/grpc+proto", "application/grpc-web+proto", "application/grpc-web+proto", "application/proto"]);
  });

  it("gives a client for every service, each throwing ParapetError on every protocol", async () => {
    const services = readdirSync(path.join(root, "gen/parapet/v1"))
      .flatMap((file) => [...readFileSync(path.join(root, "gen/parapet/v1", file), "utf8").matchAll(/^export const (\w+)Service: GenService/gm)])
      .map((m) => m[1].charAt(0).toLowerCase() + m[1].slice(1))
      .sort();
    const readOnly = await server.readOnlyKey();
    for (const protocol of ["connect", "grpc", "grpc-web"] as const) {
      const clients = createParapetClients(createNodeTransport({ baseUrl: server.url, apiKey: readOnly, protocol }));
      expect(Object.keys(clients).sort()).toEqual(services);
      expect((await clients.policy.getPolicy({ policyId: "policy-default" })).policy?.policyId).toBe("policy-default");
      const err = await rejection(clients.policy.createPolicy({ policy: { name: "read-only", detectors: [{ type: "pii/email", location: "user::content" }] } }));
      expect([err.error, err.httpStatus, err.rpcCode]).toEqual(["forbidden", 403, Code.PermissionDenied]);
      expect(err.requestId).toMatch(uuidV7);
    }
    // A single client over any transport, the caller's own included.
    const guard = createParapetClient(GuardService, createNodeTransport({ baseUrl: server.url, apiKey: server.screeningKey }));
    expect((await guard.guard({ messages: [{ role: "user", content: "hello" }] })).metadata?.requestUuid).toMatch(uuidV7);
  });
});

// Over HTTP/1.1 each protocol gets a service of its own: a refused gRPC-Web body, or a Connect body
// sent in chunks, leaves the rest of the body unread on a connection kept alive, so a later call on
// that connection of the shared pool would wait for the service's receive timeout. HTTP/2 streams
// are independent: those protocols are checked on the shared service above.
const http1Transports = (Object.keys(transports) as (keyof typeof transports)[]).filter((name) => !/grpc$|HTTP\/2/.test(name));

describe.each(http1Transports)("a request over the size limit, over %s", (name) => {
  it("answers payload_too_large (413) with the request id", async () => {
    const server = await startTestServer();
    try {
      const err = await rejection(screen(transports[name](server.url, server.screeningKey), { messages: huge }));
      expect([err.error, err.httpStatus, err.rpcCode]).toEqual(["payload_too_large", 413, Code.ResourceExhausted]);
      expect(err.requestId).toMatch(uuidV7);
    } finally {
      await server.close();
    }
  });
});

describe("@parapet/client over TLS", () => {
  it("verifies the service against a private CA on every Node protocol, and refuses an unknown certificate", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "parapet-client-tls-"));
    const [key, cert] = [path.join(dir, "key.pem"), path.join(dir, "cert.pem")];
    const subject = ["-subj", "/CN=localhost", "-addext", "subjectAltName=IP:127.0.0.1,DNS:localhost"];
    await run("openssl", ["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", ...subject, "-keyout", key, "-out", cert]);
    const server = await startTestServer({ TLS_CERT_FILE: cert, TLS_KEY_FILE: key });
    try {
      const baseUrl = `https://127.0.0.1:${server.app.port}`;
      const ca = readFileSync(cert, "utf8");
      for (const options of [{ protocol: "connect" }, { protocol: "connect", httpVersion: "2" }, { protocol: "grpc" }, { protocol: "grpc-web" }] as const) {
        const result = await screen(createNodeTransport({ baseUrl, apiKey: server.screeningKey, tls: { ca }, ...options }), { messages: email });
        expect(result.flagged, JSON.stringify(options)).toBe(true);
        // Without the CA the certificate is refused before any request is sent: no request id.
        const err = await rejection(screen(createNodeTransport({ baseUrl, apiKey: server.screeningKey, ...options }), { messages: email }));
        expect([err.error, err.httpStatus, err.requestId]).toEqual(["unavailable", 503, undefined]);
        expect(String(((err.cause as Error).cause as Error | undefined)?.message ?? err.message)).toMatch(/certificate/i);
      }
    } finally {
      await server.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

// Streaming methods come and go with the protos; each one present is checked.
const streamingMethods = (Object.values(api) as unknown[])
  .filter((value): value is DescService => typeof value === "object" && value !== null && (value as DescService).kind === "service")
  .flatMap((service) => service.methods.filter((m) => m.methodKind !== "unary").map((method) => ({ service, method })));

describe.skipIf(streamingMethods.length === 0)("@parapet/client streaming calls", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(async () => {
    await server?.close();
  });

  it.each(streamingMethods.map(({ service, method }) => [`${service.name}.${method.name}`, service, method] as const))(
    "%s throws ParapetError too (an unknown key over gRPC)",
    async (_name, service, method) => {
      const client = createParapetClient(service, createNodeTransport({ baseUrl: server.url, apiKey: "psk_not_a_key", protocol: "grpc" })) as Record<
        string,
        (input: unknown) => unknown
      >;
      const call = async () => {
        async function* requests() {
          yield create(method.input);
        }
        const input = method.methodKind === "server_streaming" ? create(method.input) : requests();
        const output = client[method.localName](input);
        if (method.methodKind === "client_streaming") return await (output as Promise<unknown>);
        for await (const message of output as AsyncIterable<unknown>) void message;
      };
      const err = await rejection(call());
      expect([err.error, err.httpStatus, err.rpcCode]).toEqual(["unauthenticated", 401, Code.Unauthenticated]);
      expect(err.requestId).toMatch(uuidV7);
    },
  );
});

describe("@parapet/client stays in step with the service", () => {
  it("re-exports every generated module of the API", () => {
    const protocol = readFileSync(path.join(packageDir, "src/protocol.ts"), "utf8");
    const missing = readdirSync(path.join(root, "gen/parapet/v1"))
      .map((file) => file.replace(/\.ts$/, ".js"))
      .filter((file) => !protocol.includes(`export * from "../../../gen/parapet/v1/${file}";`));
    expect(missing, "add these generated modules to clients/typescript/src/protocol.ts").toEqual([]);
  });

  it("knows every error identifier the service answers", () => {
    expect([...errorIds].sort()).toEqual(Object.keys(errorKinds).sort());
  });
});

describe("@parapet/client as published", () => {
  let work: string;
  let built: string;
  let server: TestServer;
  beforeAll(async () => {
    work = mkdtempSync(path.join(tmpdir(), "parapet-client-"));
    built = path.join(work, "package");
    // The package's own build script, as `npm run build` runs it, into a scratch directory.
    await run("npm", ["run", "build", "--silent", "--", `--out-dir=${built}`], { cwd: packageDir });
    server = await startTestServer();
  }, 180_000);
  afterAll(async () => {
    await server?.close();
    if (work) rmSync(work, { recursive: true, force: true });
  });

  it("builds JavaScript and declarations for every entry point, with its own package.json", () => {
    const manifest = JSON.parse(readFileSync(path.join(built, "package.json"), "utf8"));
    expect(manifest.name).toBe("@parapet/client");
    expect(manifest.private).toBeUndefined();
    expect(Object.keys(manifest.exports)).toEqual([".", "./node"]);
    for (const entry of Object.values<{ types: string; default: string }>(manifest.exports)) {
      expect(existsSync(path.join(built, entry.types))).toBe(true);
      expect(existsSync(path.join(built, entry.default))).toBe(true);
    }
    const source = JSON.parse(readFileSync(path.join(packageDir, "package.json"), "utf8"));
    const rootManifest = JSON.parse(readFileSync(path.join(root, "package.json"), "utf8"));
    expect(manifest.dependencies).toEqual(source.dependencies);
    // The same runtime as the service and the generated code were built with.
    for (const [name, version] of Object.entries(manifest.dependencies)) expect(version, name).toBe(rootManifest.dependencies[name]);
  });

  it("imports nothing outside the package but its declared dependencies", () => {
    const manifest = JSON.parse(readFileSync(path.join(built, "package.json"), "utf8"));
    const allowed = new Set(Object.keys(manifest.dependencies));
    const files = (readdirSync(built, { recursive: true }) as string[]).filter((f) => /\.(js|d\.ts)$/.test(f));
    expect(files.length).toBeGreaterThan(20);
    const outside: string[] = [];
    for (const file of files) {
      const text = readFileSync(path.join(built, file), "utf8");
      const specifiers = [...text.matchAll(/(?:\bfrom\s*|\bimport\s*\(?\s*)["']([^"']+)["']/g)].map((m) => m[1]);
      for (const specifier of specifiers) {
        if (specifier.startsWith(".")) {
          const target = path.resolve(path.dirname(path.join(built, file)), specifier);
          const inside = !path.relative(built, target).startsWith("..");
          const exists = existsSync(target) || existsSync(target.replace(/\.js$/, ".d.ts"));
          if (!inside || !exists) outside.push(`${file}: ${specifier}`);
        } else if (!specifier.startsWith("node:") && !builtinModules.includes(specifier)) {
          const name = specifier.startsWith("@") ? specifier.split("/").slice(0, 2).join("/") : specifier.split("/")[0];
          if (!allowed.has(name)) outside.push(`${file}: ${specifier}`);
        }
      }
    }
    expect(outside).toEqual([]);
  });

  it("installs outside the repository and runs on plain Node, typed for TypeScript users", async () => {
    // An application's node_modules: the built package and its dependencies, nothing else of the repository.
    const app = path.join(work, "app");
    mkdirSync(path.join(app, "node_modules/@parapet"), { recursive: true });
    cpSync(built, path.join(app, "node_modules/@parapet/client"), { recursive: true });
    const manifest = JSON.parse(readFileSync(path.join(built, "package.json"), "utf8"));
    for (const name of [...Object.keys(manifest.dependencies), "@types/node"]) {
      mkdirSync(path.dirname(path.join(app, "node_modules", name)), { recursive: true });
      symlinkSync(path.join(root, "node_modules", name), path.join(app, "node_modules", name), "dir");
    }
    writeFileSync(path.join(app, "package.json"), JSON.stringify({ name: "app", private: true, type: "module" }));
    writeFileSync(
      path.join(app, "main.ts"),
      [
        'import { ParapetError, PolicyService, screen, type ScreeningResult } from "@parapet/client";',
        'import { createParapetTransport } from "@parapet/client/node";',
        "const [baseUrl, apiKey] = process.argv.slice(2) as [string, string];",
        'const result: ScreeningResult = await screen(createParapetTransport({ baseUrl, apiKey, protocol: "grpc" }), {',
        '  messages: [{ role: "user", content: "Write to jane.doe@example.com" }],',
        "  payload: true,",
        "});",
        'const refused = await screen({ baseUrl, apiKey: "psk_wrong" }, { messages: [] }).catch((err: unknown) => (err instanceof ParapetError ? err.toJSON() : null));',
        "console.log(JSON.stringify({ flagged: result.flagged, spans: result.payload.map((p) => p.text), refused, service: PolicyService.typeName }));",
      ].join("\n"),
    );
    // The first TypeScript example of the repository's README and of the package's README, as written.
    const readmes = { "readme.ts": path.join(root, "README.md"), "package-readme.ts": path.join(packageDir, "README.md") };
    for (const [file, readme] of Object.entries(readmes)) {
      const example = /```ts\n(import [^\n]*"@parapet\/client";\n[\s\S]*?)```/.exec(readFileSync(readme, "utf8"))?.[1];
      expect(example, readme).toBeDefined();
      writeFileSync(path.join(app, file), example!.replaceAll("http://localhost:8080", server.url));
    }
    writeFileSync(
      path.join(app, "tsconfig.json"),
      JSON.stringify({
        compilerOptions: { target: "ES2022", module: "NodeNext", moduleResolution: "NodeNext", strict: true, outDir: "out", types: ["node"] },
        include: ["main.ts", ...Object.keys(readmes)],
      }),
    );
    // Type-checked and compiled against the published declarations only (skipLibCheck off: they must be valid too).
    await run(process.execPath, [path.join(root, "node_modules/typescript/bin/tsc"), "-p", app], { cwd: app });
    const { stdout } = await run(process.execPath, [path.join(app, "out/main.js"), server.url, server.screeningKey], { cwd: app });
    const output = JSON.parse(stdout);
    expect(output.flagged).toBe(true);
    expect(output.spans).toContain("jane.doe@example.com");
    expect(output.refused).toMatchObject({ status: "error", error: "unauthenticated", code: 401 });
    expect(output.refused.request_id).toMatch(uuidV7);
    expect(output.service).toBe("parapet.v1.PolicyService");
    for (const file of Object.keys(readmes)) {
      const env = { ...process.env, PARAPET_SCREENING_KEY: server.screeningKey };
      const { stdout } = await run(process.execPath, [path.join(app, "out", file.replace(/\.ts$/, ".js"))], { cwd: app, env });
      expect(stdout, file).toMatch(/^(true|blocked) [\s\S]*[0-9a-f]{8}-[0-9a-f]{4}-7/);
    }
  });
});

describe("the examples use the package", () => {
  it("import @parapet/client, not the generated code directly", () => {
    // The TypeScript examples; examples/python/ uses the REST paths (test/examples/python-examples.test.ts).
    const files = readdirSync(path.join(root, "examples")).filter((f) => f.endsWith(".ts"));
    expect(files).toEqual(expect.arrayContaining(["client.ts", "screening.ts", "stream-gateway.ts"]));
    for (const file of files) {
      const text = readFileSync(path.join(root, "examples", file), "utf8");
      expect(text, file).toMatch(/from "@parapet\/client"/);
      expect(text, file).not.toMatch(/gen\//);
    }
  });

  it("the screening example shows the typed error", async () => {
    const server = await startTestServer();
    try {
      const { stdout } = await run(process.execPath, ["--import", "tsx", path.join(root, "examples/screening.ts")], {
        cwd: root,
        env: { ...process.env, PARAPET_URL: server.url, PARAPET_SCREENING_KEY: server.screeningKey },
      });
      expect(stdout).toMatch(/^flagged: true$/m);
      expect(stdout).toMatch(/^refused: validation_failed \(422\) .*role.* \[request [0-9a-f-]{36}\]$/m);
    } finally {
      await server.close();
    }
  });
});
