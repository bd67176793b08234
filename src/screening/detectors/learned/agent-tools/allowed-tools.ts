// allowed_tools for prompt_attack on tool_definition::content (docs/api.md#detectors): a
// definition is not flagged when an entry's tool_name equals the tool's name
// and its tool_matcher matches the definition. tool_matcher matches when,
// with whitespace collapsed, it equals the whole definition text the engine
// screens (name, description and parameters JSON on separate lines), or the
// description alone, or the parameters JSON alone; or when it is a JSON
// object whose given fields (name, description, parameters, or the same
// inside "function") all equal the definition's.
import type { DetectorConfig } from "../../../vocabulary.js";

const collapse = (s: string) => s.replace(/\s+/g, " ").trim();

function canonical(v: unknown): string {
  if (Array.isArray(v)) return "[" + v.map(canonical).join(",") + "]";
  if (v && typeof v === "object") {
    return (
      "{" +
      Object.keys(v)
        .sort()
        .map((k) => JSON.stringify(k) + ":" + canonical((v as Record<string, unknown>)[k]))
        .join(",") +
      "}"
    );
  }
  return JSON.stringify(v);
}

interface DefinitionParts {
  name: string;
  description: string;
  parameters: string;
}

/** Splits the engine's definition text back into name, description and parameters. */
function partsOf(text: string, name: string): DefinitionParts {
  const lines = text.split("\n");
  let parameters = "";
  const last = lines[lines.length - 1] ?? "";
  if (lines.length > 1 && last.startsWith("{")) {
    parameters = last;
    lines.pop();
  }
  const description = lines[0] === name ? lines.slice(1).join("\n") : lines.join("\n");
  return { name, description, parameters };
}

function matcherMatches(matcher: string, text: string, d: DefinitionParts): boolean {
  const m = collapse(matcher);
  if (m === collapse(text) || (d.description && m === collapse(d.description)) || (d.parameters && m === collapse(d.parameters))) return true;
  if (!m.startsWith("{")) return false;
  let obj: Record<string, unknown>;
  try {
    obj = JSON.parse(matcher) as Record<string, unknown>;
  } catch {
    return false;
  }
  const f = (obj.function && typeof obj.function === "object" ? obj.function : obj) as Record<string, unknown>;
  let compared = 0;
  if (typeof f.name === "string") {
    if (f.name !== d.name) return false;
    compared++;
  }
  if (typeof f.description === "string") {
    if (collapse(f.description) !== collapse(d.description)) return false;
    compared++;
  }
  if (f.parameters !== undefined) {
    let params: unknown;
    try {
      params = d.parameters ? JSON.parse(d.parameters) : undefined;
    } catch {
      return false;
    }
    if (canonical(f.parameters) !== canonical(params)) return false;
    compared++;
  }
  return compared > 0 && (typeof f.description === "string" || f.parameters !== undefined);
}

export function isAllowedTool(config: DetectorConfig, toolName: string | undefined, text: string): boolean {
  const entries = config.allowed_tools ?? [];
  if (!toolName || entries.length === 0) return false;
  const d = partsOf(text, toolName);
  return entries.some((e) => e.tool_name === toolName && matcherMatches(e.tool_matcher, text, d));
}
