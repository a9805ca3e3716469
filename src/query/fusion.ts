import type { RankingConfig } from "./ranking-config.js";
import { isTestPath, isVendoredPath } from "../core/languages.js";
import { isDocPath } from "./task.js";
import type { RankedFile, SignalResult, TaskQuery } from "./types.js";

/** What the fusion reads of a task: whether tests, docs and vendored code are what it is about (absent: not). */
export type TaskScope = Pick<TaskQuery, "aboutTests" | "aboutDocs"> & Partial<Pick<TaskQuery, "aboutVendored">>;

/**
 * Weighted reciprocal-rank fusion with a score term: a file's score is
 * Σ weight[s] × (1 / (k + rank_s(file)) + scoreMix × score_s(file) / (score_s(top) × (k + 1)))
 * over the signals that found it. Ranks combine signals of incomparable scales; each list's scores
 * as shares of its own best keep what ranks lose (a clear winner stays ahead of its neighbours).
 * Then tests, docs and vendored copies of other projects are demoted unless the task is about them. The semantic signal's weight is
 * scaled by its agreement with the others on this query (`semanticGate`).
 */
export function fuse(results: readonly SignalResult[], config: RankingConfig, task: TaskScope): RankedFile[] {
  return fuseWeighted(results, config, task, semanticGate(results, config, task));
}

/** Semantic files compared, and the other signals' files they are compared with (at most). */
const GATE_DEPTH = 10;
const GATE_AGAINST = 20;
/** Semantic files after the compared ones that say how often this list agrees by chance. */
const GATE_BACKGROUND = 40;

/**
 * The share of the semantic signal's weight a query gets, 0–1. An embedding model can be useless
 * (not trained on code, the wrong language, broken weights) and nothing else would tell: its list
 * is then noise, and noise even at a small weight reorders the top files (rank fusion's
 * scores are close there). So its best files are compared with the files the other signals rank
 * first: the share that agrees, weighted 1/rank, beyond what a random list of the same
 * repository would share (`population` files, `against` of them taken), at `semanticAgreement`
 * of the possible excess or more the whole weight applies. A model that knows the code agrees on
 * several files or on its first; a useless one agrees as chance does.
 */
export function semanticGate(results: readonly SignalResult[], config: RankingConfig, task: TaskScope): number {
  const full = config.semanticAgreement;
  const semantic = results.find((r) => r.name === "semantic");
  if (!(full > 0) || !semantic || semantic.hits.length === 0 || !config.weights.semantic) return 1;
  const population = Math.max(semantic.population ?? 0, semantic.hits.length);
  const against = Math.min(GATE_AGAINST, Math.ceil(population / 5));
  const others = fuseWeighted(results.filter((r) => r.name !== "semantic"), config, task, 1);
  // Alone (every other signal off, or none found anything), it has nothing to be checked against.
  if (others.length === 0) return 1;
  const top = new Set(others.slice(0, against).map((f) => f.path));
  let observed = 0;
  let possible = 0;
  semantic.hits.slice(0, GATE_DEPTH).forEach((hit, i) => {
    possible += 1 / (i + 1);
    if (top.has(hit.path)) observed += 1 / (i + 1);
  });
  // What a list of this model shares by chance: at least the uniform rate, or the rate its own
  // deeper files share (a list of noise favours files with many definitions, which the other
  // signals favour too: chance is then higher than uniform).
  const deeper = semantic.hits.slice(GATE_DEPTH, GATE_DEPTH + GATE_BACKGROUND);
  const background = deeper.length >= GATE_DEPTH ? deeper.filter((hit) => top.has(hit.path)).length / deeper.length : 0;
  const chance = possible * Math.max(top.size / population, background);
  if (possible - chance <= 0) return 0;
  return Math.min(1, Math.max(0, (observed - chance) / (possible - chance) / full));
}

/** The fusion, with the semantic signal's weight times `semanticShare` (its evidence is kept at any share). */
function fuseWeighted(results: readonly SignalResult[], config: RankingConfig, task: TaskScope, semanticShare: number): RankedFile[] {
  const files = new Map<string, RankedFile>();
  for (const { name, hits } of results) {
    if (!config.weights[name]) continue;
    const weight = config.weights[name] * (name === "semantic" ? semanticShare : 1);
    // The score term: the share of the list's best score, worth `scoreMix` of the first rank's term.
    // Not for the semantic list: its cosines sit close together, so shares of its best are all near 1.
    // Lists come sorted by score, but the share must not pass 1 if one did not.
    const top = hits.reduce((max, hit) => Math.max(max, hit.score), 0);
    const scoreTerm = config.scoreMix > 0 && top > 0 && name !== "semantic" ? config.scoreMix / (top * (config.rrfK + 1)) : 0;
    hits.forEach((hit, i) => {
      let file = files.get(hit.path);
      if (!file) files.set(hit.path, (file = { path: hit.path, score: 0, signals: {} }));
      file.score += weight * (1 / (config.rrfK + i + 1) + scoreTerm * Math.max(0, hit.score));
      file.signals[name] = { rank: i + 1, score: round(hit.score), evidence: hit.evidence };
    });
  }
  const ranked = [...files.values()];
  for (const file of ranked) {
    if (!task.aboutTests && isTestPath(file.path)) file.score *= config.testPenalty;
    else if (!task.aboutDocs && isDocPath(file.path)) file.score *= config.docPenalty;
    else if (!task.aboutVendored && isVendoredPath(file.path)) file.score *= config.vendorPenalty;
  }
  return ranked.sort((a, b) => b.score - a.score || (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

function round(x: number): number {
  return Math.round(x * 1000) / 1000;
}
