// Cross-source evaluation of the text models (docs/training.md#cross-source-evaluation):
// in each round one fold of source families is the test, the next is the
// calibration set, and a head is trained on the rest with the shipped recipe
// (level-scores.ts). Every corpus row is scored once, by the round that held its
// family out, and turned into a level with that round's thresholds
// (level-figures.ts). Here: the figures of those levels, pooled over the rounds
// and shown per source family, with the worst family.
import { levelRank, thresholds, type Level, type Threshold } from "../src/screening/vocabulary.js";

export interface Counts {
  n: number;
  pos: number;
  /** Rows flagged at or above each threshold, positives and negatives. */
  tp: Record<Threshold, number>;
  fp: Record<Threshold, number>;
}

const zero = () => Object.fromEntries(thresholds.map((t) => [t, 0])) as Record<Threshold, number>;

/** Rows of `levels` kept by `keep` (held-out ones), and how many of them each threshold flags, positives and negatives. */
export function count(levels: (Level | undefined)[], labels: number[], keep: (i: number) => boolean): Counts {
  const c: Counts = { n: 0, pos: 0, tp: zero(), fp: zero() };
  levels.forEach((l, i) => {
    if (l === undefined || !keep(i)) return;
    c.n++;
    c.pos += labels[i];
    for (const t of thresholds) if (levelRank[l] <= levelRank[t]) (labels[i] ? c.tp : c.fp)[t]++;
  });
  return c;
}

export const pct = (x: number) => (Number.isFinite(x) ? x.toFixed(3) : "  -  ");

export interface HeadSummary {
  name: string;
  /** At l4 (the default policy threshold), pooled over every held-out row. */
  precision: number;
  recall: number;
  f1: number;
  fpr: number;
  /** Lowest recall at l4 among families with at least `minRows` positives. */
  worstRecall: { family: string; value: number } | null;
  /** Highest FPR at l4 among families with at least `minRows` negatives. */
  worstFpr: { family: string; value: number } | null;
  /** Precision of each level's flags (rows at or above it), pooled. */
  precisionAt: Record<Threshold, number>;
}

/**
 * The report of one head: pooled figures, precision per level, then one line
 * per family (TPR where it has positives, FPR at l2 and l4 where it has
 * negatives), and `groupBy` lines (e.g. per language) when given.
 */
export function summarize<Row extends { family: string }>(
  name: string,
  rows: Row[],
  labels: number[],
  levels: (Level | undefined)[],
  lines: string[],
  options: { minRows: number; groupBy?: (r: Row) => string | undefined; groupTitle?: string },
): HeadSummary {
  const all = count(levels, labels, () => true);
  const tp = all.tp.l4_less_likely;
  const fp = all.fp.l4_less_likely;
  const precision = tp + fp ? tp / (tp + fp) : NaN;
  const recall = all.pos ? tp / all.pos : NaN;
  const f1 = (2 * precision * recall) / (precision + recall);
  const fpr = fp / (all.n - all.pos);
  const precisionAt = Object.fromEntries(thresholds.map((t) => [t, all.tp[t] / (all.tp[t] + all.fp[t])])) as Record<Threshold, number>;
  lines.push(
    `${name.padEnd(22)} held-out n=${all.n} pos=${all.pos}  at l4: P=${pct(precision)} R=${pct(recall)} F1=${pct(f1)} FPR=${pct(fpr)}` +
      `  precision by level: ${thresholds.map((t) => `${t.slice(0, 2)} ${pct(precisionAt[t])} (TPR ${pct(all.tp[t] / all.pos)})`).join(", ")}`,
  );
  const table = (title: string, keyOf: (r: Row) => string | undefined) => {
    const keys = [...new Set(rows.map(keyOf).filter((k): k is string => k !== undefined))].sort();
    const out: { key: string; c: Counts }[] = [];
    for (const key of keys) {
      const c = count(levels, labels, (i) => keyOf(rows[i]) === key);
      if (c.n > 0) out.push({ key, c });
    }
    lines.push(`  ${title.padEnd(20)}     n    pos  TPR@l4  TPR@l2  FPR@l4  FPR@l2`);
    for (const { key, c } of out) {
      const neg = c.n - c.pos;
      lines.push(
        `  ${key.padEnd(20)} ${String(c.n).padStart(5)} ${String(c.pos).padStart(6)}  ${c.pos ? pct(c.tp.l4_less_likely / c.pos) : "  -  "}   ${c.pos ? pct(c.tp.l2_very_likely / c.pos) : "  -  "}   ${neg ? pct(c.fp.l4_less_likely / neg) : "  -  "}   ${neg ? pct(c.fp.l2_very_likely / neg) : "  -  "}`,
      );
    }
    return out;
  };
  const families = table("source family", (r) => r.family);
  if (options.groupBy) table(options.groupTitle ?? "group", options.groupBy);
  let worstRecall: HeadSummary["worstRecall"] = null;
  let worstFpr: HeadSummary["worstFpr"] = null;
  for (const { key, c } of families) {
    if (c.pos >= options.minRows) {
      const r = c.tp.l4_less_likely / c.pos;
      if (!worstRecall || r < worstRecall.value) worstRecall = { family: key, value: r };
    }
    if (c.n - c.pos >= options.minRows) {
      const f = c.fp.l4_less_likely / (c.n - c.pos);
      if (!worstFpr || f > worstFpr.value) worstFpr = { family: key, value: f };
    }
  }
  lines.push(
    `  worst family (>= ${options.minRows} rows): recall@l4 ${worstRecall ? `${pct(worstRecall.value)} (${worstRecall.family})` : "-"}, FPR@l4 ${worstFpr ? `${pct(worstFpr.value)} (${worstFpr.family})` : "-"}`,
  );
  return { name, precision, recall, f1, fpr, worstRecall, worstFpr, precisionAt };
}

/**
 * Per language (the corpus's own tag; "*" marks evaluation-only rows, "-" untagged English corpora): harmful
 * rows caught at l4 by any head, with the right category, and benign rows flagged at l4 by any head, under each
 * way of combining the heads in `rules` (each row's level per head index).
 */
export function languageLines(
  labels: number[][],
  languageOf: (i: number) => string,
  rules: Record<string, (k: number, i: number) => Level | undefined>,
  log: (s: string) => void,
) {
  const atL4 = (l: Level | undefined) => l !== undefined && levelRank[l] <= levelRank.l4_less_likely;
  const harmful = (i: number) => labels.some((l) => l[i] === 1);
  for (const [name, levelAt] of Object.entries(rules)) {
    log(`  any head at l4, ${name}:  language  harmful n  caught  right-category   benign n  flagged`);
    const rows = new Map<string, number[]>();
    labels[0].forEach((_, i) => {
      if (levelAt(0, i) === undefined) return;
      const key = languageOf(i);
      rows.set(key, [...(rows.get(key) ?? []), i]);
    });
    const line = (key: string, idx: number[]) => {
      const pos = idx.filter(harmful);
      const neg = idx.filter((i) => !harmful(i));
      const caught = pos.filter((i) => labels.some((_, k) => atL4(levelAt(k, i)))).length;
      const right = pos.filter((i) => labels.some((l, k) => l[i] === 1 && atL4(levelAt(k, i)))).length;
      const flagged = neg.filter((i) => labels.some((_, k) => atL4(levelAt(k, i)))).length;
      log(
        `    ${key.padEnd(22)} ${String(pos.length).padStart(6)}  ${pct(caught / pos.length)}  ${pct(right / pos.length)}         ${String(neg.length).padStart(6)}  ${pct(flagged / neg.length)}`,
      );
    };
    for (const [key, idx] of [...rows].sort()) line(key, idx);
    const foreign = [...rows].filter(([k]) => !k.startsWith("en") && !k.startsWith("-"));
    line(
      "all but English",
      foreign.flatMap(([, idx]) => idx),
    );
    line(
      "all but English, *",
      foreign.filter(([k]) => k.endsWith("*")).flatMap(([, idx]) => idx),
    );
  }
}
