// JSON rendering rules of the REST paths (docs/decisions.md#rest-json): the API's
// snake_case names, required fields always present ([] / false / 0 / ""), and
// JSON null for fields documented as "... or null" (proto option
// parapet.v1.nullable), which proto3 JSON would otherwise omit, and no key at
// all for empty extension lists (parapet.v1.omit_empty), which an answer
// written with every implicit field would otherwise gain.
import { getOption, toJson, type DescMessage, type JsonValue, type MessageShape } from "@bufbuild/protobuf";
import { nullable, omit_empty } from "../../../gen/parapet/v1/options_pb.js";
import type { FieldViolation } from "../../api/errors.js";

type JsonObject = { [k: string]: JsonValue };

interface Shape {
  /** Fields written as null when unset or empty. */
  nullable: string[];
  /** Repeated and map fields left out when empty. */
  omitEmpty: string[];
  /** Message-typed fields to descend into (well-known types render as scalars and are skipped). */
  nested: { name: string; kind: "list" | "message" | "map"; desc: DescMessage }[];
}

// Reading a field option allocates, and large responses (analytics: thousands
// of buckets) would read the same options thousands of times: one shape per type.
const shapes = new WeakMap<DescMessage, Shape>();

function shapeOf(desc: DescMessage): Shape {
  let shape = shapes.get(desc);
  if (!shape) {
    shape = { nullable: [], omitEmpty: [], nested: [] };
    for (const field of desc.fields) {
      if (getOption(field, nullable)) shape.nullable.push(field.name);
      if ((field.fieldKind === "list" || field.fieldKind === "map") && getOption(field, omit_empty)) shape.omitEmpty.push(field.name);
      if (field.message && !field.message.typeName.startsWith("google.protobuf.")) {
        shape.nested.push({ name: field.name, kind: field.fieldKind, desc: field.message });
      }
    }
    shapes.set(desc, shape);
  }
  return shape;
}

/** Applies the nullable and omit_empty options to `json`, written by toJson from a `desc`, and to everything in it. */
function applyPresence(desc: DescMessage, json: JsonObject): void {
  const shape = shapeOf(desc);
  for (const key of shape.nullable) {
    const value = json[key];
    if (value === undefined || (Array.isArray(value) && value.length === 0)) json[key] = null;
  }
  for (const key of shape.omitEmpty) {
    const value = json[key];
    if (Array.isArray(value) ? value.length === 0 : value !== null && typeof value === "object" && Object.keys(value).length === 0) delete json[key];
  }
  for (const { name, kind, desc: child } of shape.nested) {
    const value = json[name];
    if (value === undefined || value === null) continue;
    if (kind === "list") for (const item of value as JsonObject[]) applyPresence(child, item);
    else if (kind === "message") applyPresence(child, value as JsonObject);
    else for (const item of Object.values(value as JsonObject)) applyPresence(child, item as JsonObject);
  }
}

export function renderJson<D extends DescMessage>(desc: D, message: MessageShape<D>): JsonValue {
  const json = toJson(desc, message, { useProtoFieldName: true, alwaysEmitImplicit: true }) as JsonObject;
  applyPresence(desc, json);
  if (carriesMessages(desc)) lowerContentParts(desc, json);
  return json;
}

const carries = new WeakMap<DescMessage, boolean>();

/** Whether chat messages (a type with `content_parts`) occur in `desc`'s answers: only then is the JSON walked again. */
function carriesMessages(desc: DescMessage, visiting = new Set<DescMessage>()): boolean {
  const known = carries.get(desc);
  if (known !== undefined) return known;
  if (visiting.has(desc)) return false;
  visiting.add(desc);
  const found = desc.fields.some((f) => f.name === "content_parts") || shapeOf(desc).nested.some((n) => n.kind !== "map" && carriesMessages(n.desc, visiting));
  visiting.delete(desc);
  carries.set(desc, found);
  return found;
}

/**
 * Chat messages in answers (the sanitized conversation, docs/sanitize.md) in the shape
 * clients sent them, the inverse of liftContentParts: content parts as a `content`
 * array, and no empty `tool_calls`, which chat-completions APIs refuse.
 */
function lowerContentParts(desc: DescMessage, json: JsonObject): void {
  if (desc.fields.some((f) => f.name === "content_parts")) {
    const parts = json.content_parts;
    delete json.content_parts;
    if (Array.isArray(parts) && parts.length > 0) json.content = parts;
    if (Array.isArray(json.tool_calls) && json.tool_calls.length === 0) delete json.tool_calls;
    return;
  }
  for (const { name, kind, desc: child } of shapeOf(desc).nested) {
    const value = json[name];
    if (kind === "map" || value === undefined || value === null || !carriesMessages(child)) continue;
    if (kind === "list") for (const item of value as JsonObject[]) lowerContentParts(child, item);
    else lowerContentParts(child, value as JsonObject);
  }
}

type ContentPartJson = { type: string; text?: string };

/** One entry of an OpenAI `content` array as a ContentPart, or why it is not one. */
function contentPartOf(part: unknown): ContentPartJson | string {
  // A bare string in a content array is a text part (the Responses API's mixed-list shape).
  if (typeof part === "string") return { type: "text", text: part };
  if (part === null || typeof part !== "object" || Array.isArray(part)) return "a content part is an object or a string";
  const p = part as Record<string, unknown>;
  const type = typeof p.type === "string" && p.type !== "" ? p.type : undefined;
  // Any part carrying text is screened whatever its type (text, input_text, output_text, ...):
  // text a model reads must not pass unscreened because its part type is one Parapet did not list.
  if ("text" in p) {
    if (typeof p.text !== "string") return "a content part's text is a string";
    return { type: type ?? "text", text: p.text };
  }
  if (type === "text") return "a text content part has a string text";
  if (!type) return "a content part has a non-empty string type";
  return { type };
}

/**
 * Chat-completions clients (every Lakera Guard integration) send `content` as
 * a string or as an array of content parts. Proto3 JSON cannot give one field
 * both shapes, so on the REST paths an array in `content` of any message type
 * that has a `content_parts` field is moved there before decoding
 * (docs/lakera-compatibility.md#content-parts). RPC clients set
 * `content_parts` themselves. Returns every problem found, with its path; a
 * message's `content` with a problem is taken out, so the rest decodes.
 */
export function liftContentParts(desc: DescMessage, json: Record<string, unknown>): FieldViolation[] {
  const problems: FieldViolation[] = [];
  for (const field of desc.fields) {
    if (field.fieldKind !== "list" || field.listKind !== "message" || !field.message.fields.some((f) => f.name === "content_parts")) continue;
    const list = json[field.name] ?? json[field.jsonName];
    if (!Array.isArray(list)) continue;
    for (let i = 0; i < list.length; i++) {
      const m = list[i] as Record<string, unknown> | null;
      if (m === null || typeof m !== "object" || !Array.isArray(m.content)) continue;
      const at = `${field.name}[${i}].content`;
      if (m.content_parts !== undefined || m.contentParts !== undefined) {
        problems.push({ field: at, message: "content is an array and content_parts is set; send one of them", rule: "" });
        delete m.content;
        continue;
      }
      const parts: ContentPartJson[] = [];
      const found = problems.length;
      const content = m.content as unknown[];
      for (let j = 0; j < content.length; j++) {
        const part = contentPartOf(content[j]);
        if (typeof part === "string") problems.push({ field: `${at}[${j}]`, message: part, rule: "" });
        else parts.push(part);
      }
      if (problems.length > found) delete m.content;
      // An empty array says "no content" the way "" does.
      else if (parts.length === 0) m.content = "";
      else {
        delete m.content;
        m.content_parts = parts;
      }
    }
  }
  return problems;
}
