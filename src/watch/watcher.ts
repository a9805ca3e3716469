import { existsSync, realpathSync } from "node:fs";
import { isAbsolute, join, relative, sep } from "node:path";
import { execa } from "execa";
import { ContextSmithError } from "../core/errors.js";
import type { IndexStats, RunOptions } from "../core/types.js";
import type { Engine } from "../engine.js";
import { isSkippedFolder } from "../indexing/walk.js";

/** One index run of a watcher, and what set it off. */
export interface WatchRun {
  /** `start`: the first run; `files`: files changed; `head`: the commit moved (a commit, a branch switch, a pull). */
  reason: "start" | "files" | "head";
  /** The paths (repository-relative) that changed since the run before, as the events named them; at most 1,000. */
  changed: string[];
  /** How many paths changed in all (each named path once; past 1,000 named, each further event). */
  events: number;
  stats: IndexStats;
}

/** Options of a {@link RepoWatcher}. */
export interface WatchOptions {
  /** Quiet time after the last event before a run (default 300 ms): a burst of writes is one run. */
  debounceMs?: number;
  /** The longest a run waits behind a steady stream of events (default 3 s). */
  maxWaitMs?: number;
  /** Each finished run. */
  onRun?: (run: WatchRun) => void;
  /** A run that failed (the watcher goes on: it tries again, and the next event too). */
  onError?: (error: ContextSmithError) => void;
  /** Progress of the index runs. */
  onProgress?: RunOptions["onProgress"];
  /**
   * Runs an index run: by default at once; a watcher of many repositories passes one queue to all
   * of them, so that they index one at a time.
   */
  schedule?: <T>(run: () => Promise<T>) => Promise<T>;
}

/** What the watcher subscribes to: chokidar's watcher, as much of it as is used. */
interface FileWatcher {
  on(event: "all", listener: (event: string, path: string) => void): this;
  on(event: "error", listener: (error: unknown) => void): this;
  on(event: "ready", listener: () => void): this;
  add(paths: string | string[]): this;
  unwatch(paths: string | string[]): this;
  close(): Promise<void>;
}

/** Changed paths kept by name between two runs; past it, only counted. */
const MAX_NAMED = 1000;
/** After a failed run, the next try waits this long (doubling up to {@link MAX_RETRY_MS}). */
const RETRY_MS = 1000;
const MAX_RETRY_MS = 60_000;

/**
 * Keeps one repository's index up to date while files change: file events (chokidar, which
 * watches each folder and file with inotify on Linux; never Node's recursive `fs.watch`, which
 * exhausts inotify watches there) debounce into incremental index runs, one at a time; the commit
 * moving (a commit, a branch switch, `git pull`) runs one too, which brings git history forward.
 * What the index never reads (its own folder, `.git`'s internals, what git ignores; outside git,
 * `node_modules` and the like) sets off nothing. A failed run keeps its changes for the next try.
 */
export class RepoWatcher {
  readonly #engine: Engine;
  readonly #debounceMs: number;
  readonly #maxWaitMs: number;
  readonly #options: WatchOptions;
  /** Cancels the run in flight when the watcher closes. */
  readonly #abort = new AbortController();
  #watcher: FileWatcher | null = null;
  #starting: Promise<WatchRun | null> | null = null;
  #changed = new Set<string>();
  /** The paths of the run in flight (or being checked against git's ignore rules): changed, not yet in the committed index. */
  #indexing: readonly string[] = [];
  #events = 0;
  #headMoved = false;
  #timer: NodeJS.Timeout | null = null;
  #firstEventAt = 0;
  #running: Promise<void> | null = null;
  #retryMs = 0;
  #gitFiles: readonly string[] = [];
  #ignoredDirs = new Set<string>();
  #root = "";

  constructor(engine: Engine, options: WatchOptions = {}) {
    this.#engine = engine;
    this.#debounceMs = options.debounceMs ?? 300;
    this.#maxWaitMs = options.maxWaitMs ?? 3000;
    this.#options = options;
  }

  /**
   * Watches, then indexes once (a change made meanwhile is seen: it makes the next run); resolves
   * with the first run (null when it failed over an index that still answers: another process
   * indexing, say; it is tried again).
   * @throws what the first run threw, when there is no index to answer from
   */
  start(): Promise<WatchRun | null> {
    this.#starting ??= this.#start();
    return this.#starting;
  }

  async #start(): Promise<WatchRun | null> {
    // Real paths: chokidar reports them, and a link in the way must not hide the index's own writes.
    const root = realpathSync(this.#engine.config.root);
    this.#root = root;
    const indexDir = existsSync(this.#engine.config.indexDir) ? realpathSync(this.#engine.config.indexDir) : this.#engine.config.indexDir;
    const git = await gitFolders(root);
    this.#ignoredDirs = git ? await gitIgnoredFolders(root) : new Set();
    // The commit moves in these: HEAD (a checkout), the branch's ref (a commit, a pull), packed refs;
    // in a linked worktree, HEAD is its own and the refs are the common folder's.
    const gitFiles = git ? [join(git.dir, "HEAD"), join(git.common, "packed-refs"), join(git.common, "refs", "heads")] : [];
    this.#gitFiles = gitFiles;
    const gitRoots = git ? [...new Set([git.dir, git.common])] : [];
    const ignored = (path: string): boolean => {
      if (path === indexDir || path.startsWith(indexDir + sep)) return true;
      if (gitRoots.some((g) => path === g || path.startsWith(g + sep))) return !gitFiles.some((g) => path === g || path.startsWith(g + sep) || g.startsWith(path + sep));
      const rel = relative(root, path);
      if (rel === "" || rel.startsWith("..")) return false;
      const parts = rel.split(sep);
      if (parts.some((p) => isSkippedFolder(p, git !== null))) return true;
      return parts.some((_, i) => this.#ignoredDirs.has(parts.slice(0, i + 1).join("/")));
    };
    if (this.#abort.signal.aborted) return null;
    const { watch } = await import("chokidar");
    const watcher = watch([root, ...gitFiles], { ignored, ignoreInitial: true, followSymlinks: false, persistent: true }) as unknown as FileWatcher;
    this.#watcher = watcher;
    // Files only: a folder's events come with those of its files.
    watcher.on("all", (event, path) => {
      if (event === "add" || event === "change" || event === "unlink") this.#onEvent(path);
    });
    watcher.on("error", (error) => this.#options.onError?.(ContextSmithError.from(error, "IO_ERROR")));
    await new Promise<void>((resolve) => watcher.on("ready", () => resolve()));
    let first: WatchRun | null = null;
    try {
      first = (await this.#runNow("start", [], 0)) ?? null;
    } catch (error) {
      if (this.#engine.status() === null) throw error;
      this.#failed(ContextSmithError.from(error, "INTERNAL"), [], 0, false);
    }
    return first;
  }

  /** The paths changed since the last committed run (being indexed, or waiting for the next run): what an answer from the index as it is may be missing. */
  changedSince(): string[] {
    return [...new Set([...this.#indexing, ...this.#changed])];
  }

  /** Stops watching and cancels the run in flight (the index stays as its last committed run left it). */
  async close(): Promise<void> {
    this.#abort.abort();
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = null;
    await this.#starting?.catch(() => undefined);
    await this.#watcher?.close();
    this.#watcher = null;
    await this.#running;
  }

  #onEvent(path: string): void {
    if (this.#abort.signal.aborted) return;
    if (this.#gitFiles.some((g) => path === g || path.startsWith(g + sep))) this.#headMoved = true;
    else {
      // A path counts once however many events it brings (a file written as it is made: "add", then
      // "change"); past the paths named, each event counts.
      const named = relative(this.#root, path).split(sep).join("/");
      if (this.#changed.size >= MAX_NAMED) this.#events++;
      else if (!this.#changed.has(named)) {
        this.#changed.add(named);
        this.#events++;
      }
    }
    if (this.#firstEventAt === 0) this.#firstEventAt = Date.now();
    this.#arm();
  }

  /** A run after the quiet time, or at the longest wait since the first event, whichever is sooner (after a failure: its back-off). */
  #arm(): void {
    if (this.#running || this.#abort.signal.aborted) return; // the run in flight arms the next one when it ends
    if (this.#timer) clearTimeout(this.#timer);
    const delay = Math.max(this.#retryMs, Math.min(this.#debounceMs, this.#firstEventAt + this.#maxWaitMs - Date.now()));
    this.#timer = setTimeout(() => {
      this.#timer = null;
      const changed = [...this.#changed];
      const events = this.#events;
      const headMoved = this.#headMoved;
      this.#changed = new Set();
      this.#events = 0;
      this.#headMoved = false;
      this.#firstEventAt = 0;
      this.#indexing = changed;
      this.#running = this.#window(changed, events, headMoved).finally(() => {
        this.#indexing = [];
        this.#running = null;
        // The events that came meanwhile (or a failed run's, put back) arm the next.
        if (this.#firstEventAt !== 0) this.#arm();
      });
    }, Math.max(0, delay));
  }

  /** One window of events: those git ignores dropped, then a run, unless nothing is left. */
  async #window(changed: string[], events: number, headMoved: boolean): Promise<void> {
    // Files git ignores (a build's output) are no reason to index: git says which, for all at once.
    const kept = headMoved ? changed : await notIgnored(this.#root, changed);
    if (!headMoved && kept.length === 0 && events <= changed.length) return;
    if (changed.some((p) => p === ".gitignore" || p.endsWith("/.gitignore")) || headMoved) await this.#refreshIgnored();
    const count = events - (changed.length - kept.length);
    if (!existsSync(this.#engine.config.root)) {
      this.#options.onError?.(new ContextSmithError("PATH_NOT_FOUND", `${this.#engine.config.root} is gone: nothing to index until it is back`));
      return;
    }
    try {
      await this.#runNow(headMoved ? "head" : "files", kept, count);
      this.#retryMs = 0;
    } catch (error) {
      this.#failed(ContextSmithError.from(error, "INTERNAL"), kept, count, headMoved);
    }
  }

  /** A failed run: reported, and its changes kept for the next try after a back-off. */
  #failed(error: ContextSmithError, changed: readonly string[], events: number, headMoved: boolean): void {
    if (error.code === "ABORTED" || this.#abort.signal.aborted) return;
    this.#options.onError?.(error);
    for (const p of changed) if (this.#changed.size < MAX_NAMED) this.#changed.add(p);
    this.#events += events;
    // A first run that failed is tried again as a head run: it brings the commit forward too.
    this.#headMoved ||= headMoved || changed.length === 0;
    this.#firstEventAt ||= Date.now();
    this.#retryMs = Math.min(MAX_RETRY_MS, Math.max(RETRY_MS, this.#retryMs * 2));
    if (!this.#running) this.#arm();
  }

  /** The folders git ignores, read again (a `.gitignore` changed, or the branch): those no longer ignored are watched, the newly ignored let go. */
  async #refreshIgnored(): Promise<void> {
    const before = this.#ignoredDirs;
    const after = await gitIgnoredFolders(this.#root);
    this.#ignoredDirs = after;
    const abs = (dirs: Iterable<string>): string[] => [...dirs].map((d) => join(this.#root, ...d.split("/")));
    const unignored = [...before].filter((d) => !after.has(d));
    const ignoredNow = [...after].filter((d) => !before.has(d));
    if (unignored.length > 0) this.#watcher?.add(abs(unignored));
    if (ignoredNow.length > 0) this.#watcher?.unwatch(abs(ignoredNow));
  }

  /** One index run (scheduled), cancelled when the watcher closes; reported through `onRun`. */
  async #runNow(reason: WatchRun["reason"], changed: string[], events: number): Promise<WatchRun> {
    const schedule = this.#options.schedule ?? ((run) => run());
    const stats = await schedule(() => this.#engine.index({ wait: true, onProgress: this.#options.onProgress, signal: this.#abort.signal }));
    const result = { reason, changed, events, stats };
    this.#options.onRun?.(result);
    return result;
  }
}

/** Of `paths` (relative to `root`), those git does not ignore (all of them outside git). */
async function notIgnored(root: string, paths: readonly string[]): Promise<string[]> {
  if (paths.length === 0) return [];
  // Without --no-index: a tracked file that matches a pattern is not ignored (git indexes it).
  const r = await execa("git", ["check-ignore", "-z", "--stdin"], { cwd: root, reject: false, input: paths.join("\0") + "\0", stripFinalNewline: false });
  // Exit 1: none ignored; 128: not a git work tree.
  if (r.exitCode !== 0) return [...paths];
  const ignored = new Set(r.stdout.split("\0"));
  return paths.filter((p) => !ignored.has(p));
}

/** The folders git ignores under `root` (relative, `/`). */
async function gitIgnoredFolders(root: string): Promise<Set<string>> {
  const r = await execa("git", ["ls-files", "--others", "--ignored", "--exclude-standard", "--directory", "-z", "--", "."], { cwd: root, reject: false, maxBuffer: 64 * 1024 * 1024 });
  if (r.exitCode !== 0) return new Set();
  return new Set(r.stdout.split("\0").filter((p) => p.endsWith("/")).map((p) => p.slice(0, -1)));
}

/** The repository's git folder and its common folder (they differ in a linked worktree), real paths; null outside git. */
async function gitFolders(root: string): Promise<{ dir: string; common: string } | null> {
  const r = await execa("git", ["rev-parse", "--absolute-git-dir", "--git-common-dir"], { cwd: root, reject: false });
  if (r.exitCode !== 0) return null;
  const [dir, common] = r.stdout.trim().split("\n");
  if (!dir || !common) return null;
  const real = (p: string): string => (existsSync(p) ? realpathSync(p) : p);
  return { dir: real(dir), common: real(isAbsolute(common) ? common : join(root, common)) };
}
