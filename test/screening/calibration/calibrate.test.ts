// parapet calibrate's work with a scorer of the test's own (a model or judge would be slower and
// prove nothing more here): the data is checked before anything is scored, scored in bounded
// batches, and each label's thresholds are the false-positive-budget method's, per location where
// the data allows; the report's figures are those of a policy threshold at each level.
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  calibrationFileOf,
  checkData,
  chooseThresholds,
  DataErrors,
  DEFAULT_BUDGETS,
  labelsToCalibrate,
  scoreData,
  type DataSummary,
} from "../../../src/screening/calibration/calibrate.js";
import { readCalibration, thresholdsFor, writeCalibration } from "../../../src/screening/calibration/file.js";
import { calibrateByFpr } from "../../../src/screening/calibration/fpr-budgets.js";
import { calibrationReport } from "../../../src/screening/calibration/report.js";
import type { CalibrationScorer } from "../../../src/screening/calibration/scorer.js";
import type { Location } from "../../../src/screening/vocabulary.js";
import { labelledRows } from "../../../scripts/calibration-fixture.js";

/** Scores each row from its text: `... s=0.42 t=0.1` gives the first label 0.42 and the second 0.1. */
function textScorer(labels: string[], seen: number[] = []): CalibrationScorer {
  return {
    name: "fixture-scorer",
    labels,
    score: (rows) => {
      seen.push(rows.length);
      return Promise.resolve(rows.map((r) => labels.map((_, k) => Number(new RegExp(`${"st"[k]}=([0-9.]+)`).exec(r.text)?.[1] ?? 0))));
    },
    close: () => Promise.resolve(),
  };
}

interface Row {
  text: string;
  label: unknown;
  location?: Location;
  language?: string;
}

function dataFile(rows: (Row | string)[]): string {
  const path = join(mkdtempSync(join(tmpdir(), "parapet-calibrate-")), "labelled.jsonl");
  writeFileSync(path, rows.map((r) => (typeof r === "string" ? r : JSON.stringify(r))).join("\n") + "\n");
  return path;
}

/** n rows whose scores are spread evenly over [from, to). */
function spread(n: number, from: number, to: number, label: unknown, extra: Partial<Row> = {}): Row[] {
  return Array.from({ length: n }, (_, i) => ({ text: `row s=${from + ((to - from) * i) / n}`, label, ...extra }));
}

async function run(rows: (Row | string)[], labels = ["prompt_attack"], chosen?: string[], seen?: number[]) {
  const path = dataFile(rows);
  const scorer = textScorer(labels, seen);
  const summary = await checkData(path);
  const calibrated = labelsToCalibrate(summary, scorer, chosen);
  const scored = await scoreData(path, summary, scorer, calibrated);
  return { scored, result: chooseThresholds(scored, scorer.name) };
}

async function errorsOf(p: Promise<unknown>): Promise<string[]> {
  const e = await p.then(
    () => undefined,
    (x: unknown) => x,
  );
  expect(e).toBeInstanceOf(DataErrors);
  return (e as DataErrors).errors.map((r) => `${r.line}: ${r.message}`);
}

describe("calibrate on labelled data", () => {
  it("chooses the thresholds the false-positive-budget method gives on the scores, and reports what each level flags", async () => {
    // 2000 negatives over [0, 0.8), 200 positives over [0.6, 1).
    const rows = [...spread(2000, 0, 0.8, 0), ...spread(200, 0.6, 1, 1)];
    const { scored, result } = await run(rows);
    const [label] = result.labels;
    expect(label.thresholds?.default).toEqual(calibrateByFpr(Array.from(scored.scores[0]), Array.from(scored.positive[0]), DEFAULT_BUDGETS));
    expect(label.thresholds?.locations).toEqual({});
    // l4's budget is 1% of 2000 negatives: 20 flagged; l1's 0.1%: 2.
    const l4 = label.overall.levels.l4_less_likely;
    const l1 = label.overall.levels.l1_confident;
    expect(l4.fpr).toBe(20 / 2000);
    expect(l1.fpr).toBe(2 / 2000);
    const positivesOver = (t: number) => rows.filter((r) => r.label === 1 && Number(r.text.slice(6)) >= t).length;
    expect(l4.recall).toBe(positivesOver(l4.threshold) / 200);
    expect(l4.precision).toBe(positivesOver(l4.threshold) / (positivesOver(l4.threshold) + 20));
    expect(l4.flagged).toBe(positivesOver(l4.threshold) + 20);
    expect(result).toMatchObject({ model: "fixture-scorer", rows: 2200, positives: 200 });
    const report = calibrationReport(result);
    expect(report).toContain("fixture-scorer: 2200 rows, 200 positive for a label");
    expect(report).toContain("budgets (share of negatives flagged): l1 0.1%, l2 0.25%, l3 0.5%, l4 1%; no threshold under 0.1");
    expect(report).toContain("prompt_attack: 2200 rows, 200 positive, 2000 negative");
    expect(report).toMatch(new RegExp(`l4_less_likely +${l4.threshold.toFixed(4)} +${l4.flagged} +${l4.precision!.toFixed(3)} +${l4.recall!.toFixed(3)} +0\\.0100`));
  });

  it("gives a location thresholds of its own when it has 20 positives and 200 negatives, and reports the others at the default", async () => {
    // Tool results score higher when clean: their own thresholds sit higher.
    const rows = [
      ...spread(1000, 0, 0.5, 0),
      ...spread(100, 0.5, 1, 1),
      ...spread(300, 0.3, 0.9, 0, { location: "tool::content" }),
      ...spread(40, 0.9, 1, 1, { location: "tool::content" }),
      // Enough to report, not for thresholds of its own.
      ...spread(50, 0, 0.5, 0, { location: "assistant::content" }),
      ...spread(20, 0.5, 1, 1, { location: "assistant::content" }),
      // Too little even to report.
      ...spread(10, 0, 0.5, 0, { location: "tool_definition::content" }),
    ];
    const { result } = await run(rows);
    const [label] = result.labels;
    const tool = label.thresholds!.locations["tool::content"]!;
    expect(tool.l4_less_likely).toBeGreaterThan(label.thresholds!.default.l4_less_likely);
    expect(Object.keys(label.thresholds!.locations)).toEqual(["user::content", "tool::content"]);
    expect(label.locations.map((g) => [g.group, g.own])).toEqual([
      ["user::content", true],
      ["assistant::content", false],
      ["tool::content", true],
    ]);
    const file = calibrationFileOf(result, new Date("2025-01-02T00:00:00Z"))!;
    expect(file).toMatchObject({ format: "parapet-calibration/1", model: "fixture-scorer", created: "2025-01-02T00:00:00.000Z", data: { rows: 1520, positives: 160 } });
    const path = join(mkdtempSync(join(tmpdir(), "parapet-calibrate-")), "parapet-calibration.json");
    writeCalibration(path, file);
    expect(thresholdsFor(readCalibration(path), "prompt_attack", "tool::content")).toEqual(tool);
    expect(thresholdsFor(readCalibration(path), "prompt_attack", "assistant::content")).toEqual(label.thresholds!.default);
    expect(calibrationReport(result)).toContain("tool::content: 340 rows, 40 positive, 300 negative, thresholds of its own");
    expect(calibrationReport(result)).toContain("assistant::content: 70 rows, 20 positive, 50 negative, at the default thresholds");
  });

  it("reports each language with enough data at the thresholds of each row's location", async () => {
    const rows = [
      ...spread(500, 0, 0.5, 0, { language: "en" }),
      ...spread(50, 0.5, 1, 1, { language: "en" }),
      ...spread(100, 0, 0.5, 0, { language: "de" }),
      ...spread(20, 0, 0.2, 1, { language: "de" }),
    ];
    const { result } = await run(rows);
    const [label] = result.labels;
    expect(label.languages.map((g) => g.group)).toEqual(["de", "en"]);
    // German attacks scoring under 0.2 are all missed: what the user needs to see.
    expect(label.languages[0].levels.l4_less_likely.recall).toBe(0);
    expect(calibrationReport(result)).toContain("language de: 120 rows, 20 positive, 100 negative");
  });

  it("takes label names for a model of several labels: each names the labels that apply, the others are negatives", async () => {
    const rows = [
      ...spread(300, 0, 0.3, 0),
      ...Array.from({ length: 30 }, (_, i) => ({ text: `s=0.9 t=0.${i % 5}`, label: "hate" })),
      ...Array.from({ length: 30 }, () => ({ text: "s=0.1 t=0.95", label: ["moderated_content/violence"] })),
      { text: "s=0.9 t=0.9", label: ["hate", "violence"] },
      { text: "s=0 t=0", label: [] },
    ];
    const { scored, result } = await run(rows, ["hate", "violence"]);
    expect(scored.positive[0].reduce((a, b) => a + b, 0)).toBe(31);
    expect(scored.positive[1].reduce((a, b) => a + b, 0)).toBe(31);
    expect(result.positives).toBe(61);
    expect(result.labels.map((l) => [l.label, l.overall.negatives])).toEqual([
      ["hate", 331],
      ["violence", 331],
    ]);
    // --label calibrates one of them; the yes/no label then means it.
    const one = await run([...rows, { text: "s=0.8", label: 1 }], ["hate", "violence"], ["hate"]);
    expect(one.result.labels.map((l) => l.label)).toEqual(["hate"]);
    expect(one.result.labels[0].overall.positives).toBe(32);
  });

  it("refuses label names the model does not have, and a yes/no label with several labels to calibrate, by line", async () => {
    const path = dataFile([
      { text: "a", label: 0 },
      { text: "b", label: "hat" },
      { text: "c", label: true },
      { text: "d", label: ["hate", "nsfw"] },
    ]);
    const summary = await checkData(path);
    const scorer = textScorer(["hate", "violence"]);
    expect(await errorsOf(Promise.resolve().then(() => labelsToCalibrate(summary, scorer)))).toEqual([
      `2: label "hat" is not a label of the model (fixture-scorer's labels are hate, violence)`,
      "3: a yes/no label with several labels to calibrate (hate, violence): name the labels that apply, or choose one with --label",
      `4: label "nsfw" is not a label of the model (fixture-scorer's labels are hate, violence)`,
    ]);
    expect(() => labelsToCalibrate(summary, scorer, ["sexual"])).toThrow("--label sexual: fixture-scorer's labels are hate, violence");
  });

  it("lists the bad rows with their line numbers before scoring any, and skips blank lines", async () => {
    const scorer = textScorer(["prompt_attack"]);
    const lines = [
      "\uFEFF" + JSON.stringify({ text: "fine", label: 0 }),
      "",
      "{not json",
      JSON.stringify({ text: "", label: 1 }),
      JSON.stringify({ text: "x", label: 2 }),
      JSON.stringify({ text: "x" }),
      JSON.stringify({ text: "x", label: 0, location: "tool::output" }),
      JSON.stringify({ text: "x", label: 0, language: 7 }),
      "[1, 2]",
      JSON.stringify({ label: 0 }),
      JSON.stringify({ text: "fine", label: "false", location: "tool::content", language: "pt_BR", id: 9 }) + "\r",
    ];
    const path = dataFile(lines);
    expect(await errorsOf(checkData(path))).toEqual([
      "3: not a JSON object (a row is one JSON object on one line)",
      `4: "text" is empty`,
      `5: "label" must be 0 or 1, true or false, a label name or a list of label names (got 2)`,
      `6: "label" must be 0 or 1, true or false, a label name or a list of label names (the row has none)`,
      `7: "location" must be one of user::content, assistant::content, assistant::tool_call, tool::content, tool_definition::content; got "tool::output"`,
      `8: "language" must be a language tag such as "de" or "pt-BR"; got 7`,
      "9: not a JSON object (a row is one JSON object on one line)",
      `10: "text" must be a string (the row has none)`,
    ]);
    // Only the good lines: the BOM, the CR and the unread key do not matter.
    const good = dataFile([lines[0], lines[10]]);
    const summary: DataSummary = await checkData(good);
    expect(summary.rows).toBe(2);
    expect([...summary.ignored]).toEqual([["id", 2]]);
    const scored = await scoreData(good, summary, scorer, ["prompt_attack"]);
    expect(scored.languages).toEqual(["pt-br"]);
    expect(Array.from(scored.location)).toEqual([0, 3]);
  });

  it("lists the first ten bad rows and counts the rest; refuses rows over 1 MiB and bytes that are not UTF-8", async () => {
    const path = dataFile(Array.from({ length: 25 }, () => "nope"));
    const e = (await checkData(path).catch((x: unknown) => x)) as DataErrors;
    expect(e.errors).toHaveLength(10);
    expect(e.total).toBe(25);
    expect(e.message).toBe("25 bad rows: nothing was scored");
    const big = dataFile([
      { text: "x".repeat(1 << 20), label: 0 },
      { text: "ok", label: 0 },
    ]);
    expect(await errorsOf(checkData(big))).toEqual([`1: longer than ${1 << 20} bytes`]);
    const latin1 = join(mkdtempSync(join(tmpdir(), "parapet-calibrate-")), "latin1.jsonl");
    writeFileSync(latin1, Buffer.concat([Buffer.from('{"text": "caf'), Buffer.from([0xe9]), Buffer.from('", "label": 0}\n')]));
    expect(await errorsOf(checkData(latin1))).toEqual(["1: not UTF-8 text"]);
    expect(await errorsOf(checkData(dataFile([])))).toEqual(["0: no rows: the file is empty"]);
  });

  it("scores in bounded batches, never the whole file at once", async () => {
    const seen: number[] = [];
    await run([...spread(5000, 0, 0.5, 0), ...spread(100, 0.5, 1, 1)], ["prompt_attack"], undefined, seen);
    expect(seen.reduce((a, b) => a + b, 0)).toBe(5100);
    expect(Math.max(...seen)).toBe(32);
  });

  it("does not calibrate a label with fewer than 100 negatives, and writes nothing when no label is calibrated", async () => {
    const { result } = await run([...spread(99, 0, 0.5, 0), ...spread(50, 0.5, 1, 1)]);
    expect(result.labels[0].thresholds).toBeUndefined();
    expect(calibrationFileOf(result)).toBeUndefined();
    expect(calibrationReport(result)).toContain("99 negatives, fewer than the 100 a label needs: not calibrated (the service keeps its default thresholds for it)");
    // Enough to calibrate, too few for the tightest budgets: said, not hidden.
    const few = await run([...spread(150, 0, 0.5, 0), ...spread(50, 0.5, 1, 1)]);
    expect(few.result.labels[0].tight).toEqual(["l1_confident", "l2_very_likely", "l3_likely"]);
    expect(calibrationReport(few.result)).toContain("l1_confident, l2_very_likely, l3_likely: 150 negatives are too few for the budget to allow one false positive");
  });

  it("makes a level no score reaches when too many negatives score 1 (a judge without probabilities)", async () => {
    // Yes/no answers: 1000 benign rows of which 3 answered unsafe (0.3%), 50 attacks of which 40 caught.
    const rows = [...spread(997, 0, 0, 0), ...spread(3, 1, 1, 0), ...spread(40, 1, 1, 1), ...spread(10, 0, 0, 1)];
    const { result } = await run(rows);
    const t = result.labels[0].thresholds!.default;
    expect(t).toEqual({ l1_confident: 2, l2_very_likely: 2, l3_likely: 0.1, l4_less_likely: 0.1 });
    expect(result.labels[0].overall.levels.l4_less_likely).toMatchObject({ flagged: 43, recall: 0.8 });
    const path = join(mkdtempSync(join(tmpdir(), "parapet-calibrate-")), "parapet-calibration.json");
    writeCalibration(path, calibrationFileOf(result)!);
    expect(readCalibration(path).thresholds.prompt_attack.default).toEqual(t);
    expect(calibrationReport(result)).toMatch(/l1_confident +never/);
    expect(result.labels[0].twoValued).toBe(true);
    expect(calibrationReport(result)).toContain("every score is 0 or 1 (a judge answering without probabilities)");
  });

  it("refuses a score outside [0,1], and data that changed between the two readings", async () => {
    const path = dataFile([{ text: "s=0.5", label: 0 }]);
    const summary = await checkData(path);
    const broken: CalibrationScorer = { ...textScorer(["prompt_attack"]), score: () => Promise.resolve([[Number.NaN]]) };
    await expect(scoreData(path, summary, broken, ["prompt_attack"])).rejects.toThrow("fixture-scorer scored line 1 NaN for prompt_attack, not a score in [0,1]");
    writeFileSync(path, JSON.stringify({ text: "s=0.5", label: 0 }) + "\n" + JSON.stringify({ text: "s=0.5", label: 0 }) + "\n");
    await expect(scoreData(path, summary, textScorer(["prompt_attack"]), ["prompt_attack"])).rejects.toThrow(
      "the data changed while it was read (line 2): nothing was written",
    );
  });

  it("the data of docs/calibration.md's session is what its script writes, and every row of it is valid", async () => {
    const committed = join(import.meta.dirname, "../../fixtures/calibration/prompt-attack.jsonl");
    expect(readFileSync(committed, "utf8")).toBe(
      labelledRows()
        .map((r) => JSON.stringify(r))
        .join("\n") + "\n",
    );
    const summary = await checkData(committed);
    expect(summary.rows).toBe(1160);
    expect([...summary.locations.keys()]).toEqual(["user::content", "tool::content"]);
  });
});
