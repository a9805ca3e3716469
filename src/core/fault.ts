/**
 * Fault points, for crash tests: `CTXSMITH_FAULT=kill:<point>[:<n>]` kills the process with
 * SIGKILL, as `kill -9` would, the n-th time (default: the first) the named point is reached in
 * it. A point is placed inside a write transaction, before it commits, so a test can prove that
 * every stage survives a kill at its worst moment. With the variable unset a point costs one
 * comparison.
 *
 * Points: `parse-commit` (a batch of parsed files), `lexical-segment` (a segment of the lexical
 * snapshot staged while it is built), `lexical-write` (the snapshot), `graph-expand`
 * and `graph-chunk` (the graph stage's journal expansion and resolved chunks), `graph-finish`
 * (PageRank), `history` (the git stage), `embed-chunk` (vectors).
 */
export type FaultPoint = "parse-commit" | "lexical-segment" | "lexical-write" | "graph-expand" | "graph-chunk" | "graph-finish" | "history" | "embed-chunk";

/** Times each point was reached in this thread (a test hook: the kill ends the whole process). */
const reached = new Map<FaultPoint, number>();

export function faultPoint(point: FaultPoint): void {
  const spec = process.env.CTXSMITH_FAULT;
  if (spec === undefined || !spec.startsWith("kill:")) return;
  const [, name, nth = "1"] = spec.split(":");
  if (name !== point) return;
  const count = (reached.get(point) ?? 0) + 1;
  reached.set(point, count);
  if (count === (/^\d+$/.test(nth) ? Number(nth) : 1)) process.kill(process.pid, "SIGKILL");
}

/**
 * With `CTXSMITH_FAULT=unreadable:<dir>` (repository-relative), the walk cannot list that folder,
 * as if it had no permission (tests run as root, which has every permission).
 */
export function faultUnreadable(dir: string): boolean {
  return process.env.CTXSMITH_FAULT === `unreadable:${dir}`;
}
