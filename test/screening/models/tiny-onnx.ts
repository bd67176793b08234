// Builds tiny ONNX text classifiers for the tests of the older single-file settings:
// ModelProto bytes written by hand (protobuf wire format),
// graph = Gather(embedding, input_ids) -> ReduceMean over the sequence ->
// logits [1, outputs]. Each logit is the mean over the tokens of a weight the
// test chooses per (token, output), so a test can work out the scores.

function varint(n: number | bigint): number[] {
  let v = BigInt(n);
  if (v < 0n) v += 1n << 64n;
  const out: number[] = [];
  do {
    let b = Number(v & 0x7fn);
    v >>= 7n;
    if (v > 0n) b |= 0x80;
    out.push(b);
  } while (v > 0n);
  return out;
}

const tag = (field: number, wire: number) => varint((field << 3) | wire);
const int = (field: number, n: number | bigint) => [...tag(field, 0), ...varint(n)];
const bytes = (field: number, b: number[] | Uint8Array) => [...tag(field, 2), ...varint(b.length), ...b];
const str = (field: number, s: string) => bytes(field, [...Buffer.from(s, "utf8")]);
const msg = (field: number, body: number[]) => bytes(field, body);

function tensorType(elemType: number, dims: (number | string)[]): number[] {
  const shape = dims.flatMap((d) => msg(1, typeof d === "number" ? int(1, d) : str(2, d)));
  return msg(1, [...int(1, elemType), ...msg(2, shape)]);
}

const valueInfo = (field: number, name: string, elemType: number, dims: (number | string)[]) => msg(field, [...str(1, name), ...msg(2, tensorType(elemType, dims))]);

/** Two classes; tokens in `attackTokens` push the "attack" logit (index 1) up. */
export function tinyClassifier(vocab: string[], attackTokens: string[]): Uint8Array {
  return tinyModel(vocab, 2, (t, o) => (attackTokens.includes(t) ? (o === 1 ? 8 : 0) : o === 0 ? 1 : 0));
}

/**
 * One output per entry of `labels`: a token listed for an output weighs
 * `hit` there, every other (token, output) weighs `miss`.
 */
export function tinyMultiLabel(vocab: string[], labels: string[][], hit = 6, miss = -3): Uint8Array {
  return tinyModel(vocab, labels.length, (t, o) => (labels[o].includes(t) ? hit : miss));
}

export interface TinyModelShape {
  /** Name of the token id input (default input_ids). */
  input?: string;
  /** Name of the output (default logits). */
  output?: string;
  /** Leave out the ReduceMean: one row of logits per token, as a token classifier has. */
  perToken?: boolean;
}

export function tinyModel(vocab: string[], outputs: number, weight: (token: string, output: number) => number, shape: TinyModelShape = {}): Uint8Array {
  const FLOAT = 1;
  const INT64 = 7;
  const input = shape.input ?? "input_ids";
  const output = shape.output ?? "logits";
  const emb = new Float32Array(vocab.length * outputs);
  vocab.forEach((t, i) => {
    for (let o = 0; o < outputs; o++) emb[i * outputs + o] = weight(t, o);
  });
  const initializer = msg(5, [...int(1, vocab.length), ...int(1, outputs), ...int(2, FLOAT), ...str(8, "embedding"), ...bytes(9, new Uint8Array(emb.buffer))]);
  const gather = msg(1, [
    ...str(1, "embedding"),
    ...str(1, input),
    ...str(2, shape.perToken ? output : "emb"),
    ...str(3, "gather"),
    ...str(4, "Gather"),
    ...msg(5, [...str(1, "axis"), ...int(3, 0), ...int(20, 2)]),
  ]);
  const mean = msg(1, [
    ...str(1, "emb"),
    ...str(2, output),
    ...str(3, "mean"),
    ...str(4, "ReduceMean"),
    ...msg(5, [...str(1, "axes"), ...int(8, 1), ...int(20, 7)]),
    ...msg(5, [...str(1, "keepdims"), ...int(3, 0), ...int(20, 2)]),
  ]);
  const graph = [
    ...gather,
    ...(shape.perToken ? [] : mean),
    ...str(2, "tiny"),
    ...initializer,
    ...valueInfo(11, input, INT64, [1, "sequence"]),
    ...valueInfo(12, output, FLOAT, shape.perToken ? [1, "sequence", outputs] : [1, outputs]),
  ];
  const model = [...int(1, 7), ...str(2, "parapet-test"), ...msg(7, graph), ...msg(8, [...str(1, ""), ...int(2, 13)])];
  return Uint8Array.from(model);
}
