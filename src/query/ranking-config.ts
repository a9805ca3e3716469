import { ContextSmithError } from "../core/errors.js";
import type { SignalName } from "./types.js";

/**
 * THE ranking configuration: fusion weights and packing parameters, in one place.
 *
 * Every number here is a default a user may override (`Engine` query options); the retrieval
 * benchmark (`ctxsmith bench`, `bench/tune.ts`) is the only judge of a change. When tuning
 * freezes new values, write the command that produced them next to them.
 */
export interface RankingConfig {
  /** Weighted reciprocal-rank fusion: score(f) = Σ weight[s] / (k + rank_s(f)), plus the score term of `scoreMix`. */
  readonly rrfK: number;
  /**
   * Each signal also adds its own score, as a share of its best file's score, at `scoreMix` times
   * the weight its first file gets from the rank term: score(f) += weight[s] × scoreMix ×
   * (score_s(f) / score_s(top)) / (k + 1). Ranks alone make a list's clear winner and its
   * near-miss equal neighbours; 0 fuses by ranks only.
   */
  readonly scoreMix: number;
  /** Per-signal weight; 0 turns a signal off (it is then not even computed). */
  readonly weights: Readonly<Record<SignalName, number>>;
  /** Each signal contributes at most this many files. */
  readonly signalDepth: number;
  /** Score multiplier for test files, unless the task is about tests. */
  readonly testPenalty: number;
  /** Score multiplier for documentation and config files, unless the task is about docs. */
  readonly docPenalty: number;
  /**
   * Score multiplier for vendored copies of other projects (`vendor/`, `third_party/`, a Python
   * package's `packages/`), unless the task is about them: a fix goes in the project's own code.
   */
  readonly vendorPenalty: number;
  /** Lexical signal: BM25 parameters. */
  readonly bm25: { readonly k1: number; readonly b: number };
  /** Lexical signal: weight of a task term found in the file's path, relative to its body weight. */
  readonly pathBoost: number;
  /** Neighbour signals (co-change, call graph) expand from this many top files of the first fusion. */
  readonly neighbourSeeds: number;
  /**
   * The semantic signal's weight applies in full when its best files agree with the other
   * signals' best this much beyond chance (0–1; `semanticGate` in fusion.ts), in proportion below;
   * 0 turns the gate off (the weight always applies).
   */
  readonly semanticAgreement: number;
  /**
   * The release notes a fix most likely adds an entry to (those packs end with: `notesShare` of the
   * newest commits change them, and their folder holds the best file) rank here at the latest,
   * 1-based, 2 at the earliest; 0 ranks them only by the signals.
   */
  readonly notesRank: number;
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
  /**
   * ...and with its fused score s against the best packed file's s₁ as (s / s₁)^scoreSharpness: a
   * file the ranking put far behind the first gets less of the budget than its rank alone gives.
   */
  readonly scoreSharpness: number;
  /** Each further pick from the same file is worth this factor less than the one before. */
  readonly repeatDiscount: number;
  /** Value of a file outline relative to the file's weight (cheap, and keeps the file in view). */
  readonly outlineValue: number;
  /**
   * How strongly a piece of code's match with the task (relative to the file's best match) raises
   * its share of the file's value: share ∝ lines × exp(matchSharpness × match / best).
   */
  readonly matchSharpness: number;
  /**
   * Value of a file's import statements relative to the file's weight, besides their share of its
   * code: a fix that uses a new name adds an import beside them.
   */
  readonly importsValue: number;
  /** A whole file at most this many lines is one candidate (instead of outline + bodies). */
  readonly wholeFileLines: number;
  /**
   * Weight of a task term in a piece of code where it occurs only on prose lines (comments,
   * docstrings), relative to one on a line of code, when the pieces of a file are matched with the task.
   */
  readonly proseValue: number;
  /**
   * Files of the ranking, at a 4,000-token budget (proportionally more above), that are at least
   * named in the pack: those ranked below `maxFiles` show only the declaration lines of their
   * definitions that match the task best, so an agent sees that the file exists for a few tokens.
   * `maxFiles` or less turns it off.
   */
  readonly coverFiles: number;
  /** Value of such a file's named definitions relative to its rank's weight (1 / rank^rankDecay; its score's share does not count). */
  readonly coverValue: number;
  /**
   * How many of the task's terms, heaviest first, choose which definitions of such a file are
   * named. A few are looked up by scanning the file's text; all of a long issue's terms would
   * tokenize every named file whole.
   */
  readonly coverTerms: number;
  /**
   * Value of the head of the release notes a repository's fixes usually add to (a share of recent
   * commits of at least `notesShare`), shown after the code; 0 turns it off.
   */
  readonly notesValue: number;
  /** Share of the newest 300 file-touching commits that must change release notes for them to be shown. */
  readonly notesShare: number;
}

/**
 * The defaults, tuned on the SWE-bench Lite tuning split (136 instances, 9 repositories) with
 *
 *   ctxsmith bench --dataset ../shared/bench/swe-bench-lite-tune.jsonl --mirrors M --no-network --out bench/out
 *   node dist/bench/tune.js --signals bench/out/signals --packs bench/out/packs --rounds 2
 *
 * (see bench/results-tune/tune.md: leave-one-repository-out R@1/3/5/10 56.2/82.8/85.7/93.0
 * against 48.5/73.9/82.2/90.6 for the hand-set weights before).
 */
export const DEFAULT_RANKING: RankingConfig = Object.freeze({
  rrfK: 60,
  // From the fusion sweep on both tuning sets (bench/results-tune/fusion.md): leave-one-repository-
  // out picks 1 for 22 of 23 held-out repositories; multi-language R@1 +5.0, Python +0.6 (macro).
  scoreMix: 1,
  weights: Object.freeze({
    lexical: 2,
    symbols: 1,
    references: 0.5,
    // A Python traceback's innermost project frame: on the Python tuning set R@1 55.3 -> 61.2 macro
    // at 1 (flat from 1 up; every held-out repository picks 1), one instance's lines lost at 4k,
    // the multi-language set unchanged (bench/results-tune/task-evidence.md).
    innermostFrame: 1,
    history: 0.5,
    // Not tuned on a real model: none can be downloaded on the machines that tune. Set with
    // stand-in models on both tuning sets (bench/results-tune/semantic.md, fusion.md): with this
    // weight, `scoreMix` 1 and `semanticAgreement` 0.8, a useless model (random vectors) costs R@1
    // −1.2 (Python, 83 instances) and −1.3 (multi-language, 75), micro; a model that knows the
    // answers lifts R@1 +2.5 and +2.7. A real model's rows: CTXSMITH_EMBED_MODEL=… ctxsmith bench.
    semantic: 0.5,
    // Off: on the tuning split each of these lost more than it found (bench/results-tune/summary.md).
    cochange: 0,
    callgraph: 0,
    exactName: 0,
    centrality: 0,
    declarations: 0,
    changelog: 0,
  }),
  signalDepth: 200,
  testPenalty: 0.5,
  docPenalty: 0.5,
  // Flat from 0.7 down to 0.2 on both tuning sets: Python R@3 +1.8 macro (requests' vendored
  // urllib3 above its own adapters.py), nothing lost (bench/results-tune/task-evidence.md).
  vendorPenalty: 0.5,
  bm25: Object.freeze({ k1: 1.2, b: 0.75 }),
  pathBoost: 2,
  neighbourSeeds: 5,
  semanticAgreement: 0.8,
  // At 4 or 5 free on the Python set (its fixes never touch notes) and on the multi-language set
  // R@5 +3.2, R@10 +5.0 macro; at 2 or 3 also R@3 +4.2 there, but Python loses 3 instances of R@3
  // (bench/results-tune/lines.md).
  notesRank: 5,
  pack: Object.freeze({
    encoding: "cl100k_base",
    // Since the files below the packed ones are named (coverFiles), the code of fewer files pays:
    // chosen leave-one-repository-out over both tuning sets from 1, 2, 3, 5 × rankDecay 1.5, 2
    // (every held-out repository picked 2; bench/results-tune/lines.md).
    maxFiles: 2,
    rankDecay: 1.5,
    // Every held-out repository of both tuning sets picked 3 from 0–8 (Python lines@4k macro
    // 48.9 → 51.3, lines@8k 61.9 → 63.7; nothing lost on either set; bench/results-tune/file-worth.md).
    scoreSharpness: 3,
    repeatDiscount: 0.8,
    outlineValue: 0.05,
    matchSharpness: 3,
    // From the import sweep on both tuning sets (bench/results-tune/lines.md): above 0.05 the
    // import blocks crowd out code.
    importsValue: 0.02,
    wholeFileLines: 120,
    // From the prose sweep on both tuning sets (bench/results-tune/prose.md): a docstring's
    // examples and a comment's words made long documented bodies the best match of their file.
    proseValue: 0.1,
    // From the coverage sweep on both tuning sets (bench/results-tune/coverage.md): every held-out
    // repository picked 30 from 10–30 (15 before: 25 and 30 were outside the earlier grid); a higher
    // coverValue takes names before code, a lower one names fewer files.
    coverFiles: 30,
    coverValue: 0.1,
    // Chosen leave-one-repository-out over both tuning sets from 2, 4, 6, 8, 12, 16 and all (22 of
    // 23 held-out repositories picked 4; bench/results-tune/coverage.md): names chosen by fewer
    // terms are fewer and shorter, so more files are named, and first-touch packing costs half.
    coverTerms: 4,
    // From the release-notes sweep on both tuning sets (bench/results-tune/release-notes.md).
    notesValue: 0.05,
    notesShare: 0.1,
  }),
});

/** A partial override of the defaults (weights and pack parameters merge key by key). */
export interface RankingOverrides extends Partial<Omit<RankingConfig, "weights" | "pack" | "bm25">> {
  weights?: Partial<Record<SignalName, number>>;
  pack?: Partial<PackConfig>;
  bm25?: Partial<RankingConfig["bm25"]>;
}

/**
 * `base` (the defaults unless given) with `overrides` laid over it. An override must name a
 * setting the defaults have, with a value of the same kind (a finite number, or the encoding's
 * name): anything else is refused with INVALID_ARGUMENT rather than ranking with NaN.
 */
export function resolveRanking(overrides: RankingOverrides = {}, base: RankingConfig = DEFAULT_RANKING): RankingConfig {
  checkOverrides(overrides, DEFAULT_RANKING);
  return Object.freeze({
    ...base,
    ...overrides,
    weights: Object.freeze({ ...base.weights, ...overrides.weights }),
    bm25: Object.freeze({ ...base.bm25, ...overrides.bm25 }),
    pack: Object.freeze({ ...base.pack, ...overrides.pack }),
  });
}

/** Refuses an override that `shape` (the defaults, or one of their groups, named `group`) has no setting of that kind for. */
function checkOverrides(overrides: unknown, shape: object, group = ""): void {
  if (overrides === null || typeof overrides !== "object" || Array.isArray(overrides)) {
    throw new ContextSmithError("INVALID_ARGUMENT", `Ranking overrides${group === "" ? "" : ` for "${group}"`} must be an object of settings.`);
  }
  for (const [key, value] of Object.entries(overrides)) {
    if (value === undefined) continue;
    const name = group === "" ? key : `${group}.${key}`;
    const expected: unknown = Object.hasOwn(shape, key) ? (shape as Record<string, unknown>)[key] : undefined;
    if (expected === undefined) {
      throw new ContextSmithError("INVALID_ARGUMENT", `Unknown ranking setting "${name}"; known: ${Object.keys(shape).join(", ")}.`);
    }
    if (typeof expected === "object" && expected !== null) checkOverrides(value, expected, name);
    else if (typeof expected === "number" ? typeof value !== "number" || !Number.isFinite(value) : typeof value !== typeof expected) {
      throw new ContextSmithError("INVALID_ARGUMENT", `Ranking setting "${name}" must be ${typeof expected === "number" ? "a finite number" : `a ${typeof expected}`}, not ${JSON.stringify(value) ?? String(value)}.`);
    }
  }
}
