/**
 * Data contracts of the code graph: resolved calls and imports (stored per file at index time)
 * and the answers of the graph queries (`symbol`, `callers`, `callees`, `impact`, `related`,
 * `overview`).
 */
import type { Language, SymbolInfo } from "../core/types.js";

import type { Resolution } from "../store/types.js";

/** One definition, as the graph queries report it: the symbol, its file and language. */
export interface SymbolLocation extends Pick<SymbolInfo, "name" | "qualifiedName" | "kind" | "signature" | "doc" | "startLine" | "endLine" | "decl"> {
  path: string;
  language: Language | null;
}

/** Result of looking a name up: the definitions it may mean (several when ambiguous). */
export interface SymbolLookup {
  query: string;
  matches: SymbolLocation[];
  /** Close names when nothing matched. */
  suggestions: string[];
}

/**
 * One hop across the API contract, as the graph commands show it: a request that reaches a route
 * handler (for `callers` and `impact` of the handler, or of what it calls), or a handler that a
 * function's request reaches (for `callees`).
 */
export interface ApiHop {
  /** The other side's repository (within one repository, its folder's name). */
  repo: string;
  file: string;
  line: number;
  /** The function making the request (callers) or the handler serving it (callees). */
  symbol: string | null;
  method: string;
  /** The request's URL (callers) or the route's path pattern (callees). */
  path: string;
  /** The handler (callers) or the request's function (callees) on this side. */
  via: string | null;
  confidence: number;
  how: string;
}

/** One call site in a `callers` or `callees` answer. */
export interface CallHit {
  /** The calling symbol (for callers) or the called one (for callees); null: module-level code. */
  symbol: SymbolLocation | null;
  /** The file of the call site. */
  path: string;
  line: number;
  how: Resolution;
  /** Other candidates of an ambiguous call. */
  candidates?: number;
}

/** Result of `callers` / `callees`: the symbols the name resolved to and their one-hop neighbours. */
export interface CallsResult {
  query: string;
  targets: SymbolLocation[];
  calls: CallHit[];
  suggestions: string[];
  /** Across the API contract: the requests that reach the targets as route handlers (callers), or the handlers the targets' requests reach (callees). */
  api?: ApiHop[];
}

/** A node of an impact tree: a caller, the call lines, and the callers of it one level deeper. */
export interface ImpactNode {
  symbol: SymbolLocation | null;
  path: string;
  /** Lines where it calls its parent in the tree. */
  lines: number[];
  how: Resolution;
  depth: number;
  isTest: boolean;
  children: ImpactNode[];
  /** Set when this symbol already appeared higher in the tree (a cycle or a second path); its callers are not repeated. */
  seen?: true;
}

/** Result of `impact`: everything that calls the name, transitively. */
export interface ImpactResult {
  query: string;
  targets: SymbolLocation[];
  depth: number;
  tree: ImpactNode[];
  /** Distinct callers per depth (1 = direct callers). */
  byDepth: number[];
  counts: { symbols: number; files: number; tests: number; production: number };
  /** Distinct production files and test files affected. */
  files: string[];
  tests: string[];
  /** True when the depth limit cut the tree (there are callers further up). */
  truncated: boolean;
  suggestions: string[];
  /** The requests that reach, as route handlers, the targets or any caller in the tree. */
  api?: ApiHop[];
}

/** Result of `related`: a file's neighbours by code and by history. */
export interface RelatedResult {
  path: string;
  imports: string[];
  importedBy: string[];
  /** Files changed in the same commits, with the number of shared commits. */
  cochange: Array<{ path: string; commits: number }>;
  /** Files this one calls into, and files that call into it, with the number of resolved call sites (ambiguous calls left out). */
  calls: Array<{ path: string; sites: number }>;
  calledBy: Array<{ path: string; sites: number }>;
}

/** Result of `overview`: what the repository is, and how its index stands. */
export interface OverviewResult {
  root: string;
  languages: Array<{ language: string; files: number; lines: number }>;
  totals: { files: number; lines: number; bytes: number; symbols: number; calls: number; resolvedCalls: number; imports: number; commits: number };
  /** Files by PageRank over the import and call graph. */
  central: Array<{ path: string; score: number }>;
  /** Files by the number of commits touching them. */
  hot: Array<{ path: string; commits: number }>;
  index: {
    schema: number;
    lastRun: { at: string; ms: number; parsed: number; removed: number } | null;
    semantic: boolean;
    indexBytes: number;
    gitHead: string | null;
  };
}
