/** A weighted directed graph as adjacency lists: node -> targets and their weights. */
export type WeightedGraph = ReadonlyMap<string, { to: readonly string[]; weight: readonly number[] }>;

/**
 * PageRank by power iteration over a weighted directed graph. A node's rank flows along its
 * out-links in proportion to their weights; dangling nodes spread theirs evenly. Scores sum to 1.
 * Deterministic: the same graph gives the same scores whatever the insertion order.
 */
export function pageRank(graph: WeightedGraph, options: { damping?: number; iterations?: number; tolerance?: number } = {}): Map<string, number> {
  const damping = options.damping ?? 0.85;
  const iterations = options.iterations ?? 50;
  const tolerance = options.tolerance ?? 1e-9;
  const nodes = new Set<string>();
  for (const [from, { to }] of graph) {
    nodes.add(from);
    for (const t of to) nodes.add(t);
  }
  const names = [...nodes].sort();
  const n = names.length;
  if (n === 0) return new Map();
  const id = new Map(names.map((name, i) => [name, i]));
  // Edges as flat arrays with weights normalised per source.
  const src: number[] = [];
  const dst: number[] = [];
  const share: number[] = [];
  const hasOut = new Uint8Array(n);
  for (const [from, { to, weight }] of graph) {
    let total = 0;
    for (let k = 0; k < to.length; k++) if (to[k] !== from) total += weight[k] ?? 0;
    if (total <= 0) continue;
    const s = id.get(from)!;
    hasOut[s] = 1;
    for (let k = 0; k < to.length; k++) {
      if (to[k] === from || !(weight[k]! > 0)) continue;
      src.push(s);
      dst.push(id.get(to[k]!)!);
      share.push(weight[k]! / total);
    }
  }
  let rank = new Float64Array(n).fill(1 / n);
  for (let iter = 0; iter < iterations; iter++) {
    const next = new Float64Array(n);
    let dangling = 0;
    for (let i = 0; i < n; i++) if (!hasOut[i]) dangling += rank[i]!;
    const base = (1 - damping) / n + (damping * dangling) / n;
    next.fill(base);
    for (let e = 0; e < src.length; e++) next[dst[e]!]! += damping * rank[src[e]!]! * share[e]!;
    let delta = 0;
    for (let i = 0; i < n; i++) delta += Math.abs(next[i]! - rank[i]!);
    rank = next;
    if (delta < tolerance) break;
  }
  return new Map(names.map((name, i) => [name, rank[i]!]));
}
