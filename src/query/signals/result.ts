import type { SignalHit, SignalName, SignalResult } from "../types.js";

/** A hit whose evidence may be computed later: only the hits a signal keeps need it. */
export interface PendingHit {
  path: string;
  score: number;
  evidence: string | (() => string);
}

/** A signal's result from unordered hits: best first (ties by path, for stable output), cut to `depth`. */
export function signalResult(name: SignalName, hits: PendingHit[], depth: number): SignalResult {
  return {
    name,
    hits: best(hits, depth).map(({ path, score, evidence }) => ({ path, score, evidence: typeof evidence === "string" ? evidence : evidence() })),
  };
}

/**
 * The first `depth` hits by score, then path. Only hits scoring at least the `depth`-th best score
 * are sorted by both: a long issue text matches most of a large repository's files (27,000 in
 * babel), and sorting them all with a comparator was tens of milliseconds of a one-shot query.
 */
function best(hits: PendingHit[], depth: number): PendingHit[] {
  const order = (a: PendingHit, b: PendingHit): number => b.score - a.score || (a.path < b.path ? -1 : a.path > b.path ? 1 : 0);
  const k = Math.floor(depth);
  if (!(k > 0)) return [];
  if (hits.length > k) {
    const scores = Float64Array.from(hits, (h) => h.score).sort();
    const floor = scores[scores.length - k]!;
    hits = hits.filter((h) => h.score >= floor);
  }
  return hits.sort(order).slice(0, k);
}

/** Accumulates scores and evidence per file, for signals that sum several findings. */
export class HitCollector {
  readonly #hits = new Map<string, SignalHit>();

  add(path: string, score: number, evidence: string): void {
    const hit = this.#hits.get(path);
    if (!hit) this.#hits.set(path, { path, score, evidence });
    else {
      hit.score += score;
      if (!hit.evidence.includes(evidence) && hit.evidence.length < 200) hit.evidence += `; ${evidence}`;
    }
  }

  result(name: SignalName, depth: number): SignalResult {
    return signalResult(name, [...this.#hits.values()], depth);
  }
}
