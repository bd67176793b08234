// JSON rendering rules of the REST paths (docs/decisions.md#rest-json): the API's
// snake_case names, required fields always present ([] / false / 0 / ""), and
// JSON null for fields documented as "... or null" (proto option
// parapet.v1.nullable), which proto3 JSON would otherwise omit.
import { getOption, toJson, type DescMessage, type JsonValue, type MessageShape } from "@bufbuild/protobuf";
import { nullable } from "../../../gen/parapet/v1/options_pb.js";

type JsonObject = { [k: string]: JsonValue };

interface Shape {
  /** Fields written as null when unset or empty. */
  nullable: string[];
  /** Message-typed fields to descend into (well-known types render as scalars and are skipped). */
  nested: { name: string; kind: "list" | "message" | "map"; desc: DescMessage }[];
}

// Reading a field option allocates, and large responses (analytics: thousands
// of buckets) would read the same options thousands of times: one shape per type.
const shapes = new WeakMap<DescMessage, Shape>();

function shapeOf(desc: DescMessage): Shape {
  let shape = shapes.get(desc);
  if (!shape) {
    shape = { nullable: [], nested: [] };
    for (const field of desc.fields) {
      if (getOption(field, nullable)) shape.nullable.push(field.name);
      if (field.message && !field.message.typeName.startsWith("google.protobuf.")) {
        shape.nested.push({ name: field.name, kind: field.fieldKind as "list" | "message" | "map", desc: field.message });
      }
    }
    shapes.set(desc, shape);
  }
  return shape;
}

function addNulls(desc: DescMessage, json: JsonObject): void {
  const shape = shapeOf(desc);
  for (const key of shape.nullable) {
    const value = json[key];
    if (value === undefined || (Array.isArray(value) && value.length === 0)) json[key] = null;
  }
  for (const { name, kind, desc: child } of shape.nested) {
    const value = json[name];
    if (value === undefined || value === null) continue;
    if (kind === "list") for (const item of value as JsonObject[]) addNulls(child, item);
    else if (kind === "message") addNulls(child, value as JsonObject);
    else for (const item of Object.values(value as JsonObject)) addNulls(child, item as JsonObject);
  }
}

export function renderJson<D extends DescMessage>(desc: D, message: MessageShape<D>): JsonValue {
  const json = toJson(desc, message, { useProtoFieldName: true, alwaysEmitImplicit: true }) as JsonObject;
  addNulls(desc, json);
  return json;
}
