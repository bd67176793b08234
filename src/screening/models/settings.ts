// What the configuration gives the model runtime (src/config.ts reads the
// environment into this; docs/configuration.md#models). Plain data: the
// screening workers receive it as it is.
import type { LevelThresholds } from "../detectors/learned/runtime/levels.js";
import type { Aggregation } from "./entities.js";
import type { LabelPair, ModelSlot } from "./labels.js";
import type { Device } from "./session.js";

/** `replace`: the model's detections stand in for the built-in detector's; `max`: the more confident of the two (for pii: both detectors' spans, merged). */
export type Combine = "replace" | "max";

export interface SlotSettings {
  slot: ModelSlot;
  /** The setting that named the model, for messages: PARAPET_PROMPT_ATTACK_MODEL, or an older name. */
  setting: string;
  /** A model folder. */
  dir?: string;
  /** The older settings' ONNX file and tokenizer file, instead of a folder. */
  files?: { modelPath: string; tokenizerPath: string };
  /** An override of the label map, and the setting it came from. */
  labels?: LabelPair[];
  labelsSetting: string;
  combine: Combine;
  /** A calibration file (default: the folder's parapet-calibration.json when there is one). */
  calibration?: string;
  /** The older settings' thresholds, the same for every label and location. */
  thresholds?: LevelThresholds;
  /** The older settings' activation. */
  activation?: "sigmoid" | "softmax";
}

export interface ModelSettings {
  slots: SlotSettings[];
  /** Tokens per window, special tokens included (capped at each model's own limit). */
  windowTokens: number;
  /** Tokens consecutive windows share. */
  strideTokens: number;
  device: Device;
  aggregation: Aggregation;
  /** ONNX Runtime's intra-op threads per graph. */
  threads: number;
}
