import type { Span } from "../query/types.js";
import type { GoldFile, StrategyOutcome } from "./types.js";

/** The k of Recall@k. */
export const RECALL_KS = [1, 3, 5, 10] as const;

/** Gold files that count: changed by the patch, not tests, present at the base commit. */
export function scoredGold(gold: readonly GoldFile[]): { scored: GoldFile[]; unscored: Array<{ path: string; reason: string }> } {
  const scored: GoldFile[] = [];
  const unscored: Array<{ path: string; reason: string }> = [];
  for (const g of gold) {
    if (g.isTest) unscored.push({ path: g.path, reason: "test file" });
    else if (g.isNew) unscored.push({ path: g.path, reason: "created by the patch" });
    else scored.push(g);
  }
  return { scored, unscored };
}

/** Ranks of the gold files in a ranking, and Recall@k: all gold files in the top k. */
export function scoreRanking(ranking: readonly string[], gold: readonly GoldFile[]): Pick<StrategyOutcome, "ranks" | "recall"> {
  const position = new Map(ranking.map((p, i) => [p, i + 1]));
  const ranks: Record<string, number | null> = {};
  for (const g of gold) ranks[g.path] = position.get(g.path) ?? null;
  const worst = Math.max(...gold.map((g) => ranks[g.path] ?? Infinity));
  const recall = Object.fromEntries(RECALL_KS.map((k) => [String(k), worst <= k])) as StrategyOutcome["recall"];
  return { ranks, recall };
}

/** Whether a packed context shows every gold file, and every gold line. */
export function scoreContext(spans: readonly Span[], gold: readonly GoldFile[]): { file: boolean; lines: boolean; missedLines: Record<string, number[]> } {
  const shown = new Map<string, Array<[number, number]>>();
  for (const s of spans) {
    const list = shown.get(s.path) ?? [];
    list.push([s.start, s.end]);
    shown.set(s.path, list);
  }
  const missedLines: Record<string, number[]> = {};
  let file = true;
  for (const g of gold) {
    const ranges = shown.get(g.path);
    if (!ranges) {
      file = false;
      missedLines[g.path] = g.lines;
      continue;
    }
    const missed = g.lines.filter((line) => !ranges.some(([a, b]) => a <= line && line <= b));
    if (missed.length > 0) missedLines[g.path] = missed;
  }
  return { file, lines: Object.keys(missedLines).length === 0, missedLines };
}
