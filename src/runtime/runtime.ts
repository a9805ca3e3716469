import type { EmbeddingSettings, KeepAlive } from "../core/embedding-settings.js";
import type { DownloadProgress, Reranker } from "./embed/types.js";
import { userCacheDir } from "../core/cache-dir.js";
import { ContextSmithError } from "../core/errors.js";
import { createEmbedder, createReranker } from "./embed/factory.js";
import { TrackedEmbedder, TrackedReranker } from "./embed/tracked.js";
import { IndexThread } from "./index-thread.js";
import { processHeap } from "./native-heap.js";
import { ParsePools } from "./pools.js";
import { TokenWorker, type AsyncTokenCounter } from "./token-worker.js";

/** How a runtime shares its resources. */
export interface RuntimeOptions {
  /**
   * Run index runs in one index thread instead of on the caller's thread (default false). A server
   * sets it: its event loop then only reads, and answers while another repository indexes.
   */
  indexThread?: boolean;
  /**
   * How long idle parse threads and the index thread stay up (default 0: let go after each run,
   * as a one-shot command wants). Models keep their own `CTXSMITH_KEEP_ALIVE`.
   */
  keepAlive?: KeepAlive;
  /**
   * Where what only makes the process faster is kept between processes (the token counters'
   * tables); default `CTXSMITH_CACHE_DIR` or the user's cache folder (see `core/cache-dir.ts`),
   * null for nowhere.
   */
  cacheDir?: string | null;
}

/** A model of the runtime, as `models status` shows it. */
export interface ModelState {
  role: "embedder" | "reranker";
  provider: EmbeddingSettings["provider"];
  model: string;
  /** How long it stays loaded after its last use. */
  keepAlive: KeepAlive;
  /** Loaded in this process now (a local model in its worker threads; a remote provider never is). */
  loaded: boolean;
  /** Operations in flight on it. */
  active: number;
}

/**
 * What one process shares between the repositories it holds: the token counters, the embedders and
 * re-rankers with their keep-alive, the parse threads, and the index thread. Made once per process
 * and injected into every Engine; ten repositories in one server hold one model and one set of
 * worker threads. Nothing here belongs to a repository.
 */
export class Runtime {
  /** The parse pools of inline index runs (the index thread keeps its own). */
  readonly parsePools: ParsePools;
  /** Where index runs go when the runtime runs them off the caller's thread; null: inline. */
  readonly indexThread: IndexThread | null;
  readonly #counters = new Map<string, TokenWorker>();
  readonly #embedders = new Map<string, { settings: EmbeddingSettings; embedder: TrackedEmbedder } | null>();
  readonly #rerankers = new Map<string, { settings: EmbeddingSettings; reranker: TrackedReranker }>();
  readonly #downloads = new Set<(progress: DownloadProgress) => void>();
  readonly #cacheDir: string | null;

  constructor(options: RuntimeOptions = {}) {
    const keepAlive = options.keepAlive ?? 0;
    this.#cacheDir = options.cacheDir === undefined ? userCacheDir() : options.cacheDir;
    this.parsePools = new ParsePools(keepAlive, processHeap());
    this.indexThread = options.indexThread ? new IndexThread(keepAlive) : null;
  }

  /** The token counter of `encoding`, shared (its encoder loads once, in its own thread). */
  tokenCounter(encoding: string): AsyncTokenCounter {
    let counter = this.#counters.get(encoding);
    if (!counter) this.#counters.set(encoding, (counter = new TokenWorker(encoding, this.#cacheDir)));
    return counter;
  }

  /**
   * The embedder of `settings` (null when semantic search is off), one per distinct settings:
   * repositories with the same model share it, and with it the model's residency.
   */
  embedder(settings: EmbeddingSettings, threads: number): TrackedEmbedder | null {
    const key = `${threads}:${JSON.stringify(settings)}`;
    if (!this.#embedders.has(key)) {
      const made = createEmbedder(settings, { threads, onDownload: (p) => this.#downloads.forEach((listener) => listener(p)) });
      this.#embedders.set(key, made ? { settings, embedder: new TrackedEmbedder(made) } : null);
    }
    return this.#embedders.get(key)?.embedder ?? null;
  }

  /** The cross-encoder of `settings`, one per distinct settings. */
  reranker(settings: EmbeddingSettings): Reranker {
    const key = JSON.stringify(settings);
    let entry = this.#rerankers.get(key);
    if (!entry) this.#rerankers.set(key, (entry = { settings, reranker: new TrackedReranker(createReranker(settings, { threads: 1 })) }));
    return entry.reranker;
  }

  /** The models this runtime has made: whether each is loaded, and what is running on it. */
  models(): ModelState[] {
    const state = (role: ModelState["role"], settings: EmbeddingSettings, model: TrackedEmbedder | TrackedReranker): ModelState => ({
      role,
      provider: settings.provider,
      model: role === "reranker" ? settings.rerankModel : settings.model,
      keepAlive: settings.keepAlive,
      loaded: model.resident,
      active: model.active,
    });
    return [
      ...[...this.#embedders.values()].flatMap((e) => (e ? [state("embedder", e.settings, e.embedder)] : [])),
      ...[...this.#rerankers.values()].map((r) => state("reranker", r.settings, r.reranker)),
    ];
  }

  /**
   * Releases every model now (the next use loads it again).
   * @throws ContextSmithError `BUSY` while an operation runs on one of them
   */
  async unload(): Promise<ModelState[]> {
    const models = this.models();
    const active = models.reduce((n, m) => n + m.active, 0);
    if (active > 0) throw new ContextSmithError("BUSY", `The model is busy (${active} operation${active > 1 ? "s" : ""} running): try again when ${active > 1 ? "they finish" : "it finishes"}.`, { active });
    await Promise.all([...[...this.#embedders.values()].map((e) => e?.embedder.close()), ...[...this.#rerankers.values()].map((r) => r.reranker.close())]);
    return models.filter((m) => m.loaded);
  }

  /** Follows model downloads (of any embedder of this runtime) until the returned function is called. */
  onDownload(listener: (progress: DownloadProgress) => void): () => void {
    this.#downloads.add(listener);
    return () => this.#downloads.delete(listener);
  }

  /** Releases every thread and model. Call it when no engine uses the runtime any more. */
  async close(): Promise<void> {
    const counters = [...this.#counters.values()];
    const embedders = [...this.#embedders.values()].map((e) => e?.embedder);
    const rerankers = [...this.#rerankers.values()].map((r) => r.reranker);
    this.#counters.clear();
    this.#embedders.clear();
    this.#rerankers.clear();
    await Promise.all([
      ...counters.map((c) => c.close()),
      ...embedders.map((e) => e?.close()),
      ...rerankers.map((r) => r.close()),
      this.indexThread?.close(),
      this.parsePools.close(),
    ]);
  }
}
