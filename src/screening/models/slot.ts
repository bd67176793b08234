// One configured model on one thread: its folder, tokenizer, label map and
// thresholds, the scoring of texts through the model thread, and the results
// cached per text for the synchronous detectors.
import { createHash } from "node:crypto";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { LRUCache } from "lru-cache";
import { readCalibration, thresholdsFor, type CalibrationFile } from "../calibration/file.js";
import type { LevelThresholds } from "../detectors/learned/runtime/levels.js";
import type { Location } from "../vocabulary.js";
import { entitiesOf, type Aggregation } from "./entities.js";
import { readModelFolder, readOlderFiles, type ModelFolder } from "./folder.js";
import type { HostClient } from "./host.js";
import { classMap, detectorTypeOf, SLOT_LABELS, tagMap, type ClassMap, type ModelSlot, type TagMap } from "./labels.js";
import type { Task, SessionSpec } from "./session.js";
import type { ModelSettings, SlotSettings, Combine } from "./settings.js";
import { TextTokenizer, type Tokenized } from "./tokenizer.js";
import { classScores, tokenProbabilities, windowsOf, type Activation, type LabelScore, type Windows } from "./windows.js";
import type { SlotInfo } from "./worker.js";

/**
 * Levels of a model nobody calibrated here are read off its probability
 * (docs/learned-detectors.md#levels-and-the-calibration-file); `parapet calibrate` writes thresholds
 * chosen on the operator's own data.
 */
const DEFAULT_THRESHOLDS: LevelThresholds = { l1_confident: 0.98, l2_very_likely: 0.9, l3_likely: 0.75, l4_less_likely: 0.5 };

const CALIBRATION_FILE = "parapet-calibration.json";

/** A text's result: per label of a text classifier, or the entities of a token classifier with their detector label. */
export type TextResult = { scores: LabelScore[] } | { entities: { label: string; start: number; end: number; score: number }[] };

/** The first stage of loading, before the graph is loaded: the files, the tokenizer, the window geometry. */
export interface SlotFiles {
  settings: SlotSettings;
  folder: ModelFolder;
  tokenizer: TextTokenizer;
  task: Task;
  /** Content tokens per window, and tokens shared by consecutive windows. */
  content: number;
  stride: number;
  spec: SessionSpec;
}

/** "PARAPET_PROMPT_ATTACK_MODEL=/models/pg2": what every load error of a slot starts with. */
export function whereOf(s: SlotSettings): string {
  return `${s.setting}=${s.dir ?? s.files?.modelPath ?? ""}`;
}

function oneLine(err: unknown): string {
  return (err instanceof Error ? err.message : String(err)).split("\n")[0];
}

export async function readSlotFiles(s: SlotSettings, m: ModelSettings): Promise<SlotFiles> {
  try {
    const folder = s.dir ? readModelFolder(s.dir) : readOlderFiles(s.files!.modelPath, s.files!.tokenizerPath);
    let tokenizer: TextTokenizer;
    try {
      tokenizer = await TextTokenizer.load(folder.tokenizer.json, folder.tokenizer.config);
    } catch (err) {
      throw new Error(`tokenizer.json: ${oneLine(err)}`);
    }
    const windowTokens = Math.min(m.windowTokens, folder.maxTokens ?? m.windowTokens);
    const content = windowTokens - tokenizer.prefix.length - tokenizer.suffix.length;
    if (content < 2) throw new Error(`a ${windowTokens}-token window leaves no room for text beside the tokenizer's special tokens`);
    if (m.strideTokens >= content) {
      throw new Error(`PARAPET_MODEL_STRIDE_TOKENS=${m.strideTokens} must be less than the ${content} text tokens a ${windowTokens}-token window holds`);
    }
    const sample = tokenizer.encode("Hello world, this is a test.").ids;
    const probe = Int32Array.from([...tokenizer.prefix, ...sample.subarray(0, content), ...tokenizer.suffix]);
    const task: Task = s.slot === "pii" ? "tags" : "classes";
    return {
      settings: s,
      folder,
      tokenizer,
      task,
      content,
      stride: m.strideTokens,
      spec: { onnxPath: folder.onnxPath, task, labels: folder.id2label?.length, probe, windowTokens, padId: tokenizer.padId },
    };
  } catch (err) {
    throw new Error(`${whereOf(s)}: ${oneLine(err)}`);
  }
}

/** A long text's cache key is its digest, so the cache's memory does not grow with the texts it has seen. */
const SHORT_KEY = 1024;
let lastText = "";
let lastKey = "";
function keyOf(text: string): string {
  if (text.length <= SHORT_KEY) return `=${text}`;
  // The engine hands every detector of a part the same string: one remembered digest spares hashing it again.
  if (text !== lastText) {
    lastText = text;
    lastKey = `#${createHash("sha256").update(text).digest("base64")}`;
  }
  return lastKey;
}

export class LoadedSlot {
  readonly slot: ModelSlot;
  /** The model's name: dev_info.model_version and Detection.model. */
  readonly name: string;
  readonly combine: Combine;
  /** Detector types this model serves. */
  readonly types: ReadonlySet<string>;
  private readonly labelIndex: Map<string, number>;
  private readonly cache = new LRUCache<string, TextResult>({ max: 4096 });

  private constructor(
    private readonly files: SlotFiles,
    private readonly outputs: number,
    private readonly classes: ClassMap | undefined,
    private readonly tags: TagMap | undefined,
    private readonly activation: Activation,
    private readonly summed: boolean,
    private readonly calibration: CalibrationFile | undefined,
    private readonly aggregation: Aggregation,
  ) {
    const s = files.settings;
    this.slot = s.slot;
    this.name = files.folder.name;
    this.combine = s.combine;
    const labels = classes ? classes.labels : [...new Set(tags!.entities.values())];
    this.labelIndex = new Map(labels.map((l, i) => [l, i]));
    this.types = new Set(labels.map((l) => detectorTypeOf(s.slot, l)));
  }

  /**
   * The second stage: the label map and thresholds, once the model thread says
   * what the graph outputs. `calibrated` false leaves any calibration file
   * unread (parapet calibrate, which writes it).
   */
  static complete(f: SlotFiles, info: SlotInfo, m: ModelSettings, calibrated = true): LoadedSlot {
    const s = f.settings;
    try {
      const names = f.folder.id2label ?? Array.from({ length: info.outputs }, (_, i) => `LABEL_${i}`);
      const classes = f.task === "classes" ? classMap(s.slot, names, s.labels, s.labelsSetting) : undefined;
      const tags = f.task === "tags" ? tagMap(names, s.labels, s.labelsSetting) : undefined;
      const multiLabel = f.folder.problemType === "multi_label_classification";
      const activation: Activation = s.activation ?? (info.probabilities ? "none" : multiLabel || info.outputs === 1 ? "sigmoid" : "softmax");
      const summed = activation === "softmax" || (activation === "none" && !multiLabel);
      const calibrationPath = s.calibration ?? (f.folder.dir && existsSync(join(f.folder.dir, CALIBRATION_FILE)) ? join(f.folder.dir, CALIBRATION_FILE) : undefined);
      const calibration = calibrated && calibrationPath ? readCalibration(calibrationPath) : undefined;
      return new LoadedSlot(f, info.outputs, classes, tags, activation, summed, calibration, m.aggregation);
    } catch (err) {
      throw new Error(`${whereOf(s)}: ${oneLine(err)}`);
    }
  }

  /** What `dev_info.model_version` says of it. */
  get version(): string {
    return `${this.slot}:${this.name}`;
  }

  /** The detector labels it scores, in the slot's order. */
  get labels(): string[] {
    return SLOT_LABELS[this.slot].filter((l) => this.labelIndex.has(l));
  }

  thresholds(label: string, location: Location): LevelThresholds {
    return this.files.settings.thresholds ?? (this.calibration && thresholdsFor(this.calibration, label, location)) ?? DEFAULT_THRESHOLDS;
  }

  cached(text: string): TextResult | undefined {
    return this.cache.get(keyOf(text));
  }

  has(text: string): boolean {
    return this.cache.has(keyOf(text));
  }

  /** Scores texts (normalized, not blank) in one job: the windows of all of them batched together. */
  async score(texts: string[], client: HostClient, deadline?: number): Promise<TextResult[]> {
    const f = this.files;
    const tokenized: Tokenized[] = [];
    const windows: Windows[] = [];
    for (const text of texts) {
      const t = f.tokenizer.encode(text);
      tokenized.push(t);
      windows.push(windowsOf(t, f.tokenizer.prefix, f.tokenizer.suffix, f.content, f.stride));
    }
    const out = await client.run(this.slot, joined(windows), deadline);
    const results: TextResult[] = [];
    let at = 0;
    texts.forEach((text, i) => {
      const w = windows[i];
      const rows = this.classes ? w.lengths.length : w.lengths.reduce((n, l) => n + l, 0);
      const part = out.subarray(at * this.outputs, (at + rows) * this.outputs);
      at += rows;
      const result = this.resultOf(part, w, tokenized[i], text);
      this.cache.set(keyOf(text), result);
      results.push(result);
    });
    return results;
  }

  private resultOf(out: Float32Array, w: Windows, t: Tokenized, text: string): TextResult {
    if (this.classes) return { scores: classScores(out, this.outputs, w, t, text.length, this.classes, this.activation, this.summed) };
    const tags = this.tags!;
    const probs = tokenProbabilities(out, this.outputs, w, t, this.files.tokenizer.prefix.length);
    const entities: { label: string; start: number; end: number; score: number }[] = [];
    for (const e of entitiesOf(probs, this.outputs, t, tags.tags, this.aggregation)) {
      const label = tags.entities.get(e.entity);
      if (label) entities.push({ label, start: e.start, end: e.end, score: e.score });
    }
    return { entities };
  }

  /** A label's position in a text result's scores; undefined for a label the model does not serve. */
  indexOf(label: string): number | undefined {
    return this.labelIndex.get(label);
  }
}

/** The windows of several texts as one job. */
function joined(ws: Windows[]): Windows {
  if (ws.length === 1) return ws[0];
  const size = (k: "ids" | "lengths" | "first" | "end") => ws.reduce((n, w) => n + w[k].length, 0);
  const out: Windows = { ids: new Int32Array(size("ids")), lengths: new Int32Array(size("lengths")), first: new Int32Array(0), end: new Int32Array(0) };
  let ids = 0;
  let lengths = 0;
  for (const w of ws) {
    out.ids.set(w.ids, ids);
    out.lengths.set(w.lengths, lengths);
    ids += w.ids.length;
    lengths += w.lengths.length;
  }
  return out;
}
