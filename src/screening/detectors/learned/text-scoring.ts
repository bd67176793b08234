// Scoring a text with a linear head: the whole text and, for long texts, each
// window; the text's score is the highest (an injection hidden in one
// paragraph of a long document scores like the paragraph alone). Features are
// cached per text so prompt_attack and the six moderation heads on the same
// part hash the text once.
import type { Span } from "../../detector.js";
import { textFeatures, type TextFeatures } from "./features.js";
import type { LevelThresholds } from "./levels.js";
import { levelOf } from "./levels.js";
import { score, type LinearHead } from "./linear.js";
import type { Level } from "../../../policies/catalog.js";

const CACHE_SIZE = 32;
const cache = new Map<string, TextFeatures>();

export function cachedFeatures(text: string, bits: number): TextFeatures {
  const key = bits + ":" + text;
  let f = cache.get(key);
  if (!f) {
    f = textFeatures(text, bits);
    if (cache.size >= CACHE_SIZE) cache.delete(cache.keys().next().value as string);
    cache.set(key, f);
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
