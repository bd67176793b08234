// Span-level scoring with overlap matching: a predicted span at or above the
// threshold is a true positive when it overlaps a gold span of its type; a gold
// span is recalled when some predicted span overlaps it. Predictions that only
// overlap "don't care" regions (a street name or city alone, a ZIP code alone)
// are not counted either way.
import type { Span } from "../../src/screening/detector.js";
import { levelRank, type Level } from "../../src/screening/vocabulary.js";

export interface Counts {
  tp: number;
  fp: number;
  goldHit: number;
  gold: number;
}

export interface Region {
  start: number;
  end: number;
}

export const newCounts = (): Counts => ({ tp: 0, fp: 0, goldHit: 0, gold: 0 });

export const atOrAbove = (level: Level | undefined, threshold: Level) => levelRank[level ?? "no_level"] <= levelRank[threshold];

const overlaps = (a: Region, b: Region) => a.start < b.end && b.start < a.end;

/** Adds one text's predictions to `c`; returns its false positives and missed gold spans. */
export function score(spans: Span[], gold: Region[], ignore: Region[], threshold: Level, c: Counts): { fps: Span[]; misses: Region[] } {
  const preds = spans.filter((s) => atOrAbove(s.level, threshold));
  const fps: Span[] = [];
  for (const p of preds) {
    if (gold.some((g) => overlaps(g, p))) c.tp++;
    else if (!ignore.some((g) => overlaps(g, p))) {
      c.fp++;
      fps.push(p);
    }
  }
  const misses: Region[] = [];
  for (const g of gold) {
    c.gold++;
    if (preds.some((p) => overlaps(g, p))) c.goldHit++;
    else misses.push(g);
  }
  return { fps, misses };
}

export const prf = (c: Counts) => {
  const p = c.tp + c.fp === 0 ? 1 : c.tp / (c.tp + c.fp);
  const r = c.gold === 0 ? 1 : c.goldHit / c.gold;
  const f1 = p + r === 0 ? 0 : (2 * p * r) / (p + r);
  return { p, r, f1 };
};

export const pct = (x: number) => x.toFixed(3);
