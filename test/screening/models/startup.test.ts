// Start-up refuses a configured model that cannot serve, with one line naming the setting and
// the fault: a folder without tokenizer.json or with a tokenizer model transformers.js does not
// implement, a graph whose inputs or outputs do not fit the slot's task, labels that map to no
// detector, and ONNX Runtime's CUDA provider asked for where it is not installed (this machine
// has no GPU: the provider is a separate install, off by default). The compiled service exits 2
// with the line, as it does for a wrong setting.
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { modelSettingsOf } from "../../../src/config.js";
import { ModelLoadError, unloadModelRuntime } from "../../../src/screening/models/runtime.js";
import { cudaProviderPath } from "../../../src/screening/models/session.js";
import { detectorsVersion, loadDetectors } from "../../../src/screening/registry.js";
import { writeBrokenVariant, writeFixture, type BrokenVariant } from "../../../scripts/model-fixtures/broken-variants.js";
import type { FixtureName } from "../../../scripts/model-fixtures/fixtures.js";
import { privateBuild, runUntilExit, type PrivateBuild } from "../../server/operator-build.js";
import { fixture, settings } from "./support.js";

let root: string;
beforeAll(() => {
  root = mkdtempSync(path.join(tmpdir(), "parapet-model-startup-"));
});
afterEach(() => unloadModelRuntime());
afterAll(() => rmSync(root, { recursive: true, force: true }));

const SETTING: Record<FixtureName, string> = {
  "unigram-attack": "PARAPET_PROMPT_ATTACK_MODEL",
  "bpe-moderation": "PARAPET_MODERATION_MODEL",
  "wordpiece-ner": "PARAPET_PII_MODEL",
};

async function refusal(env: Record<string, string>): Promise<string> {
  const err = await loadDetectors({ models: settings(env) }).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(ModelLoadError);
  const message = (err as Error).message;
  expect(message).not.toContain("\n");
  // Nothing was left loaded.
  expect(detectorsVersion()).not.toContain(":");
  return message;
}

const cases: [BrokenVariant, FixtureName, RegExp][] = [
  ["no-tokenizer", "unigram-attack", /: no tokenizer\.json \(a Hugging Face fast tokenizer; save it with tokenizer\.save_pretrained\)$/],
  ["unsupported-tokenizer", "bpe-moderation", /: tokenizer\.json: tokenizer model type WordLevel is not supported \(WordPiece, Unigram, BPE are\)$/],
  ["renamed-input", "unigram-attack", /: the graph's inputs are tokens, attention_mask; expected input_ids and optionally attention_mask, token_type_ids, position_ids$/],
  ["renamed-input", "wordpiece-ner", /: the graph's inputs are tokens, attention_mask; expected input_ids/],
  ["wrong-output-rank", "bpe-moderation", /: the graph's output logits has 3 dimensions; a text classifier outputs \[batch, labels\]$/],
  ["wrong-output-rank", "wordpiece-ner", /: the graph's output logits has 2 dimensions; a token classifier outputs \[batch, tokens, labels\]$/],
  ["unmapped-labels", "unigram-attack", /: none of the model's labels \(negative, positive\) maps to a prompt_attack detector label \(prompt_attack\); name them in PARAPET_PROMPT_ATTACK_MODEL_LABELS/],
  ["unmapped-labels", "bpe-moderation", /: none of the model's labels \(anger, joy, sadness, fear\) maps to a moderation detector label/],
  ["unmapped-labels", "wordpiece-ner", /: none of the model's entities \(ANIMAL, PLANT, COLOR\) maps to a pii detector label/],
];

describe("a broken model folder", () => {
  it.each(cases)("%s (%s) is refused with one line", async (variant, base, message) => {
    const dir = writeBrokenVariant(path.join(root, `${variant}-${base}`), variant, base);
    const line = await refusal({ [SETTING[base]]: dir });
    expect(line.startsWith(`${SETTING[base]}=${dir}: `)).toBe(true);
    expect(line).toMatch(message);
  });

  it("is refused when its label override names what the model does not have", async () => {
    const line = await refusal({ PARAPET_MODERATION_MODEL: fixture("bpe-moderation"), PARAPET_MODERATION_MODEL_LABELS: "hate=insult" });
    expect(line).toBe(
      `PARAPET_MODERATION_MODEL=${fixture("bpe-moderation")}: PARAPET_MODERATION_MODEL_LABELS: the model has no label 'insult' (its labels: toxic, sexual, violence, self_harm)`,
    );
  });

  it("is refused when the stride leaves windows no room", async () => {
    const line = await refusal({ PARAPET_PROMPT_ATTACK_MODEL: fixture("unigram-attack"), PARAPET_MODEL_WINDOW_TOKENS: "16", PARAPET_MODEL_STRIDE_TOKENS: "14" });
    expect(line).toMatch(/PARAPET_MODEL_STRIDE_TOKENS=14 must be less than the 14 text tokens a 16-token window holds$/);
  });

  it("is refused by the configuration when the folder is not there", () => {
    expect(() => modelSettingsOf({ PARAPET_PII_MODEL: "/nonexistent/ner" })).toThrow(/^PARAPET_PII_MODEL: no folder at \/nonexistent\/ner$/);
  });

  it("is read with its graph under Optimum's quantized name", async () => {
    const dir = writeFixture(path.join(root, "quantized"), "unigram-attack", "model_quantized.onnx");
    await loadDetectors({ models: settings({ PARAPET_PROMPT_ATTACK_MODEL: dir }) });
    expect(detectorsVersion()).toMatch(/\+prompt_attack:quantized$/);
  });
});

const cudaInstalled = existsSync(cudaProviderPath());

describe("PARAPET_MODEL_DEVICE=cuda", () => {
  it.skipIf(cudaInstalled)("is refused with one line where ONNX Runtime's CUDA provider is not installed", async () => {
    const line = await refusal({ PARAPET_PROMPT_ATTACK_MODEL: fixture("unigram-attack"), PARAPET_MODEL_DEVICE: "cuda" });
    expect(line).toBe(
      `PARAPET_MODEL_DEVICE=cuda: ONNX Runtime's CUDA execution provider is not installed (no ${cudaProviderPath()}); install it as docs/learned-detectors.md#gpu says, or leave PARAPET_MODEL_DEVICE unset for the CPU`,
    );
  });

  it("is off by default, and a device ONNX Runtime does not have is a configuration error", () => {
    expect(settings({ PARAPET_PII_MODEL: fixture("wordpiece-ner") }).device).toBe("cpu");
    expect(() => modelSettingsOf({ PARAPET_PII_MODEL: fixture("wordpiece-ner"), PARAPET_MODEL_DEVICE: "gpu" })).toThrow(/^PARAPET_MODEL_DEVICE must be one of cpu, cuda, got 'gpu'$/);
  });
});

describe("the compiled service", () => {
  let build: PrivateBuild;
  beforeAll(async () => {
    build = await privateBuild();
  });
  afterAll(() => build?.remove());

  const start = (env: Record<string, string>) => runUntilExit(build, { LOG_LEVEL: "silent", ...env }, 60_000);


  const refusals: [string, () => Record<string, string>, RegExp][] = [
    ["a folder without tokenizer.json", () => ({ PARAPET_PII_MODEL: writeBrokenVariant(path.join(root, "service-no-tokenizer"), "no-tokenizer", "wordpiece-ner") }), /^PARAPET_PII_MODEL=.*: no tokenizer\.json/],
    ...(cudaInstalled ? [] : [["cuda", () => ({ PARAPET_PROMPT_ATTACK_MODEL: fixture("unigram-attack"), PARAPET_MODEL_DEVICE: "cuda" }), /^PARAPET_MODEL_DEVICE=cuda: ONNX Runtime's CUDA execution provider is not installed/] as [string, () => Record<string, string>, RegExp]]),
  ];
  it.each(refusals)("exits 2 with one line for %s", async (_, env, message) => {
    const { code, stdout, stderr } = await start(env());
    expect(stdout).toBe("");
    const lines = stderr.split("\n").filter((l) => l !== "");
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^parapet: configuration error: /);
    expect(lines[0].replace(/^parapet: configuration error: /, "")).toMatch(message);
    expect(code).toBe(2);
  });
});
