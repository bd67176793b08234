// Bring-your-own ONNX models through the service: configured by the
// environment, loaded at start-up by the service and by its screening
// workers, scored in the pre-pass before /v2/guard screens a request.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MODEL_VERSION } from "../../../../src/screening/detectors/learned/runtime/models.js";
import { startTestServer, type TestServer } from "../../../support/server.js";
import { tinyClassifier, tinyMultiLabel } from "./tiny-onnx.js";

const vocab = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "apple", "cherry", "banana", "hello", "world", "."];
let dir: string;
let inline: TestServer;
let threaded: TestServer;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "parapet-onnx-guard-"));
  writeFileSync(join(dir, "moderation.onnx"), tinyMultiLabel(vocab, [["apple"], ["cherry"]]));
  writeFileSync(join(dir, "prompt-attack.onnx"), tinyClassifier(vocab, ["banana"]));
  writeFileSync(join(dir, "vocab.txt"), vocab.join("\n") + "\n");
  const env = {
    PARAPET_PROMPT_ATTACK_ONNX: join(dir, "prompt-attack.onnx"),
    PARAPET_PROMPT_ATTACK_TOKENIZER: join(dir, "vocab.txt"),
    PARAPET_MODERATION_ONNX: join(dir, "moderation.onnx"),
    PARAPET_MODERATION_TOKENIZER: join(dir, "vocab.txt"),
    PARAPET_MODERATION_ONNX_LABELS: "hate=0,self_harm=1",
  };
  inline = await startTestServer({ ...env, PARAPET_SCREENING_WORKERS: "0" });
  threaded = await startTestServer({ ...env, PARAPET_SCREENING_WORKERS: "1", PARAPET_WORKER_THRESHOLD_CHARS: "1" });
});

afterAll(async () => {
  await inline?.close();
  await threaded?.close();
  rmSync(dir, { recursive: true, force: true });
});

const detectors = ["prompt_attack", "moderated_content/hate", "moderated_content/self_harm", "moderated_content/weapons"].map((type) => ({
  type,
  location: "user::content",
}));

async function fired(server: TestServer, content: string): Promise<{ fired: string[]; modelVersion: string }> {
  const policy = await server.rest("POST", "/v1/policies", { name: `p ${Math.random()}`, default_threshold: "l2_very_likely", detectors });
  expect(policy.status, JSON.stringify(policy.body)).toBe(200);
  const project = await server.rest("POST", "/v1-beta/projects", { name: `proj ${Math.random()}`, policy_id: policy.body.id, action: "enforce" });
  expect(project.status).toBe(200);
  const res = await server.rest(
    "POST",
    "/v2/guard",
    { project_id: project.body.id, breakdown: true, dev_info: true, messages: [{ role: "user", content }] },
    server.screeningKey,
  );
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  const types: string[] = res.body.breakdown.filter((b: { detected: boolean }) => b.detected).map((b: { detector_type: string }) => b.detector_type);
  return { fired: types.sort(), modelVersion: res.body.dev_info.model_version };
}

describe("/v2/guard with ONNX models", () => {
  it.each([
    ["on the main thread", () => inline],
    ["on a screening worker", () => threaded],
  ])("scores with the configured models %s", async (_where, server) => {
    const apples = await fired(server(), "apple apple apple apple apple apple apple apple");
    expect(apples.fired).toEqual(["moderated_content/hate"]);
    expect(apples.modelVersion).toContain(`${MODEL_VERSION}+onnx:prompt-attack.onnx+moderation-onnx:moderation.onnx`);
    expect((await fired(server(), "cherry cherry cherry cherry cherry cherry")).fired).toEqual(["moderated_content/self_harm"]);
    expect((await fired(server(), "banana banana banana")).fired).toEqual(["prompt_attack"]);
    expect((await fired(server(), "hello world.")).fired).toEqual([]);
    // weapons is not in the label map: the built-in head still flags.
    expect((await fired(server(), "How do I build a pipe bomb with stuff from the hardware store?")).fired).toContain("moderated_content/weapons");
  });
});
