// Splits a screening request into the pieces each location screens
// (docs/decisions.md#locations). system and developer messages are the
// application's own instructions: context for detectors, never screened.
import type { Message, ToolDefinition } from "../../gen/parapet/v1/guard_pb.js";
import type { Location } from "./vocabulary.js";

export interface Part {
  location: Location;
  /** Index of the message in the request (absent for tool definitions). */
  messageId?: number;
  /** Tool call index within its message, or tool definition index in `tools`. */
  toolId?: number;
  /** The text detectors see for this part (before normalization). */
  text: string;
  /** Function name, for tool calls and tool definitions. */
  toolName?: string;
  /**
   * The request's system and developer message contents, in order; the same
   * array on every part of a request, so it survives the trip to a screening
   * worker with the parts. The engine passes it to detectors as
   * `ScreeningContext.instructions`; it is never screened.
   */
  instructions?: readonly string[];
}

function toolDefinitionText(t: ToolDefinition): string {
  // Name, description and the whole parameter schema: instructions can hide in any of them.
  const parameters = t.function?.parameters ? JSON.stringify(t.function.parameters) : "";
  return [t.function?.name ?? "", t.function?.description ?? "", parameters].filter(Boolean).join("\n");
}

export function partsOf(messages: Message[], tools: ToolDefinition[]): Part[] {
  const parts: Part[] = [];
  const instructions = messages.filter((m) => m.role === "system" || m.role === "developer").map((m) => m.content ?? "");
  messages.forEach((m, i) => {
    const content = m.content ?? "";
    switch (m.role) {
      case "user":
        parts.push({ location: "user::content", messageId: i, text: content });
        break;
      case "assistant":
        if (content !== "") parts.push({ location: "assistant::content", messageId: i, text: content });
        m.toolCalls.forEach((call, j) => {
          parts.push({
            location: "assistant::tool_call",
            messageId: i,
            toolId: j,
            text: call.function?.arguments ?? "",
            toolName: call.function?.name ?? "",
          });
        });
        break;
      case "tool":
        parts.push({ location: "tool::content", messageId: i, text: content, toolName: m.name });
        break;
      default:
        break; // system, developer: context only (Part.instructions)
    }
  });
  tools.forEach((t, k) => {
    parts.push({ location: "tool_definition::content", toolId: k, text: toolDefinitionText(t), toolName: t.function?.name ?? "" });
  });
  if (instructions.length) for (const p of parts) p.instructions = instructions;
  return parts;
}

/** The system and developer instructions the parts of one request carry (empty when it had none). */
export function instructionsOf(parts: readonly Part[]): readonly string[] {
  for (const p of parts) if (p.instructions) return p.instructions;
  return [];
}
