import type { SignalResult } from "../types.js";
import type { SignalContext } from "./context.js";
import { signalResult, type PendingHit } from "./result.js";

/**
 * Centrality (a prior, the same for every task): files by PageRank over the code graph's imports
 * and calls, computed at index time. Core modules that everything uses — where issues phrased in
 * general words often land — rank first.
 */
export function centralitySignal(ctx: SignalContext): SignalResult {
  const { paths, scores } = ctx.ranked();
  // Best first already: the first files the index has are the signal's.
  const hits: PendingHit[] = [];
  for (let i = 0; i < paths.length && hits.length < ctx.config.signalDepth; i++) {
    const path = paths[i]!;
    const score = scores[i]!;
    if (ctx.paths.has(path)) hits.push({ path, score, evidence: () => `PageRank ${score.toPrecision(3)}` });
  }
  return signalResult("centrality", hits, ctx.config.signalDepth);
}
