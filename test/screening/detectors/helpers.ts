// Shared assertions for detector tests: spans are checked through the text
// they cover, so every test also checks UTF-16 offsets.
import { expect } from "vitest";
import type { Detection } from "../../../src/screening/detector.js";
import { levelRank, type Level } from "../../../src/screening/vocabulary.js";

/** The substrings the detection's spans cover, in order. */
export function covered(text: string, d: Detection): string[] {
  return d.spans.map((s) => text.slice(s.start, s.end));
}

/** Spans at or above a level. */
export function coveredAtLeast(text: string, d: Detection, level: Level): string[] {
  return d.spans.filter((s) => levelRank[s.level ?? d.level] <= levelRank[level]).map((s) => text.slice(s.start, s.end));
}

export function expectNothing(d: Detection): void {
  expect(d.level).toBe("no_level");
  expect(d.spans).toEqual([]);
}

/** Nothing at or above l4 (the default policy threshold); l5 findings are allowed. */
export function expectNothingFlagged(text: string, d: Detection): void {
  expect(coveredAtLeast(text, d, "l4_less_likely")).toEqual([]);
}
