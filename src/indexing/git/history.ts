import type { CommitInfo, FileHistory } from "../../core/types.js";
import { isReleaseNotesPath } from "../../core/languages.js";
import { buildHistoryIndex, decodeRecent, decodeRenames, encodeRecent, encodeRenames, RECENT_COMMITS } from "../../store/history-index.js";
import type { IndexStore } from "../../store/store.js";
import { PROTOCOL_VERSION, type GitResult, type GitTask } from "../protocol.js";
import { gitHead } from "./head.js";
import { isAncestor, isPartialClone, logCommits, shallowBoundary, treeFiles, type LoggedCommit } from "./log.js";
import { ContextSmithError } from "../../core/errors.js";
import { collectGarbage } from "../../runtime/gc.js";

/** Longest commit message kept (the subject and the start of the body carry the signal). */
const MAX_MESSAGE = 1000;
/**
 * Commits are keyed by an abbreviated hash: per-file commit lists are most of the history's
 * size on disk, and 12 hex digits are unique in any real repository (git itself abbreviates less).
 */
const SHORT_HASH = 12;

interface Pending {
  commits: string[];
  churn: number;
  lastChange: number;
  cochange: Map<string, number>;
}

/**
 * The git-history stage: reads the commits of HEAD's ancestry that are not indexed yet and
 * folds them into per-file history (commits, churn, last change, co-change). All of it, and the
 * new HEAD, is committed in one transaction, so an interrupted run leaves the previous history
 * intact and the next run reads the same commits again.
 */
export async function indexGitHistory(store: IndexStore, task: GitTask, collect: () => void = collectGarbage): Promise<GitResult> {
  if (task.version !== PROTOCOL_VERSION) {
    throw new ContextSmithError("WORKER_FAILED", `git worker speaks protocol ${PROTOCOL_VERSION}, task is ${task.version}: rebuild the project`);
  }
  const started = performance.now();
  const meta = store.meta();
  const head = await gitHead(task.root);
  const warnings: string[] = [];
  const stored = decodeRecent(store.history.recent());
  if (historyCurrent(store, head, stored)) return { head, commitsRead: 0, rebuilt: false, warnings, ms: 0 };
  const storedRenames = decodeRenames(store.history.renames());
  // Rewritten history (rebase, branch switch to an unrelated line): start over. So does an index
  // without a window of recent commits or renames to trust (written before they were kept, or
  // damaged): once.
  const incremental = meta.gitHead !== null && head !== null && stored !== null && storedRenames !== null && (await isAncestor(task.root, meta.gitHead, head));
  const since = incremental ? meta.gitHead : null;

  // History is kept for the files of HEAD only: paths deleted long ago would be most of it.
  const live = head ? await treeFiles(task.root, head) : new Set<string>();
  const boundary = head ? await shallowBoundary(task.root) : new Set<string>();
  const log = head ? await readLog(task, head, since, live, boundary, warnings) : emptyRead();
  const { kept, read, perFile, recent } = log;
  // Most of the heap is now the log's garbage (its output, each commit's objects), promoted past a
  // young generation capped at 8 MB (runtime/pools.ts); collected before the histories, the
  // index and their encodings are built on top of it. babel's history stage alone: peak 328-379 ->
  // 320-324 MB, 4.05 -> 4.14 s; a cold index of babel, 4 pairs in turn twice: 465 -> 423 and
  // 445 -> 433 MiB (its peak moves to the graph stage's heap).
  collect();

  // Every file's history after this run, and the history index built from it, before the
  // transaction: the write itself stays short.
  const histories = new Map<string, FileHistory>();
  if (incremental) {
    for (const [path, history] of store.history.all()) if (live.has(path)) histories.set(path, history);
  }
  for (const [path, p] of perFile) histories.set(path, merge(histories.get(path), p, task));
  const messages = new Map(kept.map((c) => [c.hash.slice(0, SHORT_HASH), c.message]));
  const historyIndex = buildHistoryIndex(histories, (hash) => messages.get(hash) ?? (incremental ? store.history.commit(hash)?.message : undefined));
  // The window slides: this run's commits in front of the stored ones, release notes since deleted left out.
  const window = [...recent, ...(incremental ? stored! : [])].slice(0, RECENT_COMMITS).map((paths) => paths.filter((path) => live.has(path)));

  await store.transaction(() =>
    store.history.write({
      replace: !incremental,
      live,
      commits: kept.map((c) => [c.hash.slice(0, SHORT_HASH), c]),
      files: new Map([...perFile.keys()].map((path) => [path, histories.get(path)!])),
      index: { ...historyIndex, recent: encodeRecent(window), renames: encodeRenames(formerPaths(log.renamed, incremental ? storedRenames! : new Map(), live)) },
      head,
      commitsRead: read,
    }),
    "history",
  );
  return { head, commitsRead: read, rebuilt: !incremental, warnings, ms: Math.round(performance.now() - started) };
}

/** What one read of the log gathered. */
interface LogRead {
  /** Commits that some current file lists (their messages are kept). */
  kept: CommitInfo[];
  read: number;
  perFile: Map<string, Pending>;
  /** The newest commits that touch files, each with the release notes it changed (newest first). */
  recent: string[][];
  /** Renames, newest first. */
  renamed: Array<[from: string, to: string]>;
}

function emptyRead(): LogRead {
  return { kept: [], read: 0, perFile: new Map(), recent: [], renamed: [] };
}

/**
 * Reads the log: the newest `task.renameCommits` commits with their renames, then the rest
 * without. Where git cannot compare a rename's blobs (objects missing), the log is read on from
 * the commit it failed at, without renames.
 */
async function readLog(task: GitTask, head: string, since: string | null, live: ReadonlySet<string>, boundary: ReadonlySet<string>, warnings: string[]): Promise<LogRead> {
  const out = emptyRead();
  const { kept, perFile, recent } = out;
  // A path read from the log is a slice of a whole chunk of its output: kept as a key, it would
  // keep the chunk alive (sympy: 17 MB of heap). Keys are the tree's own strings instead.
  const own = new Map([...live].map((path) => [path, path]));
  // Only commits that some current file lists (newest first, capped per file) keep their message:
  // lists only grow while reading, so a commit listed when read stays listed.
  const fold = (c: LoggedCommit): void => {
    out.read++;
    if (boundary.has(c.hash)) c.files = [];
    for (const [from, to] of c.renamed) out.renamed.push([detached(from), detached(to)]);
    // In path order, as git lists a commit's files when it does not pair renames.
    if (c.files.length > 0 && recent.length < RECENT_COMMITS) recent.push(c.files.flatMap((logged) => {
      const path = own.get(logged);
      return path !== undefined && isReleaseNotesPath(path) ? [path] : [];
    }).sort());
    const short = c.hash.slice(0, SHORT_HASH);
    let listed = false;
    const withCochange = c.files.length <= task.cochangeMaxFiles;
    for (const logged of c.files) {
      const path = own.get(logged);
      if (path === undefined) continue;
      let p = perFile.get(path);
      if (!p) perFile.set(path, (p = { commits: [], churn: 0, lastChange: 0, cochange: new Map() }));
      p.churn++;
      p.lastChange = Math.max(p.lastChange, c.time);
      if (p.commits.length < task.historyPerFile) {
        p.commits.push(short);
        listed = true;
      }
      if (withCochange) {
        for (const logged of c.files) {
          const other = own.get(logged);
          if (other !== undefined && other !== path) p.cochange.set(other, (p.cochange.get(other) ?? 0) + 1);
        }
        // Bounded memory: a central file can co-change with thousands of others over 50k
        // commits. Keep the strongest few (commits come newest first, so ties favour recent).
        if (p.cochange.size > 8 * task.cochangePerFile) p.cochange = topEntries(p.cochange, 2 * task.cochangePerFile);
      }
    }
    if (listed) kept.push({ hash: detached(c.hash), time: c.time, message: detached(c.message.slice(0, MAX_MESSAGE)), fileCount: c.files.length });
  };
  // A partial clone would fetch the blobs git compares: no renames there.
  const window = (await isPartialClone(task.root)) ? 0 : Math.min(task.renameCommits, task.maxCommits);
  let failed = false;
  if (window > 0) {
    try {
      for await (const c of logCommits(task.root, head, since, window, { renames: true })) fold(c);
    } catch (err) {
      if (!(err instanceof ContextSmithError) || err.code !== "GIT_FAILED") throw err;
      failed = true;
      warnings.push(`renames read in the newest ${out.read} commits only (${err.message})`);
    }
  }
  // On from where that read stopped: the window's end, or the commit git failed at.
  if ((failed || out.read === window) && out.read < task.maxCommits) {
    for await (const c of logCommits(task.root, head, since, task.maxCommits - out.read, { renames: false, skip: out.read })) fold(c);
  }
  return out;
}

/**
 * Whether the stored history is that of `head`: the same HEAD, with a window of recent commits
 * (the release-notes habit) and renames to trust. `stored` is the decoded window, where the caller
 * has it. Renames are only looked for: a no-change run should not parse them.
 */
export function historyCurrent(store: IndexStore, head: string | null, stored?: string[][] | null): boolean {
  if (head !== store.meta().gitHead) return false;
  if (head === null) return true;
  return (store.history.renames()?.length ?? 0) > 0 && (stored === undefined ? decodeRecent(store.history.recent()) : stored) !== null;
}

/**
 * Each path the history renamed that no file has now (`from`), with the file it became, followed
 * through later renames (`a.py` → `b/a.py` → `c.py`); a path that led only to files since deleted
 * is left out. `renamed` is this run's, newest first; `stored` what earlier runs found, all older.
 * A chain goes forward in time only: from a rename to the first later rename of the path it made
 * (a path renamed away, made again and renamed again is two files). A path renamed more than once
 * means what its newest rename made of it.
 */
export function formerPaths(renamed: ReadonlyArray<readonly [string, string]>, stored: ReadonlyMap<string, string>, live: ReadonlySet<string>): Map<string, string> {
  // Each path's renames as (to, age), newest first: age is the position in `renamed`, stored ones oldest.
  const moves = new Map<string, Array<[to: string, age: number]>>();
  const add = (from: string, to: string, age: number): void => {
    const list = moves.get(from);
    if (list) list.push([to, age]);
    else moves.set(from, [[to, age]]);
  };
  renamed.forEach(([from, to], age) => add(from, to, age));
  for (const [from, to] of stored) add(from, to, Infinity);
  const out = new Map<string, string>();
  for (const [from, list] of moves) {
    if (live.has(from)) continue;
    let [now, age] = list[0]!;
    // Ages fall at every step, so this ends.
    for (;;) {
      const later = moves.get(now)?.filter(([, a]) => a < age);
      if (!later || later.length === 0) break;
      [now, age] = later[later.length - 1]!;
    }
    if (live.has(now)) out.set(from, now);
  }
  return out;
}

/**
 * `text` as a string of its own. V8 makes a slice of a long string a view that keeps the whole
 * string alive; slicing a fresh concatenation copies `text` into a new string first.
 */
function detached(text: string): string {
  return ` ${text}`.slice(1);
}

function topEntries(counts: Map<string, number>, k: number): Map<string, number> {
  return new Map([...counts].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).slice(0, k));
}

/** Newer commits (`fresh`) go in front of the stored ones; co-change counts add up, top entries kept. */
function merge(old: FileHistory | undefined, fresh: Pending, task: GitTask): FileHistory {
  const churn = fresh.churn + (old?.churn ?? 0);
  const counts = new Map<string, number>(Object.entries(old?.cochange ?? {}));
  for (const [path, n] of fresh.cochange) counts.set(path, (counts.get(path) ?? 0) + n);
  return {
    commits: [...fresh.commits, ...(old?.commits ?? [])].slice(0, task.historyPerFile),
    churn,
    lastChange: Math.max(fresh.lastChange, old?.lastChange ?? 0),
    // One commit says only "added (or touched) together"; co-change needs at least two. In
    // repositories with many write-once files (test fixtures) this halves the history's size.
    cochange: churn >= 2 ? Object.fromEntries(topEntries(counts, task.cochangePerFile)) : {},
  };
}
