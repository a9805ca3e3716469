import type { SignalName } from "./types.js";

/**
 * THE ranking configuration: fusion weights and packing parameters, in one place.
 *
 * Every number here is a default a user may override (`Engine` query options); the retrieval
 * benchmark (`ctxsmith bench`, `bench/tune.ts`) is the only judge of a change. When tuning
 * freezes new values, write the command that produced them next to them.
 */
export interface RankingConfig {
  /** Weighted reciprocal-rank fusion: score(f) = Σ weight[s] / (k + rank_s(f)). */
  readonly rrfK: number;
  /** Per-signal weight; 0 turns a signal off (it is then not even computed). */
  readonly weights: Readonly<Record<SignalName, number>>;
  /** Each signal contributes at most this many files. */
  readonly signalDepth: number;
  /** Score multiplier for test files, unless the task is about tests. */
  readonly testPenalty: number;
  /** Score multiplier for documentation and config files, unless the task is about docs. */
  readonly docPenalty: number;
  /** Lexical signal: BM25 parameters. */
  readonly bm25: { readonly k1: number; readonly b: number };
  /** Lexical signal: weight of a task term found in the file's path, relative to its body weight. */
  readonly pathBoost: number;
  /** Neighbour signals (co-change, call graph) expand from this many top files of the first fusion. */
  readonly neighbourSeeds: number;
  readonly pack: PackConfig;
}

/** Packing parameters. */
export interface PackConfig {
  /** Token encoding of the budget (tiktoken names: cl100k_base, o200k_base, …). */
  readonly encoding: string;
  /** Files of the ranking whose code may be packed at a 4,000-token budget (proportionally more above). */
  readonly maxFiles: number;
  /** The value of a file's code falls with its rank r (1-based) as 1 / r^rankDecay. */
  readonly rankDecay: number;
  /** Each further pick from the same file is worth this factor less than the one before. */
  readonly repeatDiscount: number;
  /** Value of a file outline relative to the file's weight (cheap, and keeps the file in view). */
  readonly outlineValue: number;
  /**
   * How strongly a piece of code's match with the task (relative to the file's best match) raises
   * its share of the file's value: share ∝ lines × exp(matchSharpness × match / best).
   */
  readonly matchSharpness: number;
  /** A whole file at most this many lines is one candidate (instead of outline + bodies). */
  readonly wholeFileLines: number;
}

/** The defaults. Hand-set on the tuning split's first look; `bench/tune.ts` will replace them. */
export const DEFAULT_RANKING: RankingConfig = Object.freeze({
  rrfK: 60,
  weights: Object.freeze({
    lexical: 1,
    symbols: 1,
    references: 2,
    history: 0.5,
    semantic: 1,
    // Off by default until the benchmark says otherwise.
    cochange: 0,
    callgraph: 0,
    exactName: 0,
  }),
  signalDepth: 200,
  testPenalty: 0.5,
  docPenalty: 0.5,
  bm25: Object.freeze({ k1: 1.2, b: 0.75 }),
  pathBoost: 2,
  neighbourSeeds: 5,
  pack: Object.freeze({
    encoding: "cl100k_base",
    maxFiles: 20,
    rankDecay: 1,
    repeatDiscount: 0.8,
    outlineValue: 0.6,
    matchSharpness: 3,
    wholeFileLines: 60,
  }),
});

/** A partial override of the defaults (weights and pack parameters merge key by key). */
export interface RankingOverrides extends Partial<Omit<RankingConfig, "weights" | "pack" | "bm25">> {
  weights?: Partial<Record<SignalName, number>>;
  pack?: Partial<PackConfig>;
  bm25?: Partial<RankingConfig["bm25"]>;
}

/** `base` (the defaults unless given) with `overrides` laid over it. */
export function resolveRanking(overrides: RankingOverrides = {}, base: RankingConfig = DEFAULT_RANKING): RankingConfig {
  return Object.freeze({
    ...base,
    ...overrides,
    weights: Object.freeze({ ...base.weights, ...overrides.weights }),
    bm25: Object.freeze({ ...base.bm25, ...overrides.bm25 }),
    pack: Object.freeze({ ...base.pack, ...overrides.pack }),
  });
}
