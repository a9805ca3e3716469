import type { EmbedKind, Embedder, Provenance, Reranker } from "./types.js";

/**
 * A model whose operations in flight are counted (for `models status` and a refused `unload`),
 * and which says whether it is loaded in this process (a local model in its worker threads;
 * never a remote one).
 */
abstract class Tracked<M extends Embedder | Reranker> {
  #active = 0;

  constructor(readonly inner: M) {}

  get active(): number {
    return this.#active;
  }

  get resident(): boolean {
    return "resident" in this.inner && (this.inner as { resident: unknown }).resident === true;
  }

  close(): Promise<void> {
    return this.inner.close();
  }

  protected async track<T>(work: () => Promise<T>): Promise<T> {
    this.#active++;
    try {
      return await work();
    } finally {
      this.#active--;
    }
  }
}

/** An embedder whose operations in flight are counted. */
export class TrackedEmbedder extends Tracked<Embedder> implements Embedder {
  provenance(): Promise<Provenance> {
    return this.track(() => this.inner.provenance());
  }

  /** Counts `work` (an index run that embeds in batches) as one operation on the model from start to end. */
  hold<T>(work: () => Promise<T>): Promise<T> {
    return this.track(work);
  }

  embed(texts: readonly string[], kind: EmbedKind): Promise<Float32Array[]> {
    return this.track(() => this.inner.embed(texts, kind));
  }
}

/** A re-ranker whose operations in flight are counted. */
export class TrackedReranker extends Tracked<Reranker> implements Reranker {
  score(query: string, documents: readonly string[]): Promise<number[]> {
    return this.track(() => this.inner.score(query, documents));
  }
}
