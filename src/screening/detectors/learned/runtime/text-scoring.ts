// Scoring a text with a linear head: the whole text and, for long texts, each
// window; the text's score is the highest (an injection hidden in one
// paragraph of a long document scores like the paragraph alone). Features are
// cached per text so prompt_attack and the six moderation heads on the same
// part hash the text once.
import { LRUCache } from "lru-cache";
import type { Span } from "../../../detector.js";
import { textFeatures, type TextFeatures } from "./features.js";
import type { LevelThresholds } from "./levels.js";
import { levelOf } from "./levels.js";
import { score, scorePacked, type LinearHead } from "./linear.js";
import type { HeadTable, LoadedModel } from "./model-store.js";
import type { Level } from "../../../vocabulary.js";

const cache = new LRUCache<string, TextFeatures>({ max: 32 });

const cacheBits = new WeakMap<TextFeatures, number>();

export function cachedFeatures(text: string, bits: number): TextFeatures {
  // Keyed by the text itself: the engine hands every detector of a part the same string, whose hash V8 keeps.
  let f = cache.get(text);
  if (!f || cacheBits.get(f) !== bits) {
    f = textFeatures(text, bits);
    cacheBits.set(f, bits);
    cache.set(text, f);
  }
  return f;
}

export interface TextScore {
  score: number;
  /** Region of the text that scored highest. */
  start: number;
  end: number;
}

export function scoreFeatures(head: LinearHead, f: TextFeatures, textLength: number): TextScore {
  let best: TextScore = { score: score(head, f.whole), start: 0, end: textLength };
  for (const c of f.chunks) {
    const s = score(head, c.vec);
    if (s > best.score) best = { score: s, start: c.start, end: c.end };
  }
  return best;
}

/** Level and spans of a text score: the best window, plus the hidden regions (tag characters, encoded blobs). */
export function textDetection(s: TextScore, f: TextFeatures, thresholds: LevelThresholds): { level: Level; spans: Span[] } {
  const level = levelOf(s.score, thresholds);
  if (level === "l5_unlikely") return { level, spans: [] };
  const spans: Span[] = [];
  const inside = f.expanded.hidden.filter((h) => h.start >= s.start && h.end <= s.end);
  if (inside.length && f.chunks.length === 0) for (const h of inside) spans.push({ start: h.start, end: h.end, level });
  else spans.push({ start: s.start, end: s.end, level });
  return { level, spans };
}

const tableScores = new WeakMap<TextFeatures, Map<HeadTable, TextScore[]>>();

/**
 * Every head of a table on a text (whole and windows), computed in one pass
 * over the features and cached with them: prompt_attack and the six moderation
 * detectors of a part share one pass.
 */
function scoreTable(table: HeadTable, f: TextFeatures, textLength: number): TextScore[] {
  let perTable = tableScores.get(f);
  if (!perTable) tableScores.set(f, (perTable = new Map<HeadTable, TextScore[]>()));
  const cached = perTable.get(table);
  if (cached) return cached;
  const tmp = new Float64Array(table.biases.length);
  scorePacked(table.packed, table.biases, f.whole, tmp);
  const best: TextScore[] = Array.from(tmp, (s) => ({ score: s, start: 0, end: textLength }));
  for (const c of f.chunks) {
    scorePacked(table.packed, table.biases, c.vec, tmp);
    for (let h = 0; h < tmp.length; h++) if (tmp[h] > best[h].score) best[h] = { score: tmp[h], start: c.start, end: c.end };
  }
  perTable.set(table, best);
  return best;
}

/** The score of one head of a model on a text: its best region and that region's score. */
export function headScore(model: LoadedModel, head: string, f: TextFeatures, textLength: number): TextScore {
  return scoreTable(model.table, f, textLength)[model.offset + model.names.indexOf(head)];
}
