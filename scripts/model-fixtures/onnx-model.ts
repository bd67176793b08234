// Writes the fixture models' ONNX graphs with the ONNX protobuf schema (proto/onnx/onnx.proto,
// compiled into gen/). Two graphs, both over a table of per-token label vectors (one row per
// vocabulary id, one column per label), readable enough that a test can work out every logit:
//   text classification:  logits[b, l] = sum_t mask[b, t] * table[ids[b, t], l] / max(1, sum_t mask[b, t])
//   token classification: logits[b, t, l] = mask[b, t] * table[ids[b, t], l]
// Inputs are named and typed as Hugging Face's exporters write them (input_ids, attention_mask:
// int64 [batch_size, sequence_length]); the output is `logits`.
import { create, toBinary } from "@bufbuild/protobuf";
import {
  AttributeProto_AttributeType,
  AttributeProtoSchema,
  GraphProtoSchema,
  ModelProtoSchema,
  NodeProtoSchema,
  TensorProto_DataType,
  TensorProtoSchema,
  type AttributeProto,
  type NodeProto,
  type TensorProto,
  type ValueInfoProto,
  ValueInfoProtoSchema,
} from "./gen/onnx/onnx_pb.js";

// IR version 8 with operator set 17 (the pair ONNX 1.12 introduced): ONNX Runtime 1.30 runs both,
// and opset 13+ takes ReduceSum's and Unsqueeze's axes as an input rather than an attribute.
const IR_VERSION = 8n;
const OPSET = 17n;

export type GraphTask = "text-classification" | "token-classification";

export interface GraphSpec {
  task: GraphTask;
  /** Row-major [vocabulary size, labels] table of per-token label vectors. */
  table: Float32Array;
  labels: number;
  /** What the model is for, stored as the model's doc_string. */
  description: string;
  /** Graph input names; the broken variants rename one. */
  inputIds?: string;
  attentionMask?: string;
}

export function onnxModel(spec: GraphSpec): Uint8Array {
  const vocabulary = spec.table.length / spec.labels;
  if (!Number.isInteger(vocabulary)) throw new Error(`label table of ${spec.table.length} values is not a multiple of ${spec.labels} labels`);
  const ids = spec.inputIds ?? "input_ids";
  const mask = spec.attentionMask ?? "attention_mask";
  const perToken = spec.task === "token-classification";
  const nodes = perToken ? tokenNodes(ids, mask) : classifierNodes(ids, mask);
  const graph = create(GraphProtoSchema, {
    name: perToken ? "masked_token_label_vectors" : "masked_mean_of_token_label_vectors",
    node: nodes,
    initializer: [
      floatTensor("label_vectors", [vocabulary, spec.labels], spec.table),
      int64Tensor("last_axis", [2n]),
      // ONNX Runtime warns about (and drops) initializers no node reads.
      ...(perToken ? [] : [int64Tensor("sequence_axis", [1n]), floatTensor("one", [], Float32Array.of(1))]),
    ],
    input: [
      tensorInfo(ids, TensorProto_DataType.INT64, ["batch_size", "sequence_length"]),
      tensorInfo(mask, TensorProto_DataType.INT64, ["batch_size", "sequence_length"]),
    ],
    output: [tensorInfo("logits", TensorProto_DataType.FLOAT, perToken ? ["batch_size", "sequence_length", spec.labels] : ["batch_size", spec.labels])],
  });
  const model = create(ModelProtoSchema, {
    irVersion: IR_VERSION,
    producerName: "parapet-model-fixtures",
    producerVersion: "1",
    docString: spec.description,
    graph,
    opsetImport: [{ domain: "", version: OPSET }],
  });
  return toBinary(ModelProtoSchema, model);
}

function classifierNodes(ids: string, mask: string): NodeProto[] {
  return [
    ...maskedTokenVectors(ids, mask, "masked_vectors"),
    node("ReduceSum", ["masked_vectors", "sequence_axis"], ["vector_sum"], [intAttribute("keepdims", 0n)]),
    node("ReduceSum", ["mask", "sequence_axis"], ["token_count"], [intAttribute("keepdims", 1n)]),
    // A row of padding only would divide by zero; its logits are then zeros.
    node("Max", ["token_count", "one"], ["divisor"]),
    node("Div", ["vector_sum", "divisor"], ["logits"]),
  ];
}

function tokenNodes(ids: string, mask: string): NodeProto[] {
  return maskedTokenVectors(ids, mask, "logits");
}

/** Each token's label vector, zeroed where attention_mask is 0. */
function maskedTokenVectors(ids: string, mask: string, output: string): NodeProto[] {
  return [
    node("Gather", ["label_vectors", ids], ["token_vectors"], [intAttribute("axis", 0n)]),
    node("Cast", [mask], ["mask"], [intAttribute("to", BigInt(TensorProto_DataType.FLOAT))]),
    node("Unsqueeze", ["mask", "last_axis"], ["mask_column"]),
    node("Mul", ["token_vectors", "mask_column"], [output]),
  ];
}

function node(opType: string, input: string[], output: string[], attribute: AttributeProto[] = []): NodeProto {
  return create(NodeProtoSchema, { opType, input, output, name: `${opType.toLowerCase()}_${output[0]}`, attribute });
}

function intAttribute(name: string, i: bigint): AttributeProto {
  return create(AttributeProtoSchema, { name, i, type: AttributeProto_AttributeType.INT });
}

function floatTensor(name: string, dims: number[], values: Float32Array): TensorProto {
  // Little-endian whatever the host, so the file's bytes are the same on every machine.
  const raw = new Uint8Array(values.length * 4);
  const view = new DataView(raw.buffer);
  values.forEach((v, i) => view.setFloat32(i * 4, v, true));
  return create(TensorProtoSchema, { name, dims: dims.map(BigInt), dataType: TensorProto_DataType.FLOAT, rawData: raw });
}

function int64Tensor(name: string, values: bigint[]): TensorProto {
  return create(TensorProtoSchema, { name, dims: [BigInt(values.length)], dataType: TensorProto_DataType.INT64, int64Data: values });
}

function tensorInfo(name: string, elemType: TensorProto_DataType, dims: (string | number)[]): ValueInfoProto {
  const dim = dims.map((d) => (typeof d === "number" ? { value: { case: "dimValue" as const, value: BigInt(d) } } : { value: { case: "dimParam" as const, value: d } }));
  return create(ValueInfoProtoSchema, { name, type: { value: { case: "tensorType", value: { elemType, shape: { dim } } } } });
}
