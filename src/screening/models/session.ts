// One ONNX graph in ONNX Runtime (onnxruntime-node), on the model thread
// (worker.ts): checked at load against the task its slot gives it, then run on
// batches of windows, padded, with an attention mask.
import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import type { InferenceSession, Tensor, TypedTensor } from "onnxruntime-node";

export type Task = "classes" | "tags";
export type Device = "cpu" | "cuda";

export interface SessionSpec {
  onnxPath: string;
  task: Task;
  /** Outputs config.json names; undefined when only the graph can tell (older settings). */
  labels?: number;
  /** A short window of real ids (special tokens included), and the longest window the runtime will send. */
  probe: Int32Array;
  windowTokens: number;
  padId: number;
}

export interface SessionOptions {
  device: Device;
  /** ONNX Runtime's intra-op threads for this graph. */
  threads: number;
}

type Ort = typeof import("onnxruntime-node");

/** The inputs a transformer encoder export takes; anything else (past key values, pixel values) is not a text or token classifier. */
const INPUTS = ["input_ids", "attention_mask", "token_type_ids", "position_ids"];

/** Padded tokens one batch may hold: a few full windows, or many short texts at once. */
const BATCH_TOKENS = 4096;
const MAX_BATCH = 64;

/** Where onnxruntime-node keeps its native libraries, and the CUDA provider's among them (a separate install: docs/learned-detectors.md#gpu). */
export function cudaProviderPath(): string {
  const bin = join(dirname(createRequire(import.meta.url).resolve("onnxruntime-node")), "..", "bin", "napi-v6", process.platform, process.arch);
  return join(bin, process.platform === "win32" ? "onnxruntime_providers_cuda.dll" : "libonnxruntime_providers_cuda.so");
}

/**
 * Refuses a device whose execution provider is not installed, before ONNX
 * Runtime tries it (it would print its own multi-line error first).
 */
export function checkDevice(device: Device): void {
  if (device === "cuda" && !existsSync(cudaProviderPath())) {
    throw new Error(
      `PARAPET_MODEL_DEVICE=cuda: ONNX Runtime's CUDA execution provider is not installed (no ${cudaProviderPath()}); install it as docs/learned-detectors.md#gpu says, or leave PARAPET_MODEL_DEVICE unset for the CPU`,
    );
  }
}

function firstLine(err: unknown): string {
  return (err instanceof Error ? err.message : String(err)).split("\n")[0];
}

/** IEEE half floats, which fp16 exports output, as numbers. */
function fromHalf(h: number): number {
  const exponent = (h >> 10) & 0x1f;
  const fraction = h & 0x3ff;
  const sign = h & 0x8000 ? -1 : 1;
  if (exponent === 0) return sign * 2 ** -14 * (fraction / 1024);
  if (exponent === 31) return fraction ? NaN : sign * Infinity;
  return sign * 2 ** (exponent - 15) * (1 + fraction / 1024);
}

export class ModelSession {
  private constructor(
    private readonly ort: Ort,
    private readonly session: InferenceSession,
    private readonly output: string,
    private readonly inputTypes: Map<string, "int64" | "int32">,
    private readonly padId: number,
    /** Values per window (classes) or per token (tags). */
    readonly outputs: number,
    /** Windows one run may take: 1 for a graph with a fixed batch of one. */
    private readonly maxBatch: number,
    /** Without an attention mask, padding changes the result: only windows of one length run together. */
    readonly masked: boolean,
    /** The graph ends in its own softmax or sigmoid (its output is named for probabilities). */
    readonly probabilities: boolean,
  ) {}

  static async create(spec: SessionSpec, options: SessionOptions): Promise<ModelSession> {
    checkDevice(options.device);
    const ort = (await import("onnxruntime-node")) as Ort;
    let session: InferenceSession;
    try {
      session = await ort.InferenceSession.create(spec.onnxPath, {
        executionProviders: [options.device],
        intraOpNumThreads: options.threads,
        interOpNumThreads: 1,
        // Idle intra-op threads would otherwise spin for the screening threads' cores.
        extra: { session: { intra_op: { allow_spinning: "0" } } },
      });
    } catch (err) {
      const where = options.device === "cuda" ? "ONNX Runtime could not start the graph on its CUDA execution provider" : "ONNX Runtime cannot load the graph";
      throw new Error(`${where}: ${firstLine(err)}`);
    }
    return ModelSession.checked(ort, session, spec);
  }

  private static async checked(ort: Ort, session: InferenceSession, spec: SessionSpec): Promise<ModelSession> {
    const unknown = session.inputNames.filter((n) => !INPUTS.includes(n));
    if (unknown.length || !session.inputNames.includes("input_ids")) {
      throw new Error(`the graph's inputs are ${session.inputNames.join(", ")}; expected input_ids and optionally attention_mask, token_type_ids, position_ids`);
    }
    const inputTypes = new Map<string, "int64" | "int32">();
    let maxBatch = MAX_BATCH;
    for (const m of session.inputMetadata) {
      if (!m.isTensor || (m.type !== "int64" && m.type !== "int32")) throw new Error(`the graph's input ${m.name} is not an integer tensor`);
      inputTypes.set(m.name, m.type);
      if (m.name === "input_ids" && typeof m.shape[0] === "number") maxBatch = Math.max(1, m.shape[0]);
    }
    const output = session.outputNames.includes("logits") ? "logits" : session.outputNames[0];
    const meta = session.outputMetadata[session.outputNames.indexOf(output)];
    const rank = spec.task === "classes" ? 2 : 3;
    const shape = spec.task === "classes" ? "[batch, labels]" : "[batch, tokens, labels]";
    const what = spec.task === "classes" ? "a text classifier" : "a token classifier";
    if (!meta?.isTensor) throw new Error(`the graph's output ${output} is not a tensor; ${what} outputs ${shape}`);
    if (meta.shape.length !== rank) throw new Error(`the graph's output ${output} has ${meta.shape.length} dimensions; ${what} outputs ${shape}`);
    const s = new ModelSession(ort, session, output, inputTypes, spec.padId, 0, maxBatch, inputTypes.has("attention_mask"), /prob/i.test(output));
    // A run of a short and a full-length window at start-up, so a graph that
    // cannot take the window or scores something else fails here, not on a request.
    const full = new Int32Array(spec.windowTokens);
    for (let i = 0; i < full.length; i++) full[i] = spec.probe[Math.min(i, spec.probe.length - 1)];
    let rows: Float32Array[];
    try {
      rows = [...(await s.runBatch([spec.probe])), ...(await s.runBatch([full]))];
    } catch (err) {
      throw new Error(`the graph fails on a ${spec.windowTokens}-token window: ${firstLine(err)}`);
    }
    const outputs = spec.task === "classes" ? rows[0].length : rows[0].length / spec.probe.length;
    const consistent = spec.task === "classes" ? rows[1].length === outputs : rows[1].length === outputs * full.length;
    if (!consistent || !Number.isInteger(outputs) || outputs === 0) {
      throw new Error(`the graph's output ${output} does not have one row of labels per ${spec.task === "classes" ? "text" : "token"}; ${what} outputs ${shape}`);
    }
    if (spec.labels !== undefined && outputs !== spec.labels) {
      throw new Error(`config.json's id2label names ${spec.labels} label${spec.labels === 1 ? "" : "s"} but the graph outputs ${outputs} per ${spec.task === "classes" ? "text" : "token"}`);
    }
    return new ModelSession(ort, session, output, inputTypes, spec.padId, outputs, maxBatch, s.masked, s.probabilities);
  }

  /** How many of `lengths` (windows waiting, in order) the next run takes, at most. */
  batchOf(lengths: number[]): number {
    let longest = 0;
    let n = 0;
    for (const len of lengths) {
      const l = Math.max(longest, len);
      if (n >= this.maxBatch || (n > 0 && l * (n + 1) > BATCH_TOKENS) || (!this.masked && n > 0 && len !== longest)) break;
      longest = l;
      n++;
    }
    return Math.max(1, n);
  }

  /** Outputs per window: one row (classes), or one row per token of the window (tags). */
  async runBatch(windows: Int32Array[]): Promise<Float32Array[]> {
    const batch = windows.length;
    const width = Math.max(...windows.map((w) => w.length));
    const feeds: Record<string, Tensor> = {};
    for (const [name, type] of this.inputTypes) {
      const data = type === "int64" ? new BigInt64Array(batch * width) : new Int32Array(batch * width);
      const set = (i: number, v: number) => (type === "int64" ? ((data as BigInt64Array)[i] = BigInt(v)) : ((data as Int32Array)[i] = v));
      windows.forEach((w, b) => {
        for (let j = 0; j < width; j++) {
          const at = b * width + j;
          if (name === "input_ids") set(at, j < w.length ? w[j] : this.padId);
          else if (name === "attention_mask") set(at, j < w.length ? 1 : 0);
          else if (name === "position_ids") set(at, j);
        }
      });
      feeds[name] = new this.ort.Tensor(type, data, [batch, width]);
    }
    const result = await this.session.run(feeds);
    const out = result[this.output] as TypedTensor<"float32"> | TypedTensor<"float16"> | TypedTensor<"float64">;
    const values: ArrayLike<number> = out.type === "float16" ? Array.from(out.data, fromHalf) : out.data;
    const perRow = out.dims[out.dims.length - 1];
    const rows: Float32Array[] = [];
    windows.forEach((w, b) => {
      if (out.dims.length === 2) rows.push(Float32Array.from({ length: perRow }, (_, k) => values[b * perRow + k]));
      else {
        const tokens = out.dims[1];
        const row = new Float32Array(w.length * perRow);
        for (let j = 0; j < w.length; j++) for (let k = 0; k < perRow; k++) row[j * perRow + k] = values[(b * tokens + j) * perRow + k];
        rows.push(row);
      }
    });
    return rows;
  }

  async close(): Promise<void> {
    await this.session.release();
  }
}
