// tool_risk/create, read, update and delete: what a tool call does, from its
// function name, argument keys and the tool's definition when the request
// carries it. One four-way model; each detector reports its own share.
import { LRUCache } from "lru-cache";
import { defineDetector, nothing, type DetectorDefinition } from "../../detector.js";
import { crudShares, crudTokens } from "./agent-tools/crud.js";
import type { Crud } from "./agent-tools/crud-lexicon.js";
import { tokenFeatures } from "./runtime/features.js";
import { levelOf } from "./runtime/levels.js";
import { score } from "./runtime/linear.js";
import { models } from "./runtime/models.js";
import { definitionOf } from "./agent-tools/tool-calls.js";

// The four detectors of one call ask for the same scores in a row.
const crudCache = new LRUCache<string, Record<Crud, number>>({ max: 256 });

function crudScores(name: string, args: string, definition?: string): Record<Crud, number> {
  const key = `${name}\u0000${args}\u0000${definition ?? ""}`;
  let s = crudCache.get(key);
  if (!s) {
    const m = models().crud;
    const x = tokenFeatures(crudTokens(name, args, definition), m.bits);
    const kinds: Crud[] = ["create", "read", "update", "delete"];
    const shares = crudShares(kinds.map((c) => score(m.heads.get(c)!, x)));
    s = { create: shares[0], read: shares[1], update: shares[2], delete: shares[3] };
    crudCache.set(key, s);
  }
  return s;
}

function toolAction(action: Crud): DetectorDefinition {
  return defineDetector({
    type: `tool_risk/${action}`,
    kind: "tool_call_model",
    meaningful: ["assistant::tool_call"],
    logFamily: "tool_risk",
    // Every tool call reads, creates, updates or deletes something: what it does is not a threat by itself.
    role: "label",
    console: { family: "Agent tools", defaults: ["assistant::tool_call"] },
    detect(text, part, _settings, context) {
      if (part.location !== "assistant::tool_call") return nothing;
      const s = crudScores(part.toolName ?? "", text, definitionOf(part.toolName, context));
      const level = levelOf(s[action], models().crud.heads.get(action)!.thresholds);
      return { level, spans: level !== "l5_unlikely" && text.length ? [{ start: 0, end: text.length, level, labels: [action] }] : [] };
    },
  });
}

export const create = toolAction("create");
export const read = toolAction("read");
export const update = toolAction("update");
export const remove = toolAction("delete");
