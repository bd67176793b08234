// Loads the shipped model files (models/manifest.json and the .bin weight
// files it names) once, synchronously, at start-up.
import { readFileSync } from "node:fs";
import type { Level } from "../../vocabulary.js";
import { FEATURE_VERSION } from "./features.js";
import type { LevelThresholds } from "./levels.js";
import { decodeHead, type LinearHead } from "./linear.js";
import { pathToFileURL } from "node:url";
import { projectFile } from "../../../paths.js";

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
  models: { prompt_attack: ModelSpec; moderation: ModelSpec; crud: ModelSpec; payload: ModelSpec };
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
  /**
   * The heads' weights interleaved (bucket-major: dim x heads), so scoring all
   * heads of a model reads one cache line per feature instead of one per head.
   */
  packed: Float32Array;
  biases: Float64Array;
  languages?: ReadonlySet<string>;
}

export interface LoadedModels {
  manifest: Manifest;
  promptAttack: LoadedModel;
  moderation: LoadedModel;
  crud: LoadedModel;
  payload: LoadedModel;
  loadMs: number;
}

export const DEFAULT_MODELS_DIR = pathToFileURL(projectFile("models") + "/");

function loadModel(dir: URL, spec: ModelSpec): LoadedModel {
  const buf = readFileSync(new URL(spec.file, dir));
  const dim = 1 << spec.bits;
  const heads = new Map<string, LoadedHead>();
  const n = spec.heads.length;
  const packed = new Float32Array(dim * n);
  spec.heads.forEach((h, i) => {
    const weights = decodeHead(buf, i, dim, h.scale);
    for (let j = 0; j < dim; j++) packed[j * n + i] = weights[j];
    heads.set(h.name, { name: h.name, weights, bias: h.bias, thresholds: h.thresholds, locations: h.locations });
  });
  return {
    bits: spec.bits,
    heads,
    names: spec.heads.map((h) => h.name),
    packed,
    biases: Float64Array.from(spec.heads.map((h) => h.bias)),
    languages: spec.languages ? new Set(spec.languages) : undefined,
  };
}

export function loadModelFiles(dir: URL = DEFAULT_MODELS_DIR): LoadedModels {
  const t0 = performance.now();
  const manifest = JSON.parse(readFileSync(new URL("manifest.json", dir), "utf8")) as Manifest;
  if (manifest.featureVersion !== FEATURE_VERSION) {
    throw new Error(`models/manifest.json was trained with feature version ${manifest.featureVersion}, code has ${FEATURE_VERSION}: run npm run train`);
  }
  const m = manifest.models;
  const out = {
    manifest,
    promptAttack: loadModel(dir, m.prompt_attack),
    moderation: loadModel(dir, m.moderation),
    crud: loadModel(dir, m.crud),
    payload: loadModel(dir, m.payload),
    loadMs: 0,
  };
  out.loadMs = performance.now() - t0;
  return out;
}
