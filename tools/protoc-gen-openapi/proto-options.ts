// The proto options the document is built from, read from the descriptors in
// the code generator request (gen/ is cleaned before plugins run, so nothing
// generated can be imported here). Message-typed options come back as proto
// JSON with proto field names: plain data that is easy to walk.
import { getOption, hasOption, toJson, type DescExtension, type DescField, type DescFile, type DescMessage, type DescMethod, type JsonValue } from "@bufbuild/protobuf";
import { FeatureSet_FieldPresence } from "@bufbuild/protobuf/wkt";
import { refusesZeroValue } from "./validate-rules.js";

export type JsonObject = { [k: string]: JsonValue };

export type HttpVerb = "get" | "put" | "post" | "delete" | "patch";

export interface HttpRule {
  verb: HttpVerb;
  pathTemplate: string;
  /** "" (no body), "*" (the whole request) or a top-level field name. */
  body: string;
}

export interface ProtoOptions {
  /** The primary google.api.http binding, as the REST layer serves it (additional bindings and custom verbs are not served). */
  httpRule(method: DescMethod): HttpRule | null;
  /** buf.validate.field rules of a field, or null. */
  fieldRules(field: DescField): JsonObject | null;
  /** buf.validate.message CEL rules of a message: their messages and ids. */
  messageRules(message: DescMessage): { id: string; message: string }[];
  /**
   * protovalidate `required`, rules that refuse the zero value of a field without
   * explicit presence (validate-rules.ts, refusesZeroValue), or google.api.field_behavior REQUIRED.
   */
  isRequired(field: DescField): boolean;
  /** The nullable field option: written as JSON null when unset. */
  isNullable(field: DescField): boolean;
  /** The omit-empty field option: a repeated or map field left out when empty. */
  isOmitEmpty(field: DescField): boolean;
}

function* messagesOf(messages: readonly DescMessage[]): Iterable<DescMessage> {
  for (const m of messages) {
    yield m;
    yield* messagesOf(m.nestedMessages);
  }
}

function* extensionsOf(files: readonly DescFile[]): Iterable<DescExtension> {
  const inMessages = function* (messages: readonly DescMessage[]): Iterable<DescExtension> {
    for (const m of messages) {
      yield* m.nestedExtensions;
      yield* inMessages(m.nestedMessages);
    }
  };
  for (const file of files) {
    yield* file.extensions;
    yield* inMessages(file.messages);
  }
}

function messageOption(element: DescField | DescMessage | DescMethod, ext: DescExtension | undefined): JsonObject | null {
  if (!ext || ext.fieldKind !== "message" || !hasOption(element, ext)) return null;
  return toJson(ext.message, getOption(element, ext) as never, { useProtoFieldName: true }) as JsonObject;
}

/** A field left out of a JSON body is its zero value, which protovalidate checks: scalars and enums without `optional`, lists, maps. */
function readsZeroWhenAbsent(field: DescField): boolean {
  if (field.fieldKind === "list" || field.fieldKind === "map") return true;
  if (field.fieldKind !== "scalar" && field.fieldKind !== "enum") return false;
  return field.oneof === undefined && field.presence === FeatureSet_FieldPresence.IMPLICIT;
}

const verbs: HttpVerb[] = ["get", "put", "post", "delete", "patch"];

/** The bool field option named by the plugin option `key` (`name` "" for none). */
function boolFieldOption(byName: ReadonlyMap<string, DescExtension>, key: string, name: string): ((field: DescField) => boolean) | undefined {
  if (name === "") return undefined;
  const ext = byName.get(name);
  if (!ext) throw new Error(`${key}: no extension named ${name} in the request`);
  if (ext.fieldKind !== "scalar" || ext.extendee.typeName !== "google.protobuf.FieldOptions") {
    throw new Error(`${key}: ${name} must be a scalar extension of google.protobuf.FieldOptions`);
  }
  return (field) => hasOption(field, ext) && getOption(field, ext) === true;
}

/**
 * `nullableOption`, `omitEmptyOption`: full names of the bool field options
 * marking fields written as null when unset, and repeated or map fields left out
 * when empty; "" for none.
 */
export function readProtoOptions(files: readonly DescFile[], nullableOption: string, omitEmptyOption = ""): ProtoOptions {
  const byName = new Map<string, DescExtension>();
  for (const ext of extensionsOf(files)) byName.set(ext.typeName, ext);
  const http = byName.get("google.api.http");
  const fieldValidate = byName.get("buf.validate.field");
  const messageValidate = byName.get("buf.validate.message");
  const fieldBehavior = byName.get("google.api.field_behavior");
  const nullable = boolFieldOption(byName, "nullable_option", nullableOption);
  const omitEmpty = boolFieldOption(byName, "omit_empty_option", omitEmptyOption);
  if (omitEmpty) {
    // Checked here rather than at each use: a misplaced option would otherwise describe a field the REST layer writes differently.
    for (const file of files) {
      for (const message of messagesOf(file.messages)) {
        for (const field of message.fields) {
          if (!omitEmpty(field)) continue;
          const where = `${message.typeName}.${field.name}`;
          if (field.fieldKind !== "list" && field.fieldKind !== "map")
            throw new Error(`${omitEmptyOption} on ${where}: only repeated and map fields can be omitted when empty`);
          if (nullable?.(field)) throw new Error(`${omitEmptyOption} on ${where}: a field cannot be both null and omitted when empty`);
        }
      }
    }
  }
  const requiredBehavior =
    fieldBehavior?.fieldKind === "list" && fieldBehavior.listKind === "enum" ? fieldBehavior.enum.values.find((v) => v.name === "REQUIRED") : undefined;

  return {
    httpRule(method) {
      const rule = messageOption(method, http);
      if (!rule) return null;
      const verb = verbs.find((v) => typeof rule[v] === "string");
      if (!verb) return null;
      return { verb, pathTemplate: rule[verb] as string, body: typeof rule.body === "string" ? rule.body : "" };
    },
    fieldRules: (field) => messageOption(field, fieldValidate),
    messageRules(message) {
      const rules = messageOption(message, messageValidate);
      const cel = Array.isArray(rules?.cel) ? (rules.cel as JsonObject[]) : [];
      const text = (v: unknown) => (typeof v === "string" ? v : "");
      return cel.map((c) => ({ id: text(c.id), message: text(c.message ?? c.expression) }));
    },
    isRequired(field) {
      const rules = messageOption(field, fieldValidate);
      if (rules?.required === true) return true;
      if (rules && readsZeroWhenAbsent(field) && refusesZeroValue(rules)) return true;
      if (!fieldBehavior || !requiredBehavior || !hasOption(field, fieldBehavior)) return false;
      return (getOption(field, fieldBehavior) as number[]).includes(requiredBehavior.number);
    },
    isNullable: (field) => nullable?.(field) ?? false,
    isOmitEmpty: (field) => omitEmpty?.(field) ?? false,
  };
}
