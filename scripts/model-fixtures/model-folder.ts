// A fixture model as Hugging Face's exporters lay it out on disk (config.json, tokenizer.json,
// tokenizer_config.json, onnx/model.onnx), and the pieces of those files the three fixtures share.
import fs from "node:fs";
import path from "node:path";

import { onnxModel, type GraphSpec } from "./onnx-model.js";

export type FixtureName = "unigram-attack" | "bpe-moderation" | "wordpiece-ner";

type Json = string | number | boolean | null | Json[] | { [key: string]: Json };
export type JsonObject = { [key: string]: Json };

export interface ModelFolder {
  name: FixtureName;
  config: JsonObject;
  tokenizer: JsonObject;
  tokenizerConfig: JsonObject;
  graph: GraphSpec;
}

/** The folder's files by path relative to it, in the bytes written. */
export function folderFiles(model: ModelFolder): Map<string, Uint8Array> {
  return new Map([
    ["config.json", jsonBytes(model.config)],
    ["tokenizer.json", jsonBytes(model.tokenizer)],
    ["tokenizer_config.json", jsonBytes(model.tokenizerConfig)],
    ["onnx/model.onnx", onnxModel(model.graph)],
  ]);
}

/** Replaces `dir` with exactly `files`, so a file dropped from a fixture does not linger. */
export function writeFolder(dir: string, files: Map<string, Uint8Array>): void {
  fs.rmSync(dir, { recursive: true, force: true });
  for (const [name, bytes] of files) {
    const file = path.join(dir, name);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, bytes);
  }
}

// Two-space indentation and a final newline, as the Hugging Face libraries save these files;
// key order is insertion order, so the bytes are the same on every run.
function jsonBytes(value: JsonObject): Uint8Array {
  return Buffer.from(`${JSON.stringify(value, null, 2)}\n`, "utf8");
}

export interface SpecialToken {
  id: number;
  content: string;
  /** XLM-R's and RoBERTa's <mask> swallows the space before it. */
  lstrip?: boolean;
}

/** tokenizer.json's `added_tokens`: the special tokens, matched before normalisation. */
export function addedTokens(specials: SpecialToken[]): Json[] {
  return specials.map((t) => ({
    id: t.id,
    content: t.content,
    single_word: false,
    lstrip: t.lstrip ?? false,
    rstrip: false,
    normalized: false,
    special: true,
  }));
}

/** tokenizer_config.json's `added_tokens_decoder`, the same tokens keyed by id. */
export function addedTokensDecoder(specials: SpecialToken[]): JsonObject {
  return Object.fromEntries(
    specials.map((t) => [String(t.id), { content: t.content, lstrip: t.lstrip ?? false, normalized: false, rstrip: false, single_word: false, special: true }]),
  );
}

/** A TemplateProcessing post-processor: `first $A last` for one text, `first $A middle... $B last` for a pair. */
export function templateProcessing(first: SpecialToken, last: SpecialToken, pairMiddle: SpecialToken[], pairTypeId: number): JsonObject {
  const special = (t: SpecialToken, typeId: number): Json => ({ SpecialToken: { id: t.content, type_id: typeId } });
  const sequence = (id: "A" | "B", typeId: number): Json => ({ Sequence: { id, type_id: typeId } });
  const entries = [first, last, ...pairMiddle].filter((t, i, all) => all.findIndex((u) => u.content === t.content) === i);
  return {
    type: "TemplateProcessing",
    single: [special(first, 0), sequence("A", 0), special(last, 0)],
    pair: [special(first, 0), sequence("A", 0), ...pairMiddle.map((t) => special(t, 0)), sequence("B", pairTypeId), special(last, pairTypeId)],
    special_tokens: Object.fromEntries(entries.map((t) => [t.content, { id: t.content, ids: [t.id], tokens: [t.content] }])),
  };
}

/** config.json's label maps, as transformers writes them (string keys in id2label). */
export function labelMaps(labels: readonly string[]): JsonObject {
  return {
    id2label: Object.fromEntries(labels.map((l, i) => [String(i), l])),
    label2id: Object.fromEntries(labels.map((l, i) => [l, i])),
  };
}

/** The graph's [vocabulary, labels] table: row `id` is `vector(token)` for the token with that id. */
export function labelTable(vocabulary: readonly string[], labels: number, vector: (token: string) => readonly number[]): Float32Array {
  const table = new Float32Array(vocabulary.length * labels);
  vocabulary.forEach((token, id) => {
    const row = vector(token);
    if (row.length !== labels) throw new Error(`label vector of ${JSON.stringify(token)} has ${row.length} values, not ${labels}`);
    table.set(row, id * labels);
  });
  return table;
}
