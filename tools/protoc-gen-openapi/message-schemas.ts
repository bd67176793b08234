// Messages as JSON Schema components, in the JSON the REST paths actually
// speak (src/server/rest/json-shape.ts):
//   - proto field names (snake_case), not lowerCamel json names;
//   - responses always carry implicit-presence fields (scalars without
//     `optional`, lists, maps: [] / false / 0 / "" rather than omitted) and
//     the fields marked nullable (null when unset); nothing else is written,
//     so response objects admit no other property; lists and maps marked
//     omit_empty are the exception: left out when empty, so optional and
//     never empty in responses;
//   - requests accept any subset (unknown fields are ignored); the
//     protovalidate rules give their required fields and constraints.
// A message used in both directions gets two components, `X` (response) and
// `X-Input` (request), because the two differ in what is required.
import type { DescField, DescMessage } from "@bufbuild/protobuf";
import { FeatureSet_FieldPresence } from "@bufbuild/protobuf/wkt";
import { commentOf } from "./comments.js";
import { enumSchema, scalarSchema, wellKnownSchema, withNull, type Direction, type JsonSchema } from "./json-schema.js";
import type { ProtoOptions } from "./proto-options.js";
import { contentPartsSchema, hasLiftedContent, loweredContentSchema } from "./rest-rules.js";
import { applyFieldRules } from "./validate-rules.js";

const componentPrefix = "#/components/schemas/";

export class MessageSchemas {
  readonly components: Record<string, JsonSchema> = {};
  private readonly used: Record<Direction, Set<DescMessage>> = { request: new Set(), response: new Set() };

  constructor(private readonly options: ProtoOptions) {}

  isRequired(field: DescField): boolean {
    return this.options.isRequired(field);
  }

  /**
   * Records every message reachable from `root` in direction `dir`. All roots
   * must be registered before the first `ref`, as the component names depend
   * on whether a message is used both ways.
   */
  use(root: DescMessage, dir: Direction): void {
    const seen = this.used[dir];
    const visit = (m: DescMessage) => {
      if (seen.has(m) || wellKnownSchema(m, dir)) return;
      seen.add(m);
      for (const f of m.fields) if (f.message) visit(f.message);
    };
    visit(root);
  }

  private nameOf(desc: DescMessage, dir: Direction): string {
    return dir === "request" && this.used.response.has(desc) ? `${desc.typeName}-Input` : desc.typeName;
  }

  /** A reference to the message's component (built on first use), or the inline schema of a well-known type. */
  ref(desc: DescMessage, dir: Direction): JsonSchema {
    const wkt = wellKnownSchema(desc, dir);
    if (wkt) return wkt;
    if (!this.used[dir].has(desc)) throw new Error(`${desc.typeName} is not registered for ${dir}s`);
    const name = this.nameOf(desc, dir);
    if (!(name in this.components)) {
      this.components[name] = {}; // placeholder: recursive messages refer to themselves
      this.components[name] = this.objectSchema(desc, dir);
    }
    return { $ref: componentPrefix + name };
  }

  /** The message as an inline object schema, without the fields in `omit` (bound by the path). */
  objectSchema(desc: DescMessage, dir: Direction, omit: ReadonlySet<string> = new Set()): JsonSchema {
    const properties: Record<string, JsonSchema> = {};
    const required: string[] = [];
    // Answers give chat messages back in the shape clients send them (rest-rules.ts, loweredContentSchema).
    const lowered = dir === "response" && desc.fields.some(hasLiftedContent);
    for (const field of desc.fields) {
      if (omit.has(field.name) || (lowered && field.name === "content_parts")) continue;
      properties[field.name] = this.fieldSchema(field, dir);
      const written = alwaysWritten(field, this.options) && !(lowered && field.name === "tool_calls");
      if (dir === "response" ? written : this.options.isRequired(field)) required.push(field.name);
    }
    const notes: string[] = [];
    for (const oneof of desc.oneofs) {
      const members = oneof.fields.filter((f) => !omit.has(f.name)).map((f) => `\`${f.name}\``);
      if (members.length > 1) notes.push(`At most one of ${members.join(", ")}.`);
    }
    if (dir === "request") {
      for (const rule of this.options.messageRules(desc)) notes.push(`Rule${rule.id ? ` \`${rule.id}\`` : ""}: ${rule.message}.`);
    }
    const description = [commentOf(desc), ...notes].filter((t) => t !== undefined).join("\n\n");
    const schema: JsonSchema = { type: "object" };
    if (description !== "") schema.description = description;
    schema.properties = properties;
    if (required.length > 0) schema.required = required;
    if (dir === "response") schema.additionalProperties = false;
    return schema;
  }

  /** A field's value schema, with its description, constraints (requests) and null where the REST paths write or take it. */
  fieldSchema(field: DescField, dir: Direction): JsonSchema {
    let schema: JsonSchema;
    switch (field.fieldKind) {
      case "scalar":
        schema = scalarSchema(field.scalar, dir);
        break;
      case "enum":
        schema = enumSchema(field.enum, dir);
        break;
      case "message":
        schema = this.ref(field.message, dir);
        break;
      case "list":
        schema = {
          type: "array",
          items: field.listKind === "scalar" ? scalarSchema(field.scalar, dir) : field.listKind === "enum" ? enumSchema(field.enum, dir) : this.ref(field.message, dir),
        };
        break;
      case "map": {
        const value =
          field.mapKind === "scalar" ? scalarSchema(field.scalar, dir) : field.mapKind === "enum" ? enumSchema(field.enum, dir) : this.ref(field.message, dir);
        schema = { type: "object", additionalProperties: value };
        const key = scalarSchema(field.mapKey, dir);
        // Map keys are JSON object keys, so strings whatever the key type.
        if (key.type === "boolean") schema.propertyNames = { enum: ["true", "false"] };
        else if (key.type !== "string" && key.pattern === undefined) schema.propertyNames = { pattern: "^-?[0-9]+$" };
        else if (key.pattern !== undefined) schema.propertyNames = { pattern: key.pattern };
        break;
      }
    }
    if (dir === "request") {
      const rules = this.options.fieldRules(field);
      if (rules) applyFieldRules(rules, schema);
    } else if (this.options.isOmitEmpty(field)) {
      if (field.fieldKind === "list") schema.minItems = 1;
      else schema.minProperties = 1;
    }
    if (this.options.isNullable(field)) schema = withNull(schema);
    if (hasLiftedContent(field)) schema = { anyOf: [schema, dir === "request" ? contentPartsSchema : loweredContentSchema] };
    const description = commentOf(field);
    if (description !== undefined) schema = { description, ...schema };
    return schema;
  }
}

/** Written in every response: implicit presence (see the top of this file) or nullable, and not omit_empty. */
function alwaysWritten(field: DescField, options: ProtoOptions): boolean {
  if (options.isNullable(field)) return true;
  if (options.isOmitEmpty(field)) return false;
  if (field.fieldKind === "list" || field.fieldKind === "map") return true;
  if (field.fieldKind === "message" || field.oneof) return false;
  return field.presence === FeatureSet_FieldPresence.IMPLICIT;
}
