/**
 * Data contract of `ctxsmith review` (its `--json` output; documented in README): a change between
 * two versions of a repository mapped onto its index: the symbols changed, what calls them, the
 * tests that reach them, the notes on them, and the code to read for it within a budget.
 */
import type { SymbolKind } from "../core/types.js";
import type { ApiHop } from "../graph/types.js";
import type { ContextWithNotes } from "../notes/attach.js";
import type { NoteView } from "../notes/types.js";

/** What a review compares. */
export interface ReviewRange {
  /** The base as named (`--base`, or the default branch found) and its commit. */
  base: { ref: string; commit: string };
  /** The commit compared from: the merge base of base and head, or the base itself where the clone lacks it (see `notices`). */
  from: string;
  /** The head: a named revision, or the work tree (`ref` null) over the commit it is checked out at. */
  head: { ref: string | null; commit: string };
}

export type ChangedFileStatus = "added" | "deleted" | "modified" | "renamed";

/** One file the change touches. */
export interface ReviewFile {
  /** Repository-relative path in the head (in the base for a deleted file). */
  path: string;
  /** Its path in the base, for a renamed file. */
  previousPath?: string;
  status: ChangedFileStatus;
  /** Lines added and removed; null for a binary file (and an untracked file's removals are 0). */
  additions: number | null;
  deletions: number | null;
  /** A test file (test folders, `test_*.py`, `*_test.go`, `FooTest.java`, …). */
  test: boolean;
  /** Symbols of this file in {@link ReviewReport.symbols}. */
  symbols: number;
  /** Code outside any definition changed (imports, constants, module-level statements). */
  outside: boolean;
  /** Why its symbols were not compared: no parsed language, binary, too large, or not in the index. */
  skipped?: string;
}

/** How a symbol changed: new, gone, its declaration changed, or only its code. */
export type SymbolChange = "added" | "removed" | "signature" | "body";

/** A caller of a changed symbol (one hop up). */
export interface ReviewCaller {
  /** The calling symbol's qualified name; null for module-level code. */
  symbol: string | null;
  path: string;
  line: number;
  test: boolean;
}

/** One changed definition. */
export interface ReviewSymbol {
  change: SymbolChange;
  /** The file (head path; base path for a removed symbol). */
  path: string;
  name: string;
  qualifiedName: string;
  kind: SymbolKind;
  /** Its declaration in the head (in the base for a removed symbol). */
  signature: string;
  /** Its declaration in the base, for a signature change. */
  previousSignature?: string;
  /** Lines in the head (in the base for a removed symbol), 1-based, inclusive. */
  startLine: number;
  endLine: number;
  /** Defined in a test file. */
  test: boolean;
  /** Direct callers in the head's index, production and tests (empty for a removed symbol: see `references`). */
  callers: ReviewCaller[];
  /** Everything that calls it transitively, to the review's depth: distinct callers and the files they are in. */
  impact: { symbols: number; production: string[]; tests: string[]; truncated: boolean };
  /** The HTTP requests that reach it, or a caller of it, as a route handler. */
  api: ApiHop[];
  /** For a removed symbol: lines of the head that still name it (a whole-word text search), at most 10, and how many in all. */
  references?: { total: number; lines: Array<{ path: string; line: number; text: string }> };
  /** Reviewed in a workspace, for a removed symbol or a signature change: the dependent repositories whose files name it (whole word), at most 10 lines each. */
  downstream?: Array<{ repo: string; total: number; lines: Array<{ path: string; line: number; text: string }> }>;
}

/** A test file that exercises the change. */
export interface ReviewTest {
  path: string;
  /** How it reaches the change: its code calls a changed symbol (transitively), or it imports a changed file. */
  how: "calls" | "imports";
  /** The changed symbols it reaches (qualified names; for `imports`, the file's changed symbols). */
  reaches: string[];
}

/** A note pinned to a touched file or symbol, with how its code stands now. */
export type ReviewNote = NoteView;

/** The report of `ctxsmith review`. */
export interface ReviewReport {
  root: string;
  range: ReviewRange;
  summary: {
    files: number;
    additions: number;
    deletions: number;
    /** Changed symbols by kind of change. */
    symbols: Record<SymbolChange, number>;
    /** Distinct production files and test files that call a changed symbol, transitively. */
    impactedFiles: number;
    impactedTests: number;
    tests: number;
    notes: number;
    /** Removed symbols whose name the head still uses. */
    dangling: number;
    /** Removed or re-declared symbols that a dependent repository of the workspace names. */
    downstream: number;
  };
  files: ReviewFile[];
  /** Changed symbols, those with the widest impact first. */
  symbols: ReviewSymbol[];
  tests: ReviewTest[];
  notes: ReviewNote[];
  /** The code to read for the change within the budget: the changed definitions first, then their callers and tests. Null when nothing changed. */
  context: ContextWithNotes | null;
  /** What the review could not do or assumed (a shallow clone, a head other than the indexed work tree, symbols not compared). */
  notices?: string[];
}
