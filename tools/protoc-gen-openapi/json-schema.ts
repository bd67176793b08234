// Proto3 JSON as JSON Schema 2020-12 (the dialect of OpenAPI 3.1): scalars,
// enums and the well-known types, as protobuf-es writes them (responses) and
// reads them (requests).
import { ScalarType, type DescEnum, type DescMessage } from "@bufbuild/protobuf";

export type JsonSchema = { [k: string]: unknown };

/** Responses are what the service writes; requests what it accepts, which is a little wider. */
export type Direction = "request" | "response";

const int64Pattern = "^-?[0-9]+$";
const uint64Pattern = "^[0-9]+$";

export function scalarSchema(type: ScalarType, dir: Direction): JsonSchema {
  switch (type) {
    case ScalarType.DOUBLE:
    case ScalarType.FLOAT:
      // Proto JSON spells the non-finite values as strings.
      return { anyOf: [{ type: "number" }, { type: "string", enum: ["NaN", "Infinity", "-Infinity"] }] };
    case ScalarType.INT32:
    case ScalarType.SINT32:
    case ScalarType.SFIXED32:
      return { type: "integer", format: "int32" };
    case ScalarType.UINT32:
    case ScalarType.FIXED32:
      return { type: "integer", minimum: 0, maximum: 4294967295 };
    case ScalarType.INT64:
    case ScalarType.SINT64:
    case ScalarType.SFIXED64:
      // Written as decimal strings (JSON numbers lose precision past 2^53); read from either.
      return dir === "response" ? { type: "string", format: "int64", pattern: int64Pattern } : { type: ["string", "integer"], format: "int64", pattern: int64Pattern };
    case ScalarType.UINT64:
    case ScalarType.FIXED64:
      return dir === "response" ? { type: "string", pattern: uint64Pattern } : { type: ["string", "integer"], pattern: uint64Pattern, minimum: 0 };
    case ScalarType.BOOL:
      return { type: "boolean" };
    case ScalarType.STRING:
      return { type: "string" };
    case ScalarType.BYTES:
      return { type: "string", contentEncoding: "base64" };
  }
}

export function enumSchema(desc: DescEnum, dir: Direction): JsonSchema {
  if (desc.typeName === "google.protobuf.NullValue") return { type: "null" };
  const names = desc.values.map((v) => v.name);
  // Requests may also give the number.
  return dir === "response" ? { type: "string", enum: names } : { type: ["string", "integer"], enum: [...names, ...desc.values.map((v) => v.number)] };
}

const wrappers: Record<string, ScalarType> = {
  "google.protobuf.DoubleValue": ScalarType.DOUBLE,
  "google.protobuf.FloatValue": ScalarType.FLOAT,
  "google.protobuf.Int64Value": ScalarType.INT64,
  "google.protobuf.UInt64Value": ScalarType.UINT64,
  "google.protobuf.Int32Value": ScalarType.INT32,
  "google.protobuf.UInt32Value": ScalarType.UINT32,
  "google.protobuf.BoolValue": ScalarType.BOOL,
  "google.protobuf.StringValue": ScalarType.STRING,
  "google.protobuf.BytesValue": ScalarType.BYTES,
};

/** The inline schema of a well-known type with a special JSON form, or null for an ordinary message. */
export function wellKnownSchema(desc: DescMessage, dir: Direction): JsonSchema | null {
  switch (desc.typeName) {
    case "google.protobuf.Timestamp":
      return { type: "string", format: "date-time" };
    case "google.protobuf.Duration":
      return { type: "string", pattern: "^-?[0-9]+(\\.[0-9]{1,9})?s$" };
    case "google.protobuf.FieldMask":
      return { type: "string" };
    case "google.protobuf.Struct":
      return { type: "object" };
    case "google.protobuf.ListValue":
      return { type: "array" };
    case "google.protobuf.Value":
      // Any JSON value, null included.
      return {};
    case "google.protobuf.Empty":
      return dir === "response" ? { type: "object", additionalProperties: false } : { type: "object" };
    case "google.protobuf.Any":
      return { type: "object", properties: { "@type": { type: "string" } }, required: ["@type"] };
  }
  const wrapped = wrappers[desc.typeName];
  return wrapped === undefined ? null : scalarSchema(wrapped, dir);
}

/** `schema` or JSON null. */
export function withNull(schema: JsonSchema): JsonSchema {
  if (Object.keys(schema).length === 0) return schema;
  const { description, ...rest } = schema;
  let out: JsonSchema;
  if (typeof rest.type === "string" && rest.$ref === undefined) {
    out = { ...rest, type: [rest.type, "null"] };
    if (Array.isArray(rest.enum)) out.enum = [...(rest.enum as unknown[]), null];
    if (rest.const !== undefined) out = { anyOf: [rest, { type: "null" }] };
  } else if (Array.isArray(rest.type) && rest.$ref === undefined && rest.const === undefined && !Array.isArray(rest.enum)) {
    out = { ...rest, type: [...(rest.type as string[]), "null"] };
  } else {
    out = { anyOf: [rest, { type: "null" }] };
  }
  return description === undefined ? out : { description, ...out };
}
