import { ContextSmithError } from "../../core/errors.js";
import type { ModelCard } from "./model-dir.js";
import { ModelTokenizer, type Encoding } from "./tokenizer.js";
import type { EmbedKind } from "./types.js";
import { normalize } from "./vector-math.js";

/**
 * Summaries are cut here: name, path and doc sentence fit; what is cut is a long signature's tail.
 * The cost of a summary is linear in its tokens (half of code summaries would run past 80).
 */
export const DOCUMENT_MAX_TOKENS = 64;

/**
 * The subset of onnxruntime-node's API we use. It is an optional dependency (npm leaves it out
 * where its install script fails: native-notes/onnxruntime-node.md), so nothing here, the build
 * included, may need it to be installed: it is loaded by a name the compiler does not resolve.
 */
interface OrtTensor {
  readonly type: string;
  readonly data: unknown;
  readonly dims: readonly number[];
}
interface OrtSession {
  readonly inputNames: readonly string[];
  readonly outputNames: readonly string[];
  run(feeds: Record<string, OrtTensor>): Promise<Record<string, OrtTensor>>;
  release(): Promise<void>;
}
export interface OrtModule {
  InferenceSession: {
    create(path: string, options: { intraOpNumThreads: number; interOpNumThreads: number; graphOptimizationLevel: "all"; executionMode: "sequential" }): Promise<OrtSession>;
  };
  Tensor: new (type: "int64", data: BigInt64Array, dims: readonly number[]) => OrtTensor;
}

const ORT_PACKAGE = "onnxruntime-node";
const loadOrt = async (): Promise<OrtModule> => (await import(ORT_PACKAGE)) as OrtModule;

/**
 * An encoder ONNX model on onnxruntime's CPU provider: tokenizes (the model's own tokenizer),
 * pads a batch to its longest input on the right, runs the session, pools (CLS, attention-masked
 * mean or last token) and L2-normalises. Runs inside an
 * embed worker; one intra-op thread per worker, so a pool of N workers uses N cores.
 */
export class OnnxEncoder {
  private constructor(
    readonly card: ModelCard,
    private readonly session: OrtSession,
    private readonly tokenizer: ModelTokenizer,
    private readonly ort: OrtModule,
  ) {}

  /** `runtime`: how onnxruntime-node is loaded (injected in tests, to stand for a machine without it). */
  static async load(card: ModelCard, threads = 1, runtime: () => Promise<OrtModule> = loadOrt): Promise<OnnxEncoder> {
    const tokenizer = ModelTokenizer.fromDir(card.dir);
    let ort: OrtModule;
    try {
      ort = await runtime();
    } catch (error) {
      // An optional dependency: npm leaves it out where its install fails (package.json, native-notes/onnxruntime-node.md).
      throw new ContextSmithError(
        "WORKER_FAILED",
        `onnxruntime-node cannot load (${(error as Error).message.split("\n")[0]}): local embeddings and --rerank are off, search is lexical. Install it beside contextsmith to turn them on (for a global install: ONNXRUNTIME_NODE_INSTALL=skip npm install -g onnxruntime-node; the variable skips its GPU download).`,
      );
    }
    let session: OrtSession;
    try {
      session = await ort.InferenceSession.create(card.onnx, {
        intraOpNumThreads: threads,
        interOpNumThreads: 1,
        graphOptimizationLevel: "all",
        executionMode: "sequential",
      });
    } catch (error) {
      throw new ContextSmithError("INVALID_ARGUMENT", `Cannot load the model ${card.onnx}: ${(error as Error).message}`);
    }
    return new OnnxEncoder(card, session, tokenizer, ort);
  }

  /** Unit vectors of `texts`, packed one after another; `dimension` floats each. */
  async embed(texts: readonly string[], kind: EmbedKind): Promise<{ vectors: Float32Array; dimension: number }> {
    const maxLength = kind === "query" ? this.card.maxLength : Math.min(DOCUMENT_MAX_TOKENS, this.card.maxLength);
    const prefix = kind === "query" ? this.card.queryPrefix : "";
    const encodings = texts.map((t) => this.tokenizer.encode(prefix + t, maxLength));
    const { output, dims, mask, width } = await this.#run(encodings);
    const n = encodings.length;
    if (dims.length === 2) {
      // Already one vector per text (a model exported with its pooling).
      const vectors = Float32Array.from(output);
      for (let i = 0; i < n; i++) normalize(vectors.subarray(i * dims[1]!, (i + 1) * dims[1]!));
      return { vectors, dimension: dims[1]! };
    }
    const dimension = dims[2]!;
    const vectors = new Float32Array(n * dimension);
    for (let i = 0; i < n; i++) {
      const v = vectors.subarray(i * dimension, (i + 1) * dimension);
      if (this.card.pooling === "cls") v.set(output.subarray(i * width * dimension, i * width * dimension + dimension));
      else if (this.card.pooling === "last") {
        // Inputs are padded on the right: a text's last real token is its length minus one.
        const last = i * width + encodings[i]!.ids.length - 1;
        v.set(output.subarray(last * dimension, (last + 1) * dimension));
      } else {
        let count = 0;
        for (let t = 0; t < width; t++) {
          if (mask[i * width + t] === 0n) continue;
          count++;
          const base = (i * width + t) * dimension;
          for (let d = 0; d < dimension; d++) v[d]! += output[base + d]!;
        }
        for (let d = 0; d < dimension; d++) v[d]! /= Math.max(1, count);
      }
      normalize(v);
    }
    return { vectors, dimension };
  }

  /** Cross-encoder relevance of each document to the query: the model's first logit. */
  async score(query: string, documents: readonly string[]): Promise<Float32Array> {
    const encodings = documents.map((d) => this.tokenizer.encodePair(query, d, this.card.maxLength));
    const { output, dims } = await this.#run(encodings);
    const perRow = dims.slice(1).reduce((a, b) => a * b, 1);
    return Float32Array.from({ length: documents.length }, (_, i) => output[i * perRow]!);
  }

  async #run(encodings: readonly Encoding[]): Promise<{ output: Float32Array; dims: readonly number[]; mask: BigInt64Array; width: number }> {
    const n = encodings.length;
    const width = Math.max(...encodings.map((e) => e.ids.length));
    const ids = new BigInt64Array(n * width).fill(BigInt(this.tokenizer.pad));
    const mask = new BigInt64Array(n * width);
    const types = new BigInt64Array(n * width);
    const positions = new BigInt64Array(n * width);
    encodings.forEach((e, i) => {
      for (let t = 0; t < e.ids.length; t++) {
        ids[i * width + t] = BigInt(e.ids[t]!);
        mask[i * width + t] = 1n;
        types[i * width + t] = BigInt(e.typeIds[t]!);
        positions[i * width + t] = BigInt(t);
      }
    });
    const { Tensor } = this.ort;
    const all: Record<string, () => OrtTensor> = {
      input_ids: () => new Tensor("int64", ids, [n, width]),
      attention_mask: () => new Tensor("int64", mask, [n, width]),
      token_type_ids: () => new Tensor("int64", types, [n, width]),
      position_ids: () => new Tensor("int64", positions, [n, width]),
    };
    const feeds: Record<string, OrtTensor> = {};
    for (const name of this.session.inputNames) {
      const tensor = all[name];
      if (!tensor) throw new ContextSmithError("INVALID_ARGUMENT", `The model ${this.card.onnx} wants an input ${name}: only encoder exports taking ${Object.keys(all).join(", ")} are supported (a decoder export with a key/value cache is not).`);
      feeds[name] = tensor();
    }
    const results = await this.session.run(feeds);
    const out = results[this.session.outputNames[0]!]!;
    if (out.type !== "float32") throw new ContextSmithError("INVALID_ARGUMENT", `The model's output is ${out.type}, not float32.`);
    return { output: out.data as Float32Array, dims: out.dims, mask, width };
  }

  async release(): Promise<void> {
    await this.session.release();
  }
}
