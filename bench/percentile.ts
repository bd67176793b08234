/** The p-th percentile (0-100) of ascending `sorted`: the benchmarks' latency figures. */
export function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}
