import type { Stats } from "node:fs";
import type { Piscina } from "piscina";
import { ContextSmithError } from "../core/errors.js";
import type { Config } from "../core/config.js";
import type { IndexStats, ProgressEvent, RunOptions, SemanticStats, SkipReason } from "../core/types.js";
import type { Embedder } from "../runtime/embed/types.js";
import { LexicalBuilder, snapshotIsDue } from "../store/lexical.js";
import { ensureIndexDir, IndexStore, isDamage } from "../store/store.js";
import type { FileUpdate, StoredStat } from "../store/types.js";
import { modelName } from "../store/semantic-state.js";
import { VectorCache } from "../store/vector-cache.js";
import { updateEmbeddings } from "./embed-stage.js";
import { gitHead } from "./git/head.js";
import { historyCurrent } from "./git/history.js";
import { updateGraph } from "./graph-stage.js";
import { collectGarbage } from "../runtime/gc.js";
import { acquireWriteLock, describeOwner } from "../runtime/lock.js";
import { planRun, storedByPath, type Plan, type PlannedRead } from "./plan.js";
import { createPool, type ParsePools } from "../runtime/pools.js";
import { PROTOCOL_VERSION, type GitResult, type GitTask, type ParseResult, type ParseTask } from "./protocol.js";
import { walk, type WalkResult } from "./walk.js";

/**
 * The indexing orchestrator: lock -> walk -> plan -> parse pool -> (lexical snapshot -> graph ‖
 * git-log worker) -> embed. It only sequences stages; each stage lives in its own module.
 *
 * Crash safety: every parse batch is committed in one LMDB transaction together with the
 * file records it produced, so a run killed at any point leaves only fully indexed files behind,
 * and the next run's plan picks up exactly the files that are still missing or stale.
 *
 * `embedder` makes the vectors (null: semantic search is turned off) and `pools` hold the parse
 * threads; both belong to the caller (the process's Runtime, so a warm process keeps its model and
 * its parse threads between runs and across repositories).
 */
export async function runIndex(config: Config, embedder: Embedder | null, pools: ParsePools, options: RunOptions = {}): Promise<IndexStats> {
  const emit = options.onProgress ?? (() => undefined);
  const started = performance.now();
  const timings: Record<string, number> = {};
  const time = async <T>(stage: string, work: () => Promise<T> | T): Promise<T> => {
    const t0 = performance.now();
    try {
      return await work();
    } finally {
      timings[stage] = Math.round((timings[stage] ?? 0) + performance.now() - t0);
    }
  };

  try {
    ensureIndexDir(config.indexDir);
  } catch (error) {
    throw new ContextSmithError("IO_ERROR", `Cannot create the index folder ${config.indexDir}: ${(error as Error).message}. Point --index-dir somewhere writable.`);
  }
  const lockWarnings: string[] = [];
  const lock = await time("lock", () =>
    acquireWriteLock(config.indexDir, {
      wait: options.wait ?? true,
      waitTimeoutMs: options.waitTimeoutMs,
      signal: options.signal,
      onWait: (owner) => emit({ stage: "lock", message: `waiting for another index run (${describeOwner(owner)}) to finish…` }),
      onTakeover: (owner, why) => {
        const message = `took over the write lock of ${describeOwner(owner)}: ${why}`;
        lockWarnings.push(message);
        emit({ stage: "lock", message });
      },
    }),
  );
  const run: LockedRun = { config, embedder, pools, options, emit, time, timings, started };
  try {
    try {
      return await indexLocked(run, lockWarnings);
    } catch (error) {
      // Damage inside the data file that the preflight check cannot see (a page overwritten in
      // place) shows when the run reads it: the index is rebuilt once, never left failing.
      if (!isDamage(error) || options.signal?.aborted) throw error;
      IndexStore.discard(config.indexDir);
      const why = `the index was damaged (${(error as Error).message}); it was rebuilt from scratch`;
      const stats = await indexLocked(run, [...lockWarnings, why]);
      return { ...stats, rebuilt: true };
    }
  } finally {
    lock.release();
  }
}

/** What one locked run works with. */
interface LockedRun {
  config: Config;
  embedder: Embedder | null;
  pools: ParsePools;
  options: RunOptions;
  emit: (event: ProgressEvent) => void;
  time: <T>(stage: string, work: () => Promise<T> | T) => Promise<T>;
  timings: Record<string, number>;
  started: number;
}

/** The run itself, with the write lock held: open, walk, plan, parse, then lexical and graph beside history, then embed. */
async function indexLocked(run: LockedRun, preWarnings: readonly string[]): Promise<IndexStats> {
  const { config, embedder, pools, options, emit, time, timings, started } = run;
  let store: IndexStore | undefined;
  let history: Promise<GitResult | null> = Promise.resolve(null);
  try {
    const opened = await time("open", () => IndexStore.openForWrite(config.indexDir));
    store = opened.store;
    const warnings: string[] = [...preWarnings, ...(opened.reason ? [opened.reason] : [])];

    // git lists the files in a process of its own (the walk's first step): what the index knows of
    // each file is read meanwhile (on babel, 27,000 records in 65 ms beside git's 120 ms), and the
    // walk then checks the folders of the files it does not hold as they are.
    let known: Map<string, StoredStat> | null = null;
    const unchanged = (path: string, stat: Stats): boolean => {
      const old = known?.get(path);
      return old !== undefined && old.size === stat.size && old.mtimeMs === stat.mtimeMs;
    };
    const walking = time("walk", () => walk({ root: config.root, indexDir: config.indexDir, maxFileBytes: config.maxFileBytes, unchanged }));
    known = await time("plan", () => storedByPath(store!.allStats()));
    let walked: WalkResult | null = await walking;
    const { git: inGitTree, skipped: walkSkipped, unreadable } = walked;
    const walkedFiles = walked.files.length;
    emit({ stage: "walk", files: walkedFiles });
    const plan = await time("plan", () => planRun(walked!.files, known!, unreadable));
    known = null;
    // The closure above keeps `walked` in this run's scope: its list of files goes now, not at the
    // end (an object a file, beside the plan's own copies).
    walked = null;
    emit({ stage: "plan", toRead: plan.read.length, unchanged: plan.unchanged, removed: plan.remove.length });

    // When this run will likely rewrite the lexical snapshot, build it as batches commit.
    let builder = snapshotIsDue(store, plan.read.length + plan.remove.length) ? new LexicalBuilder(store, config.lexicalSegmentRows) : null;
    const counts = await time("parse", () => parseAndCommit(config, store!, pools, plan, builder, emit, options.signal));
    // History runs in its own worker and its own transaction, beside the lexical snapshot and the
    // graph stage: those keep one thread busy, so on two cores the other is free, where beside the
    // parse threads git and its worker only took turns with them.
    // (A cancelled parse threw above: a cancelled run never starts the worker, which cannot be stopped.)
    let historyDone = true;
    if (config.git && inGitTree) {
      historyDone = false;
      history = startHistory(config, store).finally(() => {
        historyDone = true;
      });
    }
    history.catch(() => undefined); // observed below; never an unhandled rejection meanwhile
    // Also repairs a snapshot that a killed run left behind its journal. A builder that wrote
    // segments already finishes its snapshot, due or not (or they would stay as garbage).
    const snapshot = snapshotIsDue(store) || builder?.staged === true;
    if (snapshot) {
      emit({ stage: "lexical", message: "writing the lexical index" });
      await time("lexical", () => (builder ?? new LexicalBuilder(store!, config.lexicalSegmentRows)).write());
    }
    // Before the graph stage: the builder's postings and FlexSearch document are the largest thing
    // this thread holds, and resolution needs its own room. Let go now: V8 sized its heap limit for
    // the builder, and resolution's garbage would otherwise pile up to it before a full
    // collection. A run that built no snapshot (no change, a small edit) pays for none.
    const built = builder !== null;
    builder = null;
    if (built || snapshot) collectGarbage();
    // Resolves calls and imports of what changed; also finishes what a killed run left: the graph journal, a PageRank due.
    let graphResolved = 0;
    if (store.graph.hasPending() || store.graph.ranksDue()) {
      emit({ stage: "graph", message: "resolving calls and imports" });
      graphResolved = (await time("graph", () => updateGraph(store!, config.root, { onResolved: (done, total) => emit({ stage: "resolve", done, total }) }))).resolved;
    }
    // After the graph stage too, with the C heap: resolution's caches and garbage (about 100 MB of
    // heap on sympy) would otherwise stay while the git worker, often still running, reaches its
    // peak (it builds its tables at its end).
    if (built || snapshot) {
      collectGarbage();
      pools.heap.trim();
    }
    let git: GitResult | null = null;
    if (!historyDone) emit({ stage: "history", message: "reading git history" });
    try {
      git = await history;
    } catch (error) {
      warnings.push(`git history not updated: ${ContextSmithError.from(error, "GIT_FAILED").message}`);
    }
    if (git) {
      timings.git = git.ms;
      emit({ stage: "git", commits: git.commitsRead });
    }

    // Last: the slowest stage, and everything else is already committed and queryable meanwhile.
    const semantic = await time("embed", () => embedStage(config, store!, embedder, emit, options.signal));
    const changed = counts.parsed + counts.skippedOnRead + plan.remove.length > 0;
    const ms = Math.round(performance.now() - started);
    // A no-change run writes nothing: not even a meta commit (an fsync) to say so. The id map in
    // one value goes with any run that changed files, or once into an index made before it.
    if (changed || store.meta().lastRun === null || !store.lexical.idsSealed()) {
      await store.transaction(() => {
        store!.lexical.sealIds();
        if (!changed && store!.meta().lastRun !== null) return;
        store!.updateMeta((m) => {
          m.lastRun = { at: Date.now(), ms, parsed: counts.parsed, removed: plan.remove.length };
        });
      });
    }
    warnings.push(...counts.warnings, ...(git?.warnings ?? []));
    const meta = store.meta();
    const skipped = { ...walkSkipped };
    if (plan.kept > 0) {
      skipped.unreadable = (skipped.unreadable ?? 0) + plan.kept;
      warnings.push(`${plan.kept} indexed files could not be looked at (no permission: ${unreadable.slice(0, 3).join(", ")}${unreadable.length > 3 ? ", …" : ""}); kept as they were`);
    }
    for (const [reason, n] of Object.entries(counts.skipped)) skipped[reason as SkipReason] = (skipped[reason as SkipReason] ?? 0) + n;
    emit({ stage: "done", ms });
    return {
      root: config.root,
      files: {
        seen: walkedFiles + Object.values(walkSkipped).reduce((a, b) => a + b, 0),
        parsed: counts.parsed,
        unchanged: plan.unchanged + counts.touched,
        touched: counts.touched,
        removed: plan.remove.length,
        skipped,
      },
      totals: { ...meta.totals, commits: meta.commits },
      commitsRead: git?.commitsRead ?? 0,
      graphResolved,
      timings: { ...timings, total: ms },
      indexBytes: store.diskBytes(),
      rebuilt: opened.rebuilt,
      semantic,
      warnings,
    };
  } finally {
    // Never let go of the store while the git worker may still be writing.
    await history.catch(() => undefined);
    if (store) {
      await store.close();
      IndexStore.seal(config.indexDir);
    }
  }
}

interface ParseCounts {
  parsed: number;
  touched: number;
  skippedOnRead: number;
  skipped: Partial<Record<SkipReason, number>>;
  warnings: string[];
}

/** Splits the reads into batches bounded by file count and bytes. */
function makeBatches(files: readonly PlannedRead[], maxFiles: number, maxBytes: number): PlannedRead[][] {
  const batches: PlannedRead[][] = [];
  let current: PlannedRead[] = [];
  let bytes = 0;
  for (const file of files) {
    if (current.length > 0 && (current.length >= maxFiles || bytes + file.size > maxBytes)) {
      batches.push(current);
      current = [];
      bytes = 0;
    }
    current.push(file);
    bytes += file.size;
  }
  if (current.length > 0) batches.push(current);
  return batches;
}

async function parseAndCommit(
  config: Config,
  store: IndexStore,
  pools: ParsePools,
  plan: Plan,
  builder: LexicalBuilder | null,
  emit: (e: ProgressEvent) => void,
  signal: AbortSignal | undefined,
): Promise<ParseCounts> {
  const counts: ParseCounts = { parsed: 0, touched: 0, skippedOnRead: 0, skipped: {}, warnings: [] };
  const warned = new Set<string>();
  const reads = plan.read;
  if (plan.remove.length > 0) await store.writeBatch([], plan.remove);
  if (reads.length === 0) return counts;

  const batches = makeBatches(reads, config.batchFiles, config.batchBytes);
  const tally = (updates: FileUpdate[]): void => {
    for (const u of updates) {
      if (u.kind === "index") counts.parsed++;
      else if (u.kind === "touch") counts.touched++;
      else {
        counts.skippedOnRead++;
        counts.skipped[u.reason] = (counts.skipped[u.reason] ?? 0) + 1;
      }
    }
  };
  let done = 0;
  let next = 0;
  // Bounded in flight: enough to keep every thread busy while the main thread commits, few
  // enough that memory stays flat on huge repositories.
  const inFlight = Math.max(2, config.jobs * 2);
  // Commits apply one at a time, in completion order; a parse loop only waits for them when too
  // many are queued, so workers never idle while LMDB flushes. The chain never rejects: the
  // first failure is kept and stops both parsing and committing.
  let commitChain: Promise<void> = Promise.resolve();
  let queuedCommits = 0;
  const commit = async (updates: FileUpdate[], warnings: string[], files: number): Promise<void> => {
    const written = await store.writeBatch(updates);
    if (builder) {
      const byPath = new Map(updates.map((u) => [u.path, u]));
      for (const record of written) {
        const u = byPath.get(record.path);
        if (u?.kind === "index" && u.lexical) builder.add(record, u.lexical);
      }
      await builder.flush();
    }
    tally(updates);
    // A grammar that cannot load warns from every batch in the same words: once is enough.
    for (const w of warnings) {
      if (warned.has(w)) continue;
      warned.add(w);
      counts.warnings.push(w);
    }
    done += files;
    emit({ stage: "parse", done, total: reads.length, batch: files });
  };
  // A loop stops taking batches when the run is cancelled or another loop failed. All loops
  // settle before the pool is let go (see ParsePools.use).
  let failure: unknown;
  const crashes = { files: 0, tried: 0 };
  const stopped = (): boolean => failure !== undefined || signal?.aborted === true;
  await pools.use(config.jobs, async (pool) => {
    try {
      const loops = Array.from({ length: Math.min(inFlight, batches.length) }, async () => {
        while (next < batches.length && !stopped()) {
          const batch = batches[next++]!;
          const task: ParseTask = {
            version: PROTOCOL_VERSION,
            root: config.root,
            files: batch,
            limits: { maxFileBytes: config.maxFileBytes, maxLineChars: config.maxLineChars, maxMeanLineChars: config.maxMeanLineChars },
            lexical: builder !== null,
          };
          let result: ParseResult;
          try {
            // No abort signal for piscina either, for the same reason: cancelling stops submitting,
            // and a batch in flight finishes (well under a second).
            result = (await pool.run(task)) as ParseResult;
          } catch (error) {
            // A file that crashes its worker (or exhausts its memory) must not stop the index from
            // ever completing: the batch is parsed again file by file, and what still fails is skipped.
            try {
              result = await parseFileByFile(pool, task, error, crashes);
            } catch (systemic) {
              failure ??= systemic;
              return;
            }
          }
          queuedCommits++;
          commitChain = commitChain
            .then(() => (failure === undefined ? commit(result.updates, result.warnings, batch.length) : undefined))
            .catch((error: unknown) => {
              failure ??= error;
            })
            .finally(() => {
              queuedCommits--;
            });
          if (queuedCommits > inFlight) await commitChain;
        }
      });
      await Promise.all(loops);
    } finally {
      // Whatever was parsed is committed, even when a later batch failed or the run was cancelled.
      await commitChain;
    }
  });
  if (failure !== undefined) throw failure;
  if (signal?.aborted) throw new ContextSmithError("ABORTED", "Indexing was cancelled.");
  return counts;
}

/** When more than this share of the files retried alone fail too, the fault is not in the files. */
const MAX_CRASH_SHARE = 0.5;

/**
 * Parses a failed batch again one file per task. A file whose task fails alone is skipped as
 * `parser-crashed` with a warning. When most files fail alone (a missing worker file, a protocol
 * mismatch), the fault is the parser's, and the run fails with the batch's error.
 */
async function parseFileByFile(pool: Piscina, task: ParseTask, batchError: unknown, crashes: { files: number; tried: number }): Promise<ParseResult> {
  const updates: FileUpdate[] = [];
  const warnings: string[] = [];
  for (const file of task.files) {
    crashes.tried++;
    try {
      const one = (await pool.run({ ...task, files: [file] })) as ParseResult;
      updates.push(...one.updates);
      warnings.push(...one.warnings);
    } catch (error) {
      crashes.files++;
      if (crashes.tried >= 4 && crashes.files > crashes.tried * MAX_CRASH_SHARE) {
        throw new ContextSmithError("WORKER_FAILED", `The parse worker fails on most files, so the fault is not in them: ${ContextSmithError.from(batchError).message}.`);
      }
      const reason = ContextSmithError.from(error).message;
      updates.push({ kind: "skip", path: file.path, size: file.size, mtimeMs: file.mtimeMs, hash: "", language: file.language, reason: "parser-crashed" });
      warnings.push(`${file.path}: the parser crashed on it (${reason}); skipped`);
    }
  }
  return { updates, warnings };
}

/**
 * Brings the vectors up to date when semantic search is on. A model that cannot be had (not
 * downloaded yet and offline, a server down) is not an error: the run finishes lexically and says
 * why semantic search is off.
 */
async function embedStage(
  config: Config,
  store: IndexStore,
  embedder: Embedder | null,
  emit: (e: ProgressEvent) => void,
  signal: AbortSignal | undefined,
): Promise<SemanticStats> {
  const settings = config.embedding;
  const off = (reason: string): SemanticStats => ({ on: false, model: null, vectors: store.meta().semantic?.vectors ?? 0, embedded: 0, cached: 0, reason });
  if (!config.semantic) return off("--no-semantic");
  if (!embedder) return off("CTXSMITH_EMBED_PROVIDER=none");
  const model = modelName(settings);
  let cache: VectorCache | null = null;
  try {
    // The model first (a download, a server): without one, nothing else is opened.
    await embedder.provenance();
    cache = VectorCache.open(settings.cacheDir);
    const update = await updateEmbeddings(store, embedder, cache, { emit, signal });
    return { on: update.vectors > 0, model, vectors: update.vectors, embedded: update.embedded, cached: update.cached, reason: update.vectors > 0 ? null : "no functions or classes to embed" };
  } catch (error) {
    if (signal?.aborted) throw new ContextSmithError("ABORTED", "Indexing was cancelled.");
    return { ...off(ContextSmithError.from(error, "INTERNAL").message), model };
  } finally {
    await cache?.close();
  }
}

async function startHistory(config: Config, store: IndexStore): Promise<GitResult> {
  // The common no-change case reads HEAD from git's files (see gitHead), never a worker start.
  const head = await gitHead(config.root);
  if (historyCurrent(store, head)) return { head, commitsRead: 0, rebuilt: false, warnings: [], ms: 0 };
  const pool = await createPool("git-log", 1);
  try {
    const task: GitTask = {
      version: PROTOCOL_VERSION,
      root: config.root,
      indexDir: config.indexDir,
      maxCommits: config.maxCommits,
      cochangeMaxFiles: config.cochangeMaxFiles,
      historyPerFile: config.historyPerFile,
      cochangePerFile: config.cochangePerFile,
      renameCommits: config.renameCommits,
    };
    return (await pool.run(task)) as GitResult;
  } finally {
    await pool.destroy();
  }
}
