// Helpers for the learned-detector suites: parts and contexts as the engine
// builds them (parts.ts), and the detectors called with text normalized the
// way the engine normalizes it.
import type { Detection, ScreeningContext } from "../../../../src/screening/detector.js";
import { normalizeText } from "../../../../src/screening/normalize.js";
import type { Part } from "../../../../src/screening/parts.js";
import { detectFnOf } from "../../../../src/screening/registry.js";
import { levelRank, type DetectorConfig, type Level } from "../../../../src/screening/vocabulary.js";

export function run(type: string, part: Part, context: ScreeningContext = { parts: [part] }, config: DetectorConfig = {}): Detection {
  const detect = detectFnOf(type);
  if (!detect) throw new Error(`no detector ${type}`);
  return detect(normalizeText(part.text).text, part, { type, location: part.location, ...config }, context);
}

export const user = (text: string, messageId = 0): Part => ({ location: "user::content", messageId, text });
export const toolResult = (text: string, toolName?: string, messageId = 2): Part => ({ location: "tool::content", messageId, text, toolName });
export const assistant = (text: string, messageId = 1): Part => ({ location: "assistant::content", messageId, text });
export const toolCall = (toolName: string, args: unknown, messageId = 1, toolId = 0): Part => ({
  location: "assistant::tool_call",
  messageId,
  toolId,
  text: typeof args === "string" ? args : JSON.stringify(args),
  toolName,
});
export const toolDefinition = (name: string, description: string, parameters: unknown, toolId = 0): Part => ({
  location: "tool_definition::content",
  toolId,
  text: [name, description, JSON.stringify(parameters)].join("\n"),
  toolName: name,
});

/** At or over the default policy threshold (l4_less_likely). */
export const flagged = (l: Level) => levelRank[l] <= levelRank.l4_less_likely;
export const atLeast = (l: Level, threshold: Level) => levelRank[l] <= levelRank[threshold];
