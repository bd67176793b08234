// Model folders for tests, written into a directory the test owns (a temp dir): a fixture as
// it is, under the other file name Optimum uses, or with one fault start-up must refuse with
// one clear line (issue 26, "Bad input and faults"). Each is a complete folder, the fixture's
// files with exactly one thing changed.
import { buildFixture, type FixtureName } from "./fixtures.js";
import { folderFiles, labelMaps, type ModelFolder, writeFolder } from "./model-folder.js";

export type BrokenVariant =
  /** No tokenizer.json (only tokenizer_config.json, as a slow-tokenizer export leaves it). */
  | "no-tokenizer"
  /** tokenizer.json of a model type none of the supported families is: WordLevel. */
  | "unsupported-tokenizer"
  /** The graph's token id input is called `tokens` instead of `input_ids`. */
  | "renamed-input"
  /** A classifier whose logits are per token ([batch, sequence, labels]), or an NER model whose are per text. */
  | "wrong-output-rank"
  /** id2label names from another task (sentiment, emotions, animals), which map to no detector. */
  | "unmapped-labels";

export const BROKEN_VARIANTS: readonly BrokenVariant[] = ["no-tokenizer", "unsupported-tokenizer", "renamed-input", "wrong-output-rank", "unmapped-labels"];

/** Writes fixture `name` into `dir` (replacing it); `onnxFile` names the graph as Optimum's quantized export does. */
export function writeFixture(dir: string, name: FixtureName, onnxFile: "model.onnx" | "model_quantized.onnx" = "model.onnx"): string {
  const files = folderFiles(buildFixture(name));
  if (onnxFile !== "model.onnx") {
    files.set(`onnx/${onnxFile}`, files.get("onnx/model.onnx")!);
    files.delete("onnx/model.onnx");
  }
  writeFolder(dir, files);
  return dir;
}

/** Writes fixture `base` with the fault `variant` into `dir` (replacing it) and returns `dir`. */
export function writeBrokenVariant(dir: string, variant: BrokenVariant, base: FixtureName = "unigram-attack"): string {
  const model = buildFixture(base);
  const files = folderFiles(broken(model, variant));
  if (variant === "no-tokenizer") files.delete("tokenizer.json");
  writeFolder(dir, files);
  return dir;
}

const UNRELATED_LABELS: Record<FixtureName, readonly string[]> = {
  "unigram-attack": ["negative", "positive"],
  "bpe-moderation": ["anger", "joy", "sadness", "fear"],
  "wordpiece-ner": ["O", "B-ANIMAL", "I-ANIMAL", "B-PLANT", "I-PLANT", "B-COLOR", "I-COLOR"],
};

function broken(model: ModelFolder, variant: BrokenVariant): ModelFolder {
  switch (variant) {
    case "no-tokenizer":
      return model;
    case "unsupported-tokenizer":
      return { ...model, tokenizer: { ...model.tokenizer, model: wordLevel(model) } };
    case "renamed-input":
      return { ...model, graph: { ...model.graph, inputIds: "tokens" } };
    case "wrong-output-rank":
      return { ...model, graph: { ...model.graph, task: model.graph.task === "text-classification" ? "token-classification" : "text-classification" } };
    case "unmapped-labels":
      return { ...model, config: { ...model.config, ...labelMaps(UNRELATED_LABELS[model.name]) } };
  }
}

/** The fixture's vocabulary as a WordLevel model (whole words, no sub-words), ids unchanged. */
function wordLevel(model: ModelFolder): ModelFolder["tokenizer"] {
  const { vocab } = model.tokenizer.model as { vocab: Record<string, number> | [string, number][] };
  const ids = Array.isArray(vocab) ? Object.fromEntries(vocab.map(([t], i) => [t, i])) : vocab;
  const unk = Object.keys(ids).find((t) => t === "<unk>" || t === "[UNK]") ?? null;
  return { type: "WordLevel", vocab: ids, unk_token: unk };
}
