import type { SignalResult } from "../types.js";
import type { SignalContext } from "./context.js";
import { HitCollector } from "./result.js";

/**
 * Co-change signal (a neighbour signal): files that changed together with the first fusion's
 * best files, weighted by the seed's rank and the share of its commits they shared.
 */
export function cochangeSignal(ctx: SignalContext): SignalResult {
  const hits = new HitCollector();
  ctx.seeds.forEach((seed, rank) => {
    const history = ctx.store.history.of(seed);
    if (!history || history.churn === 0) return;
    for (const [path, shared] of Object.entries(history.cochange)) {
      if (ctx.paths.has(path)) hits.add(path, (shared / history.churn) / (rank + 1), `changed with ${seed} ${shared}×`);
    }
  });
  return hits.result("cochange", ctx.config.signalDepth);
}
