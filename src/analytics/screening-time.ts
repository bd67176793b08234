// Screening-time percentiles from counters (docs/api.md#analytics-details). Each screening
// request adds one to the histogram bin of its screening time, in the same rollup upsert as
// the other counters, so the write stays one $inc of a few top-level fields; percentiles are
// estimated when read, from bins summed over any buckets and projects.

/**
 * Upper bounds (inclusive, milliseconds) of the bins; a last bin holds everything above. Stored
 * rows count by bin number: changing a bound changes what stored counts mean.
 */
export const SCREENING_MS_BOUNDS = [
  0.1, 0.15, 0.2, 0.3, 0.5, 0.7, 1, 1.5, 2, 3, 5, 7, 10, 15, 20, 30, 50, 70, 100, 150, 200, 300, 500, 700, 1000, 1500, 2000, 3000, 5000, 7000, 10_000, 15_000, 20_000,
  30_000,
] as const;

/** The number of bins: one per bound and the last, open one. */
export const SCREENING_MS_BINS = SCREENING_MS_BOUNDS.length + 1;

/** The bin of a screening time: the first whose bound is not below it. */
export function binOf(ms: number): number {
  let lo = 0;
  let hi: number = SCREENING_MS_BOUNDS.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (ms <= SCREENING_MS_BOUNDS[mid]) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

/**
 * The q-quantile (0 < q < 1) of the times counted in `bins`, interpolated linearly within its
 * bin (from 0 for the first); a quantile in the open last bin is its lower bound. Undefined when
 * nothing was counted.
 */
export function quantileOf(bins: readonly number[], q: number): number | undefined {
  const n = bins.reduce((a, b) => a + b, 0);
  if (n === 0) return undefined;
  const rank = q * n;
  let below = 0;
  for (let i = 0; i < bins.length; i++) {
    const c = bins[i];
    if (c > 0 && below + c >= rank) {
      const lower = i === 0 ? 0 : SCREENING_MS_BOUNDS[i - 1];
      if (i >= SCREENING_MS_BOUNDS.length) return lower;
      const upper = SCREENING_MS_BOUNDS[i];
      // Three decimals, as a log's screening_ms.
      return Math.round((lower + ((upper - lower) * (rank - below)) / c) * 1000) / 1000;
    }
    below += c;
  }
  return SCREENING_MS_BOUNDS[SCREENING_MS_BOUNDS.length - 1];
}
