import { ContextSmithError } from "../core/errors.js";
import type { ExpandDirection, Provenance } from "./types.js";

/** How an expanded repository was reached, for people: "upstream, 2 hops"; null for a primary one. */
export function expansionLabel(p: Provenance): string | null {
  return p.relation === "expanded" ? `${p.direction}, ${p.hops} hop${p.hops > 1 ? "s" : ""}` : null;
}

/** Edges `[from, to]`: "from depends on to". */
export type Edges = ReadonlyArray<readonly [string, string]>;

/** Each repository's neighbours one way: dependencies (`upstream`) or dependents (`downstream`). */
function adjacency(edges: Edges, direction: "upstream" | "downstream"): Map<string, string[]> {
  const next = new Map<string, string[]>();
  for (const [from, to] of edges) {
    const [a, b] = direction === "upstream" ? [from, to] : [to, from];
    const list = next.get(a);
    if (list) list.push(b);
    else next.set(a, [b]);
  }
  return next;
}

/** A path of dependencies from `start` to `goal` (both included), or null. */
function dependencyPath(edges: Edges, start: string, goal: string): string[] | null {
  const next = adjacency(edges, "upstream");
  const cameFrom = new Map<string, string | null>([[start, null]]);
  const queue = [start];
  while (queue.length > 0) {
    const node = queue.shift()!;
    if (node === goal) {
      const path: string[] = [];
      for (let at: string | null = node; at !== null; at = cameFrom.get(at)!) path.unshift(at);
      return path;
    }
    for (const n of next.get(node) ?? []) {
      if (!cameFrom.has(n)) {
        cameFrom.set(n, node);
        queue.push(n);
      }
    }
  }
  return null;
}

/**
 * The edges with "from depends on to" added.
 * @throws ContextSmithError `DEPENDENCY_CYCLE` naming the cycle (`a → b → c → a`) when `to` already
 * depends on `from`, directly or not, or `from` is `to`.
 */
export function addEdge(edges: Edges, from: string, to: string): Array<[string, string]> {
  if (from === to) throw new ContextSmithError("DEPENDENCY_CYCLE", `${from} cannot depend on itself.`, { cycle: [from, from] });
  const copy = edges.map(([a, b]) => [a, b] as [string, string]);
  if (copy.some(([a, b]) => a === from && b === to)) return copy;
  const back = dependencyPath(edges, to, from);
  if (back) {
    const cycle = [from, ...back];
    throw new ContextSmithError("DEPENDENCY_CYCLE", `${from} → ${to} would close a cycle: ${cycle.join(" → ")}.`, { cycle });
  }
  copy.push([from, to]);
  return copy;
}

/** What `repo` reaches one way, with the fewest hops to each (direct ones at 1). */
export function reach(edges: Edges, repo: string, direction: "upstream" | "downstream", maxHops = Infinity): Map<string, number> {
  const next = adjacency(edges, direction);
  const hops = new Map<string, number>();
  let frontier = [repo];
  for (let depth = 1; frontier.length > 0 && depth <= maxHops; depth++) {
    const following: string[] = [];
    for (const node of frontier) {
      for (const n of next.get(node) ?? []) {
        if (n !== repo && !hops.has(n)) {
          hops.set(n, depth);
          following.push(n);
        }
      }
    }
    frontier = following;
  }
  return hops;
}

/**
 * The repositories of a query: the primary ones (hops 0), then those reached from any of them
 * along the dependency graph within `depth` hops, nearest first. A repository reached both ways
 * keeps the direction with fewer hops (upstream on a tie).
 */
export function expandScope(edges: Edges, primary: readonly string[], direction: ExpandDirection | undefined, depth: number): Provenance[] {
  const scope: Provenance[] = primary.map((repo) => ({ repo, relation: "primary", hops: 0 }));
  if (!direction || depth < 1) return scope;
  const seen = new Set(primary);
  const found = new Map<string, Provenance>();
  const directions: Array<"upstream" | "downstream"> = direction === "both" ? ["upstream", "downstream"] : [direction];
  for (const way of directions) {
    for (const repo of primary) {
      for (const [other, hops] of reach(edges, repo, way, depth)) {
        if (seen.has(other)) continue;
        const known = found.get(other);
        if (!known || hops < known.hops) found.set(other, { repo: other, relation: "expanded", direction: way, hops });
      }
    }
  }
  return [...scope, ...[...found.values()].sort((a, b) => a.hops - b.hops || a.repo.localeCompare(b.repo))];
}
