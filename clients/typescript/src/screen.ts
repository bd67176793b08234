// screen(): one call that screens a conversation as an LLM application holds
// it (OpenAI chat-completions messages) and answers the decision, without
// building protobuf messages or a client first.
import type { JsonObject } from "@bufbuild/protobuf";
import type { Transport } from "@connectrpc/connect";
import { createParapetClient } from "./clients.js";
import { invalidRequest } from "./errors.js";
import { createParapetTransport, type FetchConnectionOptions } from "./fetch-transport.js";
import { GuardService, type BreakdownItem, type DevInfo, type PayloadItem } from "./protocol.js";

/** A chat-completions message as the OpenAI SDKs and most gateways hold it. */
export interface ChatMessage {
  role: "system" | "developer" | "user" | "assistant" | "tool" | "function" | (string & {});
  /** Text, or content parts (text parts are screened joined by "\n", other parts are skipped); null on tool-calling assistant turns. */
  content?: string | null | readonly ContentPart[];
  name?: string;
  tool_call_id?: string;
  tool_calls?: readonly ToolCall[];
}

export interface ContentPart {
  /** "text", "image_url", "input_audio", ... */
  type: string;
  text?: string;
  [field: string]: unknown;
}

export interface ToolCall {
  id: string;
  type: "function";
  function: { name: string; arguments: string };
}

/** A tool offered to the model (chat-completions `tools`). */
export interface ToolDefinition {
  type: "function";
  function: { name: string; description?: string; parameters?: JsonObject; strict?: boolean };
}

export interface ScreenRequest {
  messages: readonly ChatMessage[];
  tools?: readonly ToolDefinition[];
  /** Screen under this project's policy; without it the organization's default project and policy apply. */
  projectId?: string;
  /** Return the per-detector results. */
  breakdown?: boolean;
  /** Return the matched spans (PII, profanity, custom guardrails). */
  payload?: boolean;
  /** Return the build and model versions and the notes on skipped content. */
  devInfo?: boolean;
  /** Free key-value tags stored with the request log. */
  metadata?: JsonObject;
  signal?: AbortSignal;
  timeoutMs?: number;
}

export interface ScreeningResult {
  flagged: boolean;
  /** Empty unless `breakdown` was asked. */
  breakdown: BreakdownItem[];
  /** Empty unless `payload` was asked. */
  payload: PayloadItem[];
  /** Undefined unless `devInfo` was asked. */
  devInfo: DevInfo | undefined;
  /** The request log's `request_uuid`, also the response's `X-Request-Id`. */
  requestId: string;
}

/**
 * Screens `request.messages` with a screening key. `target` is a transport
 * (`createParapetTransport` from this package or `@parapet/client/node`), or
 * the base URL and key, for which a fetch transport is made for this call.
 * Throws ParapetError: from Parapet with its identifier and request id, or
 * `validation_failed` without a request id when the request cannot be encoded.
 */
export async function screen(target: Transport | FetchConnectionOptions, request: ScreenRequest): Promise<ScreeningResult> {
  const transport = isTransport(target) ? target : createParapetTransport(target);
  const init = guardRequest(request);
  const guard = createParapetClient(GuardService, transport);
  const answer = await guard.guard(init, { signal: request.signal, timeoutMs: request.timeoutMs });
  return {
    flagged: answer.flagged,
    breakdown: answer.breakdown,
    payload: answer.payload,
    devInfo: answer.devInfo,
    requestId: answer.metadata?.requestUuid ?? "",
  };
}

function isTransport(target: unknown): target is Transport {
  return typeof target === "object" && target !== null && typeof (target as Transport).unary === "function";
}

// Type checks only: what protobuf cannot encode. Every rule of the contract
// (roles, content required, sizes) is Parapet's to enforce, so its answer and
// request id reach the caller.
function guardRequest(request: ScreenRequest) {
  if (!isObject(request)) throw invalidRequest("the request must be an object with `messages`");
  if (!Array.isArray(request.messages)) throw invalidRequest("messages: must be an array of chat messages");
  if (request.tools !== undefined && !Array.isArray(request.tools)) throw invalidRequest("tools: must be an array of tool definitions");
  if (request.metadata !== undefined && !isObject(request.metadata)) throw invalidRequest("metadata: must be an object");
  return {
    messages: (request.messages as ChatMessage[]).map((m, i) => message(m, `messages[${i}]`)),
    tools: ((request.tools ?? []) as ToolDefinition[]).map((t, i) => tool(t, `tools[${i}]`)),
    projectId: optionalString(request.projectId, "projectId"),
    breakdown: optionalBoolean(request.breakdown, "breakdown"),
    payload: optionalBoolean(request.payload, "payload"),
    devInfo: optionalBoolean(request.devInfo, "devInfo"),
    metadata: request.metadata === undefined ? undefined : jsonObject(request.metadata, "metadata"),
  };
}

function message(m: ChatMessage, path: string) {
  if (!isObject(m)) throw invalidRequest(`${path}: must be an object with role and content`);
  const content = m.content;
  let text: string | undefined;
  let contentParts: { type: string; text?: string }[] = [];
  if (Array.isArray(content)) {
    contentParts = content.map((part: ContentPart, j) => {
      if (!isObject(part)) throw invalidRequest(`${path}.content[${j}]: must be a content part object`);
      // Parts carrying a `text` string are text parts whatever their type, as on the REST path.
      return { type: requiredString(part.type, `${path}.content[${j}].type`), text: typeof part.text === "string" ? part.text : undefined };
    });
  } else {
    text = optionalString(content, `${path}.content`);
  }
  if (m.tool_calls !== undefined && !Array.isArray(m.tool_calls)) throw invalidRequest(`${path}.tool_calls: must be an array`);
  return {
    role: requiredString(m.role, `${path}.role`),
    content: text,
    contentParts,
    name: optionalString(m.name, `${path}.name`),
    toolCallId: optionalString(m.tool_call_id, `${path}.tool_call_id`),
    toolCalls: (m.tool_calls ?? []).map((call, j) => {
      const at = `${path}.tool_calls[${j}]`;
      if (!isObject(call) || !isObject(call.function)) throw invalidRequest(`${at}: must be {id, type, function: {name, arguments}}`);
      return {
        id: requiredString(call.id, `${at}.id`),
        type: requiredString(call.type, `${at}.type`),
        function: { name: requiredString(call.function.name, `${at}.function.name`), arguments: optionalString(call.function.arguments, `${at}.function.arguments`) },
      };
    }),
  };
}

function tool(t: ToolDefinition, path: string) {
  if (!isObject(t) || !isObject(t.function)) throw invalidRequest(`${path}: must be {type: "function", function: {name, ...}}`);
  const f = t.function;
  return {
    type: requiredString(t.type, `${path}.type`),
    function: {
      name: requiredString(f.name, `${path}.function.name`),
      description: optionalString(f.description, `${path}.function.description`),
      parameters: f.parameters === undefined || f.parameters === null ? undefined : jsonObject(f.parameters, `${path}.function.parameters`),
      strict: f.strict === undefined || f.strict === null ? undefined : optionalBoolean(f.strict, `${path}.function.strict`),
    },
  };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function requiredString(value: unknown, path: string): string {
  if (typeof value !== "string") throw invalidRequest(`${path}: must be a string`);
  // A lone surrogate has no UTF-8 encoding: binary protobuf would replace it silently, JSON would be refused.
  if (loneSurrogate.test(value)) throw invalidRequest(`${path}: must be valid Unicode (it contains a lone surrogate)`);
  return value;
}

const loneSurrogate = /\p{Surrogate}/u;

function optionalString(value: unknown, path: string): string | undefined {
  return value === undefined || value === null ? undefined : requiredString(value, path);
}

function optionalBoolean(value: unknown, path: string): boolean {
  if (value === undefined) return false;
  if (typeof value !== "boolean") throw invalidRequest(`${path}: must be a boolean`);
  return value;
}

/** A JSON object as protobuf's Struct holds it: `undefined` members dropped, cycles and non-JSON values refused. */
function jsonObject(value: unknown, path: string): JsonObject {
  if (!isObject(value)) throw invalidRequest(`${path}: must be an object`);
  let copy: unknown;
  try {
    copy = JSON.parse(JSON.stringify(value));
  } catch (err) {
    throw invalidRequest(`${path}: must be JSON (${err instanceof Error ? err.message : String(err)})`);
  }
  return copy as JsonObject;
}
