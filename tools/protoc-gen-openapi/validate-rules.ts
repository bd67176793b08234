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

/** Whether `value` passes the range rules (gt/gte/lt/lte) of a numeric rule set; a lower bound above the upper one is protovalidate's exclusive range. */
function inRange(r: JsonObject, value: number): boolean {
  const gt = num(r.gt);
  const gte = num(r.gte);
  const lt = num(r.lt);
  const lte = num(r.lte);
  const lower = gt ?? gte;
  const upper = lt ?? lte;
  const aboveLower = gt !== undefined ? value > gt : gte !== undefined ? value >= gte : true;
  const belowUpper = lt !== undefined ? value < lt : lte !== undefined ? value <= lte : true;
  if (lower !== undefined && upper !== undefined && lower > upper) return aboveLower || belowUpper;
  return aboveLower && belowUpper;
}

const stringFormats = [
  "email",
  "hostname",
  "ip",
  "ipv4",
  "ipv6",
  "uri",
  "uri_ref",
  "address",
  "uuid",
  "tuuid",
  "ip_with_prefixlen",
  "ipv4_with_prefixlen",
  "ipv6_with_prefixlen",
  "ip_prefix",
  "ipv4_prefix",
  "ipv6_prefix",
  "host_and_port",
  "ulid",
];

function stringRefusesEmpty(r: JsonObject): boolean {
  if (r.const !== undefined && r.const !== "") return true;
  if (Array.isArray(r.in) && r.in.length > 0 && !r.in.includes("")) return true;
  if (Array.isArray(r.not_in) && r.not_in.includes("")) return true;
  for (const key of ["len", "min_len", "len_bytes", "min_bytes"]) if ((num(r[key]) ?? 0) > 0) return true;
  for (const key of ["prefix", "suffix", "contains"]) if (typeof r[key] === "string" && r[key] !== "") return true;
  if (stringFormats.some((f) => r[f] === true)) return true;
  if (typeof r.well_known_regex === "string" && r.well_known_regex !== "KNOWN_REGEX_UNSPECIFIED") return true;
  // Only ECMAScript-compatible patterns are judged here (see stringRules); an RE2-only one is left to the service.
  if (typeof r.pattern === "string" && !r.pattern.startsWith("(?")) return !new RegExp(r.pattern, "u").test("");
  return false;
}

function numberRefusesZero(r: JsonObject): boolean {
  if (r.const !== undefined && num(r.const) !== 0) return true;
  if (Array.isArray(r.in) && r.in.length > 0 && !r.in.some((v) => num(v) === 0)) return true;
  if (Array.isArray(r.not_in) && r.not_in.some((v) => num(v) === 0)) return true;
  return !inRange(r, 0);
}

/**
 * Whether protovalidate refuses a field's zero value ("", 0, false, the first enum
 * value, an empty list or map) under `rules`. A field without explicit presence
 * reads as its zero value when a JSON body leaves it out, so such a field is
 * required in practice even without `required: true` (a `string.in` list without "",
 * `min_len: 1`, `repeated.min_items: 1`, ...).
 */
export function refusesZeroValue(rules: JsonObject): boolean {
  if (rules.ignore !== undefined && rules.ignore !== "IGNORE_UNSPECIFIED") return false;
  for (const [kind, value] of Object.entries(rules)) {
    if (value === null || typeof value !== "object" || Array.isArray(value)) continue;
    const r = value;
    if (kind === "string" || kind === "bytes") {
      if (stringRefusesEmpty(r)) return true;
    } else if (numberKinds.includes(kind) || wideKinds.includes(kind) || kind === "enum") {
      if (numberRefusesZero(r)) return true;
    } else if (kind === "bool") {
      if (r.const === true) return true;
    } else if (kind === "repeated") {
      if ((num(r.min_items) ?? 0) > 0) return true;
    } else if (kind === "map") {
      if ((num(r.min_pairs) ?? 0) > 0) return true;
    }
  }
  return false;
}
