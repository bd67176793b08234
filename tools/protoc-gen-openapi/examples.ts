// Examples for the operations, from a JSON file named by the plugin's `examples`
// option (the protos have no place for a request and its answer): one entry per
// operationId, giving path and query parameter values, the request body and the
// answer. The plugin attaches them as they are; `npm run lint:openapi` checks that
// every operation has one and that each validates against its own schema
// (docs/openapi.md#examples).
import { readFileSync } from "node:fs";
import type { JsonSchema } from "./json-schema.js";

export interface OperationExample {
  /** One line on what the example shows (the Example Object's summary). */
  summary?: string;
  /** Path and query parameter values, by parameter name. */
  parameters?: Record<string, unknown>;
  /** The request body. */
  request?: unknown;
  /** The answer's body. */
  response?: unknown;
  /** The answer's status, 200 unless given (the retired endpoints answer 410). */
  status?: number;
}

export type Examples = Record<string, OperationExample>;

const entryKeys = new Set(["summary", "parameters", "request", "response", "status"]);

/** The examples file, checked for shape: an object of objects with the keys above. */
export function readExamples(file: string): Examples {
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(file, "utf8"));
  } catch (err) {
    throw new Error(`examples: cannot read ${file}: ${(err as Error).message}`);
  }
  if (parsed === null || typeof parsed !== "object" || Array.isArray(parsed)) throw new Error(`examples: ${file} must hold a JSON object`);
  for (const [id, entry] of Object.entries(parsed as Record<string, unknown>)) {
    if (entry === null || typeof entry !== "object" || Array.isArray(entry)) throw new Error(`examples: ${id} must be an object`);
    const unknown = Object.keys(entry).filter((k) => !entryKeys.has(k));
    if (unknown.length > 0) throw new Error(`examples: ${id} has unknown keys ${unknown.join(", ")}`);
  }
  return parsed as Examples;
}

type Operation = JsonSchema & {
  operationId: string;
  parameters?: JsonSchema[];
  requestBody?: { content: Record<string, JsonSchema> };
  responses: Record<string, JsonSchema>;
};

function exampleOf(value: unknown, summary: string | undefined): JsonSchema {
  return { example: { ...(summary ? { summary } : {}), value } };
}

/** The operation's response for `status` as an inline object (a copy of the shared one it refers to), so that it can carry an example. */
function inlineResponse(op: Operation, status: string, shared: Record<string, JsonSchema>): JsonSchema {
  const listed = op.responses[status] ?? op.responses.default;
  const ref = typeof listed?.$ref === "string" ? listed.$ref : undefined;
  const response = ref ? shared[ref.replace("#/components/responses/", "")] : listed;
  if (!response) throw new Error(`examples: ${op.operationId} has no response for status ${status}`);
  return structuredClone(response);
}

/** Attaches `examples` to the operations of `paths`; an entry naming an operation, parameter or body that does not exist is an error. */
export function applyExamples(paths: Record<string, Record<string, JsonSchema>>, sharedResponses: Record<string, JsonSchema>, examples: Examples): void {
  const operations = new Map<string, Operation>();
  for (const item of Object.values(paths)) for (const op of Object.values(item)) operations.set(op.operationId as string, op as Operation);
  for (const [id, entry] of Object.entries(examples)) {
    const op = operations.get(id);
    if (!op) throw new Error(`examples: no operation ${id} (operationIds are Service_Method)`);
    for (const [name, value] of Object.entries(entry.parameters ?? {})) {
      const param = op.parameters?.find((p) => p.name === name);
      if (!param) throw new Error(`examples: ${id} has no parameter ${name}`);
      param.example = value;
    }
    if (entry.request !== undefined) {
      const media = Object.values(op.requestBody?.content ?? {})[0];
      if (!media) throw new Error(`examples: ${id} takes no request body`);
      Object.assign(media, { examples: exampleOf(entry.request, entry.summary) });
    }
    if (entry.response !== undefined) {
      const status = String(entry.status ?? 200);
      const response = status === "200" ? op.responses["200"] : inlineResponse(op, status, sharedResponses);
      const media = (response.content as Record<string, JsonSchema> | undefined)?.["application/json"];
      if (!media) throw new Error(`examples: ${id} answers no JSON with status ${status}`);
      media.examples = exampleOf(entry.response, entry.summary);
      op.responses[status] = response;
    }
  }
}
