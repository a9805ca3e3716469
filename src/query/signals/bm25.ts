import type { Bm25Stats } from "../../store/lexical.js";

/** A document's BM25 score with the terms that contributed most. */
export interface Bm25Match {
  score: number;
  /** Terms and their contributions, largest first (at most a few). */
  terms: Array<[string, number]>;
}

/**
 * Okapi BM25 of every document matching at least one of `terms` (term -> query weight).
 * Returns document id -> match.
 */
export function scoreBm25(stats: Bm25Stats, terms: ReadonlyMap<string, number>, params: { k1: number; b: number }): Map<number, Bm25Match> {
  const out = new Map<number, Bm25Match>();
  const n = stats.docs;
  if (n === 0) return out;
  const avg = stats.avgLength || 1;
  const { k1, b } = params;
  for (const [term, weight] of terms) {
    const { ids, tfs } = stats.postings(term);
    if (ids.length === 0) continue;
    const idf = Math.log(1 + (n - ids.length + 0.5) / (ids.length + 0.5));
    for (let i = 0; i < ids.length; i++) {
      const id = ids[i]!;
      const tf = tfs[i]!;
      const norm = tf + k1 * (1 - b + (b * stats.length(id)) / avg);
      const contribution = (weight * idf * tf * (k1 + 1)) / norm;
      let m = out.get(id);
      if (!m) out.set(id, (m = { score: 0, terms: [] }));
      m.score += contribution;
      m.terms.push([term, contribution]);
    }
  }
  return out;
}

/** "term, term, term": the strongest terms of a match, for evidence. */
export function topTerms(match: Bm25Match, k = 4): string {
  return match.terms
    .sort((a, b) => b[1] - a[1])
    .slice(0, k)
    .map(([t]) => t)
    .join(", ");
}
