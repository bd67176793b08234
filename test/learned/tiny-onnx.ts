// Builds a tiny ONNX text classifier for the bring-your-own-model test
// (ONNX): ModelProto bytes written by hand (protobuf wire format),
// graph = Gather(embedding, input_ids) -> ReduceMean over the sequence ->
// logits [1, 2]. Tokens in `attackTokens` push the "attack" logit up.

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

export function tinyClassifier(vocab: string[], attackTokens: string[]): Uint8Array {
  const FLOAT = 1;
  const INT64 = 7;
  const emb = new Float32Array(vocab.length * 2);
  vocab.forEach((t, i) => {
    if (attackTokens.includes(t)) emb[i * 2 + 1] = 8;
    else emb[i * 2] = 1;
  });
  const initializer = msg(5, [...int(1, vocab.length), ...int(1, 2), ...int(2, FLOAT), ...str(8, "embedding"), ...bytes(9, new Uint8Array(emb.buffer))]);
  const gather = msg(1, [
    ...str(1, "embedding"),
    ...str(1, "input_ids"),
    ...str(2, "emb"),
    ...str(3, "gather"),
    ...str(4, "Gather"),
    ...msg(5, [...str(1, "axis"), ...int(3, 0), ...int(20, 2)]),
  ]);
  const mean = msg(1, [
    ...str(1, "emb"),
    ...str(2, "logits"),
    ...str(3, "mean"),
    ...str(4, "ReduceMean"),
    ...msg(5, [...str(1, "axes"), ...int(8, 1), ...int(20, 7)]),
    ...msg(5, [...str(1, "keepdims"), ...int(3, 0), ...int(20, 2)]),
  ]);
  const graph = [...gather, ...mean, ...str(2, "tiny"), ...initializer, ...valueInfo(11, "input_ids", INT64, [1, "sequence"]), ...valueInfo(12, "logits", FLOAT, [1, 2])];
  const model = [...int(1, 7), ...str(2, "parapet-test"), ...msg(7, graph), ...msg(8, [...str(1, ""), ...int(2, 13)])];
  return Uint8Array.from(model);
}
