// Bring your own prompt_attack model (docs/learned-detectors.md): an ONNX text
// classifier (for example a fine-tuned BERT-family transformer the operator
// downloaded) replaces the built-in linear model. Everything is read from
// local files: the model with onnxruntime-node (CPU), the tokenizer from a
// WordPiece vocab.txt or a Hugging Face tokenizer.json (WordPiece models).
// Inference is asynchronous, so the engine runs `prepare(parts)` before the
// synchronous detectors and prompt_attack reads the prepared scores.
import { readFileSync } from "node:fs";
import type { LevelThresholds } from "./levels.js";

export interface OnnxPromptAttackOptions {
  modelPath: string;
  tokenizerPath: string;
  /** Score thresholds per level (the model's probability of "attack"); see DEFAULT_ONNX_THRESHOLDS. */
  thresholds?: LevelThresholds;
  /** Index of the "attack" class in a two-class output (default 1). */
  attackLabel?: number;
  /** Tokens per input, [CLS] and [SEP] included (default 512). */
  maxLength?: number;
}

/**
 * Without a calibration set for someone else's model, levels are read off its
 * probability; operators who calibrate their model set
 * PARAPET_PROMPT_ATTACK_ONNX_THRESHOLDS="l1,l2,l3,l4".
 */
const DEFAULT_ONNX_THRESHOLDS: LevelThresholds = { l1_confident: 0.98, l2_very_likely: 0.9, l3_likely: 0.75, l4_less_likely: 0.5 };

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
    return {
      vocab: new Map(Object.entries(j.model.vocab)),
      lowercase,
      stripAccents: n?.type === "BertNormalizer" ? (n.strip_accents ?? lowercase) : lowercase,
      unk: j.model.unk_token ?? "[UNK]",
      cls: j.post_processor?.cls?.[0] ?? "[CLS]",
      sep: j.post_processor?.sep?.[0] ?? "[SEP]",
      continuing: j.model.continuing_subword_prefix ?? "##",
    };
  }
  const vocab = new Map<string, number>();
  raw.split(/\r?\n/).forEach((line, i) => {
    if (line !== "" && !vocab.has(line)) vocab.set(line, i);
  });
  // Cased vocabularies have capitalized entries; uncased ones do not.
  let upper = 0;
  for (const k of vocab.keys()) if (/^[A-Z][a-z]+$/.test(k)) upper++;
  const lowercase = upper < 50;
  return { vocab, lowercase, stripAccents: lowercase, unk: "[UNK]", cls: "[CLS]", sep: "[SEP]", continuing: "##" };
}

const PUNCT = /[\p{P}\p{S}]/u;
const CJK = /[\u4e00-\u9fff\u3400-\u4dbf\uf900-\ufaff]/;

/** BERT basic tokenization (whitespace, punctuation, CJK characters) then greedy longest-match WordPiece. */
export function tokenize(t: WordPieceTokenizer, text: string, maxLength = 512): number[] {
  let s = text.replace(/[\u0000\ufffd]|\p{Cc}/gu, (c) => (/\s/.test(c) ? " " : ""));
  if (t.lowercase) s = s.toLowerCase();
  if (t.stripAccents) s = s.normalize("NFD").replace(/\p{Mn}/gu, "");
  const words: string[] = [];
  for (const chunk of s.split(/\s+/)) {
    let cur = "";
    for (const ch of chunk) {
      if (PUNCT.test(ch) || CJK.test(ch)) {
        if (cur) words.push(cur);
        words.push(ch);
        cur = "";
      } else cur += ch;
    }
    if (cur) words.push(cur);
  }
  const unk = t.vocab.get(t.unk) ?? 0;
  const ids: number[] = [t.vocab.get(t.cls) ?? unk];
  const budget = maxLength - 1;
  for (const w of words) {
    if (ids.length >= budget) break;
    if (w.length > 100) {
      ids.push(unk);
      continue;
    }
    const pieces: number[] = [];
    let start = 0;
    let bad = false;
    while (start < w.length) {
      let end = w.length;
      let found: number | undefined;
      while (start < end) {
        const sub = (start > 0 ? t.continuing : "") + w.slice(start, end);
        found = t.vocab.get(sub);
        if (found !== undefined) break;
        end--;
      }
      if (found === undefined) {
        bad = true;
        break;
      }
      pieces.push(found);
      start = end;
    }
    if (bad) ids.push(unk);
    else for (const p of pieces) if (ids.length < budget) ids.push(p);
  }
  ids.push(t.vocab.get(t.sep) ?? unk);
  return ids;
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

export class OnnxPromptAttack {
  private constructor(
    private readonly ort: OrtModule,
    private readonly session: OrtSession,
    readonly tokenizer: WordPieceTokenizer,
    readonly thresholds: LevelThresholds,
    private readonly attackLabel: number,
    private readonly maxLength: number,
    readonly modelPath: string,
  ) {}

  static async create(o: OnnxPromptAttackOptions): Promise<OnnxPromptAttack> {
    const tokenizer = loadTokenizer(o.tokenizerPath);
    const ort = (await import("onnxruntime-node")) as unknown as OrtModule;
    // One intra-op thread: requests are screened concurrently, each on its own core.
    const session = await ort.InferenceSession.create(o.modelPath, { intraOpNumThreads: 1, interOpNumThreads: 1 });
    return new OnnxPromptAttack(ort, session, tokenizer, o.thresholds ?? DEFAULT_ONNX_THRESHOLDS, o.attackLabel ?? 1, o.maxLength ?? 512, o.modelPath);
  }

  /** Probability that the text is an attack. */
  async score(text: string): Promise<number> {
    const ids = tokenize(this.tokenizer, text, this.maxLength);
    const dims = [1, ids.length];
    const feeds: Record<string, unknown> = {};
    for (const name of this.session.inputNames) {
      const data =
        name === "input_ids" ? BigInt64Array.from(ids.map(BigInt)) : name === "attention_mask" ? new BigInt64Array(ids.length).fill(1n) : new BigInt64Array(ids.length);
      feeds[name] = new this.ort.Tensor("int64", data, dims);
    }
    const out = await this.session.run(feeds);
    const first = out[this.session.outputNames[0]];
    const values = Array.from(first.data, (v) => Number(v));
    if (values.length === 1) return values[0] >= 0 && values[0] <= 1 && this.session.outputNames[0].includes("prob") ? values[0] : 1 / (1 + Math.exp(-values[0]));
    // Softmax over the class logits.
    const max = Math.max(...values);
    const exps = values.map((v) => Math.exp(v - max));
    const sum = exps.reduce((a, b) => a + b, 0);
    return exps[Math.min(this.attackLabel, exps.length - 1)] / sum;
  }
}
