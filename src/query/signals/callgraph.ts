import { findDefinitions } from "../definitions.js";
import type { SignalResult } from "../types.js";
import type { SignalContext } from "./context.js";
import { HitCollector } from "./result.js";

/**
 * Call-graph signal (a neighbour signal): the files defining what the first fusion's best files
 * call, weighted by the seed's rank and how often the name is called there.
 */
export function callgraphSignal(ctx: SignalContext): SignalResult {
  const hits = new HitCollector();
  ctx.seeds.forEach((seed, rank) => {
    const parsed = ctx.parsed(seed);
    if (!parsed) return;
    const local = new Set(parsed.symbols.map((s) => s.name));
    const counts = new Map<string, number>();
    for (const call of parsed.calls) if (!local.has(call.callee)) counts.set(call.callee, (counts.get(call.callee) ?? 0) + 1);
    for (const [name, n] of counts) {
      const files = new Set(findDefinitions(ctx, name));
      files.delete(seed);
      for (const path of files) hits.add(path, Math.log(1 + n) / files.size / (rank + 1), `${seed} calls ${name}`);
    }
  });
  return hits.result("callgraph", ctx.config.signalDepth);
}
