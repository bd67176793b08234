// The OpenAPI plugin (tools/protoc-gen-openapi) on a proto written for the
// test: every proto3 JSON mapping the Parapet protos do not use yet (64-bit
// integers, enums, maps, oneofs, well-known types, path variables with a
// body "*"), checked against what protobuf-es really writes with the REST
// layer's options, and the plugin's refusals of what the REST layer cannot serve.
import { execFileSync } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { create, createFileRegistry, fromBinary, fromJson, type DescMessage } from "@bufbuild/protobuf";
import { CodeGeneratorRequestSchema, FileDescriptorSetSchema } from "@bufbuild/protobuf/wkt";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { lintOpenApi, schemaCompiler } from "../../scripts/lint-openapi.js";
import { renderJson } from "../../src/server/rest/json-shape.js";
import { protocGenOpenapi } from "../../tools/protoc-gen-openapi/plugin.js";

const root = path.resolve(import.meta.dirname, "../..");
const buf = path.join(root, "node_modules", ".bin", "buf");

const sample = `syntax = "proto3";
package sample.v1;

import "buf/validate/validate.proto";
import "google/api/annotations.proto";
import "google/api/httpbody.proto";
import "google/protobuf/duration.proto";
import "google/protobuf/struct.proto";
import "google/protobuf/timestamp.proto";
import "google/protobuf/wrappers.proto";
import "parapet/v1/options.proto";

// Things in a box.
service ThingService {
  // Reads one thing.
  // Second line of the description.
  rpc GetThing(GetThingRequest) returns (Thing) {
    option (google.api.http) = {get: "/v1/boxes/{box_id}/things/{thing_id=*}"};
  }
  rpc PatchThing(PatchThingRequest) returns (Thing) {
    option (google.api.http) = {
      patch: "/v1/things/{thing_id}"
      body: "*"
    };
  }
  rpc PutThing(PutThingRequest) returns (Thing) {
    option (google.api.http) = {
      put: "/v1/things/{thing_id}"
      body: "thing"
    };
  }
  rpc Upload(UploadRequest) returns (Error) {
    option deprecated = true;
    option (google.api.http) = {
      post: "/v1/uploads"
      body: "raw"
    };
  }
  rpc NotOnRest(GetThingRequest) returns (Thing);
  rpc CheckRules(RulesRequest) returns (Error) {
    option (google.api.http) = {
      post: "/v1/rules"
      body: "*"
    };
  }
}

// Which rules make a field required: its zero value (what an absent field reads as) fails them.
message RulesRequest {
  string kind = 1 [(buf.validate.field).string = {in: ["a", "b"]}];
  string maybe = 2 [(buf.validate.field).string = {in: ["", "a"]}];
  string id = 3 [(buf.validate.field).string.min_len = 1];
  string digits = 4 [(buf.validate.field).string.pattern = "^[0-9]+$"];
  string loose = 5 [(buf.validate.field).string.pattern = "^[0-9]*$"];
  optional string opt = 6 [(buf.validate.field).string.min_len = 1];
  int32 count = 7 [(buf.validate.field).int32.gt = 0];
  int32 around = 8 [(buf.validate.field).int32 = {gte: -5, lte: 5}];
  int32 outside = 9 [(buf.validate.field).int32 = {gt: 10, lt: 5}];
  repeated string items = 10 [(buf.validate.field).repeated.min_items = 1];
  map<string, string> pairs = 11 [(buf.validate.field).map.min_pairs = 1];
  string skipped = 12 [(buf.validate.field).ignore = IGNORE_IF_ZERO_VALUE, (buf.validate.field).string.min_len = 1];
  Color color = 13 [(buf.validate.field).enum = {not_in: [0]}];
  bool yes = 14 [(buf.validate.field).bool.const = true];
  Thing thing = 15;
  string email = 16 [(buf.validate.field).string.email = true];
}

message Error {
  string error = 1;
  int32 code = 2;
}

enum Color {
  COLOR_UNSPECIFIED = 0;
  COLOR_RED = 1;
}

message GetThingRequest {
  string box_id = 1;
  string thing_id = 2;
  // Page size.
  optional int32 limit = 3 [(buf.validate.field).int32 = {gte: 1, lte: 50}];
  bool verbose = 4;
  Color color = 5;
  repeated string tags = 6;
}

message PatchThingRequest {
  string thing_id = 1;
  string name = 2 [(buf.validate.field).required = true, (buf.validate.field).string = {max_len: 10}];
  int64 count = 3;
}

message PutThingRequest {
  string thing_id = 1;
  Thing thing = 2 [(buf.validate.field).required = true];
}

message UploadRequest {
  google.api.HttpBody raw = 1;
}

// A thing.
message Thing {
  string name = 1 [(buf.validate.field).string.in = "a", (buf.validate.field).string.in = "b"];
  int64 big = 2;
  uint64 bigger = 3;
  int32 small = 4;
  double ratio = 5;
  bytes blob = 6;
  Color color = 7;
  map<int32, string> by_number = 8;
  map<string, Thing> children = 9;
  google.protobuf.Timestamp at = 10;
  google.protobuf.Duration took = 11;
  google.protobuf.Struct meta = 12;
  google.protobuf.Value anything = 13;
  google.protobuf.Int64Value wrapped = 14;
  optional string note = 15 [(parapet.v1.nullable) = true];
  repeated string list = 16 [(parapet.v1.nullable) = true];
  oneof choice {
    string left = 17;
    int32 right = 18;
  }
  Thing parent = 19;
  optional bool flag = 20;
  repeated Thing extras = 21 [(parapet.v1.omit_empty) = true];
  map<string, string> labels = 22 [(parapet.v1.omit_empty) = true];
}
`;

let dir: string;
let fileSet: ReturnType<typeof fromBinary<typeof FileDescriptorSetSchema>>;

/** Builds `proto` (sample/v1/sample.proto) with the vendored imports and returns its descriptor set. */
function build(proto: string) {
  const work = mkdtempSync(path.join(dir, "proto-"));
  mkdirSync(path.join(work, "sample/v1"), { recursive: true });
  writeFileSync(path.join(work, "sample/v1/sample.proto"), proto);
  cpSync(path.join(root, "third_party/proto/google"), path.join(work, "google"), { recursive: true });
  cpSync(path.join(root, "third_party/proto/buf"), path.join(work, "buf"), { recursive: true });
  cpSync(path.join(root, "proto/parapet/v1/options.proto"), path.join(work, "parapet/v1/options.proto"));
  const out = path.join(work, "image.binpb");
  execFileSync(buf, ["build", work, "--as-file-descriptor-set", "-o", out], { cwd: work, stdio: "pipe" });
  return fromBinary(FileDescriptorSetSchema, readFileSync(out));
}

function run(set: typeof fileSet, parameter: string): any {
  const request = create(CodeGeneratorRequestSchema, { fileToGenerate: ["sample/v1/sample.proto"], parameter, protoFile: set.file });
  const response = protocGenOpenapi.run(request);
  if (response.error) throw new Error(response.error);
  expect(response.file.map((f) => f.name)).toEqual(["openapi.json"]);
  return JSON.parse(response.file[0].content);
}

const options = "error_message=sample.v1.Error,nullable_option=parapet.v1.nullable,omit_empty_option=parapet.v1.omit_empty,title=Sample";

beforeAll(() => {
  dir = mkdtempSync(path.join(tmpdir(), "parapet-openapi-"));
  fileSet = build(sample);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("protoc-gen-openapi on a sample proto", () => {
  let doc: any;
  let thing: DescMessage;
  beforeAll(() => {
    doc = run(fileSet, options);
    thing = createFileRegistry(fileSet).getMessage("sample.v1.Thing")!;
  });

  it("is a valid OpenAPI 3.1 document whose schemas compile in strict mode", async () => {
    expect(await lintOpenApi(doc, { requireExamples: false })).toEqual([]);
    expect(doc.info).toMatchObject({ title: "Sample", version: "v1" });
  });

  it("has one operation per RPC with an HTTP rule, and none for the others", () => {
    const ops = Object.entries(doc.paths).flatMap(([p, item]: [string, any]) => Object.keys(item).map((m) => `${m} ${p}`));
    expect(ops.sort()).toEqual([
      "get /v1/boxes/{box_id}/things/{thing_id}",
      "patch /v1/things/{thing_id}",
      "post /v1/rules",
      "post /v1/uploads",
      "put /v1/things/{thing_id}",
    ]);
  });

  it("takes descriptions from the comments", () => {
    const get = doc.paths["/v1/boxes/{box_id}/things/{thing_id}"].get;
    expect(get.summary).toBe("Reads one thing");
    expect(get.description).toBe("Reads one thing.\nSecond line of the description.");
    expect(get.operationId).toBe("ThingService_GetThing");
    expect(get["x-rpc"]).toBe("/sample.v1.ThingService/GetThing");
    expect(doc.tags).toEqual([{ name: "ThingService", description: "Things in a box." }]);
    expect(doc.components.schemas["sample.v1.Thing"].description).toBe("A thing.\n\nAt most one of `left`, `right`.");
  });

  it("binds path variables, and the other scalar fields to query parameters when the body is not the whole request", () => {
    const get = doc.paths["/v1/boxes/{box_id}/things/{thing_id}"].get;
    const params = get.parameters.map((p: any) => `${p.in}:${p.name}`);
    // Enums and lists are not query parameters on the REST paths (src/server/rest/handler.ts).
    expect(params).toEqual(["path:box_id", "path:thing_id", "query:limit", "query:verbose"]);
    expect(get.parameters[2]).toMatchObject({ description: "Page size.", schema: { type: "integer", minimum: 1, maximum: 50 } });
    expect(get.requestBody).toBeUndefined();
    expect(Object.keys(get.responses)).not.toContain("400");
  });

  it('leaves the path variables out of a body "*" and keeps its required fields', () => {
    const patch = doc.paths["/v1/things/{thing_id}"].patch;
    const body = patch.requestBody.content["application/json"].schema;
    expect(Object.keys(body.properties)).toEqual(["name", "count"]);
    expect(body.required).toEqual(["name"]);
    expect(body.properties.name).toMatchObject({ type: "string", maxLength: 10 });
    expect(body.properties.count).toMatchObject({ type: ["string", "integer"], format: "int64" });
    expect(patch.requestBody.required).toBe(true);
    expect(patch.parameters.map((p: any) => p.name)).toEqual(["thing_id"]);
  });

  it("takes a body field as the body, raw bodies as any content type, and marks deprecated RPCs", () => {
    const put = doc.paths["/v1/things/{thing_id}"].put;
    expect(put.requestBody.content["application/json"].schema).toEqual({ $ref: "#/components/schemas/sample.v1.Thing-Input" });
    expect(put.requestBody.required).toBe(true);
    const upload = doc.paths["/v1/uploads"].post;
    expect(upload.requestBody.content).toEqual({ "*/*": {} });
    expect(upload.deprecated).toBe(true);
    expect(upload.responses["413"]).toEqual({ $ref: "#/components/responses/PayloadTooLarge" });
  });

  it("answers every error with the configured error message", () => {
    for (const r of Object.values<any>(doc.components.responses)) {
      expect(r.content["application/json"].schema).toEqual({ $ref: "#/components/schemas/sample.v1.Error" });
      expect(r.headers["X-Request-Id"]).toBeDefined();
    }
    expect(doc.components.schemas["sample.v1.Error"].required).toEqual(["error", "code"]);
  });

  it("maps scalars, enums, maps and well-known types as proto3 JSON", () => {
    const p = doc.components.schemas["sample.v1.Thing"].properties;
    expect(p.big).toEqual({ type: "string", format: "int64", pattern: "^-?[0-9]+$" });
    expect(p.bigger).toEqual({ type: "string", pattern: "^[0-9]+$" });
    expect(p.small).toEqual({ type: "integer", format: "int32" });
    expect(p.blob).toEqual({ type: "string", contentEncoding: "base64" });
    expect(p.color).toEqual({ type: "string", enum: ["COLOR_UNSPECIFIED", "COLOR_RED"] });
    expect(p.by_number).toEqual({ type: "object", additionalProperties: { type: "string" }, propertyNames: { pattern: "^-?[0-9]+$" } });
    expect(p.children).toEqual({ type: "object", additionalProperties: { $ref: "#/components/schemas/sample.v1.Thing" } });
    expect(p.at).toEqual({ type: "string", format: "date-time" });
    expect(p.meta).toEqual({ type: "object" });
    expect(p.anything).toEqual({});
    expect(p.wrapped).toEqual({ type: "string", format: "int64", pattern: "^-?[0-9]+$" });
    expect(p.note).toEqual({ type: ["string", "null"] });
    expect(p.list).toEqual({ type: ["array", "null"], items: { type: "string" } });
    // Request side: enums by name or number, constraints from protovalidate.
    const input = doc.components.schemas["sample.v1.Thing-Input"].properties;
    expect(input.color.enum).toEqual(["COLOR_UNSPECIFIED", "COLOR_RED", 0, 1]);
    expect(input.name.enum).toEqual(["a", "b"]);
  });

  it("describes exactly the JSON protobuf-es writes with the REST layer's options", () => {
    const validate = schemaCompiler(doc)({ $ref: "#/components/schemas/sample.v1.Thing" });
    // The REST layer's own rendering (proto names, implicit fields, nullable fields as null).
    const write = (json: object) => renderJson(thing, fromJson(thing, json as never)) as Record<string, unknown>;
    const full = write({
      name: "a",
      big: "-9007199254740993",
      bigger: "18446744073709551615",
      small: -5,
      ratio: "NaN",
      blob: "AAE=",
      color: "COLOR_RED",
      byNumber: { "-3": "x" },
      children: { k: { name: "b", left: "l" } },
      at: "2026-01-02T03:04:05.678Z",
      took: "1.5s",
      meta: { a: [1, { b: null }] },
      anything: null,
      wrapped: "7",
      note: "n",
      list: ["x"],
      right: 3,
      parent: { parent: { flag: true } },
      flag: false,
      extras: [{ name: "b" }],
      labels: { k: "v" },
    });
    expect(full).toMatchObject({ extras: [{ name: "b" }], labels: { k: "v" } });
    expect(validate(full), JSON.stringify(validate.errors)).toBe(true);
    const empty = write({});
    expect(validate(empty), JSON.stringify(validate.errors)).toBe(true);
    // omit_empty: left out when empty, at the top and inside nested messages, and never written empty.
    expect(empty).not.toHaveProperty("extras");
    expect(empty).not.toHaveProperty("labels");
    expect(empty).toHaveProperty("list", null);
    expect(write({ children: { k: {} }, extras: [{}] })).toMatchObject({ children: { k: { name: "" } }, extras: [{ name: "" }] });
    expect((write({ children: { k: {} } }) as any).children.k).not.toHaveProperty("extras");
    expect(validate({ ...empty, extras: [] })).toBe(false);
    expect(validate({ ...empty, labels: {} })).toBe(false);
    // The schema is strict: a field the service does not write, or a wrong type, fails.
    expect(validate({ ...empty, extra: 1 })).toBe(false);
    expect(validate({ ...empty, big: 5 })).toBe(false);
    const { small: _small, ...missing } = empty;
    expect(validate(missing)).toBe(false);
  });

  it("requires the request fields whose zero value the protovalidate rules refuse", () => {
    const rules = doc.components.schemas["sample.v1.RulesRequest"];
    expect(rules.required).toEqual(["kind", "id", "digits", "count", "items", "pairs", "color", "yes", "email"]);
    // A string field with `in` rules, "" not among them: required as well.
    expect(doc.components.schemas["sample.v1.Thing-Input"].required).toEqual(["name"]);
    expect(doc.components.schemas["sample.v1.Thing"].required).toContain("name");
  });

  it("has no servers but the relative one, no licence and no examples unless asked", () => {
    expect(doc.servers).toEqual([{ url: "/", description: expect.any(String) }]);
    expect(doc.info.license).toBeUndefined();
    expect(JSON.stringify(doc.paths)).not.toContain('"examples"');
  });

  it("adds a licence, a templated server and the examples of a file", async () => {
    const file = path.join(dir, "examples.json");
    writeFileSync(
      file,
      JSON.stringify({
        ThingService_PatchThing: { summary: "Rename", parameters: { thing_id: "t1" }, request: { name: "a" }, response: { name: "a" } },
        ThingService_GetThing: { parameters: { box_id: "b1", thing_id: "t1", limit: 5 }, status: 404, response: { error: "not_found", code: 404 } },
      }),
    );
    const withExamples = run(fileSet, `${options},license=MIT,port=9090,examples=${file}`);
    expect(withExamples.info.license).toEqual({ name: "MIT", identifier: "MIT" });
    expect(withExamples.servers[1]).toMatchObject({ url: "{scheme}://{host}:{port}", variables: { port: { default: "9090" } } });
    const patch = withExamples.paths["/v1/things/{thing_id}"].patch;
    expect(patch.parameters[0].example).toBe("t1");
    expect(patch.requestBody.content["application/json"].examples).toEqual({ example: { summary: "Rename", value: { name: "a" } } });
    expect(patch.responses["200"].content["application/json"].examples.example.value).toEqual({ name: "a" });
    const get = withExamples.paths["/v1/boxes/{box_id}/things/{thing_id}"].get;
    expect(get.parameters.map((p: any) => p.example)).toEqual(["b1", "t1", 5, undefined]);
    // An example of another status makes that response explicit, a copy of the shared one.
    expect(get.responses["404"].content["application/json"]).toMatchObject({
      schema: { $ref: "#/components/schemas/sample.v1.Error" },
      examples: { example: { value: { error: "not_found", code: 404 } } },
    });
    expect(withExamples.components.responses.NotFound.content["application/json"].examples).toBeUndefined();
    // The 404 example is a valid Error; the PATCH answer leaves out fields a Thing always has.
    const problems = await lintOpenApi(withExamples, { requireExamples: false });
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(
      /^PATCH \/v1\/things\/\{thing_id\} 200 application\/json example example: the example does not match its schema: .*must have required property 'big'/,
    );

    const refused = (examples: object, opts = options) => {
      writeFileSync(file, JSON.stringify(examples));
      return () => run(fileSet, `${opts},examples=${file}`);
    };
    expect(refused({ ThingService_Nope: {} })).toThrow(/no operation ThingService_Nope/);
    expect(refused({ ThingService_GetThing: { parameters: { nope: 1 } } })).toThrow(/ThingService_GetThing has no parameter nope/);
    expect(refused({ ThingService_GetThing: { request: {} } })).toThrow(/ThingService_GetThing takes no request body/);
    expect(refused({ ThingService_GetThing: { respone: {} } })).toThrow(/unknown keys respone/);
    expect(() => run(fileSet, `${options},examples=${path.join(dir, "missing.json")}`)).toThrow(/cannot read/);
    expect(() => run(fileSet, `${options},port=eighty`)).toThrow(/port=eighty/);
  });

  it("refuses unknown options and a missing or unknown error message", () => {
    expect(() => run(fileSet, options + ",colour=red")).toThrow(/unknown option 'colour'/);
    expect(() => run(fileSet, "title=x")).toThrow(/error_message/);
    expect(() => run(fileSet, "error_message=sample.v1.Nope")).toThrow(/no message named sample.v1.Nope/);
    expect(() => run(fileSet, "error_message=sample.v1.Error,nullable_option=sample.v1.nope")).toThrow(/no extension named/);
    expect(() => run(fileSet, "error_message=sample.v1.Error,omit_empty_option=sample.v1.nope")).toThrow(/omit_empty_option: no extension named/);
  });

  it("documents omit_empty fields as optional and never empty in answers, as any list in requests", () => {
    const schemas = doc.components.schemas;
    expect(schemas["sample.v1.Thing"].required).not.toContain("extras");
    expect(schemas["sample.v1.Thing"].required).not.toContain("labels");
    expect(schemas["sample.v1.Thing"].required).toContain("list");
    expect(schemas["sample.v1.Thing"].properties.extras).toEqual({ type: "array", items: { $ref: "#/components/schemas/sample.v1.Thing" }, minItems: 1 });
    expect(schemas["sample.v1.Thing"].properties.labels).toMatchObject({ type: "object", minProperties: 1 });
    expect(schemas["sample.v1.Thing-Input"].properties.extras).toEqual({ type: "array", items: { $ref: "#/components/schemas/sample.v1.Thing-Input" } });
  });

  it("refuses omit_empty where the REST layer would not apply it", () => {
    const scalar = build(sample.replace("optional bool flag = 20;", "optional bool flag = 20 [(parapet.v1.omit_empty) = true];"));
    expect(() => run(scalar, options)).toThrow(/Thing.flag: only repeated and map fields/);
    const both = build(
      sample.replace(
        "repeated string list = 16 [(parapet.v1.nullable) = true];",
        "repeated string list = 16 [(parapet.v1.nullable) = true, (parapet.v1.omit_empty) = true];",
      ),
    );
    expect(() => run(both, options)).toThrow(/Thing.list: a field cannot be both null and omitted/);
  });

  it("refuses path templates the REST layer cannot serve", () => {
    const multi = build(sample.replace('{get: "/v1/boxes/{box_id}/things/{thing_id=*}"}', '{get: "/v1/{thing_id=things/**}"}'));
    expect(() => run(multi, options)).toThrow(/unsupported path template segment/);
    const unknown = build(sample.replace('{get: "/v1/boxes/{box_id}/things/{thing_id=*}"}', '{get: "/v1/things/{nope}"}'));
    expect(() => run(unknown, options)).toThrow(/path variable \{nope\} is not a field/);
    const twice = build(sample.replace('put: "/v1/things/{thing_id}"', 'patch: "/v1/things/{thing_id}"'));
    expect(() => run(twice, options)).toThrow(/PATCH \/v1\/things\/\{thing_id\} is bound twice/);
  });
});
