// The judge's CalibrationScorer for `parapet calibrate`: one score per detector
// label per row, the same score the service turns into a level, from a fake judge.
import { afterAll, beforeAll, expect, it } from "vitest";
import { judgeCalibrationScorer } from "../../../src/screening/judges/calibration-scorer.js";
import { JUDGE_DEFAULTS } from "../../../src/screening/judges/settings.js";
import { closedPort, startFakeJudge, type FakeJudge } from "./fake-judge.js";

let fake: FakeJudge;
beforeAll(async () => {
  fake = await startFakeJudge();
});
afterAll(() => fake.close());

it("scores each row per label: P(unsafe) for the flagged category, the judge's doubt for the others when safe", async () => {
  const scorer = await judgeCalibrationScorer({ ...JUDGE_DEFAULTS, url: fake.url, model: "lg", format: "llama-guard-3", concurrency: 2 });
  try {
    expect(scorer.name).toBe("judge:lg");
    expect(scorer.labels).toEqual(["violence", "crime", "sexual", "weapons", "hate", "self_harm", "payload"]);
    const rows = [
      { text: "hello", location: "user::content" as const },
      { text: "x <violence>", location: "user::content" as const },
      { text: "y <hate>", location: "assistant::content" as const },
    ];
    const scores = await scorer.score(rows);
    const at = (row: number, label: string) => scores[row][scorer.labels.indexOf(label)];
    expect(at(0, "violence")).toBeCloseTo(0.01, 6);
    expect(at(1, "violence")).toBeCloseTo(0.99, 6);
    expect(at(1, "hate")).toBe(0);
    expect(at(2, "hate")).toBeCloseTo(0.99, 6);
  } finally {
    await scorer.close();
  }
});

it("stops with the cause when the judge cannot answer, and refuses rows the judge does not read", async () => {
  const down = await judgeCalibrationScorer({ ...JUDGE_DEFAULTS, url: `http://127.0.0.1:${await closedPort()}/v1`, model: "lg", format: "shieldgemma" });
  await expect(down.score([{ text: "a", location: "user::content" }])).rejects.toThrow(/^judge call failed: unreachable: .*ECONNREFUSED/);
  await expect(down.score([{ text: "a", location: "tool::content" }])).rejects.toThrow(/not tool::content/);
  await down.close();
});
