import { existsSync } from "node:fs";
import { join } from "node:path";
import type { Piscina } from "piscina";
import { ContextSmithError } from "../../core/errors.js";
import { createPool } from "../pools.js";
import { readModelCard, type ModelCard } from "./model-dir.js";
import { DOCUMENT_MAX_TOKENS } from "./onnx-encoder.js";
import { quantizeModel } from "./quantize.js";
import { EMBED_PROTOCOL_VERSION, type EmbedResult, type EmbedTask } from "./protocol.js";
import { Resident } from "../resident.js";
import type { KeepAlive } from "../../core/embedding-settings.js";
import type { Embedder, EmbedKind, Provenance, Reranker } from "./types.js";

/** A model that could not be located is not tried again sooner than this. */
const RETRY_AFTER_MS = 60_000;
/** Texts per inference call at most... */
const BATCH = 32;
/** ...and padded tokens (see {@link lengthBatches}). */
const BATCH_TOKENS = 128;

/** How a local model is found and run. */
export interface LocalModelOptions {
  /** The model as configured (a hub id or a folder). */
  model: string;
  /** Resolves the model to a local folder, downloading it when needed. */
  locate: () => Promise<string>;
  /** Use an int8 model: the model's own int8 file, else one quantized here once (see quantize.ts). */
  quantized: boolean;
  /** Where models quantized here are kept (`<cacheDir>/quantized/`). */
  cacheDir: string;
  /** Embed worker threads (one intra-op thread each). */
  threads: number;
  keepAlive: KeepAlive;
}

/**
 * An ONNX model in a piscina pool of embed workers (workers/embed.ts). The folder is located (and
 * downloaded) once; the pool and the model in each worker load on first use and go after the
 * keep-alive grace period (see Resident).
 */
class OnnxPool {
  #card: Promise<ModelCard> | null = null;
  readonly #pool: Resident<Piscina>;

  constructor(readonly options: LocalModelOptions) {
    this.#pool = new Resident(() => createPool("embed", options.threads), (pool) => pool.destroy(), options.keepAlive);
  }

  /**
   * The model folder's card, located (downloaded) once. A failure is kept for a minute: a server
   * refreshing its index every few seconds does not retry a download each time.
   */
  card(): Promise<ModelCard> {
    if (!this.#card) {
      const card = this.options.locate().then((dir) => this.#withInt8(readModelCard(dir, this.options.model, this.options.quantized)));
      this.#card = card;
      card.catch(() => {
        setTimeout(() => {
          if (this.#card === card) this.#card = null;
        }, RETRY_AFTER_MS).unref();
      });
    }
    return this.#card;
  }

  /** The card itself, or, when int8 is wanted and the model has no int8 file, its quantized copy (made once, then cached). */
  async #withInt8(card: ModelCard): Promise<ModelCard> {
    if (!this.options.quantized || card.int8) return card;
    const target = join(this.options.cacheDir, "quantized", `${card.fingerprint}.onnx`);
    if (!existsSync(target)) await quantizeModel(card.onnx, target);
    return { ...card, onnx: target, int8: true, fingerprint: `${card.fingerprint}-q8` };
  }

  /** Runs tasks on the pool (all of one call share one residency). */
  async run(tasks: ReadonlyArray<(card: ModelCard) => EmbedTask>): Promise<EmbedResult[]> {
    const card = await this.card();
    return this.#pool.use(async (pool) => {
      try {
        return await Promise.all(tasks.map((make) => pool.run(make(card)) as Promise<EmbedResult>));
      } catch (error) {
        throw ContextSmithError.from(error);
      }
    });
  }

  get resident(): boolean {
    return this.#pool.loaded;
  }

  close(): Promise<void> {
    return this.#pool.close();
  }
}

/** Roughly BERT's token count of a text: words and punctuation marks (WordPiece splits a few words more). */
export function approxTokens(text: string): number {
  return (text.match(/[\p{L}\p{N}]+|[^\s\p{L}\p{N}]/gu)?.length ?? 0) + 2;
}

/**
 * Splits `texts` into batches of similar length, each at most `size` texts and about `budget`
 * padded tokens: a batch is padded to its longest text, and small batches of long texts keep
 * the model's activations in cache (bench/results-embed.md: 128 padded tokens per batch ran the
 * int8 model 1.8× faster than batches of 32 summaries on 2 cores).
 * Returns each batch's original positions.
 */
export function lengthBatches(texts: readonly string[], size = BATCH, budget = BATCH_TOKENS, maxTokens = Infinity): number[][] {
  // The model cuts a text at `maxTokens`: a longer one pads its batch to that, no further.
  const tokens = texts.map((t) => Math.min(maxTokens, approxTokens(t)));
  const order = texts.map((_, i) => i).sort((a, b) => tokens[a]! - tokens[b]! || a - b);
  const batches: number[][] = [];
  let batch: number[] = [];
  for (const i of order) {
    // Sorted by length: this text is the batch's longest, so the batch pads to it.
    if (batch.length > 0 && (batch.length >= size || (batch.length + 1) * tokens[i]! > budget)) {
      batches.push(batch);
      batch = [];
    }
    batch.push(i);
  }
  if (batch.length > 0) batches.push(batch);
  return batches;
}

/** The local ONNX provider: the default. */
export class LocalEmbedder implements Embedder {
  readonly #pool: OnnxPool;
  #provenance: Promise<Provenance> | null = null;

  constructor(options: LocalModelOptions) {
    this.#pool = new OnnxPool(options);
  }

  /** Whether the model is loaded in worker threads right now (keep-alive). */
  get resident(): boolean {
    return this.#pool.resident;
  }

  provenance(): Promise<Provenance> {
    if (!this.#provenance) {
      const made = this.#pool.card().then(async (card) => {
        // Without a config.json hidden size, the model says its dimension by embedding one text.
        const dimension = card.dimension ?? (await this.embed(["dimension probe"], "document"))[0]!.length;
        const key = `local:${this.#pool.options.model}:${card.fingerprint}:${card.pooling}`;
        return { provider: "local" as const, model: this.#pool.options.model, dimension, pooling: card.pooling, key };
      });
      this.#provenance = made;
      made.catch(() => {
        if (this.#provenance === made) this.#provenance = null;
      });
    }
    return this.#provenance;
  }

  async embed(texts: readonly string[], kind: EmbedKind): Promise<Float32Array[]> {
    if (texts.length === 0) return [];
    const batches = lengthBatches(texts, BATCH, BATCH_TOKENS, kind === "document" ? DOCUMENT_MAX_TOKENS : Infinity);
    const results = await this.#pool.run(
      batches.map((batch) => (card) => ({ version: EMBED_PROTOCOL_VERSION, op: "embed", card, kind, texts: batch.map((i) => texts[i]!) })),
    );
    const out = new Array<Float32Array>(texts.length);
    batches.forEach((batch, b) => {
      const { values, dimension } = results[b]!;
      batch.forEach((index, j) => {
        out[index] = values.slice(j * dimension, (j + 1) * dimension);
      });
    });
    return out;
  }

  close(): Promise<void> {
    return this.#pool.close();
  }
}

/** A cross-encoder on the same machinery, for `context --rerank`. */
export class LocalReranker implements Reranker {
  readonly #pool: OnnxPool;

  constructor(options: LocalModelOptions) {
    this.#pool = new OnnxPool(options);
  }

  /** Whether the model is loaded in worker threads right now (keep-alive). */
  get resident(): boolean {
    return this.#pool.resident;
  }

  async score(query: string, documents: readonly string[]): Promise<number[]> {
    if (documents.length === 0) return [];
    const batches = lengthBatches(documents, 8);
    const results = await this.#pool.run(
      batches.map((batch) => (card) => ({ version: EMBED_PROTOCOL_VERSION, op: "score", card, query, documents: batch.map((i) => documents[i]!) })),
    );
    const scores = new Array<number>(documents.length);
    batches.forEach((batch, b) => batch.forEach((index, j) => (scores[index] = results[b]!.values[j]!)));
    return scores;
  }

  close(): Promise<void> {
    return this.#pool.close();
  }
}
