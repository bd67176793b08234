// Long texts in overlapping token windows (docs/learned-detectors.md#long-texts),
// and what a text's windows add up to: a text classifier's score is its
// highest window's, with that window's span; a token classifier's tag for a
// token is read from the window that gives it the most context.
import type { ClassMap } from "./labels.js";
import type { Tokenized } from "./tokenizer.js";

/** How a text classifier's outputs become probabilities: from problem_type, or already probabilities (an export that ends in its own softmax or sigmoid). */
export type Activation = "softmax" | "sigmoid" | "none";

export interface Windows {
  /** Every window's ids, special tokens included, one after the other. */
  ids: Int32Array;
  lengths: Int32Array;
  /** Each window's content tokens: [first, end) indexes into the text's tokens. */
  first: Int32Array;
  end: Int32Array;
}

/**
 * Windows of at most `content` tokens over `n` tokens, consecutive windows
 * sharing `stride` tokens; the last window ends at the last token, so no
 * window is short of context. One (empty) window for a text of no tokens.
 */
export function windowRanges(n: number, content: number, stride: number): [number, number][] {
  if (n <= content) return [[0, n]];
  const step = content - stride;
  const out: [number, number][] = [];
  for (let a = 0; a + content < n; a += step) out.push([a, a + content]);
  out.push([n - content, n]);
  return out;
}

export function windowsOf(t: Tokenized, prefix: readonly number[], suffix: readonly number[], content: number, stride: number): Windows {
  const ranges = windowRanges(t.ids.length, content, stride);
  const specials = prefix.length + suffix.length;
  let total = 0;
  for (const [a, b] of ranges) total += b - a + specials;
  const ids = new Int32Array(total);
  const lengths = new Int32Array(ranges.length);
  const first = new Int32Array(ranges.length);
  const end = new Int32Array(ranges.length);
  let at = 0;
  ranges.forEach(([a, b], w) => {
    ids.set(prefix, at);
    ids.set(t.ids.subarray(a, b), at + prefix.length);
    ids.set(suffix, at + prefix.length + b - a);
    lengths[w] = b - a + specials;
    first[w] = a;
    end[w] = b;
    at += lengths[w];
  });
  return { ids, lengths, first, end };
}

/** A window's region of the text: the whole text's edge where the window reaches it. */
function windowSpan(t: Tokenized, w: Windows, i: number, textLength: number): { start: number; end: number } {
  const n = t.ids.length;
  const a = w.first[i];
  const b = w.end[i];
  return { start: a === 0 || n === 0 ? 0 : t.starts[a], end: b === n || n === 0 ? textLength : t.ends[b - 1] };
}

function probabilities(logits: ArrayLike<number>, activation: Activation): Float64Array {
  const p = Float64Array.from(logits);
  if (activation === "sigmoid") for (let i = 0; i < p.length; i++) p[i] = 1 / (1 + Math.exp(-p[i]));
  else if (activation === "softmax") {
    let max = -Infinity;
    for (const v of p) if (v > max) max = v;
    let sum = 0;
    for (let i = 0; i < p.length; i++) sum += p[i] = Math.exp(p[i] - max);
    for (let i = 0; i < p.length; i++) p[i] /= sum;
  }
  return p;
}

export interface LabelScore {
  score: number;
  start: number;
  end: number;
}

/**
 * Per detector label of the map: the highest window's score and that window's
 * span. A label fed by several outputs scores their sum when the outputs are
 * one distribution (softmax), their highest when each is its own (sigmoid).
 */
export function classScores(out: Float32Array, outputs: number, w: Windows, t: Tokenized, textLength: number, map: ClassMap, activation: Activation, summed: boolean): LabelScore[] {
  const best: LabelScore[] = map.labels.map(() => ({ score: -Infinity, start: 0, end: textLength }));
  for (let i = 0; i < w.lengths.length; i++) {
    const p = probabilities(out.subarray(i * outputs, (i + 1) * outputs), activation);
    map.indexes.forEach((indexes, k) => {
      let s = summed ? 0 : -Infinity;
      for (const j of indexes) s = summed ? s + p[j] : Math.max(s, p[j]);
      if (s > best[k].score) best[k] = { score: s, ...windowSpan(t, w, i, textLength) };
    });
  }
  return best;
}

/**
 * A token classifier's per-token probabilities (softmax over the tags), each
 * token read from the window where it sits furthest from a cut edge (a window
 * edge that is not the text's own edge).
 */
export function tokenProbabilities(out: Float32Array, outputs: number, w: Windows, t: Tokenized, prefixLength: number): Float64Array {
  const n = t.ids.length;
  const probs = new Float64Array(n * outputs);
  const bestDistance = new Float64Array(n).fill(-1);
  const rowOf = new Int32Array(n);
  let rowsBefore = 0;
  for (let i = 0; i < w.lengths.length; i++) {
    const a = w.first[i];
    const b = w.end[i];
    for (let j = a; j < b; j++) {
      const left = a === 0 ? Infinity : j - a;
      const right = b === n ? Infinity : b - 1 - j;
      const d = Math.min(left, right);
      if (d > bestDistance[j]) {
        bestDistance[j] = d;
        rowOf[j] = rowsBefore + prefixLength + (j - a);
      }
    }
    rowsBefore += w.lengths[i];
  }
  for (let j = 0; j < n; j++) probs.set(probabilities(out.subarray(rowOf[j] * outputs, (rowOf[j] + 1) * outputs), "softmax"), j * outputs);
  return probs;
}
