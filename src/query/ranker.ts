import { fuse, semanticGate } from "./fusion.js";
import { callgraphSignal } from "./signals/callgraph.js";
import { changelogSignal } from "./signals/changelog.js";
import { centralitySignal } from "./signals/centrality.js";
import { cochangeSignal } from "./signals/cochange.js";
import type { SignalContext } from "./signals/context.js";
import { declarationsSignal } from "./signals/declarations.js";
import { exactNameSignal } from "./signals/exact-name.js";
import { historySignal } from "./signals/history.js";
import { innermostFrameSignal } from "./signals/innermost-frame.js";
import { lexicalSignal } from "./signals/lexical.js";
import { referencesSignal } from "./signals/references.js";
import { withRankedNotes } from "./release-notes.js";
import { semanticSignal } from "./signals/semantic.js";
import { symbolsSignal } from "./signals/symbols.js";
import type { RankResult, SignalName, SignalResult } from "./types.js";

type Signal = (ctx: SignalContext) => SignalResult;

/** Signals that read the task alone. */
const FIRST_PASS: ReadonlyArray<[SignalName, Signal]> = [
  ["lexical", lexicalSignal],
  ["symbols", symbolsSignal],
  ["references", referencesSignal],
  ["innermostFrame", innermostFrameSignal],
  ["history", historySignal],
  ["semantic", semanticSignal],
  ["exactName", exactNameSignal],
  ["centrality", centralitySignal],
];
/** Signals that expand from the first fusion's best files. */
const NEIGHBOURS: ReadonlyArray<[SignalName, Signal]> = [
  ["cochange", cochangeSignal],
  ["callgraph", callgraphSignal],
  ["declarations", declarationsSignal],
  ["changelog", changelogSignal],
];

/** Every signal name, in the order `rank` reports them. */
export const SIGNALS: readonly SignalName[] = [...FIRST_PASS, ...NEIGHBOURS].map(([name]) => name);

/**
 * Ranks the repository's files for a task: runs each signal with a non-zero weight (and those in
 * `compute`), fuses them,
 * and — when a neighbour signal is on — runs the neighbour signals from the first fusion's best
 * files and fuses everything again; the release notes a fix most likely adds to rank at
 * `notesRank` at the latest.
 */
export function rankFiles(ctx: Omit<SignalContext, "seeds">, options: { compute?: readonly SignalName[] } = {}): RankResult & { results: SignalResult[] } {
  const timings: Record<string, number> = {};
  // A signal runs when it has weight, or when asked for (the benchmark caches every signal).
  const wanted = (name: SignalName): boolean => ctx.config.weights[name] > 0 || (options.compute?.includes(name) ?? false);
  const run = (list: ReadonlyArray<[SignalName, Signal]>, seeds: string[]): SignalResult[] =>
    list
      .filter(([name]) => wanted(name))
      .map(([name, signal]) => {
        const t0 = performance.now();
        const result = signal({ ...ctx, seeds });
        timings[name] = round(performance.now() - t0);
        return result;
      });

  const results = run(FIRST_PASS, []);
  let t0 = performance.now();
  let files = fuse(results, ctx.config, ctx.task);
  if (NEIGHBOURS.some(([name]) => wanted(name))) {
    const seeds = files.slice(0, ctx.config.neighbourSeeds).map((f) => f.path);
    results.push(...run(NEIGHBOURS, seeds));
    t0 = performance.now();
    files = fuse(results, ctx.config, ctx.task);
  }
  files = withRankedNotes(files, ctx.history.releaseNotes, ctx.config);
  timings.fusion = round(performance.now() - t0);
  const semanticFound = results.some((r) => r.name === "semantic" && r.hits.length > 0) && ctx.config.weights.semantic > 0;
  return { files, timings, results, ...(semanticFound ? { semanticShare: round(semanticGate(results, ctx.config, ctx.task)) } : {}) };
}

function round(ms: number): number {
  return Math.round(ms * 100) / 100;
}
