// How the engine reads a part's judgement: max and replace against the built-in
// head, the whole part as the span, Detection.model naming the judge, and a
// detector the judge did not decide left as it was.
import { expect, it } from "vitest";
import type { Detection } from "../../../src/screening/detector.js";
import { judgedDetection, judgedGuardrail } from "../../../src/screening/judges/combine.js";
import type { PartJudgement } from "../../../src/screening/judges/part-judgement.js";

const text = "some text";
const builtIn =
  (level: Detection["level"]): (() => Detection) =>
  () => ({ level, spans: level === "l5_unlikely" ? [] : [{ start: 5, end: 9, level }] });
const judgement = (combine: PartJudgement["combine"], level: Detection["level"]): PartJudgement => ({
  model: "judge:lg",
  combine,
  detectors: { "moderated_content/hate": { level } },
  guardrails: { g1: { level: "l1_confident", matched: true }, g2: { level: "l5_unlikely", matched: false } },
});

it("max: the more severe of the two; a tie keeps the built-in detection and its finer spans", () => {
  expect(judgedDetection(judgement("max", "l2_very_likely"), "moderated_content/hate", text, builtIn("l4_less_likely"))).toEqual({
    level: "l2_very_likely",
    spans: [{ start: 0, end: text.length, level: "l2_very_likely" }],
    model: "judge:lg",
    note: undefined,
  });
  expect(judgedDetection(judgement("max", "l5_unlikely"), "moderated_content/hate", text, builtIn("l3_likely")).level).toBe("l3_likely");
  expect(judgedDetection(judgement("max", "l3_likely"), "moderated_content/hate", text, builtIn("l3_likely")).spans).toEqual([{ start: 5, end: 9, level: "l3_likely" }]);
});

it("replace: the judge's level alone, without running the built-in head", () => {
  const head = () => {
    throw new Error("the built-in head ran");
  };
  expect(judgedDetection(judgement("replace", "l5_unlikely"), "moderated_content/hate", text, head)).toMatchObject({
    level: "l5_unlikely",
    spans: [],
    model: "judge:lg",
  });
});

it("a detector the judge did not decide, or a part it did not judge, is the built-in one", () => {
  expect(judgedDetection(judgement("replace", "l1_confident"), "moderated_content/sexual", text, builtIn("l4_less_likely")).level).toBe("l4_less_likely");
  expect(judgedDetection(undefined, "moderated_content/hate", text, builtIn("l4_less_likely")).level).toBe("l4_less_likely");
});

it("a guardrail in words matches over the whole part when the judge found it violated", () => {
  expect(judgedGuardrail(judgement("max", "l1_confident"), "g1", text)).toMatchObject({
    level: "l1_confident",
    spans: [{ start: 0, end: text.length }],
    model: "judge:lg",
  });
  expect(judgedGuardrail(judgement("max", "l1_confident"), "g2", text)).toBeUndefined();
  expect(judgedGuardrail(judgement("max", "l1_confident"), "unknown", text)).toBeUndefined();
});
