import { DEFAULT_RANKING, resolveRanking, type RankingConfig } from "../query/ranking-config.js";
import type { SignalName } from "../query/types.js";

/** A way of answering: fusion weights over the cached signals, or the whole-file baseline. */
export interface Strategy {
  name: string;
  describe: string;
  /** The ranking configuration it fuses and packs with. */
  config: RankingConfig;
  /** Baseline: rank by plain BM25 (no path boost) and paste whole files in rank order. */
  wholeFiles?: boolean;
}

const signalsOff = (...names: SignalName[]): Partial<Record<SignalName, number>> => Object.fromEntries(names.map((n) => [n, 0]));
/** Every signal off but `name`, at weight 1. */
const only = (name: SignalName): Record<SignalName, number> => ({ ...signalsOff(...(Object.keys(DEFAULT_RANKING.weights) as SignalName[])), [name]: 1 }) as Record<SignalName, number>;
const withWeights = (weights: Partial<Record<SignalName, number>>): RankingConfig => resolveRanking({ weights });

/** Every strategy the benchmark knows, by name: the default, the baseline, and one-signal ablations and additions. */
export const STRATEGIES: readonly Strategy[] = [
  { name: "default", describe: "the shipped configuration", config: DEFAULT_RANKING },
  {
    name: "bm25-whole-files",
    describe: "baseline: BM25 over whole files, pasted whole in rank order until the budget is full",
    config: resolveRanking({ weights: only("lexical"), pathBoost: 0, testPenalty: 1, docPenalty: 1, vendorPenalty: 1 }),
    wholeFiles: true,
  },
  { name: "lexical-only", describe: "the lexical signal alone, packed as usual", config: withWeights(only("lexical")) },
  { name: "no-lexical", describe: "default without the lexical signal", config: withWeights(signalsOff("lexical")) },
  { name: "no-symbols", describe: "default without the symbol signal", config: withWeights(signalsOff("symbols")) },
  { name: "no-references", describe: "default without explicit references", config: withWeights(signalsOff("references")) },
  { name: "no-innermostFrame", describe: "default without a Python traceback's innermost project frame", config: withWeights(signalsOff("innermostFrame")) },
  { name: "no-history", describe: "default without commit-message history", config: withWeights(signalsOff("history")) },
  { name: "no-semantic", describe: "default without the semantic signal", config: withWeights(signalsOff("semantic")) },
  { name: "embeddings-only", describe: "the semantic signal alone (kNN over symbol-summary vectors), packed as usual", config: withWeights(only("semantic")) },
  { name: "plus-exactName", describe: "default plus exact definition-name matches", config: withWeights({ exactName: 1 }) },
  { name: "plus-cochange", describe: "default plus co-change neighbours", config: withWeights({ cochange: 1 }) },
  { name: "plus-callgraph", describe: "default plus call-graph neighbours", config: withWeights({ callgraph: 1 }) },
  { name: "plus-centrality", describe: "default plus the PageRank prior", config: withWeights({ centrality: 0.5 }) },
  { name: "plus-declarations", describe: "default plus the declarations beside the best file (header and source, .d.ts, .pyi)", config: withWeights({ declarations: 0.5 }) },
  { name: "plus-changelog", describe: "default plus the release notes the project writes with its changes", config: withWeights({ changelog: 0.5 }) },
];

/** The strategies named in `names` (all when empty); an unknown name is an error message. */
export function pickStrategies(names: readonly string[]): Strategy[] | string {
  if (names.length === 0) return [...STRATEGIES];
  const unknown = names.filter((n) => !STRATEGIES.some((s) => s.name === n));
  if (unknown.length > 0) return `Unknown strategy ${unknown.join(", ")}: choose from ${STRATEGIES.map((s) => s.name).join(", ")}.`;
  return STRATEGIES.filter((s) => names.includes(s.name));
}
