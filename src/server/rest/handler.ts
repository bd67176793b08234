// REST/JSON transcoding of the documented paths (docs/api.md#protocols-and-paths) onto the RPC services.
//
// Routes come from the google.api.http options of the generated descriptors
// (no hand-written route table). Each call runs the same implementations
// through the same interceptor chain (errors, auth, validation) as gRPC and
// Connect clients; this layer only translates JSON <-> messages and
// ConnectError -> the Error object (docs/api.md#error-object).
//
// Calls go straight to Connect's server-side unary invocation (invoke-unary.ts
// says why and what that costs in coupling).
import type { IncomingMessage, ServerResponse } from "node:http";
import type { Http2ServerRequest, Http2ServerResponse } from "node:http2";
import { create, fromJson, ScalarType, type DescField, type DescMethodUnary, type DescService } from "@bufbuild/protobuf";
import { ConnectError, type ConnectRouter, type Interceptor } from "@connectrpc/connect";
import { HttpBodySchema } from "../../../gen/google/api/httpbody_pb.js";
import { clientAddressHeader, requestIdHeader } from "../../api/context.js";
import { errorBody, errorDetailOf, errorKinds, toConnectError, type ErrorId } from "../../api/errors.js";
import { httpRuleOf, type HttpRule } from "../../api/http-rules.js";
import { maxJsonDepth } from "../../api/interceptors/json-depth.js";
import { unaryImplementations } from "./invoke-unary.js";
import { liftContentParts, renderJson } from "./json-shape.js";
import { matchPath, parsePathTemplate, type PathTemplate } from "./path-template.js";

type Req = IncomingMessage | Http2ServerRequest;
type Res = ServerResponse | Http2ServerResponse;

/** What sending a JSON answer needs, met by both HTTP/1.1 and HTTP/2 responses. */
export interface JsonResponse {
  setHeader(name: string, value: string | number): unknown;
  writeHead(status: number): unknown;
  end(body: string): unknown;
}

interface Route {
  rule: HttpRule;
  template: PathTemplate;
  method: DescMethodUnary;
}

export interface RestOptions {
  services: DescService[];
  routes: (router: ConnectRouter) => void;
  interceptors: Interceptor[];
  maxBodyBytes: number;
}

export type RestHandler = (req: Req, res: Res, requestId: string) => Promise<void>;

function buildRoutes(services: DescService[]): Route[] {
  const routes: Route[] = [];
  for (const service of services) {
    for (const method of service.methods) {
      const rule = httpRuleOf(method);
      if (!rule) continue;
      if (method.methodKind !== "unary") throw new Error(`${method.name}: only unary RPCs can have an HTTP rule`);
      routes.push({ rule, template: parsePathTemplate(rule.pathTemplate), method: method as DescMethodUnary });
    }
  }
  return routes;
}

function send(res: JsonResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  for (const [k, v] of Object.entries(headers)) res.setHeader(k, v);
  res.setHeader("content-type", "application/json");
  res.setHeader("content-length", Buffer.byteLength(text));
  res.writeHead(status);
  res.end(text);
}

export function sendError(res: JsonResponse, id: ErrorId, message: string, requestId: string, headers: Record<string, string> = {}) {
  const http = errorKinds[id].http;
  send(res, http, errorBody(id, message, requestId, http), headers);
}

/** Reads the body up to `limit` bytes; null when the limit is exceeded. */
async function readBody(req: Req, limit: number): Promise<Buffer | null> {
  const declared = Number(req.headers["content-length"] ?? "0");
  if (declared > limit) return null;
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > limit) return null;
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

/** protobuf-es names the failing field by its full name; keep it readable and short. */
function decodeErrorMessage(err: unknown): string {
  const text = err instanceof Error ? err.message : String(err);
  const m = /cannot decode (?:field )?([\w.]+?)\.(\w+) from JSON: (.*)$/s.exec(text);
  if (!m) return "request body does not match the schema";
  const detail = m[3].length > 200 ? m[3].slice(0, 200) + "…" : m[3];
  return `validation failed: ${m[2]} (${m[1].split(".").pop()}): ${detail}`;
}

function connectErrorToRest(err: ConnectError, requestId: string): { status: number; body: unknown; headers: Record<string, string> } {
  const e = errorDetailOf(err) ? err : toConnectError(err, requestId);
  const detail = errorDetailOf(e);
  const headers: Record<string, string> = {};
  const retryAfter = e.metadata.get("retry-after");
  if (retryAfter) headers["retry-after"] = retryAfter;
  return { status: detail.httpStatus, body: errorBody(detail.error, e.rawMessage, requestId, detail.httpStatus), headers };
}

export interface Rest {
  handle: RestHandler;
  /** The path template serving `path`, or null when no REST route has it. */
  templateOf(path: string): string | null;
}

/**
 * The request message as JSON, from the body (`raw`, null for a raw HTTP body
 * field), the path variables and, for scalar fields bound by neither, the query.
 */
function requestJson(
  route: Route,
  vars: Record<string, string>,
  query: URLSearchParams,
  raw: Buffer | null,
  bodyField: DescField | null | undefined,
): { fields: Record<string, unknown> } | { problem: string } {
  const json: Record<string, unknown> = {};
  if (route.rule.body !== "" && raw !== null && raw.length > 0) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(raw.toString("utf8"));
    } catch {
      return { problem: "request body is not valid JSON" };
    }
    if (route.rule.body === "*") {
      if (parsed === null || typeof parsed !== "object" || Array.isArray(parsed)) return { problem: "request body must be a JSON object" };
      Object.assign(json, parsed);
    } else {
      // The body is one message field (policy, project, ...): anything but an object would
      // otherwise reach fromJson and come back as a 422 field error (docs/api.md#errors: 400).
      if (bodyField?.message && (parsed === null || typeof parsed !== "object" || Array.isArray(parsed))) {
        return { problem: `request body must be a JSON object (the ${route.rule.body})` };
      }
      json[route.rule.body] = parsed;
    }
  }
  Object.assign(json, vars);
  // google.api.http: scalar fields bound neither by the path nor by the body are query parameters
  // (paging of the list endpoints, docs/api.md#paging). JSON wants booleans as booleans.
  if (route.rule.body !== "*") {
    for (const [name, value] of query) {
      const field = route.method.input.fields.find((f) => f.name === name);
      if (!field || field.fieldKind !== "scalar" || name in json) continue;
      json[name] = field.scalar === ScalarType.BOOL && (value === "true" || value === "false") ? value === "true" : value;
    }
  }
  return { fields: json };
}

export function createRestHandler(options: RestOptions): Rest {
  const routes = buildRoutes(options.services);
  const specs = unaryImplementations(options.routes);

  function find(pathname: string) {
    const segments = pathname.slice(1).split("/");
    const hits: { route: Route; vars: Record<string, string> }[] = [];
    for (const route of routes) {
      const vars = matchPath(route.template, segments);
      if (vars) hits.push({ route, vars });
    }
    return hits;
  }

  async function handle(req: Req, res: Res, requestId: string): Promise<void> {
    const url = new URL(req.url ?? "/", "http://localhost");
    const hits = find(url.pathname);
    if (hits.length === 0) return sendError(res, "route_not_found", `no route for ${url.pathname}`, requestId);
    const hit = hits.find((h) => h.route.rule.verb === req.method);
    if (!hit) {
      const allow = [...new Set(hits.map((h) => h.route.rule.verb))].join(", ");
      return sendError(res, "method_not_allowed", `${req.method} is not allowed on ${url.pathname}; allowed: ${allow}`, requestId, { allow });
    }
    const { route, vars } = hit;
    const input = route.method.input;

    let raw: Buffer = Buffer.alloc(0);
    if (route.rule.body !== "") {
      const body = await readBody(req, options.maxBodyBytes);
      if (body === null) {
        return sendError(res, "payload_too_large", `request body exceeds ${options.maxBodyBytes} bytes`, requestId);
      }
      raw = body;
    }

    const bodyField = route.rule.body === "" || route.rule.body === "*" ? null : input.fields.find((f) => f.name === route.rule.body);
    const rawBodyField = bodyField?.message?.typeName === HttpBodySchema.typeName ? bodyField : null;

    const json = requestJson(route, vars, url.searchParams, rawBodyField ? null : raw, bodyField);
    if ("problem" in json) return sendError(res, "malformed_json", json.problem, requestId);
    const partsProblem = liftContentParts(input, json.fields);
    if (partsProblem) return sendError(res, "validation_failed", `validation failed: ${partsProblem}`, requestId);

    let message;
    try {
      message = fromJson(input, json.fields as never, { ignoreUnknownFields: true });
    } catch (err) {
      // protobuf-es stops at 100 levels; the limit clients are told is maxJsonDepth (docs/api.md#protocol-errors).
      if (/maximum recursion depth/.test(String(err))) {
        return sendError(res, "bad_request", `request body: free-form JSON nested deeper than ${maxJsonDepth} objects and arrays`, requestId);
      }
      return sendError(res, "validation_failed", decodeErrorMessage(err), requestId);
    }
    if (rawBodyField) {
      (message as Record<string, unknown>)[rawBodyField.localName] = create(HttpBodySchema, {
        contentType: String(req.headers["content-type"] ?? ""),
        data: new Uint8Array(raw),
      });
    }

    const header = new Headers({ [requestIdHeader]: requestId });
    header.set(clientAddressHeader, String(req.headers[clientAddressHeader] ?? ""));
    const auth = req.headers.authorization;
    if (auth) header.set("authorization", auth);
    try {
      const out = await specs.invoke(route.method, header, message, options.interceptors);
      send(res, 200, renderJson(route.method.output, out as never));
    } catch (err) {
      const ce = err instanceof ConnectError ? err : toConnectError(err, requestId);
      const { status, body, headers } = connectErrorToRest(ce, requestId);
      send(res, status, body, headers);
    }
  }

  return {
    handle,
    templateOf: (path: string) => find(path)[0]?.route.rule.pathTemplate ?? null,
  };
}
