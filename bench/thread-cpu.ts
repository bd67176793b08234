// CPU time by thread of a process (Linux /proc), for the benchmarks that say where a request's CPU went.
import { readdir, readFile } from "node:fs/promises";

const CLOCK_TICKS = 100;

/** CPU milliseconds each thread of process `pid` used so far, by thread id. */
export async function threadCpuMs(pid: number): Promise<Map<number, number>> {
  const ticks = new Map<number, number>();
  for (const tid of await readdir(`/proc/${pid}/task`)) {
    const stat = await readFile(`/proc/${pid}/task/${tid}/stat`, "utf8").catch(() => "");
    // utime and stime: fields 14 and 15, counted after the parenthesised command name.
    const f = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    if (f.length > 13) ticks.set(Number(tid), ((Number(f[11]) + Number(f[12])) * 1000) / CLOCK_TICKS);
  }
  return ticks;
}
