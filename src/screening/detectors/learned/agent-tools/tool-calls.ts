// What the agent detectors read from a tool call: the
// function name split into words, the arguments flattened to (key, value)
// pairs, the tool's definition from the same request, and the user's messages.
import { LRUCache } from "lru-cache";
import type { Part } from "../../../parts.js";
import type { ScreeningContext } from "../../../detector.js";

/** "createUserV2", "delete_file", "users.remove", "get-item" -> ["create", "user", "v2"], ... */
export function nameWords(name: string): string[] {
  return name
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .replace(/([A-Z]+)([A-Z][a-z])/g, "$1 $2")
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean);
}

export interface ArgValue {
  /** Key of the innermost object holding the value ("" at the top level or in arrays of the top level). */
  key: string;
  /** Dotted path of keys. */
  path: string;
  value: string;
  /** UTF-16 offset of the value in the arguments text, when found there (-1 otherwise). */
  offset: number;
}

/**
 * String (and number) leaves of the arguments JSON with their keys. Arguments
 * that are not JSON are one value with an empty key. Offsets point into the
 * raw arguments text so spans can be reported (JSON escapes make a value's
 * raw form differ; those values get offset -1 and a span over the whole text).
 */
const valuesCache = new LRUCache<string, ArgValue[]>({ max: 64 });

export function argValues(args: string, limit = 200): ArgValue[] {
  // The CRUD, payload, destination and deviation detectors all read the same call: parse it once.
  const key = limit + "\u0000" + args;
  const hit = valuesCache.get(key);
  if (hit) return hit;
  const out = parseArgValues(args, limit);
  valuesCache.set(key, out);
  return out;
}

function parseArgValues(args: string, limit: number): ArgValue[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(args);
  } catch {
    return args.trim() ? [{ key: "", path: "", value: args, offset: 0 }] : [];
  }
  const out: ArgValue[] = [];
  let searchFrom = 0;
  const walk = (v: unknown, key: string, path: string, depth: number): void => {
    if (out.length >= limit || depth > 12) return;
    if (typeof v === "string" || typeof v === "number") {
      const value = String(v);
      const raw = typeof v === "string" ? JSON.stringify(v).slice(1, -1) : value;
      let offset = args.indexOf(raw, searchFrom);
      if (offset < 0) offset = args.indexOf(raw);
      else searchFrom = offset + raw.length;
      out.push({ key, path, value, offset: raw === value ? offset : -1 });
    } else if (Array.isArray(v)) {
      for (const item of v) walk(item, key, path, depth + 1);
    } else if (v && typeof v === "object") {
      for (const [k, item] of Object.entries(v as Record<string, unknown>)) walk(item, k, path ? `${path}.${k}` : k, depth + 1);
    }
  };
  walk(parsed, "", "", 0);
  return out;
}

/** Keys of the arguments JSON (all depths). */
export function argKeys(args: string): string[] {
  try {
    const keys: string[] = [];
    const walk = (v: unknown, depth: number): void => {
      if (depth > 6 || keys.length > 50) return;
      if (Array.isArray(v)) v.forEach((x) => walk(x, depth + 1));
      else if (v && typeof v === "object")
        for (const [k, x] of Object.entries(v as Record<string, unknown>)) {
          keys.push(k);
          walk(x, depth + 1);
        }
    };
    walk(JSON.parse(args), 0);
    return keys;
  } catch {
    return [];
  }
}

/**
 * Tool definitions by name (the first of a name), once per screening: looked up by every tool call
 * of a request, which would otherwise read the whole request once per call.
 */
const definitions = new WeakMap<ScreeningContext, Map<string, string>>();

/** The definition text of the tool a call names, when the request carried its definition. */
export function definitionOf(toolName: string | undefined, context: ScreeningContext): string | undefined {
  if (!toolName) return undefined;
  let byName = definitions.get(context);
  if (!byName) {
    definitions.set(context, (byName = new Map<string, string>()));
    for (const p of context.parts) if (p.location === "tool_definition::content" && p.toolName && !byName.has(p.toolName)) byName.set(p.toolName, p.text);
  }
  return byName.get(toolName);
}

/** The tool call a tool result answers: the latest call before it with the same name (or the latest call). */
export function callOf(part: Part, context: ScreeningContext): Part | undefined {
  let sameName: Part | undefined;
  let any: Part | undefined;
  for (const p of context.parts) {
    if (p.location !== "assistant::tool_call") continue;
    if (part.messageId !== undefined && p.messageId !== undefined && p.messageId >= part.messageId) continue;
    any = p;
    if (part.toolName && p.toolName === part.toolName) sameName = p;
  }
  return sameName ?? any;
}
