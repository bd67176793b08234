// A model folder as Hugging Face and Optimum export it
// (docs/learned-detectors.md#model-folders): config.json (id2label,
// problem_type), tokenizer.json (+ tokenizer_config.json) and the ONNX graph.
// Also the older single-file settings (PARAPET_PROMPT_ATTACK_ONNX and its
// tokenizer file), read into the same shape. Everything here is read from
// local files; a fault is one line naming the file.
import { existsSync, readFileSync, statSync } from "node:fs";
import { basename, join, resolve } from "node:path";
import { TOKENIZER_TYPES, type TokenizerJson } from "./tokenizer.js";

export interface ModelFolder {
  /** The folder's name (or an older setting's file name): dev_info.model_version, Detection.model, the calibration file's `model`. */
  name: string;
  /** The folder, where its calibration file is looked for; undefined for the older single-file settings. */
  dir?: string;
  onnxPath: string;
  tokenizer: { json: TokenizerJson; config: Record<string, unknown> };
  /** Label names by output index (config.json's id2label); undefined when only the graph knows how many outputs there are (older settings). */
  id2label?: string[];
  /** config.json's problem_type: multi-label models take a sigmoid per output, the others a softmax. */
  problemType?: string;
  /** The most tokens one input may hold, when the folder says. */
  maxTokens?: number;
}

/** Where an export puts its graph, in the order they are looked for: Optimum writes the root, transformers.js folders use onnx/. */
const ONNX_FILES = ["onnx/model.onnx", "onnx/model_quantized.onnx", "model.onnx", "model_quantized.onnx"];

function readJson(path: string, what: string): unknown {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (err) {
    throw new Error(`cannot read ${what} (${(err as NodeJS.ErrnoException).code ?? String(err)})`);
  }
  try {
    return JSON.parse(text) as unknown;
  } catch (err) {
    throw new Error(`${what} is not JSON (${(err instanceof Error ? err.message : String(err)).split("\n")[0]})`);
  }
}

function objectOf(value: unknown, what: string): Record<string, unknown> {
  if (typeof value !== "object" || value === null || Array.isArray(value)) throw new Error(`${what} is not a JSON object`);
  return value as Record<string, unknown>;
}

/** id2label as an array by index; its keys must be 0..n-1. */
function labelsOf(config: Record<string, unknown>): string[] {
  if (config.id2label === undefined) throw new Error("config.json has no id2label, which names the model's outputs");
  const map = objectOf(config.id2label, "config.json's id2label");
  const labels: string[] = [];
  for (const [key, value] of Object.entries(map)) {
    const i = Number(key);
    if (!Number.isInteger(i) || i < 0 || typeof value !== "string" || value === "") throw new Error(`config.json's id2label has an entry "${key}": ${JSON.stringify(value)}`);
    labels[i] = value;
  }
  if (labels.length === 0) throw new Error("config.json's id2label is empty");
  const hole = labels.findIndex((l) => l === undefined);
  if (hole >= 0 || labels.length !== Object.keys(map).length) throw new Error(`config.json's id2label does not number its labels 0 to ${labels.length - 1}`);
  return labels;
}

function tokenizerJsonOf(value: unknown, what: string): TokenizerJson {
  const json = objectOf(value, what);
  const model = json.model === undefined ? undefined : objectOf(json.model, `${what}'s model`);
  const type = model?.type;
  if (typeof type !== "string") throw new Error(`${what} names no tokenizer model type (model.type)`);
  if (!(TOKENIZER_TYPES as readonly string[]).includes(type)) throw new Error(`${what}: tokenizer model type ${type} is not supported (${TOKENIZER_TYPES.join(", ")} are)`);
  return json;
}

/** The most tokens the model takes: the tokenizer's model_max_length, else the position embeddings (RoBERTa-family positions start after the padding index). */
function maxTokensOf(config: Record<string, unknown>, tokenizerConfig: Record<string, unknown>): number | undefined {
  const fromTokenizer = tokenizerConfig.model_max_length;
  if (typeof fromTokenizer === "number" && Number.isInteger(fromTokenizer) && fromTokenizer > 0 && fromTokenizer < 1_000_000) return fromTokenizer;
  const positions = config.max_position_embeddings;
  if (typeof positions !== "number" || !Number.isInteger(positions) || positions <= 0) return undefined;
  const offset = typeof config.model_type === "string" && /roberta|camembert|longformer/.test(config.model_type) ? 2 : 0;
  return positions - offset;
}

/** Reads a model folder; throws one line naming what is missing or wrong. */
export function readModelFolder(dir: string): ModelFolder {
  const full = resolve(dir);
  if (!statSync(full, { throwIfNoEntry: false })?.isDirectory()) throw new Error("no such folder");
  const config = objectOf(readJson(join(full, "config.json"), "config.json"), "config.json");
  if (!existsSync(join(full, "tokenizer.json"))) throw new Error("no tokenizer.json (a Hugging Face fast tokenizer; save it with tokenizer.save_pretrained)");
  const json = tokenizerJsonOf(readJson(join(full, "tokenizer.json"), "tokenizer.json"), "tokenizer.json");
  const tokenizerConfig = existsSync(join(full, "tokenizer_config.json"))
    ? objectOf(readJson(join(full, "tokenizer_config.json"), "tokenizer_config.json"), "tokenizer_config.json")
    : {};
  const onnx = ONNX_FILES.find((f) => statSync(join(full, f), { throwIfNoEntry: false })?.isFile());
  if (!onnx) throw new Error(`no ONNX graph (looked for ${ONNX_FILES.join(", ")})`);
  return {
    name: basename(full),
    dir: full,
    onnxPath: join(full, onnx),
    tokenizer: { json, config: tokenizerConfig },
    id2label: labelsOf(config),
    problemType: typeof config.problem_type === "string" ? config.problem_type : undefined,
    maxTokens: maxTokensOf(config, tokenizerConfig),
  };
}

/**
 * The older settings: an ONNX file and its tokenizer file, tokenizer.json or
 * a BERT vocab.txt (made into the BERT tokenizer.json it stands for). The
 * outputs have no names: LABEL_0, LABEL_1, ...
 */
export function readOlderFiles(modelPath: string, tokenizerPath: string): ModelFolder {
  const raw = readFileSync(tokenizerPath, "utf8");
  const json =
    tokenizerPath.endsWith(".json") || raw.trimStart().startsWith("{")
      ? withBertSpecials(tokenizerJsonOf(readJson(tokenizerPath, basename(tokenizerPath)), basename(tokenizerPath)))
      : bertTokenizerOf(raw, basename(tokenizerPath));
  return { name: basename(modelPath), onnxPath: resolve(modelPath), tokenizer: { json, config: {} } };
}

const BERT_SPECIALS = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"];

/** A WordPiece vocab.txt (one token a line, id = line number) as the tokenizer.json BERT's tokenizer would save. */
function bertTokenizerOf(raw: string, what: string): TokenizerJson {
  const vocab: Record<string, number> = {};
  raw.split(/\r?\n/).forEach((line, i) => {
    if (line !== "" && !Object.hasOwn(vocab, line)) vocab[line] = i;
  });
  const missing = ["[UNK]", "[CLS]", "[SEP]"].filter((t) => !Object.hasOwn(vocab, t));
  if (missing.length) throw new Error(`${what}: no ${missing.join(", ")} token; a vocabulary file must be a BERT WordPiece vocab.txt (or give tokenizer.json)`);
  // Cased vocabularies have capitalized entries; uncased ones do not.
  const lowercase = Object.keys(vocab).filter((k) => /^[A-Z][a-z]+$/.test(k)).length < 50;
  return withBertSpecials({
    model: { type: "WordPiece", vocab, unk_token: "[UNK]", continuing_subword_prefix: "##", max_input_chars_per_word: 100 } as TokenizerJson["model"],
    normalizer: { type: "BertNormalizer", clean_text: true, handle_chinese_chars: true, strip_accents: lowercase, lowercase },
    pre_tokenizer: { type: "BertPreTokenizer" },
    decoder: { type: "WordPiece", prefix: "##", cleanup: true },
  });
}

/**
 * A BERT tokenizer.json written without its pre-tokenizer, post-processor or
 * added tokens (the older settings accepted those): words split as BERT
 * splits them, [CLS] and [SEP] around the text, as BERT was trained.
 */
function withBertSpecials(json: TokenizerJson): TokenizerJson {
  const vocab = (json.model as { vocab?: unknown } | undefined)?.vocab;
  if (json.model?.type !== "WordPiece" || !vocab || typeof vocab !== "object") return json;
  const ids = vocab as Record<string, number>;
  const out: TokenizerJson & { post_processor?: unknown } = { ...json };
  out.pre_tokenizer ??= { type: "BertPreTokenizer" };
  if (!out.added_tokens?.length) {
    out.added_tokens = BERT_SPECIALS.filter((t) => Object.hasOwn(ids, t)).map((t) => ({
      id: ids[t],
      content: t,
      special: true,
      normalized: false,
      single_word: false,
      lstrip: false,
      rstrip: false,
    }));
  }
  if ((json as { post_processor?: unknown }).post_processor == null && Object.hasOwn(ids, "[CLS]") && Object.hasOwn(ids, "[SEP]")) {
    out.post_processor = { type: "BertProcessing", sep: ["[SEP]", ids["[SEP]"]], cls: ["[CLS]", ids["[CLS]"]] };
  }
  return out;
}
