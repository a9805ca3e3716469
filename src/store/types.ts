import type { FileRecord } from "../core/types.js";
import type { Provenance } from "../runtime/embed/types.js";

/**
 * Bumped whenever the stored layout or what is extracted changes (17: the large tables
 * LZ4-compressed; 18: the lexical snapshot in segments, which a build before would read as
 * empty; 19: BM25 snapshots keep their terms as UTF-8 bytes in code point order, with where each
 * starts, instead of a JSON string); a mismatch rebuilds the index cleanly.
 */
export const SCHEMA_VERSION = 19;

/** Running totals over the indexed (not skipped) files, kept in one meta entry. */
export interface Totals {
  files: number;
  symbols: number;
  calls: number;
  imports: number;
  bytes: number;
  /** Sum of token counts, for BM25's average document length. */
  tokens: number;
}

/** The meta entry of the store. */
export interface StoreMeta {
  schema: number;
  createdAt: number;
  nextId: number;
  totals: Totals;
  /** HEAD whose ancestry is in the history tables, or null. */
  gitHead: string | null;
  commits: number;
  /** The semantic vectors' state, or null when none were ever built. */
  semantic: SemanticMeta | null;
  /** Summary of the last completed index run. */
  lastRun: { at: number; ms: number; parsed: number; removed: number } | null;
  /** Files in the lexical snapshot when it was written; null when none was written yet. */
  lexicalFiles: number | null;
  /**
   * One counter per part of the index, bumped by every commit that changes that part, and only by
   * those: a warm reader reloads what it derived from a part when the part's version moved, and
   * keeps the rest (a one-file edit leaves the history index and, without new vectors, the kNN
   * index loaded).
   */
  versions: PartVersions;
}

/** The parts of an index, each written by its own stage. */
export type IndexPart = "files" | "lexical" | "history" | "graph" | "vectors";

/** The version of each part (see {@link StoreMeta.versions}). */
export type PartVersions = Record<IndexPart, number>;

/** What the index's vectors are and how far they got (written by the embed stage). */
export interface SemanticMeta {
  /** The vector space: provider, model, dimension, pooling. */
  provenance: Provenance;
  /**
   * False while the vectors are (re)built for this model, after a first build or a model change:
   * queries skip the semantic signal until it is true.
   */
  complete: boolean;
  /** Vectors stored. */
  vectors: number;
  /** The next vector label to hand out (labels are never reused). */
  nextLabel: number;
  /** Bumped by every commit that adds or removes vectors. */
  version: number;
  /** The HNSW file beside the store (`vectors-<version>.hnsw`) and the vectors version it holds; null without one. */
  hnsw: { file: string; version: number; size: number; deleted: number } | null;
}

/**
 * One file's vectors: per summary, in the file's order, its hash, label and symbol name, and the
 * vectors themselves, float16, one after another (see vector-codec.ts). One value per file: LMDB
 * stores it in contiguous pages instead of a page per vector.
 */
export interface FileVectors {
  hashes: string[];
  labels: number[];
  names: string[];
  vectors: Buffer;
}

/** The per-file counts kept on the file record so totals can be updated without re-reading. */
export interface StoredFile extends FileRecord {
  symbols: number;
  calls: number;
  imports: number;
  tokens: number;
}

/** What planning a run compares of a stored file: its stat, its content hash, the language the walk gave it. */
export interface StoredStat {
  path: string;
  size: number;
  mtimeMs: number;
  hash: string;
  language: FileRecord["language"];
}

/** One file's contribution to the lexical index. */
export interface LexicalInput {
  /** Text of the `symbols` field: names, qualified names, signatures, docs. */
  symbols: string;
  /** Names the file defines, exactly as written (a name defined twice appears twice). */
  names: string[];
  /** Distinct terms and their frequencies (parallel arrays), and the token count. */
  terms: string[];
  tfs: number[];
  length: number;
}

/** One file's outcome of a parse task, ready to commit. */
export type FileUpdate =
  | { kind: "touch"; path: string; size: number; mtimeMs: number; language: FileRecord["language"] }
  | {
      kind: "index";
      path: string;
      size: number;
      mtimeMs: number;
      hash: string;
      /** The language its name gives it (see WalkedFile), whether or not its grammar could parse it. */
      language: FileRecord["language"];
      lines: number;
      /**
       * The parse result and term statistics, msgpack-encoded in the worker: the main thread
       * stores the bytes as they are instead of decoding and re-encoding object graphs.
       */
      parsed: Uint8Array | null;
      /** The parse result's symbols alone (queries read them far more often than calls and imports). */
      symbols: Uint8Array | null;
      /** Its HTTP facts with its imports (an `ApiRecord`), when it has any: the API map reads only these files. */
      api: Uint8Array | null;
      terms: Uint8Array;
      counts: { symbols: number; calls: number; imports: number; tokens: number };
      /** What the lexical snapshot needs, when the indexer is building one in this run. */
      lexical: LexicalInput | null;
    }
  | { kind: "skip"; path: string; size: number; mtimeMs: number; hash: string; language: FileRecord["language"]; reason: NonNullable<FileRecord["skipped"]> };

// The code graph as stored (written by the graph stage, read by src/graph/).

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

/**
 * What a file registered in the definitions index (its names), and a hash of what other files'
 * resolution reads of it (its symbols without their lines, its imports): when that is unchanged,
 * an edit does not concern its dependents.
 */
export interface DefinedShape {
  names: string[];
  shape: string;
}

/**
 * Every file's PageRank, best first (ties by path): parallel lists. Stored in this order so that
 * the centrality signal reads the best few without sorting, or decoding an object of one key per
 * file (100 ms on a 100,000-file repository, at every query).
 */
export interface RankedFiles {
  paths: string[];
  scores: number[];
}

/** A file's edges in the file graph (imports and calls into other files), with weights: the input of PageRank. */
export interface FileLinks {
  to: string[];
  weight: number[];
}
