// The OpenAPI 3.1 document: every google.api.http binding of the services in
// the files buf asked for, the message schemas they reach, and the Error
// object every failure answers with.
import type { DescFile, DescMessage, DescService } from "@bufbuild/protobuf";
import { commentOf } from "./comments.js";
import type { JsonSchema } from "./json-schema.js";
import { applyExamples, type Examples } from "./examples.js";
import { MessageSchemas } from "./message-schemas.js";
import { bindingsOf, messagesOf, operationOf } from "./operations.js";
import type { ProtoOptions } from "./proto-options.js";

export interface DocumentOptions {
  title: string;
  /** Full name of the message every error response carries. */
  errorMessage: string;
  /** SPDX identifier of the API's licence (info.license); "" for none. */
  license?: string;
  /** The port a templated server defaults to; "" for no templated server. */
  port?: string;
  examples?: Examples;
}

/**
 * `/` first: relative to where the document was fetched from, which for a document the
 * service serves itself is the service (docs/openapi.md#servers). Then, for a copy loaded
 * from a file, where nothing is relative, the address to fill in.
 */
function serversOf(port: string): JsonSchema[] {
  const servers: JsonSchema[] = [{ url: "/", description: "The server this document was fetched from (GET /openapi.json)." }];
  if (port === "") return servers;
  servers.push({
    url: "{scheme}://{host}:{port}",
    description: "Any other address: the document loaded from a file.",
    variables: {
      scheme: { enum: ["http", "https"], default: "http", description: "https when the service has TLS_CERT_FILE and TLS_KEY_FILE set." },
      host: { default: "localhost" },
      port: { default: port },
    },
  });
  return servers;
}

const errorResponses: [name: string, description: string, retryAfter?: boolean][] = [
  [
    "BadRequest",
    "The body is not JSON, not a JSON object where one is needed, or the request is otherwise unreadable (`malformed_json`, `bad_request`, `duplicate_name`).",
  ],
  ["Unauthorized", "Missing, malformed, unknown or revoked API key (`unauthenticated`)."],
  ["Forbidden", "The key's kind or scope does not allow this call, or the organization's feature switch is off (`forbidden`, `feature_disabled`, ...)."],
  ["NotFound", "No resource with this id in the caller's organization (`not_found`)."],
  ["PayloadTooLarge", "The body is over the configured limit (`payload_too_large`)."],
  ["ValidationFailed", "A field or cross-field rule failed, or a field has the wrong JSON type; the message names every violation (`validation_failed`)."],
  ["RateLimited", "Over the key's rate limit, or too many failed authentications (`rate_limited`).", true],
  ["Internal", "An unexpected failure (`internal`); the service log has the cause under the request id."],
  ["Unavailable", "Storage is unreachable (`unavailable`).", true],
  ["Timeout", "The request's deadline passed (`timeout`)."],
  ["Error", "Any other failure, e.g. 405 `method_not_allowed`, 408, 409 `conflict` / `policy_in_use`, 410 `endpoint_retired`, 431."],
];

function findMessage(files: readonly DescFile[], typeName: string): DescMessage {
  const visit = (messages: readonly DescMessage[]): DescMessage | undefined => {
    for (const m of messages) {
      if (m.typeName === typeName) return m;
      const nested = visit(m.nestedMessages);
      if (nested) return nested;
    }
    return undefined;
  };
  for (const f of files) {
    const m = visit(f.messages);
    if (m) return m;
  }
  throw new Error(`error_message: no message named ${typeName} in the request`);
}

/** `files`: the files to generate (their services); `allFiles`: every file of the request (imports too). */
export function buildDocument(files: readonly DescFile[], allFiles: readonly DescFile[], protoOptions: ProtoOptions, options: DocumentOptions): JsonSchema {
  const services: DescService[] = files.flatMap((f) => f.services);
  const bindings = bindingsOf(services, protoOptions);
  const schemas = new MessageSchemas(protoOptions);
  const errorMessage = findMessage(allFiles, options.errorMessage);
  schemas.use(errorMessage, "response");
  for (const b of bindings) {
    const { request, response } = messagesOf(b);
    for (const m of request) schemas.use(m, "request");
    for (const m of response) schemas.use(m, "response");
  }

  const paths: Record<string, Record<string, JsonSchema>> = {};
  for (const b of bindings) {
    const item = (paths[b.rule.pathTemplate.replace(/=\*\}/g, "}")] ??= {});
    if (item[b.rule.verb]) throw new Error(`${b.rule.verb.toUpperCase()} ${b.rule.pathTemplate} is bound twice`);
    item[b.rule.verb] = operationOf(b, schemas);
  }

  const errorRef = schemas.ref(errorMessage, "response");
  const requestIdRef = { $ref: "#/components/headers/X-Request-Id" };
  const responses: Record<string, JsonSchema> = {};
  for (const [name, description, retryAfter] of errorResponses) {
    const headers: JsonSchema = { "X-Request-Id": requestIdRef };
    if (retryAfter) headers["Retry-After"] = { $ref: "#/components/headers/Retry-After" };
    responses[name] = { description, headers, content: { "application/json": { schema: errorRef } } };
  }

  if (options.examples) applyExamples(paths, responses, options.examples);

  const usedServices = services.filter((s) => bindings.some((b) => b.service === s));
  const packages = [...new Set(usedServices.map((s) => s.file.proto.package))];
  const versions = [...new Set(packages.map((p) => p.split(".").pop()!))];
  return {
    openapi: "3.1.0",
    info: {
      title: options.title,
      // The contract's version, from the proto packages (parapet.v1 -> v1).
      version: versions.join(", ") || "0",
      description: `The REST/JSON paths of ${packages.join(", ")}, generated from the protos' google.api.http options and comments. The same calls are served over gRPC, gRPC-Web and Connect (\`x-rpc\` names the method).`,
      ...(options.license ? { license: { name: options.license, identifier: options.license } } : {}),
    },
    servers: serversOf(options.port ?? ""),
    security: [{ bearer: [] }],
    tags: usedServices.map((s) => ({ name: s.name, ...(commentOf(s) ? { description: commentOf(s) } : {}) })),
    paths,
    components: {
      schemas: Object.fromEntries(Object.entries(schemas.components).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))),
      responses,
      headers: {
        "X-Request-Id": { description: "The request's id (UUIDv7), also the Error object's `request_id`.", schema: { type: "string", format: "uuid" } },
        "Retry-After": { description: "Seconds to wait before retrying.", schema: { type: "integer", minimum: 0 } },
      },
      securitySchemes: {
        bearer: {
          type: "http",
          scheme: "bearer",
          description: "An API key: `Authorization: Bearer <key>`. Platform keys call the management interface, screening keys screen.",
        },
      },
    },
  };
}
