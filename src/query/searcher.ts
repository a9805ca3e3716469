import { RepoFiles } from "../core/repo-file.js";
import type { ParsedFile, SymbolInfo } from "../core/types.js";
import { decodeRenames, loadHistoryIndex, type HistoryIndex } from "../store/history-index.js";
import { loadLexical, type LexicalIndex } from "../store/lexical.js";
import type { IndexStore } from "../store/store.js";
import type { IndexPart, RankedFiles } from "../store/types.js";
import { semanticReady } from "../store/semantic-state.js";
import { openVectorSearch, type VectorSearch } from "../store/vector-index.js";
import { matchScore, type TermWeights } from "./pack/candidates.js";
import { fileText, type FileText } from "./pack/file-text.js";
import { packRanking, type PackEntry, type PackSource } from "./pack/pack-ranking.js";
import type { AsyncTokenCounter } from "../runtime/token-worker.js";
import { PathIndex } from "../store/path-index.js";
import { rankFiles } from "./ranker.js";
import { placedOnly } from "./release-notes.js";
import type { RankingConfig } from "./ranking-config.js";
import type { SignalContext } from "./signals/context.js";
import { parseTask, withinRepository } from "./task.js";
import type { ContextResult, RankResult, RankedFile, SearchHit, SignalName, SignalResult, TaskQuery } from "./types.js";

/** Parse results and file texts kept per searcher (oldest dropped first). */
const CACHE_FILES = 512;
const NO_LINKS: ReadonlyMap<string, number> = new Map();
const NO_RANKS: RankedFiles = { paths: [], scores: [] };

/** `cache.get(key)`, computed and kept on a miss; the oldest entry goes when the cache is full. */
function bounded<V>(cache: Map<string, V>, key: string, compute: () => V): V {
  if (cache.has(key)) return cache.get(key)!;
  const value = compute();
  if (cache.size >= CACHE_FILES) cache.delete(cache.keys().next().value!);
  cache.set(key, value);
  return value;
}

/** Options of one ranking. */
export interface RankOptions {
  /** Signal weights and packing parameters for this query only. */
  config?: RankingConfig;
  /** Signals to run even at weight 0: their results come back, fusion ignores them. */
  compute?: readonly SignalName[];
  /** The task's vector in the index's vector space (the semantic signal runs only with one). */
  taskVector?: Float32Array | null;
}

/**
 * The read path over one index: task -> signals -> fusion -> pack. It holds what queries derive
 * from the store (lexical index, history index, path index, parse results), each loaded on first
 * use and dropped when the part of the index it came from changes (see {@link Searcher.invalidate}),
 * so a warm process pays for loading once per change.
 */
export class Searcher {
  readonly #store: IndexStore;
  readonly #files: RepoFiles;
  readonly #config: RankingConfig;
  #lexical: LexicalIndex | undefined;
  #history: HistoryIndex | undefined;
  #paths: PathIndex | undefined;
  /** Paths the history renamed, with the files they became (read on the first path that names no file). */
  #renamed: ReadonlyMap<string, string> | undefined;
  /** The code graph's file links both ways, loaded on first use. */
  #vectors: VectorSearch | null | undefined;
  #links: { from: Map<string, Map<string, number>>; to: Map<string, Map<string, number>> } | undefined;
  /** PageRank, best first, as stored. */
  #ranked: RankedFiles | undefined;
  readonly #parsed = new Map<string, ParsedFile | undefined>();
  readonly #symbols = new Map<string, SymbolInfo[] | undefined>();
  readonly #texts = new Map<string, FileText | null>();
  readonly #heads = new Map<string, FileText | null>();
  /** The last task parsed: ranking, term weights and packing of one query all read it. */
  #lastTask: TaskQuery | undefined;

  constructor(store: IndexStore, root: string, config: RankingConfig) {
    this.#store = store;
    this.#files = new RepoFiles(root);
    this.#config = config;
  }

  /**
   * Forgets what was derived from `parts` of the index after a commit changed them; the rest stays
   * loaded. The lexical index lays the files changed since its snapshot over it, so it goes with
   * `files` too.
   */
  invalidate(parts: ReadonlySet<IndexPart>): void {
    if (parts.has("files") || parts.has("lexical")) {
      this.#lexical = undefined;
      this.#paths = undefined;
      // What a task is about depends on the files its paths name.
      this.#lastTask = undefined;
    }
    if (parts.has("files")) {
      this.#parsed.clear();
      this.#symbols.clear();
      this.#texts.clear();
      this.#heads.clear();
    }
    if (parts.has("history")) {
      this.#history = undefined;
      // Paths resolve through the renames the history found.
      this.#renamed = undefined;
      this.#lastTask = undefined;
    }
    if (parts.has("graph")) {
      this.#links = undefined;
      this.#ranked = undefined;
    }
    if (parts.has("vectors")) this.#vectors = undefined;
  }

  /** Ranks files for `task`, with each signal's raw result (the benchmark caches them). */
  rankWithSignals(task: string, options: RankOptions = {}): RankResult & { results: SignalResult[] } {
    const config = options.config ?? this.#config;
    return rankFiles(this.#context(task, config, options.taskVector ?? null), { compute: options.compute });
  }

  /** Ranks files for `task`, best first. */
  rank(task: string, options: RankOptions = {}): RankResult {
    const { results: _results, ...ranked } = this.rankWithSignals(task, options);
    return ranked;
  }

  /** A file's symbols as indexed (memoised). */
  symbolsOf(path: string): SymbolInfo[] | undefined {
    return this.#symbolsOf(path);
  }

  /** Packs an existing ranking. */
  packRanked(task: string, ranked: readonly RankedFile[], budget: number, counter: AsyncTokenCounter, config: RankingConfig = this.#config, extend?: (entries: PackEntry[], source: PackSource) => PackEntry[]): Promise<ContextResult> {
    const source = this.packSource(task);
    return packRanking(ranked, budget, counter, config, source, extend && ((entries) => extend(entries, source)));
  }

  /** What packing reads for `task`: term weights, the lines it names, and the files' texts and symbols (memoised). */
  packSource(task: string): PackSource {
    const focus = new Map<string, number[]>();
    for (const frame of this.task(task).frames) {
      for (const path of this.#pathIndex().resolve(frame.path)) focus.set(path, [...(focus.get(path) ?? []), frame.line]);
    }
    return {
      termWeights: this.termWeights(task), focus: (path) => focus.get(path) ?? [], text: (path) => this.#fileText(path), symbols: (path) => this.#symbolsOf(path),
      head: (path, lines) => this.#fileHead(path, lines), releaseNotes: this.#historyIndex().releaseNotes,
    };
  }

  /**
   * Functions and classes for `query`: the symbols of the best-ranked files, scored by the
   * query's terms in their names, signatures and docs, weighted by their file's rank.
   */
  search(query: string, limit: number, options: RankOptions = {}): SearchHit[] {
    const weights = this.termWeights(query);
    const hits: SearchHit[] = [];
    // Release notes only the ranking's placement put there did not match the query.
    const matched = this.rank(query, options).files.filter((f) => !placedOnly(f));
    matched.slice(0, Math.max(20, limit)).forEach((file, i) => {
      const signals = Object.keys(file.signals) as SignalName[];
      for (const s of this.#symbolsOf(file.path) ?? []) {
        const match = 2 * matchScore(s.qualifiedName, weights) + matchScore(`${s.signature} ${s.doc}`, weights);
        if (match <= 0) continue;
        hits.push({
          path: file.path, name: s.name, qualifiedName: s.qualifiedName, kind: s.kind, signature: s.signature,
          line: s.startLine, endLine: s.endLine, score: Math.round((match / Math.sqrt(i + 1)) * 1000) / 1000, signals,
        });
      }
    });
    return hits.sort((a, b) => b.score - a.score || (a.path < b.path ? -1 : a.path > b.path ? 1 : a.line - b.line)).slice(0, limit);
  }

  #context(text: string, config: RankingConfig, taskVector: Float32Array | null): Omit<SignalContext, "seeds"> {
    const lexical = this.#lexicalIndex();
    return {
      task: this.task(text), config, store: this.#store, lexical, history: this.#historyIndex(), paths: this.#pathIndex(), taskVector,
      symbols: (path) => this.#symbolsOf(path), parsed: (path) => this.#parse(path), vectors: () => this.#vectorSearch(),
      linksFrom: (path) => this.#fileLinks().from.get(path) ?? NO_LINKS, linksTo: (path) => this.#fileLinks().to.get(path) ?? NO_LINKS,
      ranked: () => (this.#ranked ??= this.#store.graph.ranked() ?? NO_RANKS),
    };
  }

  /** The kNN search over the index's vectors, loaded on first use; null when the index has no complete vectors. */
  #vectorSearch(): VectorSearch | null {
    if (this.#vectors === undefined) {
      const semantic = this.#store.meta().semantic;
      this.#vectors = semanticReady(semantic) ? openVectorSearch(this.#store, semantic) : null;
    }
    return this.#vectors;
  }

  #fileLinks(): { from: Map<string, Map<string, number>>; to: Map<string, Map<string, number>> } {
    if (this.#links) return this.#links;
    const from = new Map<string, Map<string, number>>();
    const to = new Map<string, Map<string, number>>();
    for (const [key, value] of this.#store.graph.allLinks()) {
      const out = new Map<string, number>();
      value.to.forEach((target, i) => {
        const weight = value.weight[i] ?? 0;
        out.set(target, weight);
        let into = to.get(target);
        if (!into) to.set(target, (into = new Map()));
        into.set(key, weight);
      });
      from.set(key, out);
    }
    return (this.#links = { from, to });
  }

  /** The task as it reads in this repository (what its paths name here). */
  task(text: string): TaskQuery {
    if (this.#lastTask?.text !== text) this.#lastTask = withinRepository(parseTask(text), (path) => this.#pathIndex().resolve(path));
    return this.#lastTask;
  }

  /**
   * Every path of the index where the lexical index is loaded already (its id map holds each file's),
   * else undefined: loading it for the paths alone would cost more than reading them.
   */
  loadedPaths(): Iterable<string> | undefined {
    return this.#lexical?.files.values();
  }

  #lexicalIndex(): LexicalIndex {
    return (this.#lexical ??= loadLexical(this.#store));
  }

  #historyIndex(): HistoryIndex {
    return (this.#history ??= loadHistoryIndex(this.#store));
  }

  #pathIndex(): PathIndex {
    return (this.#paths ??= new PathIndex(this.#lexicalIndex().files.values(), () => (this.#renamed ??= decodeRenames(this.#store.history.renames()) ?? new Map())));
  }

  /** Task term weights for scoring code: the task's weight times the term's idf in the repository. */
  termWeights(text: string): TermWeights {
    const bm25 = this.#lexicalIndex().bm25;
    const weights = new Map<string, number>();
    for (const [term, weight] of this.task(text).terms) {
      const df = bm25.df(term);
      if (df > 0) weights.set(term, weight * Math.log(1 + (bm25.docs - df + 0.5) / (df + 0.5)));
    }
    return weights;
  }

  #symbolsOf(path: string): SymbolInfo[] | undefined {
    return bounded(this.#symbols, path, () => this.#store.parse.symbols(path));
  }

  #parse(path: string): ParsedFile | undefined {
    return bounded(this.#parsed, path, () => this.#store.parse.parsed(path));
  }

  /**
   * A file's text as indexed, memoised (a warm process packs the same files for many tasks). A file
   * that is gone, changed since it was indexed (its hash), or became a link is not shown: never
   * under another version's line numbers, never from outside the repository.
   */
  #fileText(path: string): FileText | null {
    return bounded(this.#texts, path, () => this.#readText(path));
  }

  /**
   * The first `lines` lines of a file as indexed, memoised like {@link #fileText}: release notes run
   * to thousands of lines, and only their head is split into lines and tokenized.
   */
  #fileHead(path: string, lines: number): FileText | null {
    return this.#texts.get(path) ?? bounded(this.#heads, `${lines}:${path}`, () => this.#readText(path, lines));
  }

  #readText(path: string, lines = Infinity): FileText | null {
    const record = this.#store.file(path);
    if (!record || record.skipped) return null;
    const text = this.#files.readIndexed(record);
    return text === null ? null : fileText(path, record.language, Number.isFinite(lines) ? headLines(text, lines) : text);
  }
}

/** The first `n` lines of `text` (without scanning the rest). */
function headLines(text: string, n: number): string {
  let end = -1;
  for (let i = 0; i < n; i++) {
    end = text.indexOf("\n", end + 1);
    if (end < 0) return text;
  }
  return text.slice(0, end);
}
