import { statSync } from "node:fs";
import { isAbsolute, join, relative, sep } from "node:path";
import { resolveConfig, type Config, type IndexOptions } from "./core/config.js";
import { ContextSmithError } from "./core/errors.js";
import type { IndexStats, ProgressEvent } from "./core/types.js";
import { CodeGraph } from "./graph/code-graph.js";
import { overview } from "./graph/overview.js";
import type { CallsResult, ImpactResult, OverviewResult, RelatedResult, SymbolLookup } from "./graph/types.js";
import { Notebook } from "./notes/notebook.js";
import { renderNotes } from "./notes/format.js";
import type { NoteTarget, NoteView } from "./notes/types.js";
import { PathIndex } from "./query/path-index.js";
import { runIndex, type RunOptions } from "./indexing/indexer.js";
import { TokenWorker, type AsyncTokenCounter } from "./query/pack/token-worker.js";
import { resolveRanking, type RankingConfig, type RankingOverrides } from "./query/ranking-config.js";
import { Searcher, type RankOptions } from "./query/searcher.js";
import { describeFile, rerankFiles } from "./query/rerank.js";
import { embedTask, taskVector, type TaskEmbedding } from "./query/task-vector.js";
import { createEmbedder, createReranker } from "./embed/factory.js";
import type { Embedder, Reranker } from "./embed/types.js";
import type { ContextResult, RankResult, SearchHit } from "./query/types.js";
import { loadLexical, type LexicalIndex } from "./store/lexical.js";
import { modelName, semanticReady } from "./store/semantic-state.js";
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

/** Options of `context`. */
export interface ContextOptions extends QueryOptions {
  /** Token budget (default 4,000). */
  budget?: number;
  /** Re-order the top 20 files with the cross-encoder (`CTXSMITH_RERANK_MODEL`); experimental, off by default. */
  rerank?: boolean;
}

/** What `Engine.status()` reports about the stored index. */
export interface IndexStatus {
  root: string;
  indexDir: string;
  schema: number;
  totals: StoreMeta["totals"];
  gitHead: string | null;
  commits: number;
  /** Whether queries use the semantic signal: the index holds complete vectors. */
  semantic: boolean;
  /** The provider and model of the index's vectors, or null. */
  semanticModel: string | null;
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
  #graph: { key: string; graph: CodeGraph } | null = null;
  #counter: AsyncTokenCounter | null = null;
  #refreshing: Promise<unknown> | null = null;
  /** The embedding provider of index runs and task vectors, made on first use (null when turned off). */
  #embedder: Embedder | null | undefined;
  /** Where the embedder's download progress goes: the index run in progress. */
  #onDownload: ((event: ProgressEvent) => void) | undefined;
  #reranker: Reranker | null = null;

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
    this.#onDownload = options.onProgress;
    try {
      return await runIndex(this.config, this.#embeddings(), options);
    } finally {
      this.#onDownload = undefined;
    }
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
      semantic: semanticReady(meta.semantic),
      semanticModel: meta.semantic ? modelName(meta.semantic.provenance) : null,
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
    const { searcher, rankOptions, notices } = await this.#prepare(task, options, this.#rankOptions(options));
    const result = { ...searcher.rank(task, rankOptions), ...withNotices(notices) };
    return options.limit === undefined ? result : { ...result, files: result.files.slice(0, options.limit) };
  }

  /**
   * The code an agent should read for `task`, packed into `budget` tokens (default 4,000) of the
   * configured encoding: markdown with a header per file and numbered lines. `tokens` is never
   * more than `budget`.
   */
  async context(task: string, options: ContextOptions = {}): Promise<ContextResult> {
    const budget = options.budget ?? 4000;
    if (!Number.isInteger(budget) || budget < 1) throw new ContextSmithError("INVALID_ARGUMENT", `The budget must be a positive whole number of tokens, not ${budget}.`);
    const overrides = this.#rankOptions(options);
    const config = overrides.config ?? this.ranking;
    // The encoder loads in its worker while the index is refreshed and the task ranked.
    const counter = this.#tokenCounter(config.pack.encoding);
    const { searcher, rankOptions, notices } = await this.#prepare(task, options, overrides);
    let ranked = searcher.rank(task, rankOptions).files;
    if (options.rerank) {
      this.#reranker ??= createReranker(this.config.embedding, { threads: 1 });
      try {
        ranked = await rerankFiles(task, ranked, this.#reranker, (path) => describeFile(path, searcher.symbolsOf(path)));
      } catch (error) {
        notices.push(`re-ranking skipped: ${ContextSmithError.from(error, "INTERNAL").message}`);
      }
    }
    const packed = await searcher.packRanked(task, ranked, budget, counter, config);
    const result = await this.#withNotes(packed, (reduced) => searcher.packRanked(task, ranked, reduced, counter, config), counter);
    return { ...result, ...withNotices(notices) };
  }

  /** Functions and classes matching `query`, best first, with file, line and signature. */
  async search(query: string, options: QueryOptions & { limit?: number } = {}): Promise<SearchHit[]> {
    const { searcher, rankOptions } = await this.#prepare(query, options, this.#rankOptions(options));
    return searcher.search(query, options.limit ?? 20, rankOptions);
  }

  /**
   * The definitions `name` may mean: bare (`charge_card`), qualified (`Checkout.apply`,
   * `shop.payments.charge_card`) or in a file (`payments.py:charge_card`); close names when none.
   */
  async symbol(name: string, options: QueryOptions = {}): Promise<SymbolLookup> {
    return (await this.#codeGraph(options)).finder.lookup(name);
  }

  /** Where what `name` means is called: one hop up the call graph, with the call lines. */
  async callers(name: string, options: QueryOptions = {}): Promise<CallsResult> {
    return (await this.#codeGraph(options)).callers(requireName(name));
  }

  /** What the code of `name` calls: one hop down the call graph. */
  async callees(name: string, options: QueryOptions = {}): Promise<CallsResult> {
    return (await this.#codeGraph(options)).callees(requireName(name));
  }

  /** Everything that calls `name`, transitively (default depth 5), tests apart from production code. */
  async impact(name: string, options: QueryOptions & { depth?: number } = {}): Promise<ImpactResult> {
    const depth = options.depth ?? 5;
    if (!Number.isInteger(depth) || depth < 1) throw new ContextSmithError("INVALID_ARGUMENT", `The depth must be a positive whole number, not ${depth}.`);
    return (await this.#codeGraph(options)).impact(requireName(name), depth);
  }

  /** A file's neighbours: what it imports, what imports it, what changes with it, its call-graph neighbours. */
  async related(path: string, options: QueryOptions = {}): Promise<RelatedResult> {
    const graph = await this.#codeGraph(options);
    return graph.related(this.#indexedPath(path));
  }

  /** Languages, size, central and hot files, and the index's state. */
  async overview(options: QueryOptions = {}): Promise<OverviewResult> {
    const graph = await this.#codeGraph(options);
    return overview(this.#store()!, this.config.root, graph.resolvedCalls());
  }

  /**
   * Pins a note to a file or a symbol (exactly one). It is kept beside the index (it survives
   * re-indexing and rebuilds) and shown by `context` whenever its code is.
   */
  async addNote(text: string, target: { path?: string; symbol?: string }, options: QueryOptions = {}): Promise<NoteView> {
    if (text.trim() === "") throw new ContextSmithError("INVALID_ARGUMENT", "The note is empty.");
    if ((target.path === undefined) === (target.symbol === undefined)) {
      throw new ContextSmithError("INVALID_ARGUMENT", "Pin the note to a file or to a symbol (one of them).");
    }
    const graph = await this.#codeGraph(options);
    let pinned: NoteTarget;
    if (target.symbol !== undefined) {
      const found = graph.finder.find(requireName(target.symbol));
      if (found.length === 0) throw notFound(`No definition of ${target.symbol} in the index.`, graph.finder.suggest(target.symbol));
      if (found.length > 1) {
        throw new ContextSmithError("INVALID_ARGUMENT", `${target.symbol} is ambiguous: say which one (path:name):\n${found.map((f) => `  ${f.location.path}:${f.location.qualifiedName}`).join("\n")}`, {
          candidates: found.map((f) => `${f.location.path}:${f.location.qualifiedName}`),
        });
      }
      const { location } = found[0]!;
      pinned = { kind: "symbol", path: location.path, name: location.name, qualifiedName: location.qualifiedName };
    } else pinned = { kind: "file", path: this.#indexedPath(target.path!) };
    return this.#notebook().add(text.trim(), pinned);
  }

  /** Notes with their status (current, changed since written, or missing), all or those of a file or symbol. */
  async notes(filter: { path?: string; symbol?: string } = {}, options: QueryOptions = {}): Promise<NoteView[]> {
    const graph = await this.#codeGraph(options);
    const path = filter.path === undefined ? undefined : this.#repoRelative(filter.path);
    const symbol = filter.symbol?.trim();
    // A symbol filter matches notes on any definition the name means, and notes whose symbol is gone but had that name.
    const wanted = new Set(symbol === undefined ? [] : graph.finder.find(symbol).map((f) => `${f.location.path}:${f.location.qualifiedName}`));
    return this.#notebook().list().filter((n) => {
      if (path !== undefined && n.target.path !== path && n.location?.path !== path) return false;
      if (symbol === undefined) return true;
      if (n.target.kind !== "symbol") return false;
      return n.target.qualifiedName === symbol || n.target.name === symbol || wanted.has(`${n.location?.path ?? n.target.path}:${n.target.qualifiedName}`);
    });
  }

  /** Removes a note by id. @throws ContextSmithError `NOT_FOUND` */
  removeNote(id: string): void {
    if (!this.#notebook().remove(id.trim())) throw new ContextSmithError("NOT_FOUND", `No note with id ${id}: see \`ctxsmith note list\`.`);
  }

  /**
   * Of `paths` (repository-relative), those whose file changed on disk since it was indexed (size or
   * modification time differ) or is gone: what an answer from an index that could not be refreshed
   * should warn about.
   */
  staleFiles(paths: Iterable<string>): string[] {
    const store = this.#store();
    const stale: string[] = [];
    for (const path of new Set(paths)) {
      const record = store?.file(path);
      try {
        const stat = statSync(join(this.config.root, path));
        if (!record || stat.size !== record.size || stat.mtimeMs !== record.mtimeMs) stale.push(path);
      } catch {
        stale.push(path);
      }
    }
    return stale.sort();
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
    this.#graph = null;
    const counter = this.#counter;
    this.#counter = null;
    await counter?.close();
    const [embedder, reranker] = [this.#embedder, this.#reranker];
    this.#embedder = undefined;
    this.#reranker = null;
    await embedder?.close();
    await reranker?.close();
    await reader?.close();
  }

  /**
   * Refreshes the index when asked and embeds the task for the semantic signal: the model loads
   * while the index is refreshed, when the index already has vectors.
   */
  async #prepare(task: string, options: QueryOptions, rankOptions: RankOptions): Promise<{ searcher: Searcher; rankOptions: RankOptions; notices: string[] }> {
    const wantsSemantic = (rankOptions.config ?? this.ranking).weights.semantic > 0;
    const start = (): Promise<TaskEmbedding> | null => (wantsSemantic && this.#hasVectors() ? embedTask(this.#embeddings(), task) : null);
    let pending = start();
    const searcher = await this.#ready(options);
    pending ??= start();
    const { vector, notice } = await taskVector(pending, this.#store()!.meta().semantic);
    return { searcher, rankOptions: { ...rankOptions, taskVector: vector }, notices: notice ? [notice] : [] };
  }

  /** Whether the stored index has vectors (false when there is none yet, or it cannot be read: the refresh will say). */
  #hasVectors(): boolean {
    try {
      return (this.#store()?.meta().semantic?.vectors ?? 0) > 0;
    } catch {
      return false;
    }
  }

  #embeddings(): Embedder | null {
    if (this.#embedder === undefined) {
      this.#embedder = this.config.semantic
        ? createEmbedder(this.config.embedding, { threads: this.config.jobs, onDownload: (p) => this.#onDownload?.({ stage: "download", ...p }) })
        : null;
    }
    return this.#embedder;
  }

  /** Refreshes the index when asked, then returns a searcher over its current state. */
  async #ready(options: QueryOptions): Promise<Searcher> {
    const { store, key } = await this.#fresh(options);
    // The searcher's loaded indexes stay valid while no commit changed what they were built from.
    if (this.#searcher?.key !== key) this.#searcher = { key, searcher: new Searcher(store, this.config.root, this.ranking) };
    return this.#searcher.searcher;
  }

  /** Refreshes the index when asked, then returns the code graph of its current state. */
  async #codeGraph(options: QueryOptions): Promise<CodeGraph> {
    const { store, key } = await this.#fresh(options);
    if (this.#graph?.key !== key) this.#graph = { key, graph: new CodeGraph(store) };
    return this.#graph.graph;
  }

  /** The store after a refresh (when asked), and the key of its current state. */
  async #fresh(options: QueryOptions): Promise<{ store: IndexStore; key: string }> {
    if (options.refresh ?? true) await this.#refresh(options);
    const store = this.#store();
    if (!store) throw new ContextSmithError("NO_INDEX", `There is no index of ${this.config.root} yet: run \`ctxsmith index\` first (or query without --no-refresh).`);
    const meta = store.meta();
    return { store, key: `${meta.createdAt}:${meta.generation}` };
  }

  /**
   * Adds the notes pinned to the code a packed context shows, within the same budget: when they do
   * not fit beside the code, the code is packed again into what the notes leave.
   */
  async #withNotes(packed: ContextResult, repack: (budget: number) => Promise<ContextResult>, counter: AsyncTokenCounter): Promise<ContextResult> {
    const all = this.#notebook().list();
    if (all.length === 0) return packed;
    let result = packed;
    let notes = Notebook.shownIn(all, result.spans);
    for (let attempt = 0; notes.length > 0 && attempt < 3; attempt++) {
      const text = `${result.text}\n${renderNotes(notes)}`;
      const tokens = await counter.count(text);
      if (tokens <= result.budget) return { ...result, text, tokens, notes };
      if (attempt === 0) {
        // Notes on the code shown come first: make room for them, then keep those still shown.
        const room = result.budget - (tokens - result.tokens);
        if (room < result.budget / 2) notes = notes.slice(0, Math.max(0, notes.length - 1));
        else {
          result = await repack(room);
          notes = Notebook.shownIn(all, result.spans);
        }
      } else notes = notes.slice(0, notes.length - 1);
    }
    return result;
  }

  #notebook(): Notebook {
    return new Notebook(this.config.indexDir, this.config.root, this.#store());
  }

  /**
   * A path given by a user or an agent as repository-relative: absolute paths must lie inside the
   * repository; `..` never leaves it.
   */
  #repoRelative(path: string): string {
    const trimmed = path.trim();
    if (trimmed === "") throw new ContextSmithError("INVALID_ARGUMENT", "The path is empty.");
    const rel = isAbsolute(trimmed) ? relative(this.config.root, trimmed) : relative(this.config.root, join(this.config.root, trimmed));
    if (rel === "" || rel.startsWith(`..${sep}`) || rel === ".." || isAbsolute(rel)) {
      throw new ContextSmithError("INVALID_ARGUMENT", `${path} is outside the repository ${this.config.root}.`);
    }
    return rel.split(sep).join("/");
  }

  /** A repository file the index has: exactly, or the one file a partial path names. */
  #indexedPath(path: string): string {
    const rel = this.#repoRelative(path);
    const store = this.#store();
    if (store?.file(rel)) return rel;
    const candidates = store ? new PathIndex(store.allPaths()).resolve(rel) : [];
    if (candidates.length === 1) return candidates[0]!;
    if (candidates.length > 1) {
      throw new ContextSmithError("INVALID_ARGUMENT", `${path} matches several files: ${candidates.slice(0, 10).join(", ")}`, { candidates });
    }
    throw new ContextSmithError("PATH_NOT_FOUND", `${path} is not a file of the index of ${this.config.root}.`);
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

function withNotices(notices: string[]): { notices?: string[] } {
  return notices.length > 0 ? { notices } : {};
}

function requireName(name: string): string {
  if (name.trim() === "") throw new ContextSmithError("INVALID_ARGUMENT", "The symbol name is empty.");
  return name.trim();
}

function notFound(message: string, suggestions: string[]): ContextSmithError {
  return new ContextSmithError("NOT_FOUND", suggestions.length > 0 ? `${message} Did you mean: ${suggestions.join(", ")}?` : message, { suggestions });
}
