// What `parapet calibrate` scores a model folder with: the service's tokenizer, windows, label map
// and inference, one score per detector label and row (a token classifier's most confident entity
// of the label, 0 for none), whatever calibration file the folder holds already.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { modelCalibrationScorer } from "../../../src/screening/models/calibration-scorer.js";
import { writeFixture } from "../../../scripts/model-fixtures/broken-variants.js";
import { fixture } from "./support.js";

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

const rows = (...texts: string[]) => texts.map((text) => ({ text, location: "user::content" as const }));
const sigmoid = (x: number) => 1 / (1 + Math.exp(-x));

describe("modelCalibrationScorer", () => {
  it("scores a text classifier's labels per row", async () => {
    const s = await modelCalibrationScorer(fixture("bpe-moderation"), "moderation");
    try {
      expect(s.name).toBe("bpe-moderation");
      expect(s.labels).toEqual(["hate", "sexual", "violence", "self_harm"]);
      const [kill, blank] = await s.score(rows("I will kill you", "  "));
      // README: "I will kill you" has logits [-8/6, -8/6, 1, -8/6].
      expect(kill.map((x) => Number(x.toFixed(4)))).toEqual([sigmoid(-8 / 6), sigmoid(-8 / 6), sigmoid(1), sigmoid(-8 / 6)].map((x) => Number(x.toFixed(4))));
      expect(blank).toEqual([0, 0, 0, 0]);
    } finally {
      await s.close();
    }
  });

  it("scores a token classifier's labels by the most confident entity of each, and ignores a calibration file already there", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "parapet-scorer-"));
    dirs.push(dir);
    writeFixture(dir, "wordpiece-ner");
    writeFileSync(path.join(dir, "parapet-calibration.json"), "not json");
    const s = await modelCalibrationScorer(dir, "pii");
    try {
      expect(s.labels).toEqual(["name", "address", "phone_number"]);
      const [both, none] = await s.score(rows("Alice lives in Paris", "hello there"));
      const entity = Math.exp(6) / (Math.exp(6) + 6);
      expect(both.map((x) => Number(x.toFixed(4)))).toEqual([entity, entity, 0].map((x) => Number(x.toFixed(4))));
      expect(none).toEqual([0, 0, 0]);
    } finally {
      await s.close();
    }
  });

  it("refuses a folder the service would refuse, with the same line", async () => {
    await expect(modelCalibrationScorer(fixture("wordpiece-ner"), "prompt_attack")).rejects.toThrow(/^PARAPET_PROMPT_ATTACK_MODEL=.*wordpiece-ner: the graph's output logits has 3 dimensions/);
  });
});
