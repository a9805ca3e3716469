import type { SignalResult } from "../types.js";
import { scoreBm25, topTerms } from "./bm25.js";
import type { SignalContext } from "./context.js";
import { signalResult, type PendingHit } from "./result.js";

/**
 * Symbol signal: BM25 of the task's terms over each file's symbol text — definition names,
 * qualified names, signatures and first doc sentences. It finds the file that *defines* what
 * the task talks about, where the lexical signal also finds every file that merely uses it.
 */
export function symbolsSignal(ctx: SignalContext): SignalResult {
  const { task, lexical, config } = ctx;
  const hits: PendingHit[] = [];
  for (const [id, match] of scoreBm25(lexical.symbols, task.terms, config.bm25)) {
    const path = lexical.pathOf(id);
    if (path) hits.push({ path, score: match.score, evidence: () => topTerms(match) });
  }
  return signalResult("symbols", hits, config.signalDepth);
}
