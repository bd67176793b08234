// A REST-only request shape that proto JSON cannot express, mirrored from
// src/server/rest/json-shape.ts (liftContentParts): chat-completions clients
// send a message's `content` as a string or as an array of OpenAI content
// parts, and the REST layer moves such an array into `content_parts` of any
// message type that has that field (docs/lakera-compatibility.md#content-parts).
import type { DescField } from "@bufbuild/protobuf";
import { ScalarType } from "@bufbuild/protobuf";
import type { JsonSchema } from "./json-schema.js";

/** `content` of a message type that also has a repeated message field `content_parts`. */
export function hasLiftedContent(field: DescField): boolean {
  if (field.name !== "content" || field.fieldKind !== "scalar" || field.scalar !== ScalarType.STRING) return false;
  return field.parent.fields.some((f) => f.name === "content_parts" && f.fieldKind === "list" && f.listKind === "message");
}

/** What the REST layer takes in place of the string: text parts are screened, other parts are skipped. */
export const contentPartsSchema: JsonSchema = {
  type: "array",
  description: "OpenAI content parts, moved into `content_parts`: a string is a text part; a part with a `text` string is screened whatever its type.",
  items: {
    anyOf: [
      { type: "string" },
      { type: "object", properties: { type: { type: "string" }, text: { type: "string" } }, required: ["text"] },
      { type: "object", properties: { type: { type: "string", minLength: 1 } }, required: ["type"] },
    ],
  },
};

/**
 * The same in answers (the sanitized conversation, docs/sanitize.md), mirrored from
 * lowerContentParts: `content_parts` comes back as the `content` array, text parts with
 * their text, other parts by their type only; an empty `tool_calls` is left out.
 */
export const loweredContentSchema: JsonSchema = {
  type: "array",
  description: "OpenAI content parts, as the request had them: text parts carry their (sanitized) text, other parts their type only.",
  items: { type: "object", properties: { type: { type: "string" }, text: { type: "string" } }, required: ["type"], additionalProperties: false },
};
