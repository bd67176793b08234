// Linear heads over hashed features, stored as int16 with one scale per head
// (models/*.bin, little-endian). A head's score is the logistic of w·x + b.
import type { SparseVector } from "./features.js";

export interface LinearHead {
  name: string;
  weights: Float32Array;
  bias: number;
}

export function score(head: LinearHead, x: SparseVector): number {
  let z = head.bias;
  const w = head.weights;
  const { idx, val } = x;
  for (let i = 0; i < idx.length; i++) z += w[idx[i]] * val[i];
  return 1 / (1 + Math.exp(-z));
}

/** Rounds weights to what the int16 file will hold, so calibration sees the shipped model. */
export function quantize(weights: Float64Array | Float32Array): { q: Int16Array; scale: number } {
  let max = 0;
  for (let i = 0; i < weights.length; i++) max = Math.max(max, Math.abs(weights[i]));
  const scale = max > 0 ? max / 32767 : 1;
  const q = new Int16Array(weights.length);
  for (let i = 0; i < weights.length; i++) q[i] = Math.round(weights[i] / scale);
  return { q, scale };
}

export function dequantize(q: Int16Array, scale: number): Float32Array {
  const w = new Float32Array(q.length);
  for (let i = 0; i < q.length; i++) w[i] = q[i] * scale;
  return w;
}

/** File layout: heads back to back, each `dim` int16 values. Scales and biases live in the manifest. */
export function encodeHeads(heads: { q: Int16Array }[]): Buffer {
  const total = heads.reduce((n, h) => n + h.q.length, 0);
  const buf = Buffer.alloc(total * 2);
  let off = 0;
  for (const h of heads) {
    for (let i = 0; i < h.q.length; i++) buf.writeInt16LE(h.q[i], off + i * 2);
    off += h.q.length * 2;
  }
  return buf;
}

export function decodeHead(buf: Buffer, index: number, dim: number, scale: number): Float32Array {
  const start = index * dim * 2;
  if (buf.length < start + dim * 2) throw new Error(`model file too short for head ${index}`);
  const w = new Float32Array(dim);
  const view = new DataView(buf.buffer, buf.byteOffset + start, dim * 2);
  for (let i = 0; i < dim; i++) w[i] = view.getInt16(i * 2, true) * scale;
  return w;
}

/** Probabilities of all heads at once from interleaved weights (same sums, same order as `score`). */
export function scorePacked(packed: Float32Array, biases: Float64Array, x: SparseVector, out: Float64Array): void {
  const n = biases.length;
  if (n === 8) sumsOf8(packed, biases, x, out);
  else {
    for (let h = 0; h < n; h++) out[h] = biases[h];
    const { idx, val } = x;
    for (let i = 0; i < idx.length; i++) {
      const base = idx[i] * n;
      const v = val[i];
      for (let h = 0; h < n; h++) out[h] += packed[base + h] * v;
    }
  }
  for (let h = 0; h < n; h++) out[h] = 1 / (1 + Math.exp(-out[h]));
}

/**
 * The sums of a table of eight heads (the shipped prompt attack and moderation
 * heads, padded), each in a local: the general loop reads and writes every
 * head's sum through memory for each feature, which cost more than the weight
 * lookups. The additions are the same, in the same order.
 */
function sumsOf8(packed: Float32Array, biases: Float64Array, x: SparseVector, out: Float64Array): void {
  let z0 = biases[0];
  let z1 = biases[1];
  let z2 = biases[2];
  let z3 = biases[3];
  let z4 = biases[4];
  let z5 = biases[5];
  let z6 = biases[6];
  let z7 = biases[7];
  const { idx, val } = x;
  for (let i = 0; i < idx.length; i++) {
    const b = idx[i] * 8;
    const v = val[i];
    z0 += packed[b] * v;
    z1 += packed[b + 1] * v;
    z2 += packed[b + 2] * v;
    z3 += packed[b + 3] * v;
    z4 += packed[b + 4] * v;
    z5 += packed[b + 5] * v;
    z6 += packed[b + 6] * v;
    z7 += packed[b + 7] * v;
  }
  out[0] = z0;
  out[1] = z1;
  out[2] = z2;
  out[3] = z3;
  out[4] = z4;
  out[5] = z5;
  out[6] = z6;
  out[7] = z7;
}
