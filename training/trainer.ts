// Logistic regression with L2 and Adagrad over sparse hashed features, written
// out so that training is deterministic (seeded order, no threads) and needs
// nothing but this repository.
import type { SparseVector } from "../src/screening/detectors/learned/runtime/features.js";
import { rng, shuffle } from "./prng.js";

export interface Example {
  x: SparseVector;
  y: number;
  weight?: number;
}

export interface TrainOptions {
  dim: number;
  epochs: number;
  learningRate: number;
  l2: number;
  seed: number;
  /** Weight of positives relative to negatives (default: balance the classes, capped). */
  positiveWeight?: number;
  /** Plain SGD step of the bias (default 0.01). */
  biasLearningRate?: number;
}

export interface TrainedHead {
  weights: Float64Array;
  bias: number;
}

export function trainLogistic(examples: Example[], o: TrainOptions): TrainedHead {
  const w = new Float64Array(o.dim);
  const g2 = new Float64Array(o.dim).fill(1e-8);
  let b = 0;
  // Lazy L2: a weight decays by the steps it was not touched, applied when next touched.
  const lastStep = new Int32Array(o.dim);
  const pos = examples.reduce((n, e) => n + (e.y > 0.5 ? 1 : 0), 0);
  const neg = examples.length - pos;
  const posWeight = o.positiveWeight ?? Math.min(5, Math.max(0.2, neg / Math.max(1, pos)));
  // The bias starts at the weighted prior log-odds and moves by plain SGD: with
  // Adagrad it froze early (it sees every example) while rare n-grams learned
  // to push each known negative down, so unfamiliar text scored as positive.
  b = Math.log((pos * posWeight + 1) / (neg + 1));
  const biasRate = o.biasLearningRate ?? 0.01;
  const order = examples.map((_, i) => i);
  const r = rng(o.seed);
  let step = 0;
  for (let epoch = 0; epoch < o.epochs; epoch++) {
    shuffle(r, order);
    const lr = o.learningRate / Math.sqrt(1 + epoch);
    for (const k of order) {
      step++;
      const e = examples[k];
      const { idx, val } = e.x;
      let z = b;
      for (let i = 0; i < idx.length; i++) {
        const j = idx[i];
        const gap = step - lastStep[j] - 1;
        if (gap > 0 && w[j] !== 0) w[j] *= Math.pow(1 - lr * o.l2, gap);
        lastStep[j] = step;
        z += w[j] * val[i];
      }
      const p = 1 / (1 + Math.exp(-z));
      const sw = (e.weight ?? 1) * (e.y > 0.5 ? posWeight : 1);
      const g = (p - e.y) * sw;
      for (let i = 0; i < idx.length; i++) {
        const j = idx[i];
        const grad = g * val[i] + o.l2 * w[j];
        g2[j] += grad * grad;
        w[j] -= (lr * grad) / Math.sqrt(g2[j]);
      }
      b -= (biasRate / Math.sqrt(1 + epoch)) * g;
    }
  }
  // Settle the decay of weights untouched since their last step.
  for (let j = 0; j < o.dim; j++) {
    const gap = step - lastStep[j];
    if (gap > 0 && w[j] !== 0) w[j] *= Math.pow(1 - (o.learningRate / Math.sqrt(o.epochs)) * o.l2, gap);
  }
  return { weights: w, bias: b };
}
