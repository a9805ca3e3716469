/**
 * Data contracts of the retrieval benchmark (`ctxsmith bench`).
 */
import type { Language, SymbolInfo } from "../core/types.js";
import type { SignalResult } from "../query/types.js";
import type { ReleaseNotesHabit } from "../store/history-index.js";

/** One instance of a SWE-bench-style dataset (one JSON object per line). */
export interface BenchInstance {
  instance_id: string;
  /** `owner/name` on GitHub. */
  repo: string;
  base_commit: string;
  problem_statement: string;
  /** The gold fix, a unified diff. */
  patch: string;
  created_at?: string;
}

/** A file the gold patch changes, with the pre-image lines an answer must show. */
export interface GoldFile {
  path: string;
  /** Created by the patch: it is not in the repository at the base commit. */
  isNew: boolean;
  isTest: boolean;
  /**
   * Pre-image lines (1-based) the patch deletes or modifies; for a hunk that only adds lines,
   * the old line just before each insertion point. Sorted, unique.
   */
  lines: number[];
}

/** What one strategy achieved on one instance. */
export interface StrategyOutcome {
  /** 1-based rank of each scored gold file in the ranking, or null when it is not ranked. */
  ranks: Record<string, number | null>;
  /** Whether all scored gold files are in the top k, for k = 1, 3, 5, 10. */
  recall: Record<"1" | "3" | "5" | "10", boolean>;
  /** Per budget: every gold file shown, every gold line shown, tokens used. */
  budgets: Record<string, { file: boolean; lines: boolean; tokens: number; overBudget: boolean }>;
  /** Milliseconds to rank and pack at the first budget. */
  ms: number;
}

/** One line of `instances.jsonl`: an instance's outcome under every strategy, and why gold was missed. */
export interface InstanceRecord {
  instance_id: string;
  repo: string;
  /** The gold files scored (non-test, present at the base commit) and their line counts. */
  gold: Array<{ path: string; lines: number }>;
  /** Gold files left out of scoring, and why (test file, created by the patch). */
  unscored: Array<{ path: string; reason: string }>;
  strategies: Record<string, StrategyOutcome>;
  /** For the default strategy: why each gold file or line was missed. */
  missed: string[];
  /** The embedding model whose vectors the semantic signal searched for this task; null when it had none, and why. */
  semantic?: { model: string | null; notice: string | null };
  /** Set when the instance could not be run (materialisation or indexing failed). */
  error?: string;
  /** Where an unexpected error (not one of ours) was thrown: the first frames of its stack. */
  stack?: string;
}

/** What the tuner reads per instance: the signals' rankings and what fusion needs besides. */
export interface SignalCache {
  instance_id: string;
  repo: string;
  gold: string[];
  /**
   * What the task is about, as read within the repository (`withinRepository`); caches written
   * before 2026-12-07 hold what the task's text alone said.
   */
  aboutTests: boolean;
  aboutDocs: boolean;
  /** Absent in caches written before vendored code was demoted. */
  aboutVendored?: boolean;
  results: SignalResult[];
}

/** What the tuner needs to re-pack an instance without its repository: the packed files and the task's term weights. */
export interface PackCache {
  instance_id: string;
  repo: string;
  /** Scored gold files with their lines. */
  gold: GoldFile[];
  termWeights: Array<[string, number]>;
  /** Lines the task names, per file (traceback frames). */
  focus: Array<[string, number[]]>;
  /** The files any strategy could pack (the union of their rankings' packable heads), and the release notes below. */
  files: Array<{ path: string; language: Language | null; text: string; symbols: SymbolInfo[] }>;
  /** The release notes the newest commits add to (absent in caches written before they were packed). */
  releaseNotes?: ReleaseNotesHabit[];
}
