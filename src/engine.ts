import { statSync } from "node:fs";
import { resolveConfig, type Config, type IndexOptions } from "./core/config.js";
import { ContextSmithError } from "./core/errors.js";
import type { IndexStats } from "./core/types.js";
import { runIndex, type RunOptions } from "./indexing/indexer.js";
import { TokenWorker, type AsyncTokenCounter } from "./query/pack/token-worker.js";
import { resolveRanking, type RankingConfig, type RankingOverrides } from "./query/ranking-config.js";
import { Searcher, type RankOptions } from "./query/searcher.js";
import type { ContextResult, RankResult, SearchHit } from "./query/types.js";
import { loadLexical, type LexicalIndex } from "./store/lexical.js";
import { IndexStore } from "./store/store.js";
import type { StoreMeta } from "./store/types.js";

/** Options of an {@link Engine}: where the repository is, how it is indexed and how it is ranked. */
export interface EngineOptions extends IndexOptions {
  /** Fusion weights and packing parameters over the defaults (see `src/query/ranking-config.ts`). */
  ranking?: RankingOverrides;
}

/** Options of a query (`rank`, `context`, `search`). */
export interface QueryOptions {
  /**
   * Bring the index up to date first (default true): the incremental no-change check, re-indexing
   * what changed, or a full build when there is no index yet. With false, the query reads the
   * index as it is (it must exist).
   */
  refresh?: boolean;
  /** Progress of the refresh, when it has work to do. */
  onProgress?: RunOptions["onProgress"];
  signal?: AbortSignal;
  /** Ranking overrides for this query only. */
  ranking?: RankingOverrides;
}

/** What `Engine.status()` reports about the stored index. */
export interface IndexStatus {
  root: string;
  indexDir: string;
  schema: number;
  totals: StoreMeta["totals"];
  gitHead: string | null;
  commits: number;
  semantic: boolean;
  lastRun: StoreMeta["lastRun"];
  indexBytes: number;
}

/**
 * The library entry: one repository's index. The CLI and the MCP server are thin layers over it,
 * and one process may hold several engines (one per repository).
 *
 * ```ts
 * const engine = new Engine("/path/to/repo");
 * const stats = await engine.index({ onProgress: console.error });
 * await engine.close();
 * ```
 */
export class Engine {
  /** The resolved configuration. */
  readonly config: Config;
  /** The resolved ranking configuration. */
  readonly ranking: RankingConfig;
  #reader: IndexStore | null = null;
  #searcher: { key: string; searcher: Searcher } | null = null;
  #counter: AsyncTokenCounter | null = null;
  #refreshing: Promise<unknown> | null = null;

  /** @throws ContextSmithError `PATH_NOT_FOUND` or `NOT_A_DIRECTORY` for a bad root. */
  constructor(root: string, options: EngineOptions = {}) {
    this.config = resolveConfig(root, options);
    this.ranking = resolveRanking(options.ranking);
    let isDir: boolean;
    try {
      isDir = statSync(this.config.root).isDirectory();
    } catch {
      throw new ContextSmithError("PATH_NOT_FOUND", `No such directory: ${this.config.root}`);
    }
    if (!isDir) throw new ContextSmithError("NOT_A_DIRECTORY", `Not a directory: ${this.config.root}`);
  }

  /**
   * Brings the index up to date: a full build the first time, then only what changed.
   * Waits for a concurrent writer unless `wait: false` (then fails with `LOCKED`).
   */
  async index(options: RunOptions = {}): Promise<IndexStats> {
    return runIndex(this.config, options);
  }

  /** The stored index's state, or null when there is no index yet. */
  status(): IndexStatus | null {
    const store = this.#store();
    if (!store) return null;
    const meta = store.meta();
    return {
      root: this.config.root,
      indexDir: this.config.indexDir,
      schema: meta.schema,
      totals: meta.totals,
      gitHead: meta.gitHead,
      commits: meta.commits,
      semantic: meta.semantic,
      lastRun: meta.lastRun,
      indexBytes: store.diskBytes(),
    };
  }

  /** The lexical index (FlexSearch and BM25 statistics) as currently committed. */
  lexical(): LexicalIndex {
    const store = this.#store();
    if (!store) throw new ContextSmithError("NO_INDEX", "There is no index yet: run `ctxsmith index` first.");
    return loadLexical(store);
  }

  /** Read access to the stored tables, or null when there is no index yet. */
  store(): IndexStore | null {
    return this.#store();
  }

  /**
   * Ranks the repository's files for a task, best first, with each signal's rank and evidence.
   *
   * ```ts
   * const { files } = await engine.rank("TypeError in charge_card when the card expired");
   * ```
   */
  async rank(task: string, options: QueryOptions & { limit?: number } = {}): Promise<RankResult> {
    const searcher = await this.#ready(options);
    const result = searcher.rank(task, this.#rankOptions(options));
    return options.limit === undefined ? result : { ...result, files: result.files.slice(0, options.limit) };
  }

  /**
   * The code an agent should read for `task`, packed into `budget` tokens (default 4,000) of the
   * configured encoding: markdown with a header per file and numbered lines. `tokens` is never
   * more than `budget`.
   */
  async context(task: string, options: QueryOptions & { budget?: number } = {}): Promise<ContextResult> {
    const budget = options.budget ?? 4000;
    if (!Number.isInteger(budget) || budget < 1) throw new ContextSmithError("INVALID_ARGUMENT", `The budget must be a positive whole number of tokens, not ${budget}.`);
    const config = this.#rankOptions(options).config ?? this.ranking;
    // The encoder loads in its worker while the index is refreshed and the task ranked.
    const counter = this.#tokenCounter(config.pack.encoding);
    const searcher = await this.#ready(options);
    return searcher.context(task, budget, counter, { config });
  }

  /** Functions and classes matching `query`, best first, with file, line and signature. */
  async search(query: string, options: QueryOptions & { limit?: number } = {}): Promise<SearchHit[]> {
    const searcher = await this.#ready(options);
    return searcher.search(query, options.limit ?? 20);
  }

  /** Counts tokens as `context` does (the engine's configured encoding). */
  countTokens(text: string): Promise<number> {
    return this.#tokenCounter(this.ranking.pack.encoding).count(text);
  }

  /** Releases the store and the token encoder. The engine can be used again afterwards (both reopen lazily). */
  async close(): Promise<void> {
    const reader = this.#reader;
    this.#reader = null;
    this.#searcher = null;
    const counter = this.#counter;
    this.#counter = null;
    await counter?.close();
    await reader?.close();
  }

  /** Refreshes the index when asked, then returns a searcher over its current state. */
  async #ready(options: QueryOptions): Promise<Searcher> {
    if (options.refresh ?? true) await this.#refresh(options);
    const store = this.#store();
    if (!store) throw new ContextSmithError("NO_INDEX", `There is no index of ${this.config.root} yet: run \`ctxsmith index\` first (or query without --no-refresh).`);
    const meta = store.meta();
    // The searcher's loaded indexes stay valid while no commit changed what they were built from.
    const key = `${meta.createdAt}:${meta.generation}`;
    if (this.#searcher?.key !== key) this.#searcher = { key, searcher: new Searcher(store, this.config.root, this.ranking) };
    return this.#searcher.searcher;
  }

  // One refresh at a time per engine: concurrent queries share the one in flight.
  async #refresh(options: QueryOptions): Promise<void> {
    this.#refreshing ??= this.index({ onProgress: options.onProgress, signal: options.signal }).finally(() => {
      this.#refreshing = null;
    });
    try {
      await this.#refreshing;
    } catch (error) {
      // A read-only index (a restored CI cache, a read-only checkout) still answers queries.
      if (!(error instanceof ContextSmithError && error.code === "IO_ERROR" && IndexStore.exists(this.config.indexDir))) throw error;
    }
  }

  #rankOptions(options: QueryOptions): RankOptions {
    return options.ranking ? { config: resolveRanking(options.ranking, this.ranking) } : {};
  }

  #tokenCounter(encoding: string): AsyncTokenCounter {
    if (this.#counter?.encoding !== encoding) {
      void this.#counter?.close();
      this.#counter = new TokenWorker(encoding);
    }
    return this.#counter;
  }

  #store(): IndexStore | null {
    // LMDB read transactions renew on each event-loop turn, so one open handle sees new commits.
    this.#reader ??= IndexStore.openForRead(this.config.indexDir);
    return this.#reader;
  }
}
