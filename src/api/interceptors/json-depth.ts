// Free-form JSON fields (google.protobuf.Struct: `metadata`, a tool's
// `parameters`) nest without bound in the wire formats. Deep values cost
// recursion in every later step — validation, the request log, MongoDB's
// 100-level document limit — so they are refused at the door
// (docs/api.md#protocol-errors).
import type { DescField, DescMessage, JsonValue } from "@bufbuild/protobuf";

/** Most nested objects and arrays one free-form JSON field may hold, the field's own object included. */
export const maxJsonDepth = 32;

const jsonTypes = new Set(["google.protobuf.Struct", "google.protobuf.Value", "google.protobuf.ListValue"]);

const memo = new Map<DescMessage, DescField[]>();

/** Fields of `desc` holding free-form JSON, or messages that (at any depth) do. */
function jsonBearing(desc: DescMessage, visiting = new Set<DescMessage>()): DescField[] {
  const known = memo.get(desc);
  if (known) return known;
  visiting.add(desc);
  const fields = desc.fields.filter((f) => {
    const type =
      f.fieldKind === "message" || (f.fieldKind === "list" && f.listKind === "message") || (f.fieldKind === "map" && f.mapKind === "message") ? f.message : undefined;
    if (!type) return false;
    if (jsonTypes.has(type.typeName)) return true;
    // A message type on the current path: its own fields are being examined already.
    return !visiting.has(type) && jsonBearing(type, visiting).length > 0;
  });
  visiting.delete(desc);
  memo.set(desc, fields);
  return fields;
}

/** True when `value` nests more than `levels` objects and arrays. Recursion stops at `levels`. */
function deeperThan(value: JsonValue, levels: number): boolean {
  if (value === null || typeof value !== "object") return false;
  if (levels === 0) return true;
  const children = Array.isArray(value) ? value : Object.values(value);
  return children.some((child) => deeperThan(child, levels - 1));
}

/** The path of the first free-form JSON field of `message` nested deeper than `maxJsonDepth`, or null. */
export function tooDeepJsonField(desc: DescMessage, message: Record<string, unknown>, path = ""): string | null {
  for (const field of jsonBearing(desc)) {
    const value = field.oneof ? oneofValue(message[field.oneof.localName], field.localName) : message[field.localName];
    if (value === undefined || value === null) continue;
    const name = path ? `${path}.${field.name}` : field.name;
    const items: [string, unknown][] =
      field.fieldKind === "list"
        ? (value as unknown[]).map((v, i) => [`${name}[${i}]`, v])
        : field.fieldKind === "map"
          ? Object.entries(value).map(([k, v]) => [`${name}[${k}]`, v])
          : [[name, value]];
    for (const [at, item] of items) {
      if (jsonTypes.has(field.message!.typeName)) {
        if (deeperThan(item as JsonValue, maxJsonDepth)) return at;
      } else {
        const inner = tooDeepJsonField(field.message!, item as Record<string, unknown>, at);
        if (inner) return inner;
      }
    }
  }
  return null;
}

function oneofValue(oneof: unknown, localName: string): unknown {
  const o = oneof as { case?: string; value?: unknown } | undefined;
  return o?.case === localName ? o.value : undefined;
}
