/**
 * Data contracts of the code graph: resolved calls and imports (stored per file at index time)
 * and the answers of the graph queries (`symbol`, `callers`, `callees`, `impact`, `related`,
 * `overview`).
 */
import type { Language, SymbolInfo } from "../core/types.js";

/**
 * How a call was resolved to its definition, strongest first:
 * - `local`: defined in the caller's scope or file (Go: its package);
 * - `import`: through an import of the file (aliases, re-exports and module aliases followed);
 * - `receiver`: a method of the caller's own class (`self.x()`, `this.x()`) or of a named class (`Widget.create()`);
 * - `hierarchy`: a method inherited from a base class, or `super()`;
 * - `unique`: the only definition of that name in the repository;
 * - `ambiguous`: several definitions could be meant; all of them are kept as candidates.
 */
export type Resolution = "local" | "import" | "receiver" | "hierarchy" | "unique" | "ambiguous";

/** A definition: a file and the index of the symbol in that file's symbol list. */
export type SymbolRef = readonly [path: string, symbol: number];

/** A resolved call site of a file. */
export interface CallEdge {
  /** Index of the calling symbol in this file, or -1 at module level. */
  caller: number;
  line: number;
  /** The called name as written (`charge`, `Widget`). */
  callee: string;
  how: Resolution;
  /** The definition; several only when `how` is `ambiguous`. */
  targets: SymbolRef[];
}

/** An import statement of a file and the repository files it resolves to (none: external). */
export interface ImportEdge {
  line: number;
  module: string;
  targets: string[];
}

/** What the graph stage stores per file. */
export interface FileGraph {
  calls: CallEdge[];
  imports: ImportEdge[];
  /** Call sites that resolved to nothing in the repository (builtins, libraries). */
  unresolved: number;
  /** Files whose content the resolution read: when one changes, this file is resolved again. */
  deps: string[];
  /** Names whose definitions the resolution looked up: when one is defined or removed anywhere, this file is resolved again. */
  refs: string[];
}

/** A file's graph as stored (see codec.ts): the calls packed into 32-bit rows. */
export interface StoredFileGraph extends Omit<FileGraph, "calls"> {
  /** Target files referenced by the rows. */
  files: string[];
  /** Called names referenced by the rows. */
  callees: string[];
  callCount: number;
  /** Int32 rows: `caller, line, callee, how, n`, then `n` pairs `(file, symbol)`. */
  calls: Uint8Array;
}

/** One definition, as the graph queries report it: the symbol, its file and language. */
export interface SymbolLocation extends Pick<SymbolInfo, "name" | "qualifiedName" | "kind" | "signature" | "doc" | "startLine" | "endLine"> {
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
