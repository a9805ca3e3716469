import { IndexStore } from "../store/store.js";
import { appendFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { ContextSmithError } from "../core/errors.js";
import { Engine } from "../engine.js";
import { innermostAt } from "../graph/lookup.js";
import { coverDepth, type PackSource } from "../query/pack/pack-ranking.js";
import { TokenWorker, type AsyncTokenCounter } from "../runtime/token-worker.js";
import { SIGNALS } from "../query/ranker.js";
import { Searcher } from "../query/searcher.js";
import { embedTask, taskVector } from "../query/task-vector.js";
import { modelName } from "../store/semantic-state.js";
import { createEmbedder } from "../runtime/embed/factory.js";
import { resolveEmbeddingSettings } from "../core/embedding-settings.js";
import type { Embedder } from "../runtime/embed/types.js";
import type { SymbolInfo } from "../core/types.js";
import type { RankedFile, SignalResult } from "../query/types.js";
import { packWholeFiles } from "./baseline.js";
import { Materializer, type RepoSource } from "./materialize.js";
import { parsePatch } from "./patch.js";
import { scoreContext, scoredGold, scoreRanking } from "./score.js";
import type { Strategy } from "./strategies.js";
import type { BenchInstance, GoldFile, InstanceRecord, PackCache, SignalCache, StrategyOutcome } from "./types.js";

/** What a benchmark run does. */
export interface BenchOptions {
  instances: readonly BenchInstance[];
  strategies: readonly Strategy[];
  budgets: readonly number[];
  source: RepoSource;
  /** Work clones and indexes live here, kept between runs. */
  cacheDir: string;
  /** `instances.jsonl`, `signals/`, `summary.md` go here. */
  outDir: string;
  /** Repositories processed at once (instances of one repository run in order, on one clone). */
  jobs: number;
  /** Parse threads per index run. */
  parseJobs?: number;
  /** Skip instances already in `instances.jsonl`. */
  resume: boolean;
  onProgress?: (event: BenchProgress) => void;
  signal?: AbortSignal;
}

/** Progress of a benchmark run. */
export type BenchProgress =
  | { stage: "start"; total: number; skipped: number }
  | { stage: "instance"; done: number; total: number; id: string; ms: number; recall5: boolean | null; error?: string };

/** The file of per-instance records in `outDir`. */
export const INSTANCES_FILE = "instances.jsonl";

/**
 * Runs the benchmark: per instance, materialise the repository at its base commit, bring the
 * index up to date (incrementally: one clone and one index per repository, instances in commit
 * order), compute every signal once, then fuse, pack and score each strategy from those cached
 * results. Appends one record per instance to `instances.jsonl` and caches the signals for the
 * tuner under `signals/`. Returns all records of the output folder (earlier ones included).
 */
export async function runBench(options: BenchOptions): Promise<InstanceRecord[]> {
  mkdirSync(join(options.outDir, "signals"), { recursive: true });
  const outFile = join(options.outDir, INSTANCES_FILE);
  const done = options.resume ? readRecords(outFile) : [];
  if (!options.resume) writeFileSync(outFile, "");
  const doneIds = new Set(done.map((r) => r.instance_id));
  const todo = options.instances.filter((i) => !doneIds.has(i.instance_id));
  options.onProgress?.({ stage: "start", total: options.instances.length, skipped: options.instances.length - todo.length });

  // One queue per repository, in commit order, so each index update is small.
  const byRepo = new Map<string, BenchInstance[]>();
  for (const instance of todo) byRepo.set(instance.repo, [...(byRepo.get(instance.repo) ?? []), instance]);
  for (const list of byRepo.values()) list.sort((a, b) => (a.created_at ?? "").localeCompare(b.created_at ?? ""));
  const queues = [...byRepo.entries()].sort((a, b) => b[1].length - a[1].length);

  const materializer = new Materializer(options.cacheDir, options.source);
  const counter = new TokenWorker("cl100k_base");
  // Tasks are embedded with the configured model when the repositories' indexes have vectors.
  const embedder = createEmbedder(resolveEmbeddingSettings(), { threads: 1 });
  const records: InstanceRecord[] = [...done];
  let finished = done.length;
  const runQueue = async (repo: string, list: BenchInstance[]): Promise<void> => {
    let engine: Engine | null = null;
    try {
      for (const instance of list) {
        if (options.signal?.aborted) throw new ContextSmithError("ABORTED", "The benchmark was interrupted; run again with --resume to continue.");
        const t0 = performance.now();
        let record: InstanceRecord;
        try {
          const checkout = await materializer.checkout(repo, instance.base_commit);
          engine ??= new Engine(checkout.root, { indexDir: join(options.cacheDir, "index", repo.replace("/", "+")), jobs: options.parseJobs });
          await engine.index({ signal: options.signal });
          record = await runInstance(instance, engine, counter, embedder, options);
        } catch (error) {
          const err = ContextSmithError.from(error, "INTERNAL");
          if (err.code === "ABORTED") throw err;
          // A bug's stack says where to look (one pytest instance failed once in a run of 140 with
          // "reading 'replace'" and never again).
          const stack = error instanceof Error && !(error instanceof ContextSmithError) ? error.stack?.split("\n").slice(0, 8).join("\n") : undefined;
          record = { instance_id: instance.instance_id, repo, gold: [], unscored: [], strategies: {}, missed: [], error: err.message, ...(stack ? { stack } : {}) };
        }
        appendFileSync(outFile, `${JSON.stringify(record)}\n`);
        records.push(record);
        finished++;
        const recall5 = record.strategies.default?.recall["5"] ?? null;
        options.onProgress?.({ stage: "instance", done: finished, total: options.instances.length, id: instance.instance_id, ms: Math.round(performance.now() - t0), recall5, error: record.error });
      }
    } finally {
      await engine?.close();
    }
  };
  try {
    const running = new Set<Promise<void>>();
    for (const [repo, list] of queues) {
      const p = runQueue(repo, list).finally(() => running.delete(p));
      running.add(p);
      if (running.size >= Math.max(1, options.jobs)) await Promise.race(running);
    }
    await Promise.all(running);
  } finally {
    await counter.close();
    await embedder?.close();
  }
  return records;
}

/** Records already written, for --resume. */
export function readRecords(file: string): InstanceRecord[] {
  if (!existsSync(file)) return [];
  return readFileSync(file, "utf8")
    .split("\n")
    .filter((l) => l.trim() !== "")
    .flatMap((l) => {
      try {
        return [JSON.parse(l) as InstanceRecord];
      } catch {
        return []; // a line cut short by a kill: that instance runs again
      }
    });
}

async function runInstance(instance: BenchInstance, engine: Engine, counter: AsyncTokenCounter, embedder: Embedder | null, options: BenchOptions): Promise<InstanceRecord> {
  const store = IndexStore.openForRead(engine.config.indexDir)!;
  const searcher = new Searcher(store, engine.config.root, engine.ranking);
  const task = instance.problem_statement;
  // Gold lines where the hunks' text is in the files as indexed (a hunk's header can be off).
  const indexed = searcher.packSource(task);
  const { scored, unscored } = scoredGold(parsePatch(instance.patch, (path) => indexed.text(path)?.lines ?? null));
  const parsed = searcher.task(task);
  const semantic = store.meta().semantic;
  const { vector, notice } = await taskVector(semantic?.vectors ? embedTask(embedder, task) : null, semantic);

  // Every signal once, cached for the tuner (this also loads the indexes, so the timings below
  // are a warm process's: what a server pays for a new task on a current index).
  const { results } = searcher.rankWithSignals(task, { compute: SIGNALS, taskVector: vector });
  const cache: SignalCache = { instance_id: instance.instance_id, repo: instance.repo, gold: scored.map((g) => g.path), aboutTests: parsed.aboutTests, aboutDocs: parsed.aboutDocs, aboutVendored: parsed.aboutVendored, results };
  writeFileSync(join(options.outDir, "signals", `${instance.instance_id}.json`), JSON.stringify(cache));

  const strategies: Record<string, StrategyOutcome> = {};
  let defaultRanking: RankedFile[] = [];
  const packable = new Set<string>();
  const missed: string[] = [];
  for (const strategy of options.strategies) {
    const started = performance.now();
    const ranked = searcher.rank(task, { config: strategy.config, taskVector: vector }).files;
    const rankMs = performance.now() - started;
    const paths = ranked.map((f) => f.path);
    for (const path of paths.slice(0, coverDepth(strategy.config, Math.max(...options.budgets)) * 2)) packable.add(path);
    const outcome: StrategyOutcome = { ...scoreRanking(paths, scored), budgets: {}, ms: 0 };
    for (const [i, budget] of options.budgets.entries()) {
      const p0 = performance.now();
      const context = strategy.wholeFiles ? await packWholeFiles(engine.config.root, paths, budget, counter) : await searcher.packRanked(task, ranked, budget, counter, strategy.config);
      if (i === 0) outcome.ms = Math.round(rankMs + performance.now() - p0);
      const score = scoreContext(context.spans, scored);
      outcome.budgets[String(budget)] = { file: score.file, lines: score.lines, tokens: context.tokens, overBudget: context.tokens > budget };
      if (strategy.name === "default") missed.push(...explainLines(score.missedLines, budget, outcome.ranks, (path) => store.parse.symbols(path) ?? []));
    }
    if (strategy.name === "default") defaultRanking = ranked;
    strategies[strategy.name] = outcome;
  }
  if (strategies.default) missed.unshift(...explainRanks(scored, defaultRanking, results, strategies.default));
  writePackCache(options.outDir, instance, scored, indexed, packable);
  return {
    instance_id: instance.instance_id,
    repo: instance.repo,
    gold: scored.map((g) => ({ path: g.path, lines: g.lines.length })),
    unscored,
    strategies,
    missed,
    semantic: { model: vector && semantic ? modelName(semantic.provenance) : null, notice: vector ? null : notice ?? "no vectors: semantic search is off, or no embedding model could be loaded when the index was built" },
  };
}

/** Caches what re-packing needs (gzip JSON under `packs/`), so the tuner can try packing parameters without the repository. */
function writePackCache(outDir: string, instance: BenchInstance, gold: GoldFile[], source: PackSource, paths: Iterable<string>): void {
  const files: PackCache["files"] = [];
  const releaseNotes = [...(source.releaseNotes ?? [])];
  for (const path of new Set([...paths, ...releaseNotes.map((n) => n.path)])) {
    const text = source.text(path);
    if (text) files.push({ path, language: text.language, text: text.lines.join("\n"), symbols: [...(source.symbols(path) ?? [])] });
  }
  const focus = files.map((f): [string, number[]] => [f.path, [...source.focus(f.path)]]).filter(([, lines]) => lines.length > 0);
  const cache: PackCache = { instance_id: instance.instance_id, repo: instance.repo, gold, termWeights: [...source.termWeights], focus, files, releaseNotes };
  mkdirSync(join(outDir, "packs"), { recursive: true });
  writeFileSync(join(outDir, "packs", `${instance.instance_id}.json.gz`), gzipSync(JSON.stringify(cache)));
}

/** Why gold files are not in the default's top 10: where each signal ranked them. */
function explainRanks(gold: readonly GoldFile[], ranked: readonly RankedFile[], results: readonly SignalResult[], outcome: StrategyOutcome): string[] {
  const out: string[] = [];
  for (const g of gold) {
    const rank = outcome.ranks[g.path];
    if (rank !== null && rank !== undefined && rank <= 10) continue;
    const found = results
      .map((r) => ({ name: r.name, at: r.hits.findIndex((h) => h.path === g.path) }))
      .filter((x) => x.at >= 0)
      .map((x) => `${x.name} #${x.at + 1}`);
    const fused = ranked.find((f) => f.path === g.path);
    out.push(`${g.path}: rank ${rank ?? "none"}${fused ? "" : " (no signal with weight found it)"}; signals: ${found.length > 0 ? found.join(", ") : "none"}`);
  }
  return out;
}

/** Which gold lines a budget's context left out, and the innermost definition holding them. */
function explainLines(missedLines: Record<string, number[]>, budget: number, ranks: Record<string, number | null>, symbolsOf: (path: string) => SymbolInfo[]): string[] {
  return Object.entries(missedLines).map(([path, lines]) => {
    const symbols = symbolsOf(path);
    const holders = [...new Set(lines.map((line) => {
      const inner = innermostAt(symbols, line);
      return inner ? `${inner.qualifiedName} (${inner.kind}, ${inner.endLine - inner.startLine + 1} lines)` : "module level";
    }))];
    return `${path} @${budget}: ${lines.length} gold line(s) not shown (${lines.slice(0, 6).join(", ")}${lines.length > 6 ? ", …" : ""}) in ${holders.join("; ")}; file rank ${ranks[path] ?? "none"}`;
  });
}
