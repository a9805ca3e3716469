import type { SymbolInfo } from "../../core/types.js";
import type { RankingConfig } from "../ranking-config.js";
import type { ContextResult, RankedFile } from "../types.js";
import { fileCandidates, type TermWeights } from "./candidates.js";
import type { FileText } from "./file-text.js";
import { pack } from "./pack.js";
import type { AsyncTokenCounter } from "../../runtime/token-worker.js";
import type { Candidate } from "./types.js";

/** What packing reads about the ranked files. */
export interface PackSource {
  /** The task's terms with their weights (task weight × idf in the repository). */
  termWeights: TermWeights;
  /** A file's text, or null when it cannot be shown. */
  text(path: string): FileText | null;
  symbols(path: string): readonly SymbolInfo[] | undefined;
  /** Lines of a file the task names (traceback frames, `file:line`). */
  focus(path: string): readonly number[];
}

/** How many of the ranked files may be packed at `budget`: a larger budget reaches further down. */
export function packDepth(config: RankingConfig, budget: number): number {
  return Math.ceil(config.pack.maxFiles * Math.max(1, budget / 4000));
}

/** Packs the code of a ranking's best files into `budget` tokens. */
export async function packRanking(ranked: readonly RankedFile[], budget: number, counter: AsyncTokenCounter, config: RankingConfig, source: PackSource): Promise<ContextResult> {
  const candidates: Candidate[] = [];
  let rank = 0;
  for (const entry of ranked.slice(0, packDepth(config, budget))) {
    rank++;
    const text = source.text(entry.path);
    if (!text) continue;
    candidates.push(...fileCandidates({ ...text, rank, why: `#${rank} (${why(entry)})` }, source.symbols(entry.path), source.termWeights, config.pack, source.focus(entry.path)));
  }
  return { ...(await pack(candidates, budget, counter, config.pack)), budget };
}

/** "lexical #1, references #2": the signals that found a file, best rank first. */
function why(entry: RankedFile): string {
  return Object.entries(entry.signals)
    .sort((a, b) => a[1].rank - b[1].rank)
    .map(([name, s]) => `${name} #${s.rank}`)
    .join(", ");
}
