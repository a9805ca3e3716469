import { statSync } from "node:fs";
import { basename } from "node:path";
import { resolveConfig, type Config, type IndexOptions } from "./core/config.js";
import { ContextSmithError } from "./core/errors.js";
import { RepoFiles } from "./core/repo-file.js";
import { languageOf } from "./core/languages.js";
import type { IndexStats, Language, RunOptions, SymbolInfo } from "./core/types.js";
import { apiCallersOf, apiHandlersOf, impactSites, type HopSite } from "./graph/api-hops.js";
import { linkApi, type ApiCall, type ApiMap, type ApiRoute } from "./graph/api-links.js";
import { withApiNeighbours } from "./query/pack/api-neighbours.js";
import { repositoryApi, servesRoutes } from "./graph/api-map.js";
import { CodeGraph } from "./graph/code-graph.js";
import { overview } from "./graph/overview.js";
import type { ApiHop, CallsResult, ImpactResult, OverviewResult, RelatedResult, SymbolLookup } from "./graph/types.js";
import { runIndex } from "./indexing/indexer.js";
import { outlineOnPool } from "./indexing/outline.js";
import { attachNotes, type ContextWithNotes } from "./notes/attach.js";
import { Notebook } from "./notes/notebook.js";
import type { NoteView } from "./notes/types.js";
import { resolveRanking, type RankingConfig, type RankingOverrides } from "./query/ranking-config.js";
import { unplaced } from "./query/release-notes.js";
import { describeFile, rerankFiles } from "./query/rerank.js";
import { Searcher, type RankOptions } from "./query/searcher.js";
import { embedTask, taskVector, type TaskEmbedding } from "./query/task-vector.js";
import type { PackEntry, PackSource } from "./query/pack/pack-ranking.js";
import type { RankedFile, RankResult, SearchHit } from "./query/types.js";
import type { TrackedEmbedder } from "./runtime/embed/tracked.js";
import { Runtime } from "./runtime/runtime.js";
import { indexedPath, staleFiles } from "./store/repo-paths.js";
import { modelName, semanticReady } from "./store/semantic-state.js";
import { IndexStore, isDamage } from "./store/store.js";
import type { IndexPart, PartVersions, StoreMeta } from "./store/types.js";

/** Options of an {@link Engine}: where the repository is, how it is indexed and how it is ranked. */
export interface EngineOptions extends IndexOptions {
  /** Fusion weights and packing parameters over the defaults (see `src/query/ranking-config.ts`). */
  ranking?: RankingOverrides;
  /**
   * The process's shared resources (token counters, models, parse threads, the index thread). Give
   * every engine of a process the same one; without it the engine makes its own and closes it with
   * itself.
   */
  runtime?: Runtime;
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
  /** How long the refresh waits for another index run holding the lock (see {@link RunOptions.waitTimeoutMs}). */
  waitTimeoutMs?: number;
  signal?: AbortSignal;
  /** Ranking overrides for this query only. */
  ranking?: RankingOverrides;
}

/** What queries derived from one index, and the part versions it was derived at. */
interface Derived {
  store: IndexStore;
  createdAt: number;
  versions: PartVersions;
  searcher: Searcher;
  graph: CodeGraph | null;
  api: { routes: ApiRoute[]; calls: ApiCall[] } | null;
  /** Whether a file may serve a route (see {@link servesRoutes}). */
  servesRoutes: boolean | null;
}

/** Options of the graph queries (`callers`, `callees`, `impact`). */
export interface GraphQueryOptions extends QueryOptions {
  /** Follow the API contract within the repository (default true). */
  api?: boolean;
}

/** A file packed ahead of the ranking (see {@link ContextOptions.pinned}). */
export interface PinnedFile {
  path: string;
  /** Lines to favour in it (a change's lines). */
  focus?: readonly number[];
  /** Why it is there, for its header ("changed: 2 symbols"). */
  note?: string;
}

/** Options of `context`. */
export interface ContextOptions extends QueryOptions {
  /** Token budget (default 4,000). */
  budget?: number;
  /**
   * Files packed first, in this order, ahead of the ranking's (which follow without them): what a
   * review packs, the changed files before what the ranking adds. Files not in the index are left out.
   */
  pinned?: readonly PinnedFile[];
  /** Re-order the top 20 files with the cross-encoder (`CTXSMITH_RERANK_MODEL`); experimental, off by default. */
  rerank?: boolean;
}

/** A file of the index as {@link Engine.file} reads it. */
export interface IndexedFile {
  path: string;
  language: Language | null;
  lines: number;
  text: string;
  /** Its functions, classes and methods, in source order (`parent` indexes this list). */
  symbols: SymbolInfo[];
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
  readonly #runtime: Runtime;
  /** The runtime is the engine's own (closed with it), not shared. */
  readonly #ownsRuntime: boolean;
  /** The open reader, and which data file it reads (see IndexStore.identity). */
  #reader: { store: IndexStore; identity: string } | null = null;
  /** Readers of replaced data files, closed once no query uses them. */
  #retired: IndexStore[] = [];
  #queries = 0;
  /** What queries derived from the index, and the part versions it was derived at. */
  #derived: Derived | null = null;
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
    this.#ownsRuntime = options.runtime === undefined;
    this.#runtime = options.runtime ?? new Runtime();
  }

  /**
   * Brings the index up to date: a full build the first time, then only what changed.
   * Waits for a concurrent writer unless `wait: false` (then fails with `LOCKED`).
   */
  async index(options: RunOptions = {}): Promise<IndexStats> {
    const embedder = this.#embedder();
    const onProgress = options.onProgress;
    const unfollow = this.#runtime.onDownload((p) => onProgress?.({ stage: "download", ...p }));
    try {
      const thread = this.#runtime.indexThread;
      const run = (): Promise<IndexStats> => (thread ? thread.run(this.config, embedder, options) : runIndex(this.config, embedder, this.#runtime.parsePools, options));
      // The whole run is one operation on the model (it embeds batch after batch): `unload` waits.
      return await (embedder ? embedder.hold(run) : run());
    } finally {
      unfollow();
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

  /**
   * Ranks the repository's files for a task, best first, with each signal's rank and evidence.
   *
   * ```ts
   * const { files } = await engine.rank("TypeError in charge_card when the card expired");
   * ```
   */
  async rank(task: string, options: QueryOptions & { limit?: number } = {}): Promise<RankResult> {
    return this.#query(async () => {
      const { searcher, rankOptions, notices } = await this.#prepare(task, options, this.#rankOptions(options));
      const result = { ...searcher.rank(task, rankOptions), ...withNotices(notices) };
      throwIfAborted(options.signal);
      return options.limit === undefined ? result : { ...result, files: result.files.slice(0, options.limit) };
    }, options);
  }

  /**
   * The code an agent should read for `task`, packed into `budget` tokens (default 4,000) of the
   * configured encoding: markdown with a header per file and numbered lines. `tokens` is never
   * more than `budget`.
   */
  async context(task: string, options: ContextOptions = {}): Promise<ContextWithNotes> {
    const budget = options.budget ?? 4000;
    if (!Number.isInteger(budget) || budget < 1) throw new ContextSmithError("INVALID_ARGUMENT", `The budget must be a positive whole number of tokens, not ${budget}.`);
    const overrides = this.#rankOptions(options);
    const config = overrides.config ?? this.ranking;
    // The encoder loads in its worker while the index is refreshed and the task ranked.
    const counter = this.#runtime.tokenCounter(config.pack.encoding);
    return this.#query(async () => {
      const { searcher, rankOptions, notices } = await this.#prepare(task, options, overrides);
      let ranked = searcher.rank(task, rankOptions).files;
      if (options.rerank) {
        try {
          ranked = await rerankFiles(task, ranked, this.#runtime.reranker(this.config.embedding), (path) => describeFile(path, searcher.symbolsOf(path)));
        } catch (error) {
          notices.push(`re-ranking skipped: ${ContextSmithError.from(error, "INTERNAL").message}`);
        }
      }
      ranked = withPinned(ranked, options.pinned);
      // Ranking is synchronous: a signal that came meanwhile is heard now, before the packing.
      throwIfAborted(options.signal);
      // A task about one side of an HTTP contract sees the other (a monorepo's client and server).
      const map = await this.#ownApiLinks();
      const name = basename(this.config.root);
      const linked = (entries: PackEntry[], source: PackSource) => withApiNeighbours(pinnedEntries(entries, options.pinned), map, (repo) => (repo === name ? source : undefined), name);
      const repack = (room: number) => searcher.packRanked(task, ranked, room, counter, config, linked);
      const result = await attachNotes(await repack(budget), this.#notebook().list(), repack, counter);
      return { ...result, ...withNotices(notices) };
    }, options);
  }

  /**
   * Ranks the files for `task` and hands the ranking, with what packing reads of this repository,
   * to `use` while the index it read stays open: how a workspace packs one budget across the
   * rankings of several repositories (see `Workspace.context`).
   */
  async rankToPack<T>(task: string, options: QueryOptions, use: (ranked: RankedFile[], source: PackSource, notices: string[]) => Promise<T>): Promise<T> {
    // What `use` throws is not this index's damage (it may read other repositories): it passes
    // through the query's repair unchanged.
    let failure: { error: unknown } | null = null;
    const result = await this.#query(async () => {
      const { searcher, rankOptions, notices } = await this.#prepare(task, options, this.#rankOptions(options));
      const ranked = searcher.rank(task, rankOptions).files;
      // Read from this index (with the lexical signal off, its BM25 is first read here): its damage is repaired.
      const source = searcher.packSource(task);
      throwIfAborted(options.signal);
      try {
        return await use(ranked, source, notices);
      } catch (error) {
        failure = { error };
        return undefined;
      }
    }, options);
    if (failure) throw (failure as { error: unknown }).error;
    return result as T;
  }

  /** Functions and classes matching `query`, best first, with file, line and signature. */
  async search(query: string, options: QueryOptions & { limit?: number } = {}): Promise<SearchHit[]> {
    return this.#query(async () => {
      const { searcher, rankOptions } = await this.#prepare(query, options, this.#rankOptions(options));
      return searcher.search(query, options.limit ?? 20, rankOptions);
    }, options);
  }

  /**
   * The definitions `name` may mean: bare (`charge_card`), qualified (`Checkout.apply`,
   * `shop.payments.charge_card`) or in a file (`payments.py:charge_card`); close names when none
   * (unless `suggest: false`: whether a name is defined, without the search for close ones).
   */
  async symbol(name: string, options: QueryOptions & { suggest?: boolean } = {}): Promise<SymbolLookup> {
    return (await this.#codeGraph(options)).finder.lookup(name, options.suggest);
  }

  /**
   * Where what `name` means is called: one hop up the call graph, with the call lines; and, where
   * it handles a route, the requests of this repository that reach it (`api`). `api: false`
   * leaves the API contract out (a workspace links across its repositories itself).
   */
  async callers(name: string, options: GraphQueryOptions = {}): Promise<CallsResult> {
    const result = (await this.#codeGraph(options)).callers(name);
    return this.#withApi(result, result.targets, apiCallersOf, options);
  }

  /** What the code of `name` calls: one hop down the call graph; and the route handlers its requests reach (`api`). */
  async callees(name: string, options: GraphQueryOptions = {}): Promise<CallsResult> {
    const result = (await this.#codeGraph(options)).callees(name);
    return this.#withApi(result, result.targets, apiHandlersOf, options);
  }

  /**
   * Everything that calls `name`, transitively (default depth 5), tests apart from production code;
   * and the requests that reach it, or any caller in the tree, as a route handler (`api`).
   */
  async impact(name: string, options: GraphQueryOptions & { depth?: number } = {}): Promise<ImpactResult> {
    const result = (await this.#codeGraph(options)).impact(name, options.depth);
    return this.#withApi(result, impactSites(result), apiCallersOf, options);
  }

  async #withApi<T extends { api?: ApiHop[] }>(result: T, sites: ReadonlyArray<{ path: string; startLine: number; endLine: number }>, hops: (map: ApiMap, sites: readonly HopSite[]) => ApiHop[], options: GraphQueryOptions): Promise<T> {
    if (options.api === false || sites.length === 0) return result;
    const map = await this.#ownApiLinks(options);
    if (map.calls.length === 0) return result;
    const repo = basename(this.config.root);
    const found = hops(map, sites.map((s) => ({ repo, path: s.path, startLine: s.startLine, endLine: s.endLine })));
    return found.length > 0 ? { ...result, api: found } : result;
  }

  /** {@link Engine.apiMap} for following links within the repository; empty, and not made, where no file serves a route (nothing links). */
  async #ownApiLinks(options: QueryOptions = {}): Promise<ApiMap> {
    const serves = await this.#query(async () => {
      const { store, derived } = await this.#fresh({ ...options, refresh: false });
      // A ranked query read every path with the lexical index (babel: 27,000 keys, 40–80 ms).
      return (derived.servesRoutes ??= servesRoutes(store, derived.searcher.loadedPaths()));
    }, { ...options, refresh: false });
    return serves ? this.apiMap({ ...options, refresh: false }) : { routes: [], calls: [] };
  }

  /** The API contract map within this repository (a monorepo's client and server): {@link Engine.api} linked, the repository named by its folder. */
  async apiMap(options: QueryOptions = {}): Promise<ApiMap> {
    return linkApi([{ repo: basename(this.config.root), ...(await this.api(options)) }]);
  }

  /** A file's neighbours: what it imports, what imports it, what changes with it, its call-graph neighbours. */
  async related(path: string, options: QueryOptions = {}): Promise<RelatedResult> {
    const graph = await this.#codeGraph(options);
    return graph.related(indexedPath(this.#store(), this.config.root, path));
  }

  /**
   * One file of the index as it was indexed: its text (read through the one safe reader: no link,
   * nothing outside the root, only the bytes indexed) and its outline. `path` must be a file of the
   * index exactly as it names it; anything else, and a file changed on disk since, is `NOT_FOUND`
   * and nothing is read.
   */
  async file(path: string, options: QueryOptions = {}): Promise<IndexedFile> {
    const file = (await this.files([path], options)).get(path);
    if (!file) throw new ContextSmithError("NOT_FOUND", `${path} is not a file of the index of ${this.config.root}, or it changed since it was indexed.`);
    return file;
  }

  /** Several files as {@link Engine.file} reads them, from one state of the index; null for each it cannot show. */
  async files(paths: readonly string[], options: QueryOptions = {}): Promise<Map<string, IndexedFile | null>> {
    return this.#query(async () => {
      const { store } = await this.#fresh(options);
      const reader = new RepoFiles(this.config.root);
      const found = new Map<string, IndexedFile | null>();
      for (const path of paths) {
        const record = store.file(path);
        const text = record && !record.skipped ? reader.readIndexed(record) : null;
        found.set(path, record && text !== null ? { path, language: record.language, lines: record.lines, text, symbols: store.parse.symbols(path) ?? [] } : null);
      }
      return found;
    }, options);
  }

  /** The routes this repository serves and the HTTP requests it makes (see graph/api-map.ts), kept until a file changes. */
  async api(options: QueryOptions = {}): Promise<{ routes: ApiRoute[]; calls: ApiCall[] }> {
    return this.#query(async () => {
      const { store, derived } = await this.#fresh(options);
      derived.api ??= repositoryApi(store);
      return derived.api;
    }, options);
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
    await this.#fresh(options);
    return this.#notebook().pin(text, target);
  }

  /** Notes with their status (current, changed since written, or missing), all or those of a file or symbol. */
  async notes(filter: { path?: string; symbol?: string } = {}, options: QueryOptions = {}): Promise<NoteView[]> {
    await this.#fresh(options);
    return this.#notebook().filter(filter);
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
    return staleFiles(this.#store(), this.config.root, paths);
  }

  /**
   * The symbols of texts that are not this repository's files as they are on disk (another
   * commit's version of them, read from git), each parsed as the language of its path (or the
   * `language` given) on the parse threads. Null for a text of no parsed language.
   */
  async outline(texts: ReadonlyArray<{ path: string; text: string; language?: Language | null }>): Promise<{ symbols: Array<SymbolInfo[] | null>; warnings: string[] }> {
    const parsed: Array<{ language: Language; text: string }> = [];
    const at: number[] = [];
    texts.forEach((t, i) => {
      const language = t.language ?? languageOf(t.path);
      if (language) {
        at.push(i);
        parsed.push({ language, text: t.text });
      }
    });
    const result = await outlineOnPool(this.#runtime.parsePools, this.config.jobs, parsed);
    const symbols: Array<SymbolInfo[] | null> = texts.map(() => null);
    at.forEach((i, k) => (symbols[i] = result.symbols[k]!));
    return { symbols, warnings: result.warnings };
  }

  /** Counts tokens as `context` does (the engine's configured encoding). */
  countTokens(text: string): Promise<number> {
    return this.#runtime.tokenCounter(this.ranking.pack.encoding).count(text);
  }

  /**
   * Releases the store (and the runtime, when it is the engine's own). The engine can be used again
   * afterwards: the store reopens on the next query.
   */
  async close(): Promise<void> {
    const readers = [...this.#retired, ...(this.#reader ? [this.#reader.store] : [])];
    this.#reader = null;
    this.#retired = [];
    this.#derived = null;
    if (this.#ownsRuntime) await this.#runtime.close();
    await Promise.all(readers.map((r) => r.close()));
  }

  /**
   * Refreshes the index when asked and embeds the task for the semantic signal: the model loads
   * while the index is refreshed, when the index already has vectors.
   */
  async #prepare(task: string, options: QueryOptions, rankOptions: RankOptions): Promise<{ searcher: Searcher; rankOptions: RankOptions; notices: string[] }> {
    const wantsSemantic = (rankOptions.config ?? this.ranking).weights.semantic > 0;
    const start = (): Promise<TaskEmbedding> | null => (wantsSemantic && this.#hasVectors() ? embedTask(this.#embedder(), task) : null);
    let pending = start();
    const { searcher, meta } = await this.#fresh(options);
    pending ??= start();
    const { vector, notice } = await taskVector(pending, meta.semantic);
    throwIfAborted(options.signal);
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

  /** The runtime's embedder for this repository's settings (null when semantic search is off). */
  #embedder(): TrackedEmbedder | null {
    return this.config.semantic ? this.#runtime.embedder(this.config.embedding, this.config.jobs) : null;
  }

  /** Refreshes the index when asked, then returns the code graph of its current state. */
  async #codeGraph(options: QueryOptions): Promise<CodeGraph> {
    const { store, derived } = await this.#fresh(options);
    derived.graph ??= new CodeGraph(store);
    return derived.graph;
  }

  /**
   * The store after a refresh (when asked), with what queries derived from it brought up to date:
   * only what a changed part of the index fed is dropped.
   */
  async #fresh(options: QueryOptions): Promise<{ store: IndexStore; meta: StoreMeta; searcher: Searcher; derived: Derived }> {
    if (options.refresh ?? true) await this.#refresh(options);
    const store = this.#store();
    if (!store) throw new ContextSmithError("NO_INDEX", `There is no index of ${this.config.root} yet: run \`ctxsmith index\` first (or query without --no-refresh).`);
    const meta = store.meta();
    const derived = this.#derived;
    if (!derived || derived.store !== store || derived.createdAt !== meta.createdAt) {
      this.#derived = { store, createdAt: meta.createdAt, versions: meta.versions, searcher: new Searcher(store, this.config.root, this.ranking), graph: null, api: null, servesRoutes: null };
    } else {
      const changed = new Set((Object.keys(meta.versions) as IndexPart[]).filter((part) => meta.versions[part] !== derived.versions[part]));
      if (changed.size > 0) {
        derived.searcher.invalidate(changed);
        // The graph's symbol lookup reads the files' symbols too.
        if (changed.has("graph") || changed.has("files")) derived.graph = null;
        // The API map reads the files' parse (its HTTP facts and symbols).
        if (changed.has("files")) {
          derived.api = null;
          derived.servesRoutes = null;
        }
        derived.versions = meta.versions;
      }
    }
    // The entry checked against this store, whatever another query sets meanwhile.
    const checked = this.#derived!;
    return { store, meta, searcher: checked.searcher, derived: checked };
  }

  /** Runs a query that reads the store across awaits: a reader retired meanwhile is closed only after it. */
  async #query<T>(work: () => Promise<T>, options: QueryOptions = {}): Promise<T> {
    this.#queries++;
    try {
      try {
        return await work();
      } catch (error) {
        if (!isDamage(error)) throw error;
        // A damaged page met while answering: the next index run rebuilds (the mark says so even
        // when it has nothing to re-index). A query that may refresh rebuilds now and answers.
        const why = (error as Error).message;
        IndexStore.markDamaged(this.config.indexDir, why);
        if (options.refresh === false) {
          throw new ContextSmithError("INDEX_CORRUPT", `The index in ${this.config.indexDir} is damaged (${why}). Run \`ctxsmith index\` to rebuild it.`);
        }
        await this.#refresh(options);
        return await work();
      }
    } finally {
      if (--this.#queries === 0) this.#closeRetired();
    }
  }

  #closeRetired(): void {
    const retired = this.#retired;
    this.#retired = [];
    for (const store of retired) void store.close();
  }

  #notebook(): Notebook {
    return new Notebook(this.config.indexDir, this.config.root, this.#store());
  }

  // One refresh at a time per engine: concurrent queries share the one in flight.
  async #refresh(options: QueryOptions): Promise<void> {
    this.#refreshing ??= this.index({ onProgress: options.onProgress, signal: options.signal, waitTimeoutMs: options.waitTimeoutMs }).finally(() => {
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

  /**
   * The reader of the index as it is on disk now. When the data file was replaced (a rebuild: the
   * folder deleted, a schema change, a damaged file), the old reader is retired and a new one opened.
   */
  #store(): IndexStore | null {
    const identity = IndexStore.identity(this.config.indexDir);
    if (this.#reader && this.#reader.identity !== identity) {
      this.#retired.push(this.#reader.store);
      this.#reader = null;
      this.#derived = null;
      if (this.#queries === 0) this.#closeRetired();
    }
    if (!this.#reader && identity !== null) {
      // LMDB read transactions renew on each event-loop turn, so one open handle sees new commits.
      const store = IndexStore.openForRead(this.config.indexDir);
      if (store) this.#reader = { store, identity };
    }
    return this.#reader?.store ?? null;
  }
}

/**
 * A ranking with the pinned files first, in their order, and the rest after them. A pinned file
 * takes a code file's place, release notes the ranking placed (`releaseNotes`) too.
 */
function withPinned(ranked: RankedFile[], pinned: readonly PinnedFile[] | undefined): RankedFile[] {
  if (!pinned || pinned.length === 0) return ranked;
  const paths = new Set(pinned.map((p) => p.path));
  const byPath = new Map(ranked.map((r) => [r.path, r]));
  return [...[...paths].map((path) => unplaced(byPath.get(path) ?? { path, score: 0, signals: {} })), ...ranked.filter((r) => !paths.has(r.path))];
}

/** Pack entries with the pinned files' lines to favour and why they are there. */
function pinnedEntries(entries: PackEntry[], pinned: readonly PinnedFile[] | undefined): PackEntry[] {
  if (!pinned || pinned.length === 0) return entries;
  const byPath = new Map(pinned.map((p) => [p.path, p]));
  return entries.map((entry) => {
    const pin = byPath.get(entry.file.path);
    return pin ? { ...entry, focus: [...(entry.focus ?? []), ...(pin.focus ?? [])], ...(pin.note ? { note: pin.note } : {}) } : entry;
  });
}

function withNotices(notices: string[]): { notices?: string[] } {
  return notices.length > 0 ? { notices } : {};
}

function throwIfAborted(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw new ContextSmithError("ABORTED", "The query was cancelled.");
}
