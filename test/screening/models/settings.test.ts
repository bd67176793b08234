// The model settings as src/config.ts reads them from the environment (docs/configuration.md#models):
// one folder per slot with its _LABELS, _COMBINE and _CALIBRATION, the window and stride, the device,
// the PII model's aggregation; a sibling without its model, or a value out of range, is refused.
import { availableParallelism } from "node:os";
import { describe, expect, it } from "vitest";
import { loadConfig, modelSettingsOf } from "../../../src/config.js";
import { ALL_MODELS, fixture } from "./support.js";

describe("model settings", () => {
  it("name no slot without a model, and the built-in detectors run alone", () => {
    const shared = { windowTokens: 512, strideTokens: 128, device: "cpu", aggregation: "first", threads: availableParallelism() };
    expect(modelSettingsOf({})).toEqual({ slots: [], ...shared });
    expect(loadConfig({}).models).toEqual({ slots: [], ...shared });
  });

  it("read the shared settings without a slot, for parapet calibrate --model DIR; the service refuses an aggregation without its PII model", () => {
    const env = { PARAPET_MODEL_WINDOW_TOKENS: "64", PARAPET_MODEL_STRIDE_TOKENS: "8", PARAPET_MODEL_DEVICE: "cuda", PARAPET_MODEL_THREADS: "3", PARAPET_PII_MODEL_AGGREGATION: "max" };
    expect(modelSettingsOf(env)).toEqual({ slots: [], windowTokens: 64, strideTokens: 8, device: "cuda", aggregation: "max", threads: 3 });
    expect(() => loadConfig(env)).toThrow(/^PARAPET_PII_MODEL_AGGREGATION is set but PARAPET_PII_MODEL is not$/);
  });

  it("default to 512-token windows sharing 128, the CPU, first-token aggregation; a pii model joins the exact detectors", () => {
    expect(modelSettingsOf(ALL_MODELS)).toEqual({
      slots: [
        { slot: "prompt_attack", setting: "PARAPET_PROMPT_ATTACK_MODEL", dir: fixture("unigram-attack"), labelsSetting: "PARAPET_PROMPT_ATTACK_MODEL_LABELS", combine: "replace" },
        { slot: "moderation", setting: "PARAPET_MODERATION_MODEL", dir: fixture("bpe-moderation"), labelsSetting: "PARAPET_MODERATION_MODEL_LABELS", combine: "replace" },
        { slot: "pii", setting: "PARAPET_PII_MODEL", dir: fixture("wordpiece-ner"), labelsSetting: "PARAPET_PII_MODEL_LABELS", combine: "max" },
      ],
      windowTokens: 512,
      strideTokens: 128,
      device: "cpu",
      aggregation: "first",
      threads: availableParallelism(),
    });
  });

  it("read each slot's label map, combination and calibration file", () => {
    const s = modelSettingsOf({
      PARAPET_MODERATION_MODEL: fixture("bpe-moderation"),
      PARAPET_MODERATION_MODEL_LABELS: "hate=toxic, violence=2",
      PARAPET_MODERATION_MODEL_COMBINE: "max",
      PARAPET_MODERATION_MODEL_CALIBRATION: fixture("bpe-moderation") + "/config.json",
      PARAPET_MODEL_WINDOW_TOKENS: "256",
      PARAPET_MODEL_STRIDE_TOKENS: "32",
      PARAPET_MODEL_THREADS: "2",
    });
    expect(s).toMatchObject({
      slots: [
        {
          labels: [
            { detector: "hate", model: "toxic" },
            { detector: "violence", model: "2" },
          ],
          combine: "max",
          calibration: fixture("bpe-moderation") + "/config.json",
        },
      ],
      windowTokens: 256,
      strideTokens: 32,
      threads: 2,
    });
  });

  it.each([
    [{ PARAPET_PII_MODEL_LABELS: "name=PER" }, /^PARAPET_PII_MODEL_LABELS is set but PARAPET_PII_MODEL is not$/],
    [{ PARAPET_PROMPT_ATTACK_MODEL_COMBINE: "max" }, /^PARAPET_PROMPT_ATTACK_MODEL_COMBINE is set but PARAPET_PROMPT_ATTACK_MODEL is not$/],
    [{ PARAPET_PII_MODEL_AGGREGATION: "first" }, /^PARAPET_PII_MODEL_AGGREGATION is set but PARAPET_PII_MODEL is not$/],
    [{ ...ALL_MODELS, PARAPET_MODERATION_MODEL_COMBINE: "min" }, /^PARAPET_MODERATION_MODEL_COMBINE must be one of replace, max, got 'min'$/],
    [{ ...ALL_MODELS, PARAPET_PII_MODEL_AGGREGATION: "none" }, /^PARAPET_PII_MODEL_AGGREGATION must be one of simple, first, average, max, got 'none'$/],
    [{ ...ALL_MODELS, PARAPET_MODEL_WINDOW_TOKENS: "8" }, /^PARAPET_MODEL_WINDOW_TOKENS must be an integer from 16 to 65536, got '8'$/],
    [{ ...ALL_MODELS, PARAPET_MODEL_STRIDE_TOKENS: "-1" }, /^PARAPET_MODEL_STRIDE_TOKENS must be an integer from 0 to 65536/],
    [{ ...ALL_MODELS, PARAPET_MODEL_DEVICE: "tpu" }, /^PARAPET_MODEL_DEVICE must be one of cpu, cuda, got 'tpu'$/],
    [{ ...ALL_MODELS, PARAPET_PII_MODEL_CALIBRATION: "/nonexistent.json" }, /^PARAPET_PII_MODEL_CALIBRATION: no file at \/nonexistent.json$/],
    [{ ...ALL_MODELS, PARAPET_PII_MODEL_LABELS: "name" }, /^PARAPET_PII_MODEL_LABELS: 'name' is not detector_label=model_label/],
    [{ PARAPET_PROMPT_ATTACK_MODEL: fixture("unigram-attack") + "/config.json" }, /^PARAPET_PROMPT_ATTACK_MODEL: no folder at .*config\.json$/],
  ])("refuse %j", (env, message) => {
    expect(() => loadConfig(env)).toThrow(message);
  });
});
