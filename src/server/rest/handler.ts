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
import { ConnectError, createContextValues, type ConnectRouter, type Interceptor } from "@connectrpc/connect";
import { HttpBodySchema } from "../../../gen/google/api/httpbody_pb.js";
import { clientAddressHeader, decodeViolationsKey, requestIdHeader } from "../../api/context.js";
import { errorBody, errorDetailOf, errorKinds, toConnectError, validationFailed, type ErrorId, type FieldViolation } from "../../api/errors.js";
import { httpRuleOf, resourceFieldOf, type HttpRule } from "../../api/http-rules.js";
import { maxJsonDepth } from "../../api/interceptors/json-depth.js";
import { isRefusal, type AdaptedCall, type AdaptedRoute, type JsonObject, type PointerRoute } from "./adapted-route.js";
import { readBody } from "./body.js";
import { unaryImplementations } from "./invoke-unary.js";
import { jsonTypeViolations } from "./json-types.js";
import { liftContentParts, renderJson } from "./json-shape.js";
import { lakeraV1Pointers, lakeraV1Routes } from "./lakera-v1.js";
import { matchPath, parsePathTemplate, type PathTemplate } from "./path-template.js";
import { policyLintRoute } from "./policy-lint.js";

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
  /** Set on paths in another product's shape (adapted-route.ts). */
  adapter?: AdaptedRoute;
  /** Set on paths that only point elsewhere. */
  pointer?: PointerRoute;
}

export interface RestOptions {
  services: DescService[];
  routes: (router: ConnectRouter) => void;
  interceptors: Interceptor[];
  maxBodyBytes: number;
}

export type RestHandler = (req: Req, res: Res, requestId: string) => Promise<void>;

/** Lakera Guard paths its clients still call (docs/lakera-compatibility.md). */
const adaptedRoutes: AdaptedRoute[] = [...lakeraV1Routes, policyLintRoute];
const pointerRoutes: PointerRoute[] = lakeraV1Pointers;

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
  for (const adapter of adaptedRoutes) {
    const rule: HttpRule = { verb: "POST", pathTemplate: adapter.path, body: "*" };
    routes.push({ rule, template: parsePathTemplate(adapter.path), method: adapter.method, adapter });
  }
  for (const pointer of pointerRoutes) {
    const rule: HttpRule = { verb: "POST", pathTemplate: pointer.path, body: "" };
    // A pointer answers before any call: its method is never invoked, any descriptor will do.
    routes.push({ rule, template: parsePathTemplate(pointer.path), method: adaptedRoutes[0].method, pointer });
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

/**
 * What fromJson still refused after the type checks (json-types.ts), which should be
 * nothing: named by the field protobuf-es names, the best path there is.
 */
function decodeViolation(err: unknown): FieldViolation {
  const text = err instanceof Error ? err.message : String(err);
  const m = /cannot decode (?:field )?([\w.]+?)\.(\w+) from JSON: (.*)$/s.exec(text);
  if (!m) return { field: "", message: "the request body does not match the schema", rule: "" };
  return { field: m[2], message: m[3].length > 200 ? m[3].slice(0, 200) + "…" : m[3], rule: "" };
}

interface RestFailure {
  status: number;
  id: string;
  message: string;
  violations: readonly FieldViolation[];
  headers: Record<string, string>;
}

function failureOf(err: unknown, requestId: string): RestFailure {
  const ce = err instanceof ConnectError ? err : toConnectError(err, requestId);
  const e = errorDetailOf(ce) ? ce : toConnectError(ce, requestId);
  const detail = errorDetailOf(e);
  const headers: Record<string, string> = {};
  const retryAfter = e.metadata.get("retry-after");
  if (retryAfter) headers["retry-after"] = retryAfter;
  const violations = detail.violations.map(({ field, message, rule }) => ({ field, message, rule }));
  return { status: detail.httpStatus, id: detail.error, message: e.rawMessage, violations, headers };
}

/** A failure on an adapted path, its violations' paths named as that client's body names them. */
function adaptedFailure(f: RestFailure, call: AdaptedCall): RestFailure {
  if (f.violations.length === 0) return f;
  const renamed = validationFailed(f.violations.map((v) => ({ ...v, field: call.fieldOf(v.field) })));
  return { ...f, message: renamed.message, violations: renamed.violations };
}

export interface Rest {
  handle: RestHandler;
  /** The path template serving `path`, or null when no REST route has it. */
  templateOf(path: string): string | null;
}

function parseJson(raw: Buffer): { value: unknown } | { problem: string } {
  try {
    return { value: JSON.parse(raw.toString("utf8")) as unknown };
  } catch {
    return { problem: "request body is not valid JSON" };
  }
}

type RequestJson = { fields: Record<string, unknown>; call?: AdaptedCall } | { problem: string; id?: ErrorId };

/**
 * The request message as JSON, from the body (`raw`, null for a raw HTTP body
 * field), the path variables and, for scalar fields bound by neither, the query;
 * on an adapted path, what its adapter reads from the body.
 */
function requestJson(route: Route, vars: Record<string, string>, query: URLSearchParams, raw: Buffer | null, bodyField: DescField | null | undefined): RequestJson {
  const json: Record<string, unknown> = {};
  if (route.adapter) {
    const parsed = raw !== null && raw.length > 0 ? parseJson(raw) : { value: {} };
    if ("problem" in parsed) return parsed;
    const call = route.adapter.open(parsed.value);
    if (isRefusal(call)) return { problem: call.message, id: call.error };
    return { fields: call.json, call };
  }
  if (route.rule.body !== "" && raw !== null && raw.length > 0) {
    const parsed = parseJson(raw);
    if ("problem" in parsed) return parsed;
    const value = parsed.value;
    if (route.rule.body === "*") {
      if (value === null || typeof value !== "object" || Array.isArray(value)) return { problem: "request body must be a JSON object" };
      Object.assign(json, value);
    } else {
      // The body is one message field (policy, project, ...): anything but an object would
      // otherwise reach fromJson and come back as a 422 field error (docs/api.md#errors: 400).
      if (bodyField?.message && (value === null || typeof value !== "object" || Array.isArray(value))) {
        return { problem: `request body must be a JSON object (the ${route.rule.body})` };
      }
      json[route.rule.body] = value;
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

type Decoded = { message: unknown; violations: FieldViolation[] } | { error: ErrorId; message: string; violations?: FieldViolation[] };

/**
 * The request message, and every value of the wrong JSON type that had to be taken
 * out of `fields` to decode it, with paths rooted at what the client sent (the body
 * field's own path when the body is one field, as the validation interceptor roots
 * rule violations).
 */
function decodeRequest(route: Route, fields: Record<string, unknown>, extra: FieldViolation[]): Decoded {
  const input = route.method.input;
  const found = [...liftContentParts(input, fields), ...jsonTypeViolations(input, fields)];
  const root = resourceFieldOf(route.method);
  const violations = [
    ...extra,
    ...(root ? found.map((v) => (v.field === root || v.field.startsWith(root + ".") ? { ...v, field: v.field.slice(root.length + 1) } : v)) : found),
  ];
  try {
    return { message: fromJson(input, fields as never, { ignoreUnknownFields: true }), violations };
  } catch (err) {
    // protobuf-es stops at 100 levels; the limit clients are told is maxJsonDepth (docs/api.md#protocol-errors).
    if (/maximum recursion depth/.test(String(err))) {
      return { error: "bad_request", message: `request body: free-form JSON nested deeper than ${maxJsonDepth} objects and arrays` };
    }
    const all = [...violations, decodeViolation(err)];
    return { error: "validation_failed", message: validationFailed(all).message, violations: all };
  }
}

/**
 * The last interceptor of a REST call with values taken out: the validation interceptor
 * reports them (with the rule violations), and a chain without it must not run the
 * handler on a request that lost fields.
 */
const refuseUndecoded: Interceptor = (next) => (req) => {
  const pending = req.contextValues.get(decodeViolationsKey);
  if (pending.length > 0) throw validationFailed(pending);
  return next(req);
};

type Hit = { route: Route; vars: Record<string, string> };

/** The route serving the request among the routes its path matched (`hits`), or null once an error was answered. */
function routeOf(hits: Hit[], req: Req, res: Res, pathname: string, requestId: string): Hit | null {
  if (hits.length === 0) {
    sendError(res, "route_not_found", `no route for ${pathname}`, requestId);
    return null;
  }
  const pointer = hits[0].route.pointer;
  if (pointer) {
    sendError(res, pointer.error, pointer.message, requestId);
    return null;
  }
  const hit = hits.find((h) => h.route.rule.verb === req.method);
  if (!hit) {
    const allow = [...new Set(hits.map((h) => h.route.rule.verb))].join(", ");
    sendError(res, "method_not_allowed", `${req.method} is not allowed on ${pathname}; allowed: ${allow}`, requestId, { allow });
    return null;
  }
  return hit;
}

/** The request headers a call passes on to the interceptors. */
function callHeaders(req: Req, requestId: string): Headers {
  const header = new Headers({ [requestIdHeader]: requestId });
  header.set(clientAddressHeader, String(req.headers[clientAddressHeader] ?? ""));
  const auth = req.headers.authorization;
  if (auth) header.set("authorization", auth);
  return header;
}

/** Answers a failed call: the Error object, or what an adapted path's client reads instead. */
function sendFailure(res: Res, err: unknown, adapted: AdaptedCall | undefined, requestId: string): void {
  let f = failureOf(err, requestId);
  if (adapted) {
    f = adaptedFailure(f, adapted);
    const answer = adapted.failed({ error: f.id, message: f.message, violations: f.violations });
    if (answer !== null) return send(res, 200, answer);
  }
  send(res, f.status, errorBody(f.id, f.message, requestId, f.status, f.violations), f.headers);
}

export function createRestHandler(options: RestOptions): Rest {
  const routes = buildRoutes(options.services);
  const specs = unaryImplementations(options.routes);
  const strictInterceptors = [...options.interceptors, refuseUndecoded];

  function find(pathname: string) {
    const segments = pathname.slice(1).split("/");
    const hits: Hit[] = [];
    for (const route of routes) {
      const vars = matchPath(route.template, segments);
      if (vars) hits.push({ route, vars });
    }
    return hits;
  }

  async function handle(req: Req, res: Res, requestId: string): Promise<void> {
    const url = new URL(req.url ?? "/", "http://localhost");
    const hit = routeOf(find(url.pathname), req, res, url.pathname, requestId);
    if (!hit) return;
    const { route, vars } = hit;
    const input = route.method.input;

    let raw: Buffer = Buffer.alloc(0);
    if (route.rule.body !== "") {
      const body = await readBody(req, options.maxBodyBytes);
      // Answered while the body was on its way (its receive deadline, server/http2-deadlines.ts):
      // what arrived is not the whole body, and the client has its answer.
      if (res.headersSent) return;
      if ("error" in body) return sendError(res, body.error, body.message, requestId);
      raw = body.body;
    }

    const bodyField = route.rule.body === "" || route.rule.body === "*" ? null : input.fields.find((f) => f.name === route.rule.body);
    const rawBodyField = bodyField?.message?.typeName === HttpBodySchema.typeName ? bodyField : null;

    const json = requestJson(route, vars, url.searchParams, rawBodyField ? null : raw, bodyField);
    if ("problem" in json) return sendError(res, json.id ?? "malformed_json", json.problem, requestId);
    const decoded = decodeRequest(route, json.fields, json.call?.violations ?? []);
    if ("error" in decoded) {
      const http = errorKinds[decoded.error].http;
      return send(res, http, errorBody(decoded.error, decoded.message, requestId, http, decoded.violations));
    }
    const message = decoded.message;
    if (rawBodyField) {
      (message as Record<string, unknown>)[rawBodyField.localName] = create(HttpBodySchema, {
        contentType: String(req.headers["content-type"] ?? ""),
        data: new Uint8Array(raw),
      });
    }
    const context = createContextValues().set(decodeViolationsKey, decoded.violations);
    const interceptors = decoded.violations.length > 0 ? strictInterceptors : options.interceptors;
    try {
      const out = await specs.invoke(route.method, callHeaders(req, requestId), message, interceptors, context);
      const answer = renderJson(route.method.output, out as never);
      send(res, 200, json.call ? json.call.answer(answer as JsonObject) : answer);
    } catch (err) {
      sendFailure(res, err, json.call, requestId);
    }
  }

  return {
    handle,
    templateOf: (path: string) => find(path)[0]?.route.rule.pathTemplate ?? null,
  };
}
