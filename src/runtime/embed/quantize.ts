import { mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname } from "node:path";
import type { onnx as Onnx } from "onnx-proto";
import { ContextSmithError } from "../../core/errors.js";

type Proto = typeof Onnx;

/**
 * Dynamic int8 quantization of an ONNX model's dense layers, as
 * `onnxruntime.quantization.quantize_dynamic` does it: every `MatMul` whose second input is a
 * float32 weight matrix becomes
 *
 *   DynamicQuantizeLinear(x) → MatMulInteger(x_q, W_q, x_zero, 0) → Cast → × (x_scale · W_scale)
 *
 * with W quantized symmetrically to int8, one scale per matrix. Activations are quantized at run
 * time (uint8, per tensor). On 2 cores this runs a BERT encoder 2–3× faster than float32
 * (bench/results-embed.md); sentence-embedding models lose little accuracy to it.
 *
 * Writes `target` (through a temporary file); `source` is not changed.
 */
export async function quantizeModel(source: string, target: string): Promise<{ quantized: number }> {
  // Required, not imported: see createPool (runtime/pools.ts).
  const { onnx } = createRequire(import.meta.url)("onnx-proto") as typeof import("onnx-proto");
  let model: Onnx.ModelProto;
  try {
    model = onnx.ModelProto.decode(readFileSync(source));
  } catch (error) {
    throw new ContextSmithError("INVALID_ARGUMENT", `Cannot read the ONNX model ${source}: ${(error as Error).message}`);
  }
  const quantized = quantizeGraph(onnx, model);
  mkdirSync(dirname(target), { recursive: true });
  // A temporary name of this process's own: two processes quantizing the same model both finish.
  const temporary = `${target}.${process.pid}.tmp`;
  writeFileSync(temporary, onnx.ModelProto.encode(model).finish());
  renameSync(temporary, target);
  return { quantized };
}

/** Rewrites the graph's weight `MatMul`s in place; returns how many. */
export function quantizeGraph(onnx: Proto, model: Onnx.IModelProto): number {
  const graph = model.graph;
  if (!graph) throw new ContextSmithError("INVALID_ARGUMENT", "The ONNX model has no graph.");
  const opset = model.opsetImport?.find((o) => !o.domain)?.version;
  if (opset !== undefined && opset !== null && Number(opset) < 11) {
    throw new ContextSmithError("INVALID_ARGUMENT", `The model uses ONNX opset ${String(opset)}; quantization needs 11 or later.`);
  }
  const initializers = new Map((graph.initializer ?? []).map((t) => [t.name ?? "", t]));
  const uses = new Map<string, number>();
  for (const node of graph.node ?? []) for (const input of node.input ?? []) uses.set(input, (uses.get(input) ?? 0) + 1);

  const FLOAT = onnx.TensorProto.DataType.FLOAT;
  const INT8 = onnx.TensorProto.DataType.INT8;
  const nodes: Onnx.INodeProto[] = [];
  const added: Onnx.ITensorProto[] = [];
  const dropped = new Set<string>();
  let count = 0;
  for (const node of graph.node ?? []) {
    const weight = node.opType === "MatMul" && !node.domain ? initializers.get(node.input?.[1] ?? "") : undefined;
    const values = weight && weight.dataType === FLOAT && weight.dims?.length === 2 ? floatsOf(weight) : null;
    if (!weight || !values) {
      nodes.push(node);
      continue;
    }
    if (weight.dataLocation === onnx.TensorProto.DataLocation.EXTERNAL) {
      throw new ContextSmithError("INVALID_ARGUMENT", "The model keeps its weights in external data files: quantize it with onnxruntime's tools instead.");
    }
    const name = weight.name!;
    let max = 0;
    for (const v of values) max = Math.max(max, Math.abs(v));
    const scale = max > 0 ? max / 127 : 1;
    const q = new Int8Array(values.length);
    for (let i = 0; i < values.length; i++) q[i] = Math.max(-127, Math.min(127, Math.round(values[i]! / scale)));
    const prefix = `${node.name || name}_q${count}`;
    added.push(
      { name: `${prefix}_W`, dims: weight.dims, dataType: INT8, rawData: new Uint8Array(q.buffer) },
      { name: `${prefix}_W_scale`, dims: [], dataType: FLOAT, rawData: new Uint8Array(Float32Array.of(scale).buffer) },
      { name: `${prefix}_W_zero`, dims: [], dataType: INT8, rawData: new Uint8Array(Int8Array.of(0).buffer) },
    );
    const [x] = node.input!;
    const out = node.output![0]!;
    const t = (suffix: string): string => `${prefix}_${suffix}`;
    nodes.push(
      { opType: "DynamicQuantizeLinear", input: [x!], output: [t("x"), t("x_scale"), t("x_zero")], name: t("quantize") },
      { opType: "MatMulInteger", input: [t("x"), `${prefix}_W`, t("x_zero"), `${prefix}_W_zero`], output: [t("int")], name: t("matmul") },
      { opType: "Cast", input: [t("int")], output: [t("float")], name: t("cast"), attribute: [{ name: "to", type: onnx.AttributeProto.AttributeType.INT, i: FLOAT }] },
      { opType: "Mul", input: [t("x_scale"), `${prefix}_W_scale`], output: [t("scale")], name: t("scale_mul") },
      { opType: "Mul", input: [t("float"), t("scale")], output: [out], name: t("dequantize") },
    );
    const left = (uses.get(name) ?? 1) - 1;
    uses.set(name, left);
    if (left === 0) dropped.add(name);
    count++;
  }
  graph.node = nodes;
  graph.initializer = [...(graph.initializer ?? []).filter((t) => !dropped.has(t.name ?? "")), ...added];
  // Value infos of removed weights would describe tensors that no longer exist.
  graph.valueInfo = (graph.valueInfo ?? []).filter((v) => !dropped.has(v.name ?? ""));
  return count;
}

function floatsOf(tensor: Onnx.ITensorProto): Float32Array | null {
  if (tensor.rawData && tensor.rawData.length > 0) {
    const copy = new Uint8Array(tensor.rawData);
    return new Float32Array(copy.buffer, 0, copy.length / 4);
  }
  if (tensor.floatData && tensor.floatData.length > 0) return Float32Array.from(tensor.floatData);
  return null;
}
