import type { SignalResult } from "../types.js";
import type { SignalContext } from "./context.js";
import { signalResult, type PendingHit } from "./result.js";

/** Symbol summaries looked up per query: enough to reach ~30–60 distinct files. */
const NEIGHBOURS = 120;

/**
 * Semantic signal: the task's vector against the symbol-summary vectors (kNN, cosine). It finds
 * "the same idea in other words": a task about "declined cards" reaching `handle_payment_failure`.
 * A file scores by its best symbol alone: adding up a file's matches would favour big files.
 */
export function semanticSignal(ctx: SignalContext): SignalResult {
  const index = ctx.taskVector ? ctx.vectors() : null;
  if (!index || !ctx.taskVector) return { name: "semantic", hits: [] };
  const files = new Map<string, { best: number; names: string[] }>();
  for (const { label, score } of index.search(ctx.taskVector, NEIGHBOURS)) {
    const stored = ctx.store.vectors.label(label);
    if (!stored) continue; // removed by a concurrent index run after the graph was loaded
    const [path, name] = stored;
    const file = files.get(path);
    // Neighbours come best first: a file's first one is its best.
    if (!file) files.set(path, { best: score, names: [`${name} ${score.toFixed(2)}`] });
    else if (file.names.length < 3) file.names.push(`${name} ${score.toFixed(2)}`);
  }
  const hits: PendingHit[] = [...files].map(([path, f]) => ({ path, score: f.best, evidence: `≈ ${f.names.join(", ")}` }));
  return { ...signalResult("semantic", hits, ctx.config.signalDepth), population: ctx.store.vectors.fileCount() };
}
