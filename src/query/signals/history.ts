import type { SignalResult } from "../types.js";
import { scoreBm25, topTerms } from "./bm25.js";
import type { SignalContext } from "./context.js";
import { signalResult, type PendingHit } from "./result.js";

/**
 * History signal: BM25 of the task's terms over each file's commit messages — the files that
 * were changed for similar work before. Empty without git history.
 */
export function historySignal(ctx: SignalContext): SignalResult {
  const { task, history, paths, config } = ctx;
  const hits: PendingHit[] = [];
  for (const [id, match] of scoreBm25(history.bm25, task.terms, config.bm25)) {
    const path = history.pathOf(id);
    // History outlives files: keep only those in the index now.
    if (path && paths.has(path)) hits.push({ path, score: match.score, evidence: () => `commits: ${topTerms(match)}` });
  }
  return signalResult("history", hits, config.signalDepth);
}
