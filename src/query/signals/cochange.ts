import type { SignalResult } from "../types.js";
import type { SignalContext } from "./context.js";
import { HitCollector } from "./result.js";

/** One file that changed together with a seed: the seed, its rank, and the share of its commits they shared. */
export interface CochangeOfSeed {
  seed: string;
  rank: number;
  path: string;
  shared: number;
  share: number;
}

/** The files in the index that changed together with the first fusion's best files, seed by seed. */
export function* cochangeOfSeeds(ctx: Pick<SignalContext, "seeds" | "store" | "paths">): Generator<CochangeOfSeed> {
  for (const [rank, seed] of ctx.seeds.entries()) {
    const history = ctx.store.history.of(seed);
    if (!history || history.churn === 0) continue;
    for (const [path, shared] of Object.entries(history.cochange)) {
      if (ctx.paths.has(path)) yield { seed, rank, path, shared, share: shared / history.churn };
    }
  }
}

/**
 * Co-change signal (a neighbour signal): files that changed together with the first fusion's
 * best files, weighted by the seed's rank and the share of its commits they shared.
 */
export function cochangeSignal(ctx: SignalContext): SignalResult {
  const hits = new HitCollector();
  for (const { seed, rank, path, shared, share } of cochangeOfSeeds(ctx)) hits.add(path, share / (rank + 1), `changed with ${seed} ${shared}×`);
  return hits.result("cochange", ctx.config.signalDepth);
}
