// Token classification into entities, with the aggregation strategies of
// Hugging Face's token-classification pipeline
// (docs/learned-detectors.md#pii-model): `simple` groups tokens by their own
// best tag; `first`, `average` and `max` first give each word one tag (its
// first token's, its tokens' averaged scores', its most confident token's),
// so an entity never ends inside a word. Consecutive tokens or words of one
// entity join; B (and S/U) starts a new entity, E (and L) and S end one.
import type { Tag } from "./labels.js";
import type { Tokenized } from "./tokenizer.js";

export type Aggregation = "simple" | "first" | "average" | "max";

export const AGGREGATIONS: readonly Aggregation[] = ["simple", "first", "average", "max"];

export interface Entity {
  /** The model's entity name (PER, LOC, ...). */
  entity: string;
  /** UTF-16 offsets in the text. */
  start: number;
  end: number;
  /** The mean score of its tokens or words. */
  score: number;
}

interface Unit {
  tag: number;
  score: number;
  start: number;
  end: number;
}

function argmax(p: Float64Array, from: number, n: number): number {
  let best = 0;
  for (let k = 1; k < n; k++) if (p[from + k] > p[from + best]) best = k;
  return best;
}

/** The tokens that stand for some text, each as its own unit. */
function tokenUnits(probs: Float64Array, outputs: number, t: Tokenized): Unit[] {
  const units: Unit[] = [];
  for (let j = 0; j < t.ids.length; j++) {
    if (t.ends[j] <= t.starts[j]) continue;
    const k = argmax(probs, j * outputs, outputs);
    units.push({ tag: k, score: probs[j * outputs + k], start: t.starts[j], end: t.ends[j] });
  }
  return units;
}

/** Words (a word-start token and the tokens continuing it), each with one tag by the strategy. */
function wordUnits(probs: Float64Array, outputs: number, t: Tokenized, strategy: Exclude<Aggregation, "simple">): Unit[] {
  const words: number[][] = [];
  for (let j = 0; j < t.ids.length; j++) {
    if (t.ends[j] <= t.starts[j]) continue;
    if (t.wordStarts[j] || words.length === 0) words.push([j]);
    else words[words.length - 1].push(j);
  }
  return words.map((tokens) => {
    const start = t.starts[tokens[0]];
    const end = Math.max(...tokens.map((j) => t.ends[j]));
    if (strategy === "average") {
      const mean = new Float64Array(outputs);
      for (const j of tokens) for (let k = 0; k < outputs; k++) mean[k] += probs[j * outputs + k] / tokens.length;
      const k = argmax(mean, 0, outputs);
      return { tag: k, score: mean[k], start, end };
    }
    let pick = tokens[0];
    if (strategy === "max") {
      let top = -1;
      for (const j of tokens) {
        const s = probs[j * outputs + argmax(probs, j * outputs, outputs)];
        if (s > top) {
          top = s;
          pick = j;
        }
      }
    }
    const k = argmax(probs, pick * outputs, outputs);
    return { tag: k, score: probs[pick * outputs + k], start, end };
  });
}

export function entitiesOf(probs: Float64Array, outputs: number, t: Tokenized, tags: readonly Tag[], strategy: Aggregation): Entity[] {
  const units = strategy === "simple" ? tokenUnits(probs, outputs, t) : wordUnits(probs, outputs, t, strategy);
  const out: Entity[] = [];
  let open: { entity: string; start: number; end: number; scores: number[]; closed: boolean } | undefined;
  const close = () => {
    if (open) out.push({ entity: open.entity, start: open.start, end: open.end, score: open.scores.reduce((a, b) => a + b, 0) / open.scores.length });
    open = undefined;
  };
  for (const u of units) {
    const tag = tags[u.tag];
    if (tag.prefix === "O") {
      close();
      continue;
    }
    const continues = open && !open.closed && open.entity === tag.entity && (tag.prefix === "I" || tag.prefix === "E");
    if (open && continues) {
      open.end = u.end;
      open.scores.push(u.score);
      open.closed = tag.prefix === "E";
    } else {
      close();
      open = { entity: tag.entity, start: u.start, end: u.end, scores: [u.score], closed: tag.prefix === "S" };
    }
  }
  close();
  return out;
}
