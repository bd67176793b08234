// protovalidate field rules (buf.validate.field, as proto JSON) as JSON Schema
// keywords on request schemas. Only rules JSON Schema can say exactly are
// carried over; the service checks every rule anyway, so a rule left out
// (CEL, prefixes, byte lengths) makes the document looser, never wrong
// (docs/openapi.md#what-the-document-says).
import type { JsonValue } from "@bufbuild/protobuf";
import type { JsonObject } from "./proto-options.js";
import type { JsonSchema } from "./json-schema.js";

const num = (v: JsonValue | undefined): number | undefined => (v === undefined || v === null ? undefined : Number(v));

function stringRules(r: JsonObject, s: JsonSchema): void {
  if (r.const !== undefined) s.const = r.const;
  if (Array.isArray(r.in) && r.in.length > 0) s.enum = r.in;
  const len = num(r.len);
  if (len !== undefined) s.minLength = s.maxLength = len;
  if (r.min_len !== undefined) s.minLength = num(r.min_len);
  if (r.max_len !== undefined) s.maxLength = num(r.max_len);
  // RE2 inline flags have no ECMAScript equivalent; such a pattern is left to the service.
  if (typeof r.pattern === "string" && !r.pattern.startsWith("(?")) s.pattern = r.pattern;
  if (r.uuid === true) s.format = "uuid";
  if (r.email === true) s.format = "email";
  if (r.uri === true) s.format = "uri";
}

function numberRules(r: JsonObject, s: JsonSchema, asString: boolean): void {
  // 64-bit values travel as strings in proto JSON; a bound would not apply to them.
  if (asString) return;
  if (r.const !== undefined) s.const = num(r.const);
  if (Array.isArray(r.in) && r.in.length > 0) s.enum = r.in.map((v) => num(v));
  if (r.gte !== undefined) s.minimum = num(r.gte);
  if (r.gt !== undefined) s.exclusiveMinimum = num(r.gt);
  if (r.lte !== undefined) s.maximum = num(r.lte);
  if (r.lt !== undefined) s.exclusiveMaximum = num(r.lt);
}

const numberKinds = ["int32", "sint32", "sfixed32", "uint32", "fixed32", "float", "double"];
const wideKinds = ["int64", "sint64", "sfixed64", "uint64", "fixed64"];

/** Adds the rules to `schema` (the field's own schema: an array for lists, an object for maps). */
export function applyFieldRules(rules: JsonObject, schema: JsonSchema): void {
  // IGNORE_ALWAYS turns the rules off; IGNORE_IF_ZERO_VALUE lets the zero value through, which
  // keywords on the value cannot say: both are left to the service.
  if (rules.ignore !== undefined && rules.ignore !== "IGNORE_UNSPECIFIED") return;
  for (const [kind, value] of Object.entries(rules)) {
    if (value === null || typeof value !== "object" || Array.isArray(value)) continue;
    const r = value;
    if (kind === "string") stringRules(r, schema);
    else if (numberKinds.includes(kind)) numberRules(r, schema, false);
    else if (wideKinds.includes(kind)) numberRules(r, schema, true);
    else if (kind === "bool" && r.const !== undefined) schema.const = r.const;
    else if (kind === "repeated") {
      if (r.min_items !== undefined) schema.minItems = num(r.min_items);
      if (r.max_items !== undefined) schema.maxItems = num(r.max_items);
      if (r.unique === true) schema.uniqueItems = true;
      if (r.items && typeof r.items === "object" && schema.items) applyFieldRules(r.items as JsonObject, schema.items as JsonSchema);
    } else if (kind === "map") {
      if (r.min_pairs !== undefined) schema.minProperties = num(r.min_pairs);
      if (r.max_pairs !== undefined) schema.maxProperties = num(r.max_pairs);
      if (r.keys && typeof r.keys === "object") {
        const keys: JsonSchema = { ...((schema.propertyNames as JsonSchema | undefined) ?? { type: "string" }) };
        applyFieldRules(r.keys as JsonObject, keys);
        schema.propertyNames = keys;
      }
      if (r.values && typeof r.values === "object" && typeof schema.additionalProperties === "object") {
        applyFieldRules(r.values as JsonObject, schema.additionalProperties as JsonSchema);
      }
    }
  }
}
