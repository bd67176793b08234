// gRPC server reflection (docs/reflection.md), exercised over a real HTTP/2 server:
// once with the real `buf curl` (grpcurl cannot be installed on build machines,
// and buf curl uses the same reflection protocol and fallback), once with a
// Connect gRPC client to check the raw answers.

import { execFile } from "node:child_process";
import http2 from "node:http2";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { create, createFileRegistry, fromBinary, getOption } from "@bufbuild/protobuf";
import type { DescService, MessageInitShape } from "@bufbuild/protobuf";
import { field as validateField } from "@bufbuild/protovalidate/gen/buf/validate/validate_pb.js";
import { FileDescriptorProtoSchema } from "@bufbuild/protobuf/wkt";
import { createClient } from "@connectrpc/connect";
import type { ConnectRouter } from "@connectrpc/connect";
import { connectNodeAdapter, createGrpcTransport } from "@connectrpc/connect-node";
import * as v1 from "../../gen/grpc/reflection/v1/reflection_pb.js";
import * as v1alpha from "../../gen/grpc/reflection/v1alpha/reflection_pb.js";
import { http } from "../../gen/google/api/annotations_pb.js";
import { AnalyticsService } from "../../gen/parapet/v1/analytics_pb.js";
import { ApiKeyService } from "../../gen/parapet/v1/api_keys_pb.js";
import { CustomGuardrailService } from "../../gen/parapet/v1/custom_guardrails_pb.js";
import { file_parapet_v1_errors } from "../../gen/parapet/v1/errors_pb.js";
import { GuardService } from "../../gen/parapet/v1/guard_pb.js";
import { LogService } from "../../gen/parapet/v1/logs_pb.js";
import { PolicyService } from "../../gen/parapet/v1/policies_pb.js";
import { ProjectService } from "../../gen/parapet/v1/projects_pb.js";
import { RetiredPolicyService } from "../../gen/parapet/v1/retired_policies_pb.js";
import { registerReflection } from "../../src/server/reflection.js";

const parapetServices: DescService[] = [
  AnalyticsService,
  ApiKeyService,
  CustomGuardrailService,
  GuardService,
  LogService,
  PolicyService,
  ProjectService,
  RetiredPolicyService,
];
const parapetServiceNames = parapetServices.map((s) => s.typeName).sort();

const BUF = path.resolve("node_modules/.bin/buf");
const NOT_FOUND = 5;

let server: http2.Http2Server;
let baseUrl: string;
const sessions = new Set<http2.ServerHttp2Session>();

function routes(router: ConnectRouter): void {
  for (const service of parapetServices) {
    if (service !== PolicyService) router.service(service, {});
  }
  // Real methods, so that invoking with JSON through reflection is checked end to end.
  router.service(PolicyService, {
    getPolicy(req, ctx) {
      return {
        policy: {
          policyId: req.policyId,
          name: ctx.requestHeader.get("authorization") ?? "",
          versionId: 3,
          updatedAt: { seconds: 1_700_000_000n, nanos: 0 },
        },
      };
    },
    createPolicy(req) {
      return {
        status: "ok",
        message: `${req.policy?.name}:${req.policy?.detectors.map((d) => d.type).join(",")}`,
        id: "policy-1",
      };
    },
  });
  registerReflection(router, parapetServices, [file_parapet_v1_errors]);
}

beforeAll(async () => {
  server = http2.createServer(connectNodeAdapter({ routes }));
  server.on("session", (s) => {
    sessions.add(s);
    s.on("close", () => sessions.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  // Clients keep HTTP/2 sessions open; close() alone would wait for them.
  for (const s of sessions) s.destroy();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

function bufCurl(...args: string[]): Promise<Run> {
  return new Promise((resolve) => {
    execFile(BUF, ["curl", "--protocol", "grpc", "--http2-prior-knowledge", ...args], { timeout: 30_000 }, (error, stdout, stderr) => {
      const code = error ? (typeof error.code === "number" ? error.code : 1) : 0;
      resolve({ code, stdout, stderr });
    });
  });
}

describe("buf curl against reflection", () => {
  it("lists services (v1 by default)", async () => {
    const run = await bufCurl("--list-services", baseUrl);
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    const listed = run.stdout.trim().split("\n").sort();
    expect(listed).toEqual([...parapetServiceNames, "grpc.reflection.v1.ServerReflection", "grpc.reflection.v1alpha.ServerReflection"].sort());
  });

  it.each(["grpc-v1", "grpc-v1alpha"])("lists services and methods over %s", async (protocol) => {
    const services = await bufCurl("--reflect-protocol", protocol, "--list-services", baseUrl);
    expect(services.code).toBe(0);
    expect(services.stdout.trim().split("\n")).toEqual(expect.arrayContaining(parapetServiceNames));

    const methods = await bufCurl("--reflect-protocol", protocol, "--list-methods", baseUrl);
    expect(methods.stderr).toBe("");
    expect(methods.code).toBe(0);
    const listed = methods.stdout.trim().split("\n");
    const expected = parapetServices.flatMap((s) => s.methods.map((m) => `${s.typeName}/${m.name}`));
    expect(listed).toEqual(expect.arrayContaining(expected));
    expect(listed).toContain("parapet.v1.PolicyService/GetPolicy");
    expect(listed).toContain("parapet.v1.GuardService/Guard");
  });

  it.each(["grpc-v1", "grpc-v1alpha"])("invokes a method with JSON over %s", async (protocol) => {
    const run = await bufCurl(
      "--reflect-protocol",
      protocol,
      "-H",
      "Authorization: Bearer test-key",
      "-d",
      '{"policy_id": "policy-42"}',
      `${baseUrl}/parapet.v1.PolicyService/GetPolicy`,
    );
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toEqual({
      policy: {
        policyId: "policy-42",
        versionId: 3,
        name: "Bearer test-key",
        updatedAt: "2023-11-14T22:13:20Z",
      },
    });
  });

  it("encodes nested request messages from JSON", async () => {
    const run = await bufCurl(
      "-d",
      '{"policy": {"name": "p", "detectors": [{"type": "pii/email", "location": "user::content"}]}}',
      `${baseUrl}/parapet.v1.PolicyService/CreatePolicy`,
    );
    expect(run.stderr).toBe("");
    expect(JSON.parse(run.stdout)).toEqual({ status: "ok", message: "p:pii/email", id: "policy-1" });
  });

  it("reports unknown services and unknown fields as errors", async () => {
    const unknown = await bufCurl("-d", "{}", `${baseUrl}/parapet.v1.NoSuchService/Nothing`);
    expect(unknown.code).not.toBe(0);
    // buf curl turns the reflection NOT_FOUND answer into this message.
    expect(unknown.stderr).toMatch(/failed to find service named "parapet\.v1\.NoSuchService"/);

    const badField = await bufCurl("-d", '{"no_such_field": 1}', `${baseUrl}/parapet.v1.PolicyService/GetPolicy`);
    expect(badField.code).not.toBe(0);
    expect(badField.stderr).toMatch(/no_such_field/);
  });

  it("reaches unimplemented methods, which answer UNIMPLEMENTED", async () => {
    const run = await bufCurl("-d", "{}", `${baseUrl}/parapet.v1.LogService/GetLogs`);
    // buf curl exits with the gRPC code shifted left by three bits.
    expect(run.code).toBe(12 << 3);
    expect(run.stderr).toMatch(/unimplemented/);
  });
});

type Req = MessageInitShape<typeof v1.ServerReflectionRequestSchema>;

async function reflect(requests: Req[]): Promise<v1.ServerReflectionResponse[]> {
  const client = createClient(v1.ServerReflection, createGrpcTransport({ baseUrl }));
  async function* input() {
    for (const r of requests) yield create(v1.ServerReflectionRequestSchema, r);
  }
  const out: v1.ServerReflectionResponse[] = [];
  for await (const res of client.serverReflectionInfo(input())) out.push(res);
  return out;
}

function fileNames(res: v1.ServerReflectionResponse | v1alpha.ServerReflectionResponse): string[] {
  if (res.messageResponse.case !== "fileDescriptorResponse") {
    throw new Error(`expected files, got ${res.messageResponse.case}: ${JSON.stringify(res.messageResponse.value)}`);
  }
  return res.messageResponse.value.fileDescriptorProto.map((b) => fromBinary(FileDescriptorProtoSchema, b).name);
}

function errorCode(res: v1.ServerReflectionResponse): number | undefined {
  return res.messageResponse.case === "errorResponse" ? res.messageResponse.value.errorCode : undefined;
}

const policyDeps = [
  "buf/validate/validate.proto",
  "google/api/annotations.proto",
  "google/api/http.proto",
  "google/protobuf/descriptor.proto",
  "google/protobuf/duration.proto",
  "google/protobuf/field_mask.proto",
  "google/protobuf/timestamp.proto",
  "parapet/v1/options.proto",
];

describe("reflection over a Connect gRPC client", () => {
  it("answers file_containing_symbol with the file and every transitive import", async () => {
    const [res] = await reflect([{ host: "example", messageRequest: { case: "fileContainingSymbol", value: "parapet.v1.PolicyService" } }]);
    expect(res.validHost).toBe("example");
    expect(res.originalRequest?.messageRequest).toEqual({
      case: "fileContainingSymbol",
      value: "parapet.v1.PolicyService",
    });
    const names = fileNames(res);
    expect(names[0]).toBe("parapet/v1/policies.proto");
    expect(names.slice(1).sort()).toEqual(policyDeps);

    // The set must link on its own, as grpcurl and buf curl link it. Files come
    // requested-first (grpc-go order), so resolve imports by name, not by position.
    const files = (res.messageResponse.value as v1.FileDescriptorResponse).fileDescriptorProto.map((b) => fromBinary(FileDescriptorProtoSchema, b));
    const byName = new Map(files.map((f) => [f.name, f]));
    const registry = createFileRegistry(files[0], (name) => byName.get(name));
    expect([...registry.files].map((f) => f.proto.name).sort()).toEqual([...byName.keys()].sort());
    const request = registry.getMessage("parapet.v1.PolicyRequest");
    expect(request?.fields.map((f) => f.name)).toEqual(["name", "default_threshold", "detectors", "custom_guardrail_ids"]);
    expect(registry.getService("parapet.v1.PolicyService")?.methods.map((m) => m.name)).toEqual([
      "CreatePolicy",
      "GetPolicy",
      "UpdatePolicy",
      "DeletePolicy",
      "ListPolicies",
      "ListPolicyVersions",
    ]);
    // Custom options survive re-encoding: protovalidate rules and HTTP annotations.
    expect(registry.getExtension("buf.validate.field")).toBeDefined();
    const nameField = registry.getMessage("parapet.v1.PolicyRequest")!.fields[0];
    expect(getOption(nameField, validateField).required).toBe(true);
    const getPolicy = registry.getService("parapet.v1.PolicyService")!.method.getPolicy;
    expect(getOption(getPolicy, http).pattern).toEqual({
      case: "get",
      value: "/v1/policies/{policy_id}",
    });
  });

  it("resolves every kind of symbol, nested ones included", async () => {
    const symbols: [string, string][] = [
      ["parapet.v1.PolicyService", "parapet/v1/policies.proto"],
      ["parapet.v1.PolicyService.GetPolicy", "parapet/v1/policies.proto"],
      ["parapet.v1.PolicyRequest", "parapet/v1/policies.proto"],
      [".parapet.v1.PolicyRequest", "parapet/v1/policies.proto"],
      ["parapet.v1.PolicyRequest.default_threshold", "parapet/v1/policies.proto"],
      ["parapet.v1.nullable", "parapet/v1/options.proto"],
      ["parapet.v1.Error", "parapet/v1/errors.proto"],
      ["buf.validate.field", "buf/validate/validate.proto"],
      ["google.protobuf.DescriptorProto.ExtensionRange", "google/protobuf/descriptor.proto"],
      ["google.protobuf.FieldDescriptorProto.Type", "google/protobuf/descriptor.proto"],
      ["google.protobuf.FieldDescriptorProto.TYPE_STRING", "google/protobuf/descriptor.proto"],
      ["grpc.reflection.v1alpha.ServerReflection", "grpc/reflection/v1alpha/reflection.proto"],
    ];
    const responses = await reflect(symbols.map(([value]) => ({ messageRequest: { case: "fileContainingSymbol", value } })));
    expect(responses.map((r) => fileNames(r)[0])).toEqual(symbols.map(([, file]) => file));
  });

  it("does not resend files already sent on the stream, except the one asked for", async () => {
    const [policies, projects, again] = await reflect([
      { messageRequest: { case: "fileContainingSymbol", value: "parapet.v1.PolicyService" } },
      { messageRequest: { case: "fileContainingSymbol", value: "parapet.v1.ProjectService" } },
      { messageRequest: { case: "fileByFilename", value: "parapet/v1/options.proto" } },
    ]);
    expect(fileNames(policies)).toHaveLength(1 + policyDeps.length);
    expect(fileNames(projects)).toEqual(["parapet/v1/projects.proto"]);
    expect(fileNames(again)).toEqual(["parapet/v1/options.proto"]);
  });

  it("answers file_by_filename, extensions and extension numbers", async () => {
    const [byName, ext, extVal, numbers, methodNumbers] = await reflect([
      { messageRequest: { case: "fileByFilename", value: "parapet/v1/guard.proto" } },
      {
        messageRequest: {
          case: "fileContainingExtension",
          value: { containingType: "google.protobuf.FieldOptions", extensionNumber: 50001 },
        },
      },
      {
        messageRequest: {
          case: "fileContainingExtension",
          value: { containingType: "google.protobuf.FieldOptions", extensionNumber: 1159 },
        },
      },
      { messageRequest: { case: "allExtensionNumbersOfType", value: "google.protobuf.FieldOptions" } },
      { messageRequest: { case: "allExtensionNumbersOfType", value: "parapet.v1.PolicyRequest" } },
    ]);
    expect(fileNames(byName)[0]).toBe("parapet/v1/guard.proto");
    expect(fileNames(byName)).toContain("google/protobuf/struct.proto");
    expect(fileNames(ext)[0]).toBe("parapet/v1/options.proto");
    expect(fileNames(extVal)[0]).toBe("buf/validate/validate.proto");
    expect(numbers.messageResponse.case).toBe("allExtensionNumbersResponse");
    const fieldOptions = numbers.messageResponse.value as v1.ExtensionNumberResponse;
    expect(fieldOptions.baseTypeName).toBe("google.protobuf.FieldOptions");
    expect(fieldOptions.extensionNumber).toEqual(expect.arrayContaining([1159, 50001]));
    expect(methodNumbers.messageResponse.value).toMatchObject({
      baseTypeName: "parapet.v1.PolicyRequest",
      extensionNumber: [],
    });
  });

  it("answers NOT_FOUND for unknown symbols, files, extensions and types, and keeps the stream open", async () => {
    const responses = await reflect([
      { messageRequest: { case: "fileContainingSymbol", value: "parapet.v1.NoSuchThing" } },
      { messageRequest: { case: "fileByFilename", value: "parapet/v1/nope.proto" } },
      {
        messageRequest: {
          case: "fileContainingExtension",
          value: { containingType: "google.protobuf.FieldOptions", extensionNumber: 1 },
        },
      },
      { messageRequest: { case: "allExtensionNumbersOfType", value: "parapet.v1.Nope" } },
      { messageRequest: { case: undefined } },
      { messageRequest: { case: "listServices", value: "*" } },
    ]);
    expect(responses.slice(0, 4).map(errorCode)).toEqual([NOT_FOUND, NOT_FOUND, NOT_FOUND, NOT_FOUND]);
    expect(responses[0].messageResponse.value).toMatchObject({
      errorMessage: expect.stringContaining("parapet.v1.NoSuchThing"),
    });
    expect(errorCode(responses[4])).toBe(3);
    expect(responses[5].messageResponse.case).toBe("listServicesResponse");
  });

  it("serves v1alpha with the same answers", async () => {
    const client = createClient(v1alpha.ServerReflection, createGrpcTransport({ baseUrl }));
    async function* input() {
      yield create(v1alpha.ServerReflectionRequestSchema, {
        messageRequest: { case: "listServices", value: "" },
      });
      yield create(v1alpha.ServerReflectionRequestSchema, {
        messageRequest: { case: "fileContainingSymbol", value: "parapet.v1.PolicyRequest" },
      });
      yield create(v1alpha.ServerReflectionRequestSchema, {
        messageRequest: { case: "fileContainingSymbol", value: "parapet.v1.Missing" },
      });
    }
    const out: v1alpha.ServerReflectionResponse[] = [];
    for await (const res of client.serverReflectionInfo(input())) out.push(res);

    expect(out[0].$typeName).toBe("grpc.reflection.v1alpha.ServerReflectionResponse");
    expect(out[0].messageResponse.case).toBe("listServicesResponse");
    const listed = (out[0].messageResponse.value as v1alpha.ListServiceResponse).service.map((s) => s.name);
    expect(listed).toEqual(expect.arrayContaining(parapetServiceNames));
    expect(out[1].originalRequest?.messageRequest.value).toBe("parapet.v1.PolicyRequest");
    expect(fileNames(out[1])[0]).toBe("parapet/v1/policies.proto");
    expect(fileNames(out[1]).slice(1).sort()).toEqual(policyDeps);
    expect(out[2].messageResponse).toMatchObject({ case: "errorResponse", value: { errorCode: NOT_FOUND } });
  });
});
