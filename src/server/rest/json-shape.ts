// JSON rendering rules of the REST paths (DESIGN.md 3.2): the spec's
// snake_case names, required fields always present ([] / false / 0 / ""), and
// JSON null for fields the spec shows as "... or null" (proto option
// parapet.v1.nullable), which proto3 JSON would otherwise omit.
import { getOption, toJson, type DescMessage, type JsonValue, type MessageShape } from "@bufbuild/protobuf";
import { nullable } from "../../../gen/parapet/v1/options_pb.js";

type JsonObject = { [k: string]: JsonValue };

function addNulls(desc: DescMessage, json: JsonObject): void {
  for (const field of desc.fields) {
    const key = field.name;
    const value = json[key];
    if (getOption(field, nullable)) {
      const empty = value === undefined || (Array.isArray(value) && value.length === 0);
      if (empty) {
        json[key] = null;
        continue;
      }
    }
    if (field.message && value !== undefined && value !== null) {
      // Well-known types render as JSON scalars (Timestamp -> string): leave them.
      if (field.message.typeName.startsWith("google.protobuf.")) continue;
      if (field.fieldKind === "list") {
        for (const item of value as JsonObject[]) addNulls(field.message, item);
      } else if (field.fieldKind === "message") {
        addNulls(field.message, value as JsonObject);
      } else if (field.fieldKind === "map") {
        for (const item of Object.values(value as JsonObject)) addNulls(field.message, item as JsonObject);
      }
    }
  }
}

export function renderJson<D extends DescMessage>(desc: D, message: MessageShape<D>): JsonValue {
  const json = toJson(desc, message, { useProtoFieldName: true, alwaysEmitImplicit: true }) as JsonObject;
  addNulls(desc, json);
  return json;
}
