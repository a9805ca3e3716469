import type { FileRecord, ParsedFile, TermStats } from "../core/types.js";

/** Bumped whenever the stored layout changes; a mismatch rebuilds the index cleanly. */
export const SCHEMA_VERSION = 1;

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
  semantic: boolean;
  /** Summary of the last completed index run. */
  lastRun: { at: number; ms: number; parsed: number; removed: number } | null;
  /** Files in the lexical snapshot when it was written; null when none was written yet. */
  lexicalFiles: number | null;
}

/** The per-file counts kept on the file record so totals can be updated without re-reading. */
export interface StoredFile extends FileRecord {
  symbols: number;
  calls: number;
  imports: number;
  tokens: number;
}

/** One file's outcome of a parse task, ready to commit. */
export type FileUpdate =
  | { kind: "touch"; path: string; size: number; mtimeMs: number }
  | {
      kind: "index";
      path: string;
      size: number;
      mtimeMs: number;
      hash: string;
      language: FileRecord["language"];
      lines: number;
      parsed: ParsedFile | null;
      terms: TermStats;
    }
  | { kind: "skip"; path: string; size: number; mtimeMs: number; hash: string; reason: NonNullable<FileRecord["skipped"]> };
