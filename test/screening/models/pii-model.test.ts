// A token classifier for PII (wordpiece-ner): entities' spans in code points of the message as sent
// (the engine maps them back through its normalization), correct after emoji, on CJK and on letters
// written with combining marks; merged with the exact detectors' spans so a span both found is
// reported once; `replace` reports the model's alone. Thresholds come from a calibration file when
// the folder has one.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { writeCalibration } from "../../../src/screening/calibration/file.js";
import { screen, type Outcome } from "../../../src/screening/engine.js";
import { unloadModelRuntime } from "../../../src/screening/models/runtime.js";
import type { Part } from "../../../src/screening/parts.js";
import { loadDetectors, prepareDetectors } from "../../../src/screening/registry.js";
import { writeFixture } from "../../../scripts/model-fixtures/broken-variants.js";
import { fixture, settings } from "./support.js";

const dirs: string[] = [];
afterEach(() => unloadModelRuntime());
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

const TYPES = ["pii/name", "pii/address", "pii/phone_number", "pii/email"];
const policy = { id: "p", threshold: "l4_less_likely", detectors: TYPES.map((type) => ({ type, location: "user::content" as const })) };

async function screened(text: string): Promise<Record<string, { spans: string[]; at: [number, number][]; model?: string }>> {
  const parts: Part[] = [{ location: "user::content", messageId: 0, text }];
  await prepareDetectors(parts, policy.detectors);
  const outcomes = screen(policy, [], parts).outcomes.filter((o: Outcome) => o.matched);
  return Object.fromEntries(outcomes.map((o) => [o.detectorType, { spans: o.spans.map((s) => s.text), at: o.spans.map((s) => [s.start, s.end] as [number, number]), model: o.model }]));
}

describe("pii model spans", () => {
  it("are code points of the message: after emoji, on CJK, on a letter written with a combining mark", async () => {
    await loadDetectors({ models: settings({ PARAPET_PII_MODEL: fixture("wordpiece-ner") }) });
    // "Jose\u0301" is José written decomposed: the engine's NFKC composes it into the model's "José" token.
    const text = "😀😀 Jose\u0301 and 田中 live in 東京 🙂";
    const r = await screened(text);
    expect(r["pii/name"].spans).toEqual(["Jose\u0301", "田中"]);
    // Two emoji are two code points (four UTF-16 units) before the name.
    expect(r["pii/name"].at).toEqual([
      [3, 8],
      [13, 15],
    ]);
    expect(r["pii/address"]).toMatchObject({ spans: ["東京"], at: [[24, 26]], model: "wordpiece-ner" });
  });

  it("are merged with the exact detectors': a span both found is reported once", async () => {
    const text = "My name is Alice Smith, write to alice@example.com, I live in Paris, call 5550100";
    const exactOnly = await screened(text);
    expect(exactOnly["pii/name"].spans).toEqual(["Alice Smith"]);
    expect(exactOnly["pii/address"]).toBeUndefined();
    await loadDetectors({ models: settings({ PARAPET_PII_MODEL: fixture("wordpiece-ner") }) });
    const merged = await screened(text);
    // The model tags "Alice Smith" too: still one span. Paris and the number are the model's alone.
    expect(merged["pii/name"].spans).toEqual(["Alice Smith"]);
    expect(merged["pii/address"]).toEqual({ spans: ["Paris"], at: [[62, 67]], model: "wordpiece-ner" });
    expect(merged["pii/phone_number"].spans).toEqual(["5550100"]);
    // A type the model does not map keeps its exact detector alone.
    expect(merged["pii/email"]).toEqual(exactOnly["pii/email"]);
  });

  it("stand alone with PARAPET_PII_MODEL_COMBINE=replace for the types the model maps", async () => {
    const text = "Alice Smith lives at 221B Baker Street, London NW1 6XE, alice@example.com";
    const exactOnly = await screened(text);
    expect(exactOnly["pii/address"].spans.join(" ")).toContain("Baker Street");
    await loadDetectors({ models: settings({ PARAPET_PII_MODEL: fixture("wordpiece-ner"), PARAPET_PII_MODEL_COMBINE: "replace" }) });
    const replaced = await screened(text);
    expect(replaced["pii/address"]).toEqual({ spans: ["London"], at: [[40, 46]], model: "wordpiece-ner" });
    expect(replaced["pii/name"]).toMatchObject({ spans: ["Alice Smith"], model: "wordpiece-ner" });
    expect(replaced["pii/email"]).toEqual(exactOnly["pii/email"]);
  });

  it.each(["simple", "first", "average", "max"])("group sub-words into whole names with aggregation %s", async (aggregation) => {
    await loadDetectors({ models: settings({ PARAPET_PII_MODEL: fixture("wordpiece-ner"), PARAPET_PII_MODEL_AGGREGATION: aggregation }) });
    // "Tanaka" is "Tan" (B-PER) "##aka" (I-PER): one entity whatever the strategy.
    expect((await screened("Call Tanaka at 555-0100"))["pii/name"]?.spans).toEqual(["Tanaka"]);
  });

  it("take their levels from the folder's calibration file, per location where it has one", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "parapet-ner-"));
    dirs.push(dir);
    writeFixture(dir, "wordpiece-ner");
    const level = async (location: "user::content" | "assistant::content" = "user::content") => {
      const parts: Part[] = [{ location, messageId: 0, text: "I live in Paris" }];
      await prepareDetectors(parts);
      const p = { ...policy, detectors: [{ type: "pii/address", location }] };
      return screen(p, [], parts).outcomes[0].level;
    };
    await loadDetectors({ models: settings({ PARAPET_PII_MODEL: dir }) });
    // softmax of 6 on B-LOC and 0 on the six others: 0.985, l1 under the default thresholds.
    expect(await level()).toBe("l1_confident");
    await unloadModelRuntime();
    const t = (l1: number, l2: number, l3: number) => ({ l1_confident: l1, l2_very_likely: l2, l3_likely: l3, l4_less_likely: 0.5 });
    writeCalibration(path.join(dir, "parapet-calibration.json"), {
      format: "parapet-calibration/1",
      model: "wordpiece-ner",
      created: new Date().toISOString(),
      data: { rows: 100, positives: 40 },
      thresholds: { address: { default: t(0.99, 0.9, 0.75), locations: { "user::content": t(0.999, 0.99, 0.98) } } },
    });
    await loadDetectors({ models: settings({ PARAPET_PII_MODEL: dir }) });
    expect(await level("user::content")).toBe("l3_likely");
    expect(await level("assistant::content")).toBe("l2_very_likely");
    await unloadModelRuntime();
    writeFileSync(path.join(dir, "parapet-calibration.json"), "{}");
    await expect(loadDetectors({ models: settings({ PARAPET_PII_MODEL: dir }) })).rejects.toThrow(
      new RegExp(`^PARAPET_PII_MODEL=${dir}: calibration file ${dir}/parapet-calibration.json: format is undefined`),
    );
  });
});
