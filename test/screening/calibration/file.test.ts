// The calibration file: what reads back, what is refused (with one line naming
// the file and the fault), which thresholds a label gets at a location, and
// that a write never leaves half a file.
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { readCalibration, thresholdsFor, writeCalibration, type CalibrationFile } from "../../../src/screening/calibration/file.js";

const t = (l1: number, l2: number, l3: number, l4: number) => ({ l1_confident: l1, l2_very_likely: l2, l3_likely: l3, l4_less_likely: l4 });

function sample(): CalibrationFile {
  return {
    format: "parapet-calibration/1",
    model: "unigram-attack",
    created: "2025-01-02T03:04:05.000Z",
    data: { rows: 400, positives: 120 },
    thresholds: {
      prompt_attack: { default: t(2, 0.97, 0.9, 0.6), locations: { "tool::content": t(2, 2, 0.95, 0.8) } },
      hate: { default: t(0.99, 0.9, 0.8, 0.5) },
    },
  };
}

const dir = () => mkdtempSync(join(tmpdir(), "parapet-calibration-"));

function readBack(content: unknown): () => CalibrationFile {
  const path = join(dir(), "parapet-calibration.json");
  writeFileSync(path, typeof content === "string" ? content : JSON.stringify(content));
  return () => readCalibration(path);
}

describe("calibration file", () => {
  it("writes atomically and reads back what was written", () => {
    const d = dir();
    const path = join(d, "parapet-calibration.json");
    writeCalibration(path, sample());
    expect(readCalibration(path)).toEqual(sample());
    expect(readdirSync(d)).toEqual(["parapet-calibration.json"]);
    expect(readFileSync(path, "utf8").endsWith("}\n")).toBe(true);
    // A second write replaces the first whole.
    writeCalibration(path, { ...sample(), model: "other" });
    expect(readCalibration(path).model).toBe("other");
    expect(readdirSync(d)).toEqual(["parapet-calibration.json"]);
  });

  it("refuses to write what it would refuse to read, and leaves no temporary file", () => {
    const d = dir();
    const bad = sample();
    bad.thresholds.hate.default.l4_less_likely = 1.5;
    expect(() => writeCalibration(join(d, "c.json"), bad)).toThrow(/l4_less_likely is 1.5/);
    expect(readdirSync(d)).toEqual([]);
  });

  it("gives a location its own thresholds, else the label's default, else none", () => {
    const c = sample();
    expect(thresholdsFor(c, "prompt_attack", "tool::content")).toEqual(t(2, 2, 0.95, 0.8));
    expect(thresholdsFor(c, "prompt_attack", "user::content")).toEqual(t(2, 0.97, 0.9, 0.6));
    expect(thresholdsFor(c, "hate", "tool::content")).toEqual(t(0.99, 0.9, 0.8, 0.5));
    expect(thresholdsFor(c, "violence", "user::content")).toBeUndefined();
    expect(thresholdsFor(c, "constructor", "user::content")).toBeUndefined();
  });

  const refused: [string, (c: Record<string, unknown>) => unknown, RegExp][] = [
    ["a wrong format tag", (c) => ({ ...c, format: "parapet-calibration/2" }), /format is "parapet-calibration\/2", expected "parapet-calibration\/1"/],
    ["a missing format tag", (c) => ({ ...c, format: undefined }), /format is undefined/],
    [
      "a threshold above 1",
      (c) => set(c, ["prompt_attack", "default", "l3_likely"], 1.2),
      /thresholds\.prompt_attack\.default\.l3_likely is 1\.2: a threshold is a score in \[0,1\], or 2/,
    ],
    ["a negative threshold", (c) => set(c, ["hate", "default", "l4_less_likely"], -0.1), /hate\.default\.l4_less_likely is -0\.1/],
    ["a threshold that is not a number", (c) => set(c, ["hate", "default", "l1_confident"], "0.9"), /l1_confident is "0\.9"/],
    [
      "thresholds increasing from l1 to l4",
      (c) => set(c, ["hate", "default"], t(0.8, 0.9, 0.7, 0.5)),
      /hate\.default\.l1_confident \(0\.8\) is below l2_very_likely \(0\.9\): thresholds must not increase/,
    ],
    [
      "a location's thresholds out of order",
      (c) => set(c, ["prompt_attack", "locations", "tool::content"], t(0.5, 0.6, 0.7, 0.8)),
      /locations\.tool::content\.l1_confident \(0\.5\) is below/,
    ],
    ["an unknown location", (c) => set(c, ["prompt_attack", "locations", "tool::output"], t(1, 1, 1, 1)), /unknown location "tool::output" \(known: user::content, /],
    ["a missing level", (c) => set(c, ["hate", "default"], { l1_confident: 1, l2_very_likely: 1, l3_likely: 1 }), /hate\.default lacks "l4_less_likely"/],
    ["an unknown level", (c) => set(c, ["hate", "default"], { ...t(1, 1, 1, 1), l5_unlikely: 0.1 }), /unknown key "l5_unlikely"/],
    ["a misspelt locations key", (c) => set(c, ["hate", "location"], {}), /thresholds\.hate has unknown key "location"/],
    ["no labels", (c) => ({ ...c, thresholds: {} }), /names no detector label/],
    ["an empty model name", (c) => ({ ...c, model: "" }), /model must be a non-empty string/],
    ["a bad created time", (c) => ({ ...c, created: "yesterday" }), /created must be an ISO time/],
    ["a fractional row count", (c) => ({ ...c, data: { rows: 1.5, positives: 1 } }), /data\.rows must be a non-negative integer/],
  ];
  for (const [what, change, message] of refused) {
    it(`refuses ${what} in one line naming the file`, () => {
      const read = readBack(change(structuredClone(sample()) as unknown as Record<string, unknown>));
      expect(read).toThrow(message);
      expect(read).toThrow(/^calibration file \/.*parapet-calibration\.json: /);
      expect(() => read()).not.toThrow(/\n/);
    });
  }

  it("refuses a file that is not JSON, and one that is missing", () => {
    expect(readBack("{ truncated")).toThrow(/^calibration file .*: not JSON \(/);
    expect(() => readCalibration(join(dir(), "absent.json"))).toThrow(/^calibration file .*absent\.json: cannot be read \(ENOENT\)$/);
  });
});

function set(c: Record<string, unknown>, path: string[], value: unknown): unknown {
  let o = c.thresholds as Record<string, unknown>;
  for (const k of path.slice(0, -1)) o = (o[k] ??= {}) as Record<string, unknown>;
  o[path[path.length - 1]] = value;
  return c;
}
