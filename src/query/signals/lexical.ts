import type { SignalResult } from "../types.js";
import { scoreBm25, topTerms } from "./bm25.js";
import type { SignalContext } from "./context.js";
import { signalResult, type PendingHit } from "./result.js";

/**
 * Lexical signal: BM25 of the task's terms over whole files (code tokenizer), plus a boost for
 * task terms in the file's path: a task about "retry" points at `payments/retry.py`.
 */
export function lexicalSignal(ctx: SignalContext): SignalResult {
  const { task, lexical, config, paths } = ctx;
  const stats = lexical.bm25;
  const matches = scoreBm25(stats, task.terms, config.bm25);
  const hits: PendingHit[] = [];
  for (const [id, match] of matches) {
    const path = lexical.pathOf(id);
    if (!path) continue;
    let boost = 0;
    const inPath: string[] = [];
    for (const token of paths.tokens(path)) {
      const weight = task.terms.get(token);
      if (weight === undefined) continue;
      // The term's idf, so a path word as common as "utils" adds little.
      const df = stats.df(token);
      boost += weight * Math.log(1 + (stats.docs - df + 0.5) / (df + 0.5));
      inPath.push(token);
    }
    const score = match.score + config.pathBoost * boost;
    hits.push({ path, score, evidence: () => (inPath.length ? `path: ${inPath.join(", ")}; body: ${topTerms(match)}` : topTerms(match)) });
  }
  return signalResult("lexical", hits, config.signalDepth);
}
