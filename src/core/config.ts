import { availableParallelism } from "node:os";
import { isAbsolute, join, resolve } from "node:path";
import { resolveEmbeddingSettings, type EmbeddingSettings } from "./embedding-settings.js";
import { ContextSmithError } from "./errors.js";

/** Options a caller may set; every one has a default. */
export interface IndexOptions {
  /** Parse workers. Default: the machine's available parallelism. */
  jobs?: number;
  /** Read git history (commit messages, churn, co-change). Default true. */
  git?: boolean;
  /** Build semantic vectors where a model is configured. Default true. */
  semantic?: boolean;
  /** Files larger than this are skipped as `too-large`. Default 1 MiB. */
  maxFileBytes?: number;
  /** Where the index lives. Default `<root>/.contextsmith`. */
  indexDir?: string;
  /** At most this many of the newest commits are read. Default 50,000. */
  maxCommits?: number;
  /** Embedding provider and model, over the environment's `CTXSMITH_*` settings (see src/embed/settings.ts). */
  embedding?: Partial<EmbeddingSettings>;
}

/** The fully resolved configuration: every field set, frozen. */
export interface Config {
  readonly root: string;
  readonly indexDir: string;
  readonly jobs: number;
  readonly git: boolean;
  readonly semantic: boolean;
  /** The embedding provider and model, the model cache, offline mode, keep-alive. */
  readonly embedding: EmbeddingSettings;
  readonly maxFileBytes: number;
  readonly maxCommits: number;
  /** A parse task holds at most this many files... */
  readonly batchFiles: number;
  /** ...or this many bytes of source. */
  readonly batchBytes: number;
  /** A line longer than this marks a file as minified or generated. */
  readonly maxLineChars: number;
  /** Files whose mean line length is above this (and longer than 4 KiB) are treated as generated. */
  readonly maxMeanLineChars: number;
  /** Commits touching more files than this are ignored for co-change (mass renames, reformatting). */
  readonly cochangeMaxFiles: number;
  /** Per file, keep the hashes of at most this many recent commits... */
  readonly historyPerFile: number;
  /** ...and this many co-change neighbours. */
  readonly cochangePerFile: number;
  /**
   * The newest commits whose renames are read. A traceback names the files of a release a user
   * runs, rarely more than months old (seaborn moved `_core.py` 109 commits before the task that
   * names it), and finding renames is what costs: git compares the blobs of the files a commit
   * adds and deletes, about 0.25 s per 1,000 commits of babel, whose whole history renames 46,000
   * files.
   */
  readonly renameCommits: number;
  /**
   * Postings rows per segment of the lexical snapshot: what an index run holds of it in memory
   * (about 10 bytes a row, plus the FlexSearch document of the same files). `CTXSMITH_LEXICAL_SEGMENT_ROWS`
   * sets it; lower bounds memory further, for more segments to read per query.
   */
  readonly lexicalSegmentRows: number;
}

const DEFAULTS = {
  git: true,
  semantic: true,
  maxFileBytes: 1024 * 1024,
  maxCommits: 50_000,
  batchFiles: 48,
  batchBytes: 768 * 1024,
  maxLineChars: 20_000,
  maxMeanLineChars: 300,
  cochangeMaxFiles: 50,
  historyPerFile: 200,
  cochangePerFile: 24,
  renameCommits: 1000,
  lexicalSegmentRows: 1_000_000,
} as const;

/** The one place where configuration is resolved. */
export function resolveConfig(root: string, options: IndexOptions = {}, env: NodeJS.ProcessEnv = process.env): Config {
  const absRoot = resolve(root);
  const indexDir = options.indexDir
    ? isAbsolute(options.indexDir) ? options.indexDir : resolve(absRoot, options.indexDir)
    : join(absRoot, ".contextsmith");
  return Object.freeze({
    ...DEFAULTS,
    root: absRoot,
    indexDir,
    jobs: positiveInteger("jobs", options.jobs) ?? availableParallelism(),
    git: options.git ?? DEFAULTS.git,
    semantic: options.semantic ?? DEFAULTS.semantic,
    embedding: resolveEmbeddingSettings(options.embedding, env),
    maxFileBytes: positiveInteger("maxFileBytes", options.maxFileBytes) ?? DEFAULTS.maxFileBytes,
    maxCommits: positiveInteger("maxCommits", options.maxCommits) ?? DEFAULTS.maxCommits,
    lexicalSegmentRows: positiveInteger("CTXSMITH_LEXICAL_SEGMENT_ROWS", env.CTXSMITH_LEXICAL_SEGMENT_ROWS === undefined ? undefined : Number(env.CTXSMITH_LEXICAL_SEGMENT_ROWS)) ?? DEFAULTS.lexicalSegmentRows,
  });
}

function positiveInteger(name: string, value: number | undefined): number | undefined {
  if (value === undefined) return undefined;
  if (!Number.isInteger(value) || value < 1) {
    throw new ContextSmithError("INVALID_ARGUMENT", `${name} must be a positive integer, got ${String(value)}`);
  }
  return value;
}
