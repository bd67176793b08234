// Bring your own model (docs/learned-detectors.md): an ONNX text classifier
// (for example a fine-tuned BERT-family transformer the operator exported)
// replaces built-in heads. One module serves every slot (prompt_attack,
// moderation) so the tokenizer, the session handling and the score cache
// exist once. Everything is read from local files: the model with
// onnxruntime-node (CPU), the tokenizer from a WordPiece vocab.txt or a
// Hugging Face tokenizer.json. Inference is asynchronous and the engine is
// not, so `prepareOnnx(parts)` scores a request's parts before the engine runs
// and the detectors read the cached scores.
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { LRUCache } from "lru-cache";
import type { Part } from "../../../parts.js";
import { normalizeText } from "../../../normalize.js";
import type { Location } from "../../../vocabulary.js";
import type { LevelThresholds } from "./levels.js";

/** The files of one classifier. */
export interface OnnxModelFiles {
  modelPath: string;
  tokenizerPath: string;
  /** Tokens per input, [CLS] and [SEP] included (default 512); longer texts are scored on their head. */
  maxLength?: number;
}

export interface OnnxPromptAttackOptions extends OnnxModelFiles {
  /** Score thresholds per level (the model's probability of "attack"); default DEFAULT_ONNX_THRESHOLDS. */
  thresholds?: LevelThresholds;
  /** Index of the "attack" class in a multi-class output (default 1). */
  attackLabel?: number;
}

/** The moderated_content/* categories a bring-your-own model may score. */
export const MODERATION_CATEGORIES = ["hate", "sexual", "violence", "weapons", "crime", "self_harm"] as const;
export type ModerationCategory = (typeof MODERATION_CATEGORIES)[number];

/** sigmoid: each output is an independent logit (multi-label); softmax: the outputs are one distribution over classes. */
export type Activation = "sigmoid" | "softmax";

export interface OnnxModerationOptions extends OnnxModelFiles {
  /** Output index of each category the model scores; the categories left out keep the built-in heads. */
  labels: Partial<Record<ModerationCategory, number>>;
  /** Score thresholds per level, the same for every category; default DEFAULT_ONNX_THRESHOLDS. */
  thresholds?: LevelThresholds;
  /** Default sigmoid. */
  activation?: Activation;
}

/**
 * Without a calibration set for someone else's model, levels are read off its
 * probability; operators who calibrate their model set the slot's _THRESHOLDS.
 */
const DEFAULT_ONNX_THRESHOLDS: LevelThresholds = { l1_confident: 0.98, l2_very_likely: 0.9, l3_likely: 0.75, l4_less_likely: 0.5 };

const DEFAULT_MAX_LENGTH = 512;

export interface WordPieceTokenizer {
  vocab: Map<string, number>;
  lowercase: boolean;
  stripAccents: boolean;
  unk: string;
  cls: string;
  sep: string;
  continuing: string;
}

/** Reads vocab.txt (one token a line, id = line number) or tokenizer.json (model.type WordPiece). */
export function loadTokenizer(path: string): WordPieceTokenizer {
  const raw = readFileSync(path, "utf8");
  let t: WordPieceTokenizer;
  if (path.endsWith(".json") || raw.trimStart().startsWith("{")) {
    const j = JSON.parse(raw) as {
      model?: { type?: string; vocab?: Record<string, number>; unk_token?: string; continuing_subword_prefix?: string };
      normalizer?: { type?: string; lowercase?: boolean; strip_accents?: boolean | null; normalizers?: { type?: string }[] };
      post_processor?: { cls?: [string, number]; sep?: [string, number] };
    };
    if (!j.model || (j.model.type && j.model.type !== "WordPiece") || !j.model.vocab) {
      throw new Error(`tokenizer ${path}: only WordPiece tokenizers are supported (model.type is ${j.model?.type ?? "missing"})`);
    }
    const n = j.normalizer;
    const lowercase = n?.type === "BertNormalizer" ? n.lowercase !== false : (n?.normalizers ?? []).some((x) => x.type === "Lowercase");
    t = {
      vocab: new Map(Object.entries(j.model.vocab)),
      lowercase,
      stripAccents: n?.type === "BertNormalizer" ? (n.strip_accents ?? lowercase) : lowercase,
      unk: j.model.unk_token ?? "[UNK]",
      cls: j.post_processor?.cls?.[0] ?? "[CLS]",
      sep: j.post_processor?.sep?.[0] ?? "[SEP]",
      continuing: j.model.continuing_subword_prefix ?? "##",
    };
  } else {
    const vocab = new Map<string, number>();
    raw.split(/\r?\n/).forEach((line, i) => {
      if (line !== "" && !vocab.has(line)) vocab.set(line, i);
    });
    // Cased vocabularies have capitalized entries; uncased ones do not.
    let upper = 0;
    for (const k of vocab.keys()) if (/^[A-Z][a-z]+$/.test(k)) upper++;
    const lowercase = upper < 50;
    t = { vocab, lowercase, stripAccents: lowercase, unk: "[UNK]", cls: "[CLS]", sep: "[SEP]", continuing: "##" };
  }
  // A file that is not a WordPiece vocabulary (a SentencePiece model, a merges
  // file) still splits into lines; its missing special tokens give it away.
  const missing = [t.unk, t.cls, t.sep].filter((s) => !t.vocab.has(s));
  if (missing.length) throw new Error(`tokenizer ${path}: no ${missing.join(", ")} token; only BERT-style WordPiece vocabularies are supported`);
  return t;
}

const PUNCT = /[\p{P}\p{S}]/u;
const CJK = /[\u4e00-\u9fff\u3400-\u4dbf\uf900-\ufaff]/;
const DROPPED = /[\u0000\ufffd]|\p{Cc}/gu;

/** BERT basic tokenization (whitespace, punctuation, CJK characters) then greedy longest-match WordPiece. */
export function tokenize(t: WordPieceTokenizer, text: string, maxLength = DEFAULT_MAX_LENGTH): number[] {
  return tokenizeHead(t, text, maxLength).ids;
}

/**
 * The ids of the text's first maxLength tokens and where in the text they
 * end. Words are read lazily so a megabyte of text costs no more than its
 * head; each whitespace-separated chunk is normalized on its own, which is
 * what normalizing the whole text and then splitting it gives.
 */
function tokenizeHead(t: WordPieceTokenizer, text: string, maxLength: number): { ids: number[]; end: number } {
  const unk = t.vocab.get(t.unk)!;
  const ids: number[] = [t.vocab.get(t.cls)!];
  const budget = maxLength - 1;
  let end = 0;
  for (const m of text.matchAll(/\S+/g)) {
    if (ids.length >= budget) break;
    let s = m[0].replace(DROPPED, "");
    if (t.lowercase) s = s.toLowerCase();
    if (t.stripAccents) s = s.normalize("NFD").replace(/\p{Mn}/gu, "");
    let cur = "";
    const flush = () => {
      if (cur) wordPiece(t, cur, unk, ids, budget);
      cur = "";
    };
    for (const ch of s) {
      if (ids.length >= budget) break;
      if (PUNCT.test(ch) || CJK.test(ch)) {
        flush();
        if (ids.length < budget) wordPiece(t, ch, unk, ids, budget);
      } else cur += ch;
    }
    if (ids.length < budget) flush();
    end = m.index + m[0].length;
  }
  ids.push(t.vocab.get(t.sep)!);
  return { ids, end };
}

function wordPiece(t: WordPieceTokenizer, w: string, unk: number, ids: number[], budget: number): void {
  if (w.length > 100) {
    ids.push(unk);
    return;
  }
  const pieces: number[] = [];
  let start = 0;
  while (start < w.length) {
    let end = w.length;
    let found: number | undefined;
    while (start < end) {
      found = t.vocab.get((start > 0 ? t.continuing : "") + w.slice(start, end));
      if (found !== undefined) break;
      end--;
    }
    if (found === undefined) {
      ids.push(unk);
      return;
    }
    pieces.push(found);
    start = end;
  }
  for (const p of pieces) if (ids.length < budget) ids.push(p);
}

/** onnxruntime-node's surface we use (imported lazily: the built-in models never load it). */
interface OrtModule {
  InferenceSession: { create(path: string, opts?: Record<string, unknown>): Promise<OrtSession> };
  Tensor: new (type: string, data: BigInt64Array, dims: number[]) => unknown;
}
interface OrtSession {
  inputNames: readonly string[];
  outputNames: readonly string[];
  run(feeds: Record<string, unknown>): Promise<Record<string, { data: ArrayLike<number | bigint>; dims: readonly number[] }>>;
}

const INPUTS = ["input_ids", "attention_mask", "token_type_ids"];

/** A loaded model and its tokenizer: text in, the first output's values out. */
class OnnxClassifier {
  private constructor(
    private readonly ort: OrtModule,
    private readonly session: OrtSession,
    private readonly tokenizer: WordPieceTokenizer,
    private readonly maxLength: number,
    readonly modelPath: string,
    /** Values in the first output, checked at load to be the same for every input length. */
    readonly outputs: number,
  ) {}

  static async create(o: OnnxModelFiles): Promise<OnnxClassifier> {
    const maxLength = o.maxLength ?? DEFAULT_MAX_LENGTH;
    const tokenizer = loadTokenizer(o.tokenizerPath);
    const ort = (await import("onnxruntime-node")) as unknown as OrtModule;
    // One intra-op thread: requests are screened concurrently, each on its own core.
    const session = await ort.InferenceSession.create(o.modelPath, { intraOpNumThreads: 1, interOpNumThreads: 1 });
    const name = o.modelPath.split(/[\\/]/).pop();
    const unknown = session.inputNames.filter((n) => !INPUTS.includes(n));
    if (unknown.length || !session.inputNames.includes("input_ids")) {
      throw new Error(`ONNX model ${name}: inputs are ${session.inputNames.join(", ")}; expected input_ids and optionally attention_mask, token_type_ids`);
    }
    const c = new OnnxClassifier(ort, session, tokenizer, maxLength, o.modelPath, 0);
    // A run at the shortest and the longest input length at start-up, so a
    // model that cannot take maxLength tokens, or scores tokens rather than
    // the text, fails here rather than on a request.
    const short = await c.run([tokenizer.vocab.get(tokenizer.cls)!, tokenizer.vocab.get(tokenizer.sep)!]);
    let long: number[];
    try {
      long = await c.run(new Array<number>(maxLength).fill(tokenizer.vocab.get(tokenizer.unk)!));
    } catch (err) {
      throw new Error(`ONNX model ${name} fails on a ${maxLength}-token input: ${err instanceof Error ? err.message : String(err)}`);
    }
    if (short.length !== long.length || short.length === 0) {
      throw new Error(`ONNX model ${name}: its first output has ${short.length} values for 2 tokens and ${long.length} for ${maxLength}; expected one value per class`);
    }
    return new OnnxClassifier(ort, session, tokenizer, maxLength, o.modelPath, short.length);
  }

  private async run(ids: number[]): Promise<number[]> {
    const dims = [1, ids.length];
    const feeds: Record<string, unknown> = {};
    for (const name of this.session.inputNames) {
      const data =
        name === "input_ids" ? BigInt64Array.from(ids.map(BigInt)) : name === "attention_mask" ? new BigInt64Array(ids.length).fill(1n) : new BigInt64Array(ids.length);
      feeds[name] = new this.ort.Tensor("int64", data, dims);
    }
    const out = await this.session.run(feeds);
    return Array.from(out[this.session.outputNames[0]].data, (v) => Number(v));
  }

  /** Probabilities of each output for the text's head, and where in the text the head ends. */
  async probabilities(text: string, activation: Activation): Promise<{ values: number[]; end: number }> {
    const { ids, end } = tokenizeHead(this.tokenizer, text, this.maxLength);
    const values = await this.run(ids);
    // Exports that end in a softmax or sigmoid name their output for it.
    if (/prob/i.test(this.session.outputNames[0]) && values.every((v) => v >= 0 && v <= 1)) return { values, end };
    // A single value is one logit: softmax over it would always give 1.
    if (activation === "sigmoid" || values.length === 1) return { values: values.map((v) => 1 / (1 + Math.exp(-v))), end };
    const max = Math.max(...values);
    const exps = values.map((v) => Math.exp(v - max));
    const sum = exps.reduce((a, b) => a + b, 0);
    return { values: exps.map((e) => e / sum), end };
  }
}

/** The built-in heads a bring-your-own model can replace. */
export type OnnxSlot = "prompt_attack" | "moderation";

/** How a slot reads its model's outputs; given the output count, which only the loaded model knows. */
export interface SlotSpec {
  /** Output index of each label (a detector's category) the model scores. */
  labels: Readonly<Record<string, number>>;
  activation: Activation;
  thresholds?: LevelThresholds;
  /** The locations the slot's detectors screen: the parts the pre-pass scores. */
  locations: readonly Location[];
}

interface Slot {
  classifier: OnnxClassifier;
  labels: [string, number][];
  activation: Activation;
  thresholds: LevelThresholds;
  locations: readonly Location[];
  /** Per scored text: each label's probability, in `labels` order, and the end of the head the model read. */
  scores: LRUCache<string, { values: Float64Array; end: number }>;
}

const slots = new Map<OnnxSlot, Slot>();

/** Loads a slot's model; until it resolves, the slot's built-in heads run. Indexes beyond the model's outputs are an error. */
export async function loadOnnxSlot(slot: OnnxSlot, files: OnnxModelFiles, specOf: (outputs: number) => SlotSpec): Promise<void> {
  const classifier = await OnnxClassifier.create(files);
  const spec = specOf(classifier.outputs);
  const labels = Object.entries(spec.labels);
  const name = files.modelPath.split(/[\\/]/).pop();
  for (const [label, i] of labels) {
    if (!Number.isInteger(i) || i < 0 || i >= classifier.outputs) {
      throw new Error(`${slot} ONNX model ${name} has ${classifier.outputs} output${classifier.outputs === 1 ? "" : "s"}; ${label} is mapped to index ${i}`);
    }
  }
  slots.set(slot, {
    classifier,
    labels,
    activation: spec.activation,
    thresholds: spec.thresholds ?? DEFAULT_ONNX_THRESHOLDS,
    locations: spec.locations,
    scores: new LRUCache({ max: 4096 }),
  });
}

/** Stops using the ONNX models, or one slot's (tests). */
export function unloadOnnx(slot?: OnnxSlot): void {
  if (slot) slots.delete(slot);
  else slots.clear();
}

/** File names of the loaded models, by slot. */
export function onnxModelFiles(): [OnnxSlot, string][] {
  return [...slots].map(([slot, s]) => [slot, s.classifier.modelPath.split(/[\\/]/).pop()!]);
}

/**
 * Long texts are cached under a digest so the cache's memory does not grow
 * with the texts it has seen; the engine hands every detector of a part the
 * same string, so one remembered digest spares hashing it again.
 */
const SHORT_KEY = 1024;
let lastText = "";
let lastKey = "";
function keyOf(text: string): string {
  if (text.length <= SHORT_KEY) return `=${text}`;
  if (text !== lastText) {
    lastText = text;
    lastKey = `#${createHash("sha256").update(text).digest("base64")}`;
  }
  return lastKey;
}

/**
 * The asynchronous pre-pass: scores every part a loaded slot's detectors may
 * screen, normalized as the engine does, so the synchronous detectors can
 * read the scores. A no-op without ONNX models.
 */
export async function prepareOnnx(parts: Part[]): Promise<void> {
  if (slots.size === 0) return;
  for (const p of parts) {
    const wanted = [...slots.values()].filter((s) => s.locations.includes(p.location));
    if (!wanted.length) continue;
    const text = normalizeText(p.text).text;
    // Detectors return no_level for blank text before asking for a score.
    if (!text.trim()) continue;
    const key = keyOf(text);
    for (const s of wanted) {
      if (s.scores.has(key)) continue;
      const { values, end } = await s.classifier.probabilities(text, s.activation);
      s.scores.set(key, { values: Float64Array.from(s.labels, ([, i]) => values[i]), end });
    }
  }
}

/**
 * A label's score for a normalized text the pre-pass scored, its slot's
 * thresholds, and where the part of the text the model read ends; undefined
 * when the slot has no model, the model does not score the label, or the
 * pre-pass did not see the text (the built-in head then runs).
 */
export function onnxScoreOf(slot: OnnxSlot, label: string, text: string): { score: number; thresholds: LevelThresholds; end: number } | undefined {
  const s = slots.get(slot);
  if (!s) return undefined;
  const i = s.labels.findIndex(([l]) => l === label);
  if (i < 0) return undefined;
  const scored = s.scores.get(keyOf(text));
  return scored && { score: scored.values[i], thresholds: s.thresholds, end: scored.end };
}
