/**
 * Data contracts of the embedding layer: providers turn texts into unit vectors; the index records
 * which provider and model made its vectors (provenance), so two vector spaces are never mixed.
 */

export type EmbedProvider = "local" | "ollama" | "openai";

/** How token vectors become one text vector (local models; remote providers pool themselves). */
export type Pooling = "cls" | "mean" | "provider";

/** What a vector space is: recorded in the index beside its vectors. */
export interface Provenance {
  provider: EmbedProvider;
  /** The model as configured: a Hugging Face id, a local folder, a provider's model name. */
  model: string;
  dimension: number;
  pooling: Pooling;
  /**
   * Identifies the vector space exactly: provider, model, and a fingerprint of the weights where
   * they are local. Vectors of different keys never meet.
   */
  key: string;
}

/** Documents (symbol summaries) and queries may be embedded differently (BGE prefixes queries). */
export type EmbedKind = "document" | "query";

/** Turns texts into L2-normalised vectors. */
export interface Embedder {
  /** Loads what it needs (once) and says what it is. */
  provenance(): Promise<Provenance>;
  /** One unit vector per text, in order. */
  embed(texts: readonly string[], kind: EmbedKind): Promise<Float32Array[]>;
  /** Releases the model (and its worker threads). The embedder can be used again afterwards. */
  close(): Promise<void>;
}

/** Scores (query, document) pairs with a cross-encoder: higher is more relevant. */
export interface Reranker {
  score(query: string, documents: readonly string[]): Promise<number[]>;
  close(): Promise<void>;
}

/** How long a loaded model stays resident after its last use: milliseconds, or for the process's life. */
export type KeepAlive = number | "always";

/** Embedding settings, resolved once from options and the environment (see settings.ts). */
export interface EmbeddingSettings {
  /** `none` turns semantic search off. */
  readonly provider: EmbedProvider | "none";
  /** A Hugging Face model id or a local folder (local), or the provider's model name. */
  readonly model: string;
  /** Base URL of an Ollama or OpenAI-compatible server. */
  readonly endpoint: string | null;
  readonly apiKey: string | null;
  /** Cache folder: downloaded models (`models/`) and the vector cache (`vectors.lmdb`). */
  readonly cacheDir: string;
  /** Never touch the network (HF_HUB_OFFLINE / CTXSMITH_OFFLINE). */
  readonly offline: boolean;
  /** The Hugging Face hub (HF_ENDPOINT). */
  readonly hubEndpoint: string;
  readonly keepAlive: KeepAlive;
  /** Prefer a model's int8 file (`onnx/model_quantized.onnx`) where it has one. */
  readonly quantized: boolean;
  /** The cross-encoder of `--rerank`. */
  readonly rerankModel: string;
}

/** Progress of a model download. */
export interface DownloadProgress {
  model: string;
  file: string;
  received: number;
  /** Bytes in all, when the server says. */
  total: number | null;
}
