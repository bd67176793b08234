// Splits a screening request into the pieces each location screens
// (docs/decisions.md#locations). system and developer messages are the
// application's own instructions: context for detectors, never screened.
import type { FunctionCall, Message, ToolDefinition } from "../../gen/parapet/v1/guard_pb.js";
import type { PartJudgement } from "./judges/part-judgement.js";
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
  /** What an LLM judge decided for this part before the engine runs (docs/judges.md#wiring); set by the judge pre-pass. */
  judged?: PartJudgement;
}

/**
 * Separator between the text parts of one message's content. The same one
 * LiteLLM uses when it flattens content parts itself before calling a Lakera
 * Guard API, so a conversation screened flattened (its pre-call check) and as
 * raw parts (its post-call check) gives the same text and the same spans
 * (docs/lakera-compatibility.md#content-parts).
 */
const contentPartSeparator = "\n";

/**
 * The text a message's content stands for: `content`, or its text parts joined
 * by `contentPartSeparator`. Spans and `message_id` refer to this text.
 */
export function contentText(m: Message): string {
  if (m.contentParts.length === 0) return m.content ?? "";
  const texts: string[] = [];
  for (const p of m.contentParts) if (p.text !== undefined) texts.push(p.text);
  return texts.join(contentPartSeparator);
}

/**
 * One line per message whose content had parts Parapet does not screen
 * (images, audio, files), counted by type, for dev_info notes: a client must
 * be able to tell "nothing found" from "not looked at". One line per message,
 * not per part, so a request of thousands of image parts gets one line.
 */
export function skippedPartNotes(messages: readonly Message[]): string[] {
  const notes: string[] = [];
  messages.forEach((m, i) => {
    const counts = new Map<string, number>();
    for (const p of m.contentParts) if (p.text === undefined) counts.set(p.type, (counts.get(p.type) ?? 0) + 1);
    if (counts.size === 0) return;
    const total = [...counts.values()].reduce((a, b) => a + b, 0);
    // Types are the client's strings: bounded in length and number, so the note stays one short line.
    const listed = [...counts].slice(0, 5).map(([type, n]) => `${type.length > 40 ? type.slice(0, 40) + "…" : type} x${n}`);
    const types = listed.join(", ") + (counts.size > 5 ? `, ${counts.size - 5} more types` : "");
    notes.push(`content parts, message ${i}: not screened: ${total} non-text part${total === 1 ? "" : "s"} (${types})`);
  });
  return notes;
}

/**
 * The functions an assistant message calls, in screening order: its `tool_calls`
 * entries, then the legacy `function_call` (docs/api.md#messages-and-tools). A
 * call's index here is its part's `toolId`, which sanitize and the request log
 * use to find the call again.
 */
export function callsOf(m: Message): (FunctionCall | undefined)[] {
  const calls = m.toolCalls.map((c) => c.function);
  if (m.functionCall) calls.push(m.functionCall);
  return calls;
}

function toolDefinitionText(t: ToolDefinition): string {
  // Name, description and the whole parameter schema: instructions can hide in any of them.
  const parameters = t.function?.parameters ? JSON.stringify(t.function.parameters) : "";
  return [t.function?.name ?? "", t.function?.description ?? "", parameters].filter(Boolean).join("\n");
}

export function partsOf(messages: Message[], tools: ToolDefinition[]): Part[] {
  const parts: Part[] = [];
  const instructions = messages.filter((m) => m.role === "system" || m.role === "developer").map(contentText);
  messages.forEach((m, i) => {
    const content = contentText(m);
    switch (m.role) {
      case "user":
        parts.push({ location: "user::content", messageId: i, text: content });
        break;
      case "assistant":
        if (content !== "") parts.push({ location: "assistant::content", messageId: i, text: content });
        callsOf(m).forEach((call, j) => {
          parts.push({ location: "assistant::tool_call", messageId: i, toolId: j, text: call?.arguments ?? "", toolName: call?.name ?? "" });
        });
        break;
      // `function` is the legacy chat-completions role for a function's result: the
      // same untrusted tool output as a `tool` message (docs/api.md#messages-and-tools).
      case "tool":
      case "function":
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
