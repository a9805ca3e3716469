/**
 * The main-thread <-> worker contracts. Bump PROTOCOL_VERSION when a shape changes: workers
 * reject tasks of another version, so a stale build fails loudly instead of misreading data.
 */
import type { Language, SymbolInfo } from "../core/types.js";
import type { FileUpdate } from "../store/types.js";
import type { PlannedRead } from "./plan.js";

export const PROTOCOL_VERSION = 4;

/** Limits the parse stage applies to file contents. */
export interface ContentLimits {
  /** Files larger than this when they are read (they may have grown since the walk) are skipped as `too-large`. */
  maxFileBytes: number;
  maxLineChars: number;
  maxMeanLineChars: number;
}

/** One batch of files for the parse pool. */
export interface ParseTask {
  version: number;
  root: string;
  files: PlannedRead[];
  limits: ContentLimits;
  /** Return each file's lexical input too: the main thread is building a lexical snapshot. */
  lexical: boolean;
}

/** The outcome of a parse task, one update per file, in task order. */
export interface ParseResult {
  updates: FileUpdate[];
  /** Non-fatal problems (a parser crash on one file, which is then indexed as text). */
  warnings: string[];
}

/**
 * Texts to outline that are not the repository's files as they are on disk (another commit's
 * version of them, read from git): each parsed by its language, nothing stored.
 */
export interface OutlineTask {
  version: number;
  texts: Array<{ language: Language; text: string }>;
}

/** The symbols of each text of an {@link OutlineTask}, in task order; null where it has no grammar on this machine. */
export interface OutlineResult {
  symbols: Array<SymbolInfo[] | null>;
  warnings: string[];
}

/** A git-history task for the git-log worker. */
export interface GitTask {
  version: number;
  root: string;
  indexDir: string;
  maxCommits: number;
  cochangeMaxFiles: number;
  historyPerFile: number;
  cochangePerFile: number;
  /** The newest commits whose renames are read (see `Config.renameCommits`). */
  renameCommits: number;
}

/** What the git-log worker did. */
export interface GitResult {
  head: string | null;
  /** Commits read in this run. */
  commitsRead: number;
  /** True when the history was rebuilt from scratch (first run, rewritten history). */
  rebuilt: boolean;
  warnings: string[];
  /** Time the history stage took in its worker. */
  ms: number;
}
