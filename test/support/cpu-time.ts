// CPU time of this process (all its threads), for tests that bound the cost of some work
// (docs/architecture.md#tests): on a loaded machine the process waits for a core, which
// stretches wall time but is not the code's cost.

/** What `work` returned, and the milliseconds of CPU this process used while it ran. */
export function cpuTimed<T>(work: () => T): { ms: number; value: T } {
  const before = process.cpuUsage();
  const value = work();
  const used = process.cpuUsage(before);
  return { ms: (used.user + used.system) / 1000, value };
}

/** What `work` resolved to, and the milliseconds of CPU this process used until then. */
export async function cpuTimedAsync<T>(work: () => Promise<T>): Promise<{ ms: number; value: T }> {
  const before = process.cpuUsage();
  const value = await work();
  const used = process.cpuUsage(before);
  return { ms: (used.user + used.system) / 1000, value };
}
