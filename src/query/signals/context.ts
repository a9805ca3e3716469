import type { ParsedFile, SymbolInfo } from "../../core/types.js";
import type { HistoryIndex } from "../../store/history-index.js";
import type { LexicalIndex } from "../../store/lexical.js";
import type { IndexStore } from "../../store/store.js";
import type { VectorSearch } from "../../store/vector-index.js";
import type { PathIndex } from "../../store/path-index.js";
import type { RankedFiles } from "../../store/types.js";
import type { RankingConfig } from "../ranking-config.js";
import type { TaskQuery } from "../types.js";

/**
 * What a signal reads. Everything is loaded lazily and at most once per query (or once per
 * process for a warm engine), so a signal that is turned off costs nothing.
 */
export interface SignalContext {
  readonly task: TaskQuery;
  readonly config: RankingConfig;
  readonly store: IndexStore;
  readonly lexical: LexicalIndex;
  readonly history: HistoryIndex;
  readonly paths: PathIndex;
  /** A file's symbols (memoised). */
  symbols(path: string): SymbolInfo[] | undefined;
  /** A file's whole parse result, calls and imports included (memoised). */
  parsed(path: string): ParsedFile | undefined;
  /** Files a file imports or calls into, with weights (call sites and imports), from the code graph. */
  linksFrom(path: string): ReadonlyMap<string, number>;
  /** Files that import or call into a file, with weights (memoised reverse of `linksFrom`). */
  linksTo(path: string): ReadonlyMap<string, number>;
  /** Every file's PageRank, best first (memoised; empty before the first graph build). */
  ranked(): RankedFiles;
  /** The task's vector in the index's vector space, or null when the semantic signal cannot run. */
  readonly taskVector: Float32Array | null;
  /** kNN over the index's symbol-summary vectors (loaded once), or null when it has none. */
  vectors(): VectorSearch | null;
  /** The best files of a first fusion, for the neighbour signals; empty for the first pass. */
  readonly seeds: readonly string[];
}
