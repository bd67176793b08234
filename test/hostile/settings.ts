// How long and how hard the hostile run goes (docs/operations.md#hostile-run):
// HOSTILE_SCALE multiplies every part (fuzz time, slow connections, kill -9
// rounds) for a deeper run; HOSTILE_SEED replays one.

export const scale = Math.max(1, Number(process.env.HOSTILE_SCALE ?? 1));
export const seed = Number(process.env.HOSTILE_SEED ?? Math.floor(Math.random() * 2 ** 31));

/** A seeded generator in [0, 1) (mulberry32): the same seed gives the same run. */
export function seededRandom(from: number): () => number {
  let a = from >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32;
  };
}

/** One line per part, which the run's output ends with; `violations` lists the offending inputs. */
export function summary(part: string, facts: string, violations: string[]): void {
  for (const v of violations.slice(0, 20)) console.log(`hostile ${part} VIOLATION: ${v}`);
  if (violations.length > 20) console.log(`hostile ${part}: ${violations.length - 20} more violations`);
  console.log(`hostile ${part}: ${facts}, ${violations.length} violations (HOSTILE_SEED=${seed})`);
}
