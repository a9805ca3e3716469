import type { Bm25Stats } from "../../store/lexical.js";

/** How many of a match's terms are kept for its evidence. */
const EVIDENCE_TERMS = 4;

/** A document's BM25 score with the terms that contributed most. */
export interface Bm25Match {
  score: number;
  /**
   * The {@link EVIDENCE_TERMS} terms that contributed most, with their contributions, largest first
   * (ties in the order the terms were scored). Only these: a tuple for every term of every matching
   * document was a million small arrays on babel's 27,000 files for a long issue text, most of a
   * one-shot query's garbage collection.
   */
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
      const top = m.terms;
      if (top.length === EVIDENCE_TERMS && contribution <= top[EVIDENCE_TERMS - 1]![1]) continue;
      // After every term that contributed as much or more: the order a stable sort would give.
      let at = top.length;
      while (at > 0 && top[at - 1]![1] < contribution) at--;
      top.splice(at, 0, [term, contribution]);
      if (top.length > EVIDENCE_TERMS) top.pop();
    }
  }
  return out;
}

/** "term, term, term": the strongest terms of a match, for evidence. */
export function topTerms(match: Bm25Match): string {
  return match.terms.map(([t]) => t).join(", ");
}
