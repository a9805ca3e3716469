/**
 * Data contracts of the read path: task -> signals -> fusion -> pack.
 */
import type { SymbolKind } from "../core/types.js";

/** A file position named in the task text (a traceback frame, `path:line`). */
export interface FrameRef {
  /** The path as written (absolute paths and site-packages prefixes included). */
  path: string;
  line: number;
  /** The function named by the frame, when the format has one. */
  name: string;
  /**
   * How deep the frame is among the task's frames of its kind, in (0, 1]: 1 is the innermost
   * (the last written in a Python traceback, the first in a JVM, JavaScript, Go or Rust trace
   * and the first error a compiler prints), where the fix most often goes.
   */
  depth: number;
  /** A JVM frame: `path` is the package's folders and the file, as the frame implies it. */
  jvm?: boolean;
  /** A Python frame (a traceback's `File "x.py", line 12` or a `.py` mention): innermost last. */
  python?: boolean;
}

/** What a task text asks for, as the signals see it. */
export interface TaskQuery {
  text: string;
  /** Content terms (code tokenizer, stopwords removed) with their weights. */
  terms: Map<string, number>;
  /** Path-like mentions: `src/app/models.py`, `models.py`. */
  paths: string[];
  /** Dotted module or member paths: `django.db.models.query`, `Checkout.apply_coupon`. */
  dotted: string[];
  /** Traceback frames and `file:line` mentions, in the order written. */
  frames: FrameRef[];
  /** Identifiers the task points at explicitly: backticked names, parts of dotted paths. */
  identifiers: string[];
  /** Every word written like code (`charge_card`, `RetryPolicy`, `__init__`, `foo` in `foo(`), explicit or not. */
  codeWords: string[];
  /** Whether the task is about tests (then tests are not demoted). */
  aboutTests: boolean;
  /** Whether the task is about documentation (then docs are not demoted). */
  aboutDocs: boolean;
  /**
   * Whether the task is about vendored code (writes a vendored path, or "vendored", "third-party"; a
   * traceback passing through it is not enough): then it is not demoted.
   */
  aboutVendored: boolean;
}

/** The signals a ranking fuses. */
export type SignalName = "lexical" | "symbols" | "references" | "history" | "semantic" | "cochange" | "callgraph" | "exactName" | "centrality" | "declarations" | "changelog" | "innermostFrame";

/** One file found by a signal. */
export interface SignalHit {
  path: string;
  score: number;
  /** Why: the terms, names or references that matched. */
  evidence: string;
}

/** A signal's ranking of files, best first. */
export interface SignalResult {
  name: SignalName;
  hits: SignalHit[];
  /** How many files the signal chose its hits from (the semantic signal: the files with vectors), where known. */
  population?: number;
}

/** How one signal ranked a file. */
export interface SignalEvidence {
  /** 1-based rank in that signal's list. */
  rank: number;
  score: number;
  evidence: string;
}

/** A file of the fused ranking. */
export interface RankedFile {
  path: string;
  score: number;
  signals: Partial<Record<SignalName, SignalEvidence>>;
  /**
   * Set on the release notes a fix most likely adds an entry to (placed by the repository's habit,
   * not by a signal: `RankingConfig.notesRank`): why. Packs show their head, not their code.
   */
  releaseNotes?: string;
}

/** Result of `Engine.rank`. */
export interface RankResult {
  files: RankedFile[];
  /** Milliseconds spent per signal and in fusion. */
  timings: Record<string, number>;
  /** What the ranking could not use and why (the semantic signal skipped, say), for the user to see. */
  notices?: string[];
  /**
   * The share (0–1) of its weight the semantic signal had for this task, when it found anything:
   * how far it agreed with the other signals beyond chance (`semanticGate` in fusion.ts).
   */
  semanticShare?: number;
}

/**
 * What a packed span shows: a function or method `body`, `code` between definitions (imports,
 * constants, class attributes), a `class-outline` or `file-outline` (declaration lines), a whole
 * small `file`.
 */
export type SpanKind = "body" | "code" | "class-outline" | "file-outline" | "file";

/** A run of lines shown in the packed context; 1-based, inclusive. */
export interface Span {
  path: string;
  start: number;
  end: number;
  kind: SpanKind;
  /** The symbol the span belongs to (qualified name), or null. */
  symbol: string | null;
  /** Its repository, in a context packed across the repositories of a workspace. */
  repo?: string;
}

/** A packed context: what `Engine.context` answers (with the notes of the code shown, see notes/attach.ts). */
export interface ContextResult {
  /** Markdown: a header per file, fenced code with line numbers. */
  text: string;
  /** Tokens of `text` in the configured encoding; never more than `budget`. */
  tokens: number;
  budget: number;
  /** Files shown, in rank order. */
  files: string[];
  /** In a context packed across repositories: the repository of each of `files`. */
  repos?: string[];
  /** Exactly the lines shown in `text`, per file in rank order, by line within a file. */
  spans: Span[];
  /** What the ranking could not use and why (see {@link RankResult.notices}). */
  notices?: string[];
}

/** One symbol found by `Engine.search`. */
export interface SearchHit {
  path: string;
  name: string;
  qualifiedName: string;
  kind: SymbolKind;
  signature: string;
  /** 1-based, inclusive. */
  line: number;
  endLine: number;
  score: number;
  /** The signals that ranked its file (see {@link RankedFile.signals}). */
  signals: SignalName[];
}
