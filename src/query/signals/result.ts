import type { SignalHit, SignalName, SignalResult } from "../types.js";

/** A hit whose evidence may be computed later: only the hits a signal keeps need it. */
export interface PendingHit {
  path: string;
  score: number;
  evidence: string | (() => string);
}

/** A signal's result from unordered hits: best first (ties by path, for stable output), cut to `depth`. */
export function signalResult(name: SignalName, hits: PendingHit[], depth: number): SignalResult {
  hits.sort((a, b) => b.score - a.score || (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return {
    name,
    hits: hits.slice(0, depth).map(({ path, score, evidence }) => ({ path, score, evidence: typeof evidence === "string" ? evidence : evidence() })),
  };
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
