import type { SymbolInfo } from "../core/types.js";
import type { Reranker } from "../runtime/embed/types.js";
import type { RankedFile } from "./types.js";

/** Files of the ranking the cross-encoder sees. */
export const RERANK_TOP = 20;
/** Characters of a file's description (the pair is cut to the model's 512 tokens anyway). */
const DESCRIPTION_CHARS = 1500;

/** What the cross-encoder reads of a file: its path and its definitions' signatures and first doc sentences. */
export function describeFile(path: string, symbols: readonly SymbolInfo[] | undefined): string {
  let text = path;
  for (const s of symbols ?? []) {
    if (text.length >= DESCRIPTION_CHARS) break;
    text += `\n${s.signature || s.qualifiedName}${s.doc ? ` — ${s.doc}` : ""}`;
  }
  return text.slice(0, DESCRIPTION_CHARS);
}

/**
 * Re-orders the top files by a cross-encoder's relevance of (task, file description); the rest
 * keep their places. Experimental (`context --rerank`): a cross-encoder reads task and file
 * together, which the bi-encoder signals cannot, at ~20 model runs per query.
 */
export async function rerankFiles(task: string, ranked: readonly RankedFile[], reranker: Reranker, describe: (path: string) => string): Promise<RankedFile[]> {
  const top = ranked.slice(0, RERANK_TOP);
  if (top.length < 2) return [...ranked];
  const scores = await reranker.score(task, top.map((f) => describe(f.path)));
  const order = top.map((file, i) => ({ file, score: scores[i]!, i })).sort((a, b) => b.score - a.score || a.i - b.i);
  return [...order.map((o) => o.file), ...ranked.slice(RERANK_TOP)];
}
