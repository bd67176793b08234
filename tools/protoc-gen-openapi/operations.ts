// One OpenAPI operation per RPC with a google.api.http rule, as the REST
// layer (src/server/rest/handler.ts) serves it: path variables are
// single-segment fields of the request; body "*" is the whole request, a
// field name is that field; without body "*" the request's other scalar
// fields are query parameters.
import type { DescMessage, DescMethod, DescService } from "@bufbuild/protobuf";
import { commentOf, firstSentence } from "./comments.js";
import type { JsonSchema } from "./json-schema.js";
import type { MessageSchemas } from "./message-schemas.js";
import type { HttpRule, ProtoOptions } from "./proto-options.js";

const rawBodyType = "google.api.HttpBody";

export interface Binding {
  service: DescService;
  method: DescMethod;
  rule: HttpRule;
  /** Path variables, in path order. */
  variables: string[];
}

/** Path variables of a template; the REST layer serves `{field}` and `{field=*}` only, and so does the document. */
function pathVariables(template: string, where: string): string[] {
  if (!template.startsWith("/")) throw new Error(`${where}: path template must start with '/': ${template}`);
  const vars: string[] = [];
  for (const seg of template.slice(1).split("/")) {
    const v = /^\{([a-z_][a-z0-9_]*)(=\*)?\}$/.exec(seg);
    if (v) vars.push(v[1]);
    else if (seg.includes("{") || seg.includes("*")) throw new Error(`${where}: unsupported path template segment '${seg}' in ${template}`);
  }
  return vars;
}

export function bindingsOf(services: readonly DescService[], options: ProtoOptions): Binding[] {
  const out: Binding[] = [];
  for (const service of services) {
    for (const method of service.methods) {
      const rule = options.httpRule(method);
      if (!rule) continue;
      const where = `${service.typeName}.${method.name}`;
      if (method.methodKind !== "unary") throw new Error(`${where}: only unary RPCs can have an HTTP rule`);
      const variables = pathVariables(rule.pathTemplate, where);
      for (const v of variables) {
        if (!method.input.fields.some((f) => f.name === v)) throw new Error(`${where}: path variable {${v}} is not a field of ${method.input.typeName}`);
      }
      if (rule.body !== "" && rule.body !== "*" && !method.input.fields.some((f) => f.name === rule.body)) {
        throw new Error(`${where}: body '${rule.body}' is not a field of ${method.input.typeName}`);
      }
      out.push({ service, method, rule, variables });
    }
  }
  return out;
}

/** The messages a binding reads and writes as JSON, for MessageSchemas.use. */
export function messagesOf(b: Binding): { request: DescMessage[]; response: DescMessage[] } {
  const request: DescMessage[] = [];
  if (b.rule.body === "*") request.push(b.method.input);
  else if (b.rule.body !== "") {
    const field = b.method.input.fields.find((f) => f.name === b.rule.body)!;
    if (field.message && field.message.typeName !== rawBodyType) request.push(field.message);
  }
  const response = b.method.output.typeName === rawBodyType ? [] : [b.method.output];
  return { request, response };
}

/** Error responses (components.responses) every operation lists; which of them apply to which path is in docs/api.md#protocol-errors. */
function errorResponseRefs(b: Binding): Record<string, { $ref: string }> {
  const ref = (name: string) => ({ $ref: `#/components/responses/${name}` });
  const out: Record<string, { $ref: string }> = {};
  if (b.rule.body !== "") out["400"] = ref("BadRequest");
  out["401"] = ref("Unauthorized");
  out["403"] = ref("Forbidden");
  out["404"] = ref("NotFound");
  if (b.rule.body !== "") out["413"] = ref("PayloadTooLarge");
  out["422"] = ref("ValidationFailed");
  out["429"] = ref("RateLimited");
  out["500"] = ref("Internal");
  out["503"] = ref("Unavailable");
  out["504"] = ref("Timeout");
  out.default = ref("Error");
  return out;
}

export function operationOf(b: Binding, schemas: MessageSchemas): JsonSchema {
  const { service, method, rule } = b;
  const input = method.input;
  const comment = commentOf(method);
  const op: JsonSchema = {
    operationId: `${service.name}_${method.name}`,
    tags: [service.name],
    summary: comment ? firstSentence(comment) : method.name,
  };
  if (comment) op.description = comment;
  if (method.deprecated) op.deprecated = true;

  const parameters: JsonSchema[] = [];
  for (const name of b.variables) {
    const field = input.fields.find((f) => f.name === name)!;
    const { description, ...schema } = schemas.fieldSchema(field, "request");
    parameters.push({ name, in: "path", required: true, ...(description ? { description } : {}), schema });
  }
  if (rule.body !== "*") {
    for (const field of input.fields) {
      if (field.fieldKind !== "scalar" || b.variables.includes(field.name) || field.name === rule.body) continue;
      const { description, ...schema } = schemas.fieldSchema(field, "request");
      const required = schemas.isRequired(field) ? { required: true } : {};
      parameters.push({ name: field.name, in: "query", ...required, ...(description ? { description } : {}), schema });
    }
  }
  if (parameters.length > 0) op.parameters = parameters;

  if (rule.body === "*") {
    const omit = new Set(b.variables);
    const schema = omit.size === 0 ? schemas.ref(input, "request") : schemas.objectSchema(input, "request", omit);
    const required = input.fields.some((f) => !omit.has(f.name) && schemas.isRequired(f));
    op.requestBody = { required, content: { "application/json": { schema } } };
  } else if (rule.body !== "") {
    const field = input.fields.find((f) => f.name === rule.body)!;
    const required = schemas.isRequired(field);
    if (field.message?.typeName === rawBodyType) {
      op.requestBody = { required, description: "Taken as raw bytes of any content type.", content: { "*/*": {} } };
    } else {
      const { description, ...schema } = schemas.fieldSchema(field, "request");
      op.requestBody = { required, ...(description ? { description } : {}), content: { "application/json": { schema } } };
    }
  }

  const output = method.output;
  const ok: JsonSchema = {
    description: commentOf(output) ?? `${output.name}`,
    headers: { "X-Request-Id": { $ref: "#/components/headers/X-Request-Id" } },
  };
  ok.content = output.typeName === rawBodyType ? { "*/*": {} } : { "application/json": { schema: schemas.ref(output, "response") } };
  op.responses = { "200": ok, ...errorResponseRefs(b) };
  op["x-rpc"] = `/${service.typeName}/${method.name}`;
  return op;
}
