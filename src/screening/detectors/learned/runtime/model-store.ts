// Loads the shipped model files (models/manifest.json and the .bin weight
// files it names) once, synchronously, at start-up.
import { readFileSync } from "node:fs";
import type { Level } from "../../../vocabulary.js";
import { FEATURE_VERSION } from "./features.js";
import type { LevelThresholds } from "./levels.js";
import { decodeHead, type LinearHead } from "./linear.js";
import { pathToFileURL } from "node:url";
import { projectFile } from "../../../../paths.js";

export interface HeadSpec {
  name: string;
  scale: number;
  bias: number;
  thresholds: LevelThresholds;
  /** Thresholds of their own at some locations (documents on tool::content), chosen on held-out text of that location. */
  locations?: Record<string, LevelThresholds>;
}

export interface ModelSpec {
  file: string;
  bits: number;
  heads: HeadSpec[];
  /**
   * Languages (ISO 639-1) the training data has labelled evidence for, of both
   * classes. A text reliably identified as another language is not scored
   * (docs/learned-detectors.md#languages). Absent: every text is scored.
   */
  languages?: string[];
}

export type RuleLevels = Record<string, Level>;

export interface Manifest {
  version: string;
  featureVersion: number;
  seed: number;
  trainingData: Record<string, unknown>;
  models: {
    prompt_attack: ModelSpec;
    moderation: ModelSpec;
    /** The moderation heads' cross-language model (docs/learned-detectors.md#languages); absent in older manifests. */
    moderation_cross_language?: ModelSpec;
    crud: ModelSpec;
    payload: ModelSpec;
  };
  rules: { untrusted_destination: RuleLevels; untrusted_source: RuleLevels; dangerous_deviation: RuleLevels };
  evaluation?: unknown;
}

export interface LoadedHead extends LinearHead {
  thresholds: LevelThresholds;
  locations?: Record<string, LevelThresholds>;
}

export interface LoadedModel {
  bits: number;
  heads: Map<string, LoadedHead>;
  /** Head names in file order. */
  names: string[];
  /** Where its heads are scored: a table it may share with other models over the same features. */
  table: HeadTable;
  /** Index of its first head in the table. */
  offset: number;
  languages?: ReadonlySet<string>;
}

/**
 * Heads' weights interleaved (bucket-major: dim x stride), so scoring every
 * head reads one cache line per feature instead of one per head. The text
 * models (prompt_attack and the moderation heads) share one table: they score
 * the same features of the same text, and one random read per feature instead
 * of two is what their scoring costs (docs/learned-detectors.md#speed).
 */
export interface HeadTable {
  packed: Float32Array;
  /** One per slot; `stride` slots per bucket, the unused ones zero. */
  biases: Float64Array;
}

export interface LoadedModels {
  manifest: Manifest;
  promptAttack: LoadedModel;
  moderation: LoadedModel;
  moderationCrossLanguage?: LoadedModel;
  crud: LoadedModel;
  payload: LoadedModel;
  loadMs: number;
}

export const DEFAULT_MODELS_DIR = pathToFileURL(projectFile("models") + "/");

function loadModel(dir: URL, spec: ModelSpec): Omit<LoadedModel, "table" | "offset"> {
  const buf = readFileSync(new URL(spec.file, dir));
  const dim = 1 << spec.bits;
  const heads = new Map<string, LoadedHead>();
  spec.heads.forEach((h, i) => {
    heads.set(h.name, { name: h.name, weights: decodeHead(buf, i, dim, h.scale), bias: h.bias, thresholds: h.thresholds, locations: h.locations });
  });
  return { bits: spec.bits, heads, names: spec.heads.map((h) => h.name), languages: spec.languages ? new Set(spec.languages) : undefined };
}

/**
 * One head table for models over the same hashed space, their heads side by
 * side in file order, padded to a multiple of 4 slots so a bucket's weights
 * never straddle more cache lines than they need.
 */
function shareTable(models: Omit<LoadedModel, "table" | "offset">[]): LoadedModel[] {
  const dim = 1 << models[0].bits;
  const heads = models.flatMap((m) => m.names.map((n) => m.heads.get(n)!));
  const stride = Math.ceil(heads.length / 4) * 4;
  const packed = new Float32Array(dim * stride);
  const biases = new Float64Array(stride);
  heads.forEach((h, i) => {
    biases[i] = h.bias;
    for (let j = 0; j < dim; j++) packed[j * stride + i] = h.weights[j];
  });
  const table = { packed, biases };
  let offset = 0;
  return models.map((m) => {
    const placed = { ...m, table, offset };
    offset += m.names.length;
    return placed;
  });
}

export function loadModelFiles(dir: URL = DEFAULT_MODELS_DIR): LoadedModels {
  const t0 = performance.now();
  const manifest = JSON.parse(readFileSync(new URL("manifest.json", dir), "utf8")) as Manifest;
  if (manifest.featureVersion !== FEATURE_VERSION) {
    throw new Error(`models/manifest.json was trained with feature version ${manifest.featureVersion}, code has ${FEATURE_VERSION}: run npm run train`);
  }
  const m = manifest.models;
  const promptAttack = loadModel(dir, m.prompt_attack);
  const moderation = loadModel(dir, m.moderation);
  const [sharedAttack, sharedModeration] =
    promptAttack.bits === moderation.bits ? shareTable([promptAttack, moderation]) : [shareTable([promptAttack])[0], shareTable([moderation])[0]];
  const out = {
    manifest,
    promptAttack: sharedAttack,
    moderation: sharedModeration,
    ...(m.moderation_cross_language ? { moderationCrossLanguage: shareTable([loadModel(dir, m.moderation_cross_language)])[0] } : {}),
    crud: shareTable([loadModel(dir, m.crud)])[0],
    payload: shareTable([loadModel(dir, m.payload)])[0],
    loadMs: 0,
  };
  out.loadMs = performance.now() - t0;
  return out;
}
