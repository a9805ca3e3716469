import type { RankingConfig } from "./ranking-config.js";
import { isTestPath } from "../core/languages.js";
import { isDocPath } from "./task.js";
import type { RankedFile, SignalResult, TaskQuery } from "./types.js";

/**
 * Weighted reciprocal-rank fusion: a file's score is Σ weight[s] / (k + rank_s(file)) over the
 * signals that found it. Ranks, not raw scores, so signals with incomparable scales combine;
 * then tests and docs are demoted unless the task is about them.
 */
export function fuse(results: readonly SignalResult[], config: RankingConfig, task: Pick<TaskQuery, "aboutTests" | "aboutDocs">): RankedFile[] {
  const files = new Map<string, RankedFile>();
  for (const { name, hits } of results) {
    const weight = config.weights[name];
    if (!weight) continue;
    hits.forEach((hit, i) => {
      let file = files.get(hit.path);
      if (!file) files.set(hit.path, (file = { path: hit.path, score: 0, signals: {} }));
      file.score += weight / (config.rrfK + i + 1);
      file.signals[name] = { rank: i + 1, score: round(hit.score), evidence: hit.evidence };
    });
  }
  const ranked = [...files.values()];
  for (const file of ranked) {
    if (!task.aboutTests && isTestPath(file.path)) file.score *= config.testPenalty;
    else if (!task.aboutDocs && isDocPath(file.path)) file.score *= config.docPenalty;
  }
  return ranked.sort((a, b) => b.score - a.score || (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

function round(x: number): number {
  return Math.round(x * 1000) / 1000;
}
