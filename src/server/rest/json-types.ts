// JSON type checks of a REST request before it is decoded (docs/api.md#field-paths).
//
// protobuf-es' fromJson stops at the first value of the wrong JSON type and names it by
// its message type ("content (Message)"), not by where it is. This walk reads the request
// the way fromJson does, field by field along the schema, and reports every such value
// with its JSON path and what was expected; it then takes the value out, so the rest of
// the request decodes and its rule violations are reported in the same answer
// (api/interceptors/validation.ts). It descends only along message fields, never into
// free-form JSON (Struct), whose depth is json-depth.ts's business, so its own depth
// is that of the schema.
import { create, fromJson, ScalarType, toJson, type DescEnum, type DescField, type DescMessage, type JsonValue } from "@bufbuild/protobuf";
import {
  BoolValueSchema,
  BytesValueSchema,
  DoubleValueSchema,
  FloatValueSchema,
  Int32ValueSchema,
  Int64ValueSchema,
  UInt32ValueSchema,
  UInt64ValueSchema,
} from "@bufbuild/protobuf/wkt";
import type { FieldViolation } from "../../api/errors.js";

type JsonObject = Record<string, unknown>;

/** Well-known types whose JSON is not an object of their fields (the proto3 JSON mapping). */
const freeForm: Record<string, string> = {
  "google.protobuf.Struct": "a JSON object",
  "google.protobuf.ListValue": "a JSON array",
};
const specialJson: Record<string, string> = {
  "google.protobuf.Timestamp": "an RFC 3339 date-time string such as 2025-01-31T12:00:00Z",
  "google.protobuf.Duration": 'a duration string such as "1.5s"',
  "google.protobuf.FieldMask": "a comma-separated string of field names",
  "google.protobuf.Any": "an object with @type",
  "google.protobuf.Empty": "an object",
  "google.protobuf.DoubleValue": "a number",
  "google.protobuf.FloatValue": "a number",
  "google.protobuf.Int64Value": "an integer",
  "google.protobuf.UInt64Value": "a non-negative integer",
  "google.protobuf.Int32Value": "a 32-bit integer",
  "google.protobuf.UInt32Value": "a non-negative 32-bit integer",
  "google.protobuf.BoolValue": "true or false",
  "google.protobuf.StringValue": "a string",
  "google.protobuf.BytesValue": "base64-encoded bytes",
};

/** Numbers and bytes are checked by decoding them as their wrapper type: the same rules as a field of that type. */
const wrapperOf: Partial<Record<ScalarType, DescMessage>> = {
  [ScalarType.DOUBLE]: DoubleValueSchema,
  [ScalarType.FLOAT]: FloatValueSchema,
  [ScalarType.INT64]: Int64ValueSchema,
  [ScalarType.SINT64]: Int64ValueSchema,
  [ScalarType.SFIXED64]: Int64ValueSchema,
  [ScalarType.UINT64]: UInt64ValueSchema,
  [ScalarType.FIXED64]: UInt64ValueSchema,
  [ScalarType.INT32]: Int32ValueSchema,
  [ScalarType.SINT32]: Int32ValueSchema,
  [ScalarType.SFIXED32]: Int32ValueSchema,
  [ScalarType.UINT32]: UInt32ValueSchema,
  [ScalarType.FIXED32]: UInt32ValueSchema,
  [ScalarType.BYTES]: BytesValueSchema,
};

function decodes(desc: DescMessage, value: unknown): boolean {
  try {
    fromJson(desc, value as JsonValue);
    return true;
  } catch {
    return false;
  }
}

function scalarOk(type: ScalarType, value: unknown): boolean {
  if (type === ScalarType.STRING) return typeof value === "string";
  if (type === ScalarType.BOOL) return typeof value === "boolean";
  return decodes(wrapperOf[type] ?? BoolValueSchema, value);
}

function enumOk(desc: DescEnum, value: unknown): boolean {
  if (typeof value === "string") return desc.values.some((v) => v.name === value);
  return typeof value === "number" && Number.isInteger(value) && value >= -(2 ** 31) && value < 2 ** 31;
}

function scalarExpected(type: ScalarType): string {
  switch (type) {
    case ScalarType.STRING:
      return "a string";
    case ScalarType.BOOL:
      return "true or false";
    case ScalarType.DOUBLE:
    case ScalarType.FLOAT:
      return "a number";
    case ScalarType.BYTES:
      return "base64-encoded bytes";
    default:
      return specialJson[(wrapperOf[type] ?? BoolValueSchema).typeName];
  }
}

function enumExpected(desc: DescEnum): string {
  const names = desc.values.map((v) => v.name);
  return `one of ${names.slice(0, 10).join(", ")}${names.length > 10 ? ", ..." : ""}`;
}

function messageExpected(desc: DescMessage): string {
  return freeForm[desc.typeName] ?? specialJson[desc.typeName] ?? `an object (${desc.name})`;
}

/** What a JSON value is, for "got ...": its type, and short numbers and strings themselves. */
function described(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  switch (typeof value) {
    case "object":
      return "an object";
    case "boolean":
      return String(value);
    case "number":
      return String(value);
    case "string":
      // The client's text: quoted when short, so "abc" for a number reads as what it is.
      return value.length <= 40 ? JSON.stringify(value) : "a string";
    default:
      return typeof value;
  }
}

/** A field by the key the client used: its proto (snake_case) or JSON (lowerCamelCase) name, as fromJson takes both. */
function fieldsByKey(desc: DescMessage): Map<string, DescField> {
  let map = keyMaps.get(desc);
  if (!map) {
    map = new Map();
    for (const f of desc.fields) {
      map.set(f.name, f);
      map.set(f.jsonName, f);
    }
    keyMaps.set(desc, map);
  }
  return map;
}
const keyMaps = new WeakMap<DescMessage, Map<string, DescField>>();

/** Beyond any schema Parapet has; a bound so that no request can make the walk deep. */
const maxSchemaDepth = 32;

class Walk {
  readonly violations: FieldViolation[] = [];

  wrong(path: string, expected: string, value: unknown): void {
    this.violations.push({ field: path, message: `expected ${expected}, got ${described(value)}`, rule: "" });
  }

  /** Checks the fields of `obj`, a `desc`; removes the ones of the wrong type. */
  message(desc: DescMessage, obj: JsonObject, path: string, depth: number): void {
    if (depth > maxSchemaDepth) return; // fromJson decides
    const byKey = fieldsByKey(desc);
    const oneofs = new Map<string, string>();
    for (const key of Object.keys(obj)) {
      const field = byKey.get(key);
      const value = obj[key];
      // Unknown keys are ignored (docs/api.md#json-on-the-rest-paths); null is an unset field.
      if (!field || value === null) continue;
      const at = path ? `${path}.${field.name}` : field.name;
      if (field.oneof) {
        const first = oneofs.get(field.oneof.name);
        if (first !== undefined && first !== field.name) {
          this.violations.push({ field: at, message: `only one of ${first} and ${field.name} may be set`, rule: "" });
          delete obj[key];
          continue;
        }
        oneofs.set(field.oneof.name, field.name);
      }
      if (!this.field(field, desc, value, at, depth)) delete obj[key];
    }
  }

  /** Checks one field's value; false when it has to go. */
  private field(field: DescField, parent: DescMessage, value: unknown, at: string, depth: number): boolean {
    switch (field.fieldKind) {
      case "scalar":
        if (scalarOk(field.scalar, value)) return true;
        this.wrong(at, contentExpected(field, parent) ?? scalarExpected(field.scalar), value);
        return false;
      case "enum":
        if (enumOk(field.enum, value)) return true;
        this.wrong(at, enumExpected(field.enum), value);
        return false;
      case "message":
        return this.messageValue(field.message, value, at, depth);
      case "list":
        return this.list(field, value, at, depth);
      case "map":
        return this.map(field, value, at, depth);
    }
  }

  /** A value of message type `desc`; false when it is not one. */
  private messageValue(desc: DescMessage, value: unknown, at: string, depth: number): boolean {
    const isObject = value !== null && typeof value === "object" && !Array.isArray(value);
    switch (desc.typeName) {
      case "google.protobuf.Value":
        return true;
      case "google.protobuf.Struct":
        if (isObject) return true;
        break;
      case "google.protobuf.ListValue":
        if (Array.isArray(value)) return true;
        break;
      default:
        if (desc.typeName in specialJson) {
          if (decodes(desc, value)) return true;
        } else if (isObject) {
          this.message(desc, value as JsonObject, at, depth + 1);
          return true;
        }
    }
    this.wrong(at, messageExpected(desc), value);
    return false;
  }

  private list(field: DescField & { fieldKind: "list" }, value: unknown, at: string, depth: number): boolean {
    const item = field.listKind === "scalar" ? scalarExpected(field.scalar) : field.listKind === "enum" ? enumExpected(field.enum) : messageExpected(field.message);
    if (!Array.isArray(value)) {
      this.wrong(at, `an array, each item ${item}`, value);
      return false;
    }
    for (let i = 0; i < value.length; i++) {
      const v: unknown = value[i];
      const itemAt = `${at}[${i}]`;
      let ok: boolean;
      if (field.listKind === "message") {
        ok = v !== null || field.message.typeName === "google.protobuf.Value";
        if (ok) ok = this.messageValue(field.message, v, itemAt, depth);
        else this.wrong(itemAt, item, v);
        // A wrong item keeps its place (later items keep their index): an empty one stands in.
        if (!ok) value[i] = zeroJson(field.message);
      } else {
        ok = field.listKind === "scalar" ? scalarOk(field.scalar, v) : enumOk(field.enum, v);
        if (!ok) {
          this.wrong(itemAt, item, v);
          value[i] = field.listKind === "scalar" ? zeroOf(field.scalar) : 0;
        }
      }
    }
    return true;
  }

  private map(field: DescField & { fieldKind: "map" }, value: unknown, at: string, depth: number): boolean {
    if (value === null || typeof value !== "object" || Array.isArray(value)) {
      this.wrong(at, "an object", value);
      return false;
    }
    const obj = value as JsonObject;
    for (const key of Object.keys(obj)) {
      const v = obj[key];
      const itemAt = `${at}[${JSON.stringify(key)}]`;
      let ok: boolean;
      if (field.mapKind === "message") ok = v !== null && this.messageValue(field.message, v, itemAt, depth);
      else if (field.mapKind === "enum") ok = enumOk(field.enum, v);
      else ok = scalarOk(field.scalar, v);
      if (!ok) {
        // messageValue reported its own value; a null or a scalar is reported here.
        if (field.mapKind !== "message" || v === null) {
          this.wrong(
            itemAt,
            field.mapKind === "message" ? messageExpected(field.message) : field.mapKind === "enum" ? enumExpected(field.enum) : scalarExpected(field.scalar),
            v,
          );
        }
        delete obj[key];
      }
    }
    return true;
  }
}

/** The JSON of an empty `desc`, which always decodes (`{}`, or a well-known type's own zero such as "0s"). */
function zeroJson(desc: DescMessage): JsonValue {
  return toJson(desc, create(desc));
}

function zeroOf(type: ScalarType): unknown {
  if (type === ScalarType.STRING || type === ScalarType.BYTES) return "";
  if (type === ScalarType.BOOL) return false;
  return 0;
}

/**
 * A message's `content` on the REST paths is a string or an array of content parts
 * (json-shape.ts liftContentParts moved arrays out already): say both.
 */
function contentExpected(field: DescField, parent: DescMessage): string | null {
  return field.name === "content" && parent.fields.some((f) => f.name === "content_parts") ? "a string, null, or an array of content parts" : null;
}

/**
 * Every value of `json` (the request message as JSON) of the wrong JSON type for
 * `desc`, with its path; each is taken out of `json`, so what remains decodes.
 * Paths use the proto (snake_case) names whatever name the client sent.
 */
export function jsonTypeViolations(desc: DescMessage, json: JsonObject): FieldViolation[] {
  const walk = new Walk();
  walk.message(desc, json, "", 0);
  return walk.violations;
}
