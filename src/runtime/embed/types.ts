/**
 * Data contracts of the embedding layer: providers turn texts into unit vectors; the index records
 * which provider and model made its vectors (provenance), so two vector spaces are never mixed.
 */
import type { EmbedProvider } from "../../core/embedding-settings.js";

/**
 * How token vectors become one text vector (local models; remote providers pool themselves): the
 * first token's, the mean of all, or the last real token's (decoder-based embedders such as Qwen3-Embedding).
 */
export type Pooling = "cls" | "mean" | "last" | "provider";

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

/** Progress of a model download. */
export interface DownloadProgress {
  model: string;
  file: string;
  received: number;
  /** Bytes in all, when the server says. */
  total: number | null;
}
