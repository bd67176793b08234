// Generated agent data, written for this project (the phrase tables are in
// ../phrases/tools.json): tool calls with their definitions (CRUD), argument
// values clean and carrying payloads, destinations, and conversations where
// the call does or does not go beyond the user's request. Objects and
// templates are the split groups.
import { readFileSync } from "node:fs";
import { pick, type Rng } from "../prng.js";
import { fill } from "./prompts.js";

export type Crud = "create" | "read" | "update" | "delete";
export const CRUD: Crud[] = ["create", "read", "update", "delete"];

type Action = "destructive" | "financial" | "outbound" | "sharing" | "read";

interface ToolTables {
  verbs: Record<Crud, string[]>;
  descriptions: Record<Crud, string[]>;
  objects: string[];
  argKeys: Record<Crud, string[][]>;
  argValues: { status: string[]; priority: string[]; text: string[] };
  generic: { label: Crud; name: string; args: string; desc: string }[];
  genericNames: Record<string, string[]>;
  genericOps: Record<string, Record<Crud, string[]>>;
  payloadSlots: Record<string, string[]>;
  payloadPrefixes: string[];
  payloads: [string, string][];
  clean: [string, string][];
  knownDomains: string[];
  unknownDomains: string[];
  destinationCalls: { name: string; args: string }[];
  destinationUsers: string[];
  actionCalls: Record<Action, { name: string; args: string }[]>;
  asks: Record<Action, string[]>;
  results: { callName: string; callArgs: string; result: string }[];
}

/** The phrase tables. Their order is part of the generated data: the PRNG picks by index. */
const tables = JSON.parse(readFileSync(new URL("../phrases/tools.json", import.meta.url), "utf8")) as ToolTables;

export interface GeneratedCall {
  name: string;
  args: string;
  /** Text of the tool's definition (name, description, parameters), when the request had one. */
  definition?: string;
  label: Crud;
  group: string;
}

/** Verbs used to generate names. The detector's lexicon (crud-lexicon.ts) is larger, on purpose. */
const VERBS: Record<Crud, string[]> = tables.verbs;
const DESCRIBE: Record<Crud, string[]> = tables.descriptions;
export const OBJECTS: string[] = tables.objects;
const ARG_KEYS: Record<Crud, string[][]> = tables.argKeys;

function camel(words: string[]): string {
  return words.map((w, i) => (i === 0 ? w : w[0].toUpperCase() + w.slice(1))).join("");
}

function nameOf(r: Rng, verb: string, obj: string): string {
  const parts = obj.split("_");
  switch (Math.floor(r() * 7)) {
    case 0:
      return [verb, ...parts].join("_");
    case 1:
      return camel([verb, ...parts]);
    case 2:
      return [...parts, verb].join("_");
    case 3:
      return `${parts.join("_")}s.${verb}`;
    case 4:
      return [verb, ...parts].join("-");
    case 5:
      return camel(["api", verb, ...parts]);
    default:
      return [verb, ...parts, r() < 0.5 ? "by_id" : "v2"].join("_");
  }
}

function argValue(r: Rng, key: string, obj: string): unknown {
  if (key === "id" || key.endsWith("_id")) return r() < 0.5 ? Math.floor(r() * 99999) : `${obj.slice(0, 3)}_${Math.floor(r() * 1e6).toString(36)}`;
  if (key === "ids") return [Math.floor(r() * 999), Math.floor(r() * 999)];
  if (key === "limit" || key === "page") return Math.floor(r() * 50) + 1;
  if (key === "force" || key === "permanent") return r() < 0.5;
  if (key === "fields" || key === "changes" || key === "patch" || key === "data")
    return { status: pick(r, tables.argValues.status), priority: pick(r, tables.argValues.priority) };
  return pick(r, tables.argValues.text);
}

/** A generic tool whose operation is in its arguments: HTTP method, SQL statement, shell command, action field. */
const GENERIC: { label: Crud; name: string; args: string; desc: string }[] = tables.generic;

/** Neutral tool names whose operation is only in the arguments: every operation with every name. */
const GENERIC_NAMES: Record<string, string[]> = tables.genericNames;
const GENERIC_OPS: Record<string, Record<Crud, string[]>> = tables.genericOps;

export function definitionText(name: string, desc: string, keys: string[]): string {
  const props: Record<string, { type: string }> = {};
  for (const k of keys) props[k] = { type: "string" };
  return [name, desc, JSON.stringify({ type: "object", properties: props })].join("\n");
}

export function generateCrudData(r: Rng, n = 1): GeneratedCall[] {
  const out: GeneratedCall[] = [];
  for (const obj of OBJECTS) {
    for (const label of CRUD) {
      for (let k = 0; k < 10 * n; k++) {
        const verb = pick(r, VERBS[label]);
        const name = nameOf(r, verb, obj);
        const keys = pick(r, ARG_KEYS[label]);
        const args: Record<string, unknown> = {};
        for (const key of keys) args[key] = argValue(r, key, obj);
        const withDef = r() < 0.6;
        const desc = fill(r, pick(r, DESCRIBE[label]), { obj: [obj.replace(/_/g, " ")] });
        out.push({ name, args: JSON.stringify(args), definition: withDef ? definitionText(name, desc, keys) : undefined, label, group: `gen:crud:${obj}` });
      }
    }
    for (const family of Object.keys(GENERIC_NAMES)) {
      for (const label of CRUD) {
        for (let k = 0; k < 2 * n; k++) {
          const slots = { obj: [obj], id: [String(Math.floor(r() * 9999))] };
          const name = fill(r, pick(r, GENERIC_NAMES[family]), slots);
          out.push({ name, args: fill(r, pick(r, GENERIC_OPS[family][label]), slots), label, group: `gen:crud:${obj}` });
        }
      }
    }
    for (let k = 0; k < 4 * n; k++) {
      const g = pick(r, GENERIC);
      const slots = { obj: [obj], id: [String(Math.floor(r() * 9999))] };
      const name = fill(r, g.name, slots);
      out.push({
        name,
        args: fill(r, g.args, slots),
        definition: r() < 0.5 ? definitionText(name, fill(r, g.desc, slots), Object.keys(JSON.parse(fill(r, g.args, slots)) as object)) : undefined,
        label: g.label,
        group: `gen:crud:${obj}`,
      });
    }
  }
  return out;
}

// ---- payloads ----

export interface GeneratedValue {
  text: string;
  label: 0 | 1;
  family: string;
  group: string;
}

const P = tables.payloadSlots;
const PAYLOADS: [string, string][] = tables.payloads;
const CLEAN: [string, string][] = tables.clean;

export function generatePayloadData(r: Rng, n = 1): GeneratedValue[] {
  const out: GeneratedValue[] = [];
  PAYLOADS.forEach(([family, t], i) => {
    for (let k = 0; k < 12 * n; k++) {
      const v = fill(r, t, P);
      // Alone, or after an innocent-looking value the way it arrives in an argument.
      const text = r() < 0.5 ? v : `${fill(r, pick(r, tables.payloadPrefixes), P)}${pick(r, [" ", "", "\n"])}${v}`;
      out.push({ text, label: 1, family, group: `gen:payload:${i}` });
    }
  });
  CLEAN.forEach(([family, t], i) => {
    for (let k = 0; k < 12 * n; k++) out.push({ text: fill(r, t, P), label: 0, family, group: `gen:clean:${i}` });
  });
  return out;
}

// ---- destinations and sources ----

export interface GeneratedDestination {
  name: string;
  args: string;
  label: 0 | 1;
  group: string;
}

const KNOWN = tables.knownDomains;
const UNKNOWN = tables.unknownDomains;
const DEST_CALLS: { name: string; args: string }[] = tables.destinationCalls;

export function generateDestinationData(r: Rng, n = 1): GeneratedDestination[] {
  const out: GeneratedDestination[] = [];
  DEST_CALLS.forEach((c, i) => {
    for (let k = 0; k < 12 * n; k++) {
      const unknown = r() < 0.5;
      const domain = unknown ? pick(r, UNKNOWN) : pick(r, KNOWN);
      const args = fill(r, c.args, { domain: [domain], known: KNOWN, user: tables.destinationUsers });
      out.push({ name: c.name, args, label: unknown ? 1 : 0, group: `gen:dest:${i}` });
    }
  });
  return out;
}

// ---- dangerous deviation ----

export interface GeneratedConversation {
  user: string;
  name: string;
  args: string;
  label: 0 | 1;
  group: string;
}

const ACTION_CALLS: Record<Action, { name: string; args: string }[]> = tables.actionCalls;
const ASKS: Record<Action, string[]> = tables.asks;

export function generateDeviationData(r: Rng, n = 1): GeneratedConversation[] {
  const out: GeneratedConversation[] = [];
  const actions = Object.keys(ACTION_CALLS) as Action[];
  actions.forEach((asked, ai) => {
    ASKS[asked].forEach((user, ui) => {
      for (let k = 0; k < 10 * n; k++) {
        const done = pick(r, actions);
        const call = pick(r, ACTION_CALLS[done]);
        // Deviation: a consequential action the user did not ask for.
        const label = done !== "read" && done !== asked ? 1 : 0;
        out.push({ user, name: call.name, args: call.args, label, group: `gen:dev:${ai}:${ui}` });
      }
    });
  });
  return out;
}

// ---- sources: tool results and where they came from ----

export interface GeneratedResult {
  callName: string;
  callArgs: string;
  result: string;
  label: 0 | 1;
  group: string;
}

const RESULTS: { callName: string; callArgs: string; result: string }[] = tables.results;

export function generateSourceData(r: Rng, n = 1): GeneratedResult[] {
  const out: GeneratedResult[] = [];
  RESULTS.forEach((t, i) => {
    for (let k = 0; k < 12 * n; k++) {
      const unknown = r() < 0.5;
      const domain = unknown ? pick(r, UNKNOWN) : pick(r, KNOWN);
      const slots = { domain: [domain], n: [String(Math.floor(r() * 900) + 10)] };
      out.push({ callName: t.callName, callArgs: fill(r, t.callArgs, slots), result: fill(r, t.result, slots), label: unknown ? 1 : 0, group: `gen:src:${i}` });
    }
  });
  return out;
}
