import type { SignalResult } from "../types.js";
import type { SignalContext } from "./context.js";
import { HitCollector } from "./result.js";

/** What the files calling into a seed count for, against the files it calls into. */
const CALLER_SHARE = 0.5;

/**
 * Call-graph signal (a neighbour signal): the files the first fusion's best files call into or
 * import, and the files that call into them, from the resolved code graph. A link's share of its
 * seed's links, weighted by the seed's rank.
 */
export function callgraphSignal(ctx: SignalContext): SignalResult {
  const hits = new HitCollector();
  ctx.seeds.forEach((seed, rank) => {
    const spread = (links: ReadonlyMap<string, number>, share: number, why: (path: string) => string): void => {
      let total = 0;
      for (const w of links.values()) total += w;
      if (total <= 0) return;
      for (const [path, w] of links) if (path !== seed && ctx.paths.has(path)) hits.add(path, (share * w) / total / (rank + 1), why(path));
    };
    spread(ctx.linksFrom(seed), 1, () => `${seed} calls into it`);
    spread(ctx.linksTo(seed), CALLER_SHARE, () => `calls into ${seed}`);
  });
  return hits.result("callgraph", ctx.config.signalDepth);
}
