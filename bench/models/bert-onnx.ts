/**
 * Writes BERT-shaped ONNX models with random weights: the same graph and cost as a real encoder
 * (bge-small: 12 layers, hidden 384, 12 heads), so tests and benchmarks exercise the real loading
 * and inference code without downloading weights.
 *
 *   node dist/bench/models/bert-onnx.js --out DIR [--layers 12 --hidden 384 --heads 12] [--cross-encoder]
 *
 * A model folder holds `onnx/model.onnx`, `vocab.txt`, `tokenizer.json`, `config.json` and
 * `1_Pooling/config.json`: the layout of a sentence-transformers repository on the Hugging Face hub.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import onnxProto from "onnx-proto";
import { quantizeGraph } from "../../src/runtime/embed/quantize.js";

const { onnx } = onnxProto;
const FLOAT = onnx.TensorProto.DataType.FLOAT;
const INT64 = onnx.TensorProto.DataType.INT64;

/** The shape of a generated model. */
export interface BertShape {
  layers: number;
  hidden: number;
  heads: number;
  /** Feed-forward width (BERT: 4 × hidden). */
  intermediate: number;
  maxPositions: number;
  vocab: readonly string[];
  /** A cross-encoder adds a pooler and a one-logit classifier on the CLS token (output `logits`). */
  crossEncoder: boolean;
  pooling: "cls" | "mean" | "last";
  seed: number;
  /** Dynamic int8 quantization of the dense layers (src/embed/quantize.ts), written as `onnx/model_quantized.onnx`. */
  quantized: boolean;
}

/** A vocabulary: the special tokens at BERT's ids, the given words, then every ASCII character alone and as a `##` continuation. */
export function makeVocab(words: readonly string[], size = 0): string[] {
  const vocab: string[] = ["[PAD]"];
  for (let i = 1; i < 100; i++) vocab.push(`[unused${i}]`);
  vocab.push("[UNK]", "[CLS]", "[SEP]", "[MASK]");
  const seen = new Set(vocab);
  const add = (t: string): void => {
    if (!seen.has(t)) {
      seen.add(t);
      vocab.push(t);
    }
  };
  for (let c = 33; c < 127; c++) add(String.fromCharCode(c).toLowerCase());
  for (let c = 33; c < 127; c++) add(`##${String.fromCharCode(c).toLowerCase()}`);
  for (const w of words) add(w);
  for (let i = 0; vocab.length < size; i++) add(`[pad${i}]`);
  return vocab;
}

export const BGE_SMALL: Omit<BertShape, "vocab"> = {
  layers: 12, hidden: 384, heads: 12, intermediate: 1536, maxPositions: 512, crossEncoder: false, pooling: "cls", seed: 7, quantized: false,
};

/**
 * CodeRankEmbed's size (nomic-ai, 137M: 12 layers, hidden 768, 12 heads, feed-forward 3072, CLS
 * pooling). The real model is a NomicBERT (rotary positions, SwiGLU); this BERT of the same widths
 * costs about the same to run, which is what it is for.
 */
export const CODERANKEMBED: Omit<BertShape, "vocab"> = {
  layers: 12, hidden: 768, heads: 12, intermediate: 3072, maxPositions: 512, crossEncoder: false, pooling: "cls", seed: 11, quantized: false,
};

/** A tiny model for tests: fast to write and to run. */
export const TINY: Omit<BertShape, "vocab"> = {
  layers: 2, hidden: 32, heads: 4, intermediate: 64, maxPositions: 128, crossEncoder: false, pooling: "mean", seed: 1, quantized: false,
};

/** Mulberry32: a small seeded generator, so a model is the same bytes every time. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

class GraphBuilder {
  readonly nodes: onnxProto.onnx.INodeProto[] = [];
  readonly initializers: onnxProto.onnx.ITensorProto[] = [];
  #n = 0;
  readonly #rand: () => number;

  constructor(seed: number) {
    this.#rand = random(seed);
  }

  name(prefix: string): string {
    return `${prefix}_${this.#n++}`;
  }

  op(type: string, inputs: string[], attrs: onnxProto.onnx.IAttributeProto[] = [], outputs = 1): string[] {
    const out = Array.from({ length: outputs }, () => this.name(type.toLowerCase()));
    this.nodes.push({ opType: type, input: inputs, output: out, name: this.name(`n_${type}`), attribute: attrs });
    return out;
  }

  one(type: string, inputs: string[], attrs: onnxProto.onnx.IAttributeProto[] = []): string {
    return this.op(type, inputs, attrs)[0]!;
  }

  tensor(dims: number[], values: Float32Array | BigInt64Array, dataType: number, prefix = "w"): string {
    const name = this.name(prefix);
    this.initializers.push({ name, dims, dataType, rawData: new Uint8Array(values.buffer, values.byteOffset, values.byteLength) });
    return name;
  }

  floats(dims: number[], fill: "random" | number): string {
    const n = dims.reduce((a, b) => a * b, 1);
    const values = new Float32Array(n);
    // Uniform in ±0.05·√3 ≈ normal(0, 0.05) in scale: activations stay finite through 12 layers.
    for (let i = 0; i < n; i++) values[i] = fill === "random" ? (this.#rand() * 2 - 1) * 0.0866 : fill;
    return this.tensor(dims, values, FLOAT);
  }

  int64s(values: number[]): string {
    return this.tensor([values.length], BigInt64Array.from(values.map(BigInt)), INT64, "c");
  }

  scalar(value: number): string {
    return this.tensor([], Float32Array.of(value), FLOAT, "c");
  }

  /** `x · W + b`, with W and b random; W is [inDim, outDim]. */
  dense(x: string, inDim: number, outDim: number): string {
    return this.one("Add", [this.one("MatMul", [x, this.floats([inDim, outDim], "random")]), this.floats([outDim], "random")]);
  }

  layerNorm(x: string, dim: number): string {
    return this.one("LayerNormalization", [x, this.floats([dim], 1), this.floats([dim], 0)], [
      { name: "axis", type: onnx.AttributeProto.AttributeType.INT, i: -1 },
      { name: "epsilon", type: onnx.AttributeProto.AttributeType.FLOAT, f: 1e-12 },
    ]);
  }
}

const ints = (name: string, values: number[]): onnxProto.onnx.IAttributeProto => ({ name, type: onnx.AttributeProto.AttributeType.INTS, ints: values });
const int = (name: string, value: number): onnxProto.onnx.IAttributeProto => ({ name, type: onnx.AttributeProto.AttributeType.INT, i: value });

/** The serialized ONNX model (opset 17) of a BERT encoder with `shape`. */
export function bertModel(shape: BertShape): Uint8Array {
  const { hidden, heads, layers, intermediate } = shape;
  const headDim = hidden / heads;
  if (!Number.isInteger(headDim)) throw new Error(`hidden ${hidden} is not a multiple of heads ${heads}`);
  const g = new GraphBuilder(shape.seed);

  const ids = "input_ids";
  const mask = "attention_mask";
  const types = "token_type_ids";
  const seqLen = g.one("Gather", [g.one("Shape", [ids]), g.int64s([1])], [int("axis", 0)]);
  const positions = g.one("Range", [g.tensor([], BigInt64Array.of(0n), INT64, "c"), g.one("Squeeze", [seqLen]), g.tensor([], BigInt64Array.of(1n), INT64, "c")]);
  const words = g.one("Gather", [g.floats([shape.vocab.length, hidden], "random"), ids]);
  const pos = g.one("Gather", [g.floats([shape.maxPositions, hidden], "random"), positions]);
  const typ = g.one("Gather", [g.floats([2, hidden], "random"), types]);
  let x = g.layerNorm(g.one("Add", [g.one("Add", [words, pos]), typ]), hidden);

  // Attention bias: 0 where the mask is 1, −10,000 where it is 0; [B, 1, 1, S].
  const maskF = g.one("Cast", [mask], [int("to", FLOAT)]);
  const bias = g.one("Unsqueeze", [g.one("Mul", [g.one("Sub", [g.scalar(1), maskF]), g.scalar(-10000)]), g.int64s([1, 2])]);
  const headsShape = g.int64s([0, 0, heads, headDim]);
  const mergedShape = g.int64s([0, 0, hidden]);
  const scale = g.scalar(1 / Math.sqrt(headDim));

  for (let l = 0; l < layers; l++) {
    const split = (t: string, perm: number[]): string => g.one("Transpose", [g.one("Reshape", [t, headsShape])], [ints("perm", perm)]);
    const q = split(g.dense(x, hidden, hidden), [0, 2, 1, 3]);
    const k = split(g.dense(x, hidden, hidden), [0, 2, 3, 1]);
    const v = split(g.dense(x, hidden, hidden), [0, 2, 1, 3]);
    const scores = g.one("Add", [g.one("Mul", [g.one("MatMul", [q, k]), scale]), bias]);
    const probs = g.one("Softmax", [scores], [int("axis", -1)]);
    const context = g.one("Reshape", [g.one("Transpose", [g.one("MatMul", [probs, v])], [ints("perm", [0, 2, 1, 3])]), mergedShape]);
    const attended = g.layerNorm(g.one("Add", [x, g.dense(context, hidden, hidden)]), hidden);
    const up = g.dense(attended, hidden, intermediate);
    const gelu = g.one("Mul", [g.one("Mul", [up, g.scalar(0.5)]), g.one("Add", [g.scalar(1), g.one("Erf", [g.one("Mul", [up, g.scalar(Math.SQRT1_2)])])])]);
    x = g.layerNorm(g.one("Add", [attended, g.dense(gelu, intermediate, hidden)]), hidden);
  }

  const dynamic = (name: string, elemType: number, dims: Array<string | number>): onnxProto.onnx.IValueInfoProto => ({
    name,
    type: { tensorType: { elemType, shape: { dim: dims.map((d) => (typeof d === "string" ? { dimParam: d } : { dimValue: d })) } } },
  });
  const outputs: onnxProto.onnx.IValueInfoProto[] = [];
  if (shape.crossEncoder) {
    const cls = g.one("Gather", [x, g.tensor([], BigInt64Array.of(0n), INT64, "c")], [int("axis", 1)]);
    const pooled = g.one("Tanh", [g.dense(cls, hidden, hidden)]);
    const logits = g.dense(pooled, hidden, 1);
    g.nodes.push({ opType: "Identity", input: [logits], output: ["logits"], name: "logits" });
    outputs.push(dynamic("logits", FLOAT, ["batch", 1]));
  } else {
    g.nodes.push({ opType: "Identity", input: [x], output: ["last_hidden_state"], name: "last_hidden_state" });
    outputs.push(dynamic("last_hidden_state", FLOAT, ["batch", "sequence", hidden]));
  }

  const model = onnx.ModelProto.create({
    irVersion: 8,
    producerName: "contextsmith-bench",
    opsetImport: [{ domain: "", version: 17 }],
    graph: {
      name: shape.crossEncoder ? "cross-encoder" : "bert",
      node: g.nodes,
      initializer: g.initializers,
      input: [dynamic(ids, INT64, ["batch", "sequence"]), dynamic(mask, INT64, ["batch", "sequence"]), dynamic(types, INT64, ["batch", "sequence"])],
      output: outputs,
    },
  });
  // The int8 variant is what ContextSmith's own quantizer makes of the float model.
  if (shape.quantized) quantizeGraph(onnx, model);
  return onnx.ModelProto.encode(model).finish();
}

/** Writes a whole model folder (model, tokenizer, configs) for `shape` into `dir`; returns `dir`. */
export function writeModelDir(dir: string, shape: BertShape, options: { tokenizerJson?: boolean; vocabTxt?: boolean } = {}): string {
  mkdirSync(join(dir, "onnx"), { recursive: true });
  writeFileSync(join(dir, "onnx", shape.quantized ? "model_quantized.onnx" : "model.onnx"), bertModel(shape));
  if (options.vocabTxt ?? true) writeFileSync(join(dir, "vocab.txt"), `${shape.vocab.join("\n")}\n`);
  if (options.tokenizerJson ?? true) {
    writeFileSync(join(dir, "tokenizer.json"), JSON.stringify({
      version: "1.0",
      truncation: null,
      padding: null,
      // As Hugging Face writes BERT's: the specials as added tokens, and the template that puts them around a text.
      added_tokens: ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"].map((content) => ({ id: shape.vocab.indexOf(content), content, single_word: false, lstrip: false, rstrip: false, normalized: false, special: true })),
      normalizer: { type: "BertNormalizer", clean_text: true, handle_chinese_chars: true, strip_accents: null, lowercase: true },
      pre_tokenizer: { type: "BertPreTokenizer" },
      post_processor: {
        type: "TemplateProcessing",
        single: [{ SpecialToken: { id: "[CLS]", type_id: 0 } }, { Sequence: { id: "A", type_id: 0 } }, { SpecialToken: { id: "[SEP]", type_id: 0 } }],
        pair: [
          { SpecialToken: { id: "[CLS]", type_id: 0 } }, { Sequence: { id: "A", type_id: 0 } }, { SpecialToken: { id: "[SEP]", type_id: 0 } },
          { Sequence: { id: "B", type_id: 1 } }, { SpecialToken: { id: "[SEP]", type_id: 1 } },
        ],
        special_tokens: Object.fromEntries(["[CLS]", "[SEP]"].map((t) => [t, { id: t, ids: [shape.vocab.indexOf(t)], tokens: [t] }])),
      },
      decoder: { type: "WordPiece", prefix: "##", cleanup: true },
      model: { type: "WordPiece", unk_token: "[UNK]", continuing_subword_prefix: "##", max_input_chars_per_word: 100, vocab: Object.fromEntries(shape.vocab.map((t, i) => [t, i])) },
    }));
  }
  writeFileSync(join(dir, "config.json"), JSON.stringify({
    model_type: "bert", hidden_size: shape.hidden, num_hidden_layers: shape.layers, num_attention_heads: shape.heads,
    intermediate_size: shape.intermediate, max_position_embeddings: shape.maxPositions, vocab_size: shape.vocab.length,
  }));
  if (!shape.crossEncoder) {
    mkdirSync(join(dir, "1_Pooling"), { recursive: true });
    writeFileSync(join(dir, "1_Pooling", "config.json"), JSON.stringify({
      word_embedding_dimension: shape.hidden, pooling_mode_cls_token: shape.pooling === "cls", pooling_mode_mean_tokens: shape.pooling === "mean", pooling_mode_lasttoken: shape.pooling === "last",
    }));
  }
  return dir;
}

// Run as a script: write a model folder.
if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const args = process.argv.slice(2);
  const opt = (name: string): string | undefined => {
    const i = args.indexOf(`--${name}`);
    return i >= 0 ? args[i + 1] : undefined;
  };
  const out = opt("out");
  if (!out) {
    process.stderr.write("usage: bert-onnx.js --out DIR [--layers 12] [--hidden 384] [--heads 12] [--cross-encoder] [--quantized]\n");
    process.exit(2);
  }
  const hidden = Number(opt("hidden") ?? BGE_SMALL.hidden);
  const shape: BertShape = {
    ...BGE_SMALL,
    layers: Number(opt("layers") ?? BGE_SMALL.layers),
    hidden,
    heads: Number(opt("heads") ?? BGE_SMALL.heads),
    intermediate: 4 * hidden,
    crossEncoder: args.includes("--cross-encoder"),
    quantized: args.includes("--quantized"),
    vocab: makeVocab([], 30522),
  };
  writeModelDir(out, shape);
  process.stdout.write(`wrote ${out}\n`);
}
