// Screening-time percentiles from the rollups' fixed histogram (src/analytics/screening-time.ts).
import { describe, expect, it } from "vitest";
import { binOf, quantileOf, SCREENING_MS_BINS, SCREENING_MS_BOUNDS } from "../../src/analytics/screening-time.js";

function histogram(times: number[]): number[] {
  const bins = new Array<number>(SCREENING_MS_BINS).fill(0);
  for (const t of times) bins[binOf(t)]++;
  return bins;
}

describe("screening-time histogram", () => {
  it("bins by inclusive upper bound, the last bin open", () => {
    expect(binOf(0)).toBe(0);
    expect(binOf(0.1)).toBe(0);
    expect(binOf(0.1001)).toBe(1);
    expect(binOf(1)).toBe(SCREENING_MS_BOUNDS.indexOf(1));
    expect(binOf(30_000)).toBe(SCREENING_MS_BOUNDS.length - 1);
    expect(binOf(30_000.5)).toBe(SCREENING_MS_BINS - 1);
    expect(binOf(1e9)).toBe(SCREENING_MS_BINS - 1);
    for (let i = 1; i < SCREENING_MS_BOUNDS.length; i++) expect(SCREENING_MS_BOUNDS[i]).toBeGreaterThan(SCREENING_MS_BOUNDS[i - 1]);
  });

  it("interpolates within the quantile's bin", () => {
    // 100 times spread evenly over the (10, 15] bin: the median is half way.
    const times = Array.from({ length: 100 }, (_, i) => 10 + (i + 1) * 0.05);
    expect(quantileOf(histogram(times), 0.5)).toBe(12.5);
    expect(quantileOf(histogram(times), 0.95)).toBe(14.75);
    // The first bin starts at zero.
    expect(quantileOf(histogram([0.05, 0.05]), 0.5)).toBe(0.05);
  });

  it("stays within one bin of the exact percentile", () => {
    const times = Array.from({ length: 999 }, (_, i) => 0.2 * Math.pow(1.01, i));
    const sorted = [...times].sort((a, b) => a - b);
    for (const q of [0.5, 0.9, 0.95, 0.99]) {
      const exact = sorted[Math.ceil(q * sorted.length) - 1];
      const estimate = quantileOf(histogram(times), q)!;
      const bin = binOf(exact);
      expect(estimate).toBeGreaterThanOrEqual(bin === 0 ? 0 : SCREENING_MS_BOUNDS[bin - 1]);
      expect(estimate).toBeLessThanOrEqual(SCREENING_MS_BOUNDS[bin]);
    }
  });

  it("answers the open bin's lower bound above the last bound, nothing for no times", () => {
    expect(quantileOf(histogram([5, 40_000, 90_000]), 0.95)).toBe(30_000);
    expect(quantileOf(histogram([]), 0.5)).toBeUndefined();
  });
});
