import type { SignalResult } from "../types.js";
import type { SignalContext } from "./context.js";
import { signalResult } from "./result.js";

/**
 * Centrality (a prior, the same for every task): files by PageRank over the code graph's imports
 * and calls, computed at index time. Core modules that everything uses — where issues phrased in
 * general words often land — rank first.
 */
export function centralitySignal(ctx: SignalContext): SignalResult {
  const pagerank = ctx.store.graph.pageRank() ?? {};
  const hits = Object.entries(pagerank)
    .filter(([path]) => ctx.paths.has(path))
    .map(([path, score]) => ({ path, score, evidence: () => `PageRank ${score.toPrecision(3)}` }));
  return signalResult("centrality", hits, ctx.config.signalDepth);
}
