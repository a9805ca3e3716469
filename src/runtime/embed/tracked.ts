import type { EmbedKind, Embedder, Provenance, Reranker } from "./types.js";

/** Counts the operations in flight on a model, and says whether it is loaded. */
class Activity {
  #active = 0;

  get active(): number {
    return this.#active;
  }

  async track<T>(work: () => Promise<T>): Promise<T> {
    this.#active++;
    try {
      return await work();
    } finally {
      this.#active--;
    }
  }
}

/** Whether a provider's model is loaded in this process (a local model in its worker threads; never a remote one). */
function residentOf(model: Embedder | Reranker): boolean {
  return "resident" in model && (model as { resident: unknown }).resident === true;
}

/** An embedder whose operations in flight are counted (for `models status` and a refused `unload`). */
export class TrackedEmbedder implements Embedder {
  readonly #activity = new Activity();

  constructor(readonly inner: Embedder) {}

  get active(): number {
    return this.#activity.active;
  }

  get resident(): boolean {
    return residentOf(this.inner);
  }

  provenance(): Promise<Provenance> {
    return this.#activity.track(() => this.inner.provenance());
  }

  /** Counts `work` (an index run that embeds in batches) as one operation on the model from start to end. */
  hold<T>(work: () => Promise<T>): Promise<T> {
    return this.#activity.track(work);
  }

  embed(texts: readonly string[], kind: EmbedKind): Promise<Float32Array[]> {
    return this.#activity.track(() => this.inner.embed(texts, kind));
  }

  close(): Promise<void> {
    return this.inner.close();
  }
}

/** A re-ranker whose operations in flight are counted. */
export class TrackedReranker implements Reranker {
  readonly #activity = new Activity();

  constructor(readonly inner: Reranker) {}

  get active(): number {
    return this.#activity.active;
  }

  get resident(): boolean {
    return residentOf(this.inner);
  }

  score(query: string, documents: readonly string[]): Promise<number[]> {
    return this.#activity.track(() => this.inner.score(query, documents));
  }

  close(): Promise<void> {
    return this.inner.close();
  }
}
