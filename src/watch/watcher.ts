import { relative, sep } from "node:path";
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
  /** How many paths changed in all. */
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
  /** A run that failed (the watcher goes on: the next event tries again). */
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
  close(): Promise<void>;
}

/** Changed paths kept by name between two runs; past it, only counted. */
const MAX_NAMED = 1000;

/**
 * Keeps one repository's index up to date while files change: file events (chokidar: one
 * non-recursive watch per folder, never Node's recursive `fs.watch`, which exhausts inotify on
 * Linux) debounce into incremental index runs, one at a time; the commit moving (a commit, a branch
 * switch, `git pull`) runs one too, which brings git history forward. Folders the index never
 * reads (its own folder, `.git`, those git ignores, `node_modules` and the like) are not watched.
 */
export class RepoWatcher {
  readonly #engine: Engine;
  readonly #debounceMs: number;
  readonly #maxWaitMs: number;
  readonly #options: WatchOptions;
  #watcher: FileWatcher | null = null;
  #changed = new Set<string>();
  /** The paths of the run in flight: changed, not yet in the committed index. */
  #indexing: readonly string[] = [];
  #events = 0;
  #headMoved = false;
  #timer: NodeJS.Timeout | null = null;
  #firstEventAt = 0;
  #running: Promise<void> | null = null;
  #closed = false;
  #gitFiles: Set<string> = new Set();

  constructor(engine: Engine, options: WatchOptions = {}) {
    this.#engine = engine;
    this.#debounceMs = options.debounceMs ?? 300;
    this.#maxWaitMs = options.maxWaitMs ?? 3000;
    this.#options = options;
  }

  /**
   * Indexes once, then watches; resolves when the watch is set up, with the first run (null when
   * it failed over an index that still answers: another process indexing, say).
   * @throws what the first run threw, when there is no index to answer from
   */
  async start(): Promise<WatchRun | null> {
    let first: WatchRun | null = null;
    try {
      first = (await this.#run("start", [], 0))!;
    } catch (error) {
      if (this.#engine.status() === null) throw error;
      this.#options.onError?.(ContextSmithError.from(error, "INTERNAL"));
    }
    const root = this.#engine.config.root;
    const ignoredDirs = await gitIgnoredFolders(root);
    const gitDir = await gitDirectory(root);
    // The commit moves in these: HEAD (a checkout), the branch's ref (a commit, a pull), packed refs.
    const gitFiles = gitDir ? ["HEAD", "packed-refs", "refs/heads"].map((p) => `${gitDir}${sep}${p}`) : [];
    this.#gitFiles = new Set(gitFiles);
    const indexDir = this.#engine.config.indexDir;
    const { watch } = await import("chokidar");
    const ignored = (path: string): boolean => {
      if (path === indexDir || path.startsWith(indexDir + sep)) return true;
      if (gitDir && (path === gitDir || path.startsWith(gitDir + sep))) return !gitFiles.some((g) => path === g || path.startsWith(g + sep) || g.startsWith(path + sep));
      const rel = relative(root, path);
      if (rel === "" || rel.startsWith("..")) return false;
      const parts = rel.split(sep);
      if (parts.some((p) => isSkippedFolder(p))) return true;
      return ignoredDirs.has(parts.join("/")) || parts.some((_, i) => ignoredDirs.has(parts.slice(0, i + 1).join("/")));
    };
    const watcher = watch([root, ...gitFiles], { ignored, ignoreInitial: true, followSymlinks: false, persistent: true }) as unknown as FileWatcher;
    this.#watcher = watcher;
    // Files only: a folder's events come with those of its files.
    watcher.on("all", (event, path) => {
      if (event === "add" || event === "change" || event === "unlink") this.#onEvent(path);
    });
    watcher.on("error", (error) => this.#options.onError?.(ContextSmithError.from(error, "IO_ERROR")));
    await new Promise<void>((resolve) => watcher.on("ready", () => resolve()));
    return first;
  }

  /** The paths changed since the last committed run (being indexed, or waiting for the next run): what an answer from the index as it is may be missing. */
  changedSince(): string[] {
    return [...new Set([...this.#indexing, ...this.#changed])];
  }

  /** Stops watching; waits for a run in flight. */
  async close(): Promise<void> {
    this.#closed = true;
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = null;
    await this.#watcher?.close();
    this.#watcher = null;
    await this.#running;
  }

  #onEvent(path: string): void {
    if (this.#closed) return;
    if ([...this.#gitFiles].some((g) => path === g || path.startsWith(g + sep))) this.#headMoved = true;
    else {
      this.#events++;
      if (this.#changed.size < MAX_NAMED) this.#changed.add(relative(this.#engine.config.root, path).split(sep).join("/"));
    }
    if (this.#firstEventAt === 0) this.#firstEventAt = Date.now();
    this.#arm();
  }

  /** A run after the quiet time, or at the longest wait since the first event, whichever is sooner. */
  #arm(): void {
    if (this.#running) return; // the run in flight arms the next one when it ends
    if (this.#timer) clearTimeout(this.#timer);
    const delay = Math.max(0, Math.min(this.#debounceMs, this.#firstEventAt + this.#maxWaitMs - Date.now()));
    this.#timer = setTimeout(() => {
      this.#timer = null;
      const changed = [...this.#changed];
      const events = this.#events;
      const headMoved = this.#headMoved;
      this.#changed = new Set();
      this.#events = 0;
      this.#headMoved = false;
      this.#firstEventAt = 0;
      this.#running = (async () => {
        // Files git ignores (a build's output) are no reason to index: git says which, for all at once.
        const kept = headMoved ? changed : await notIgnored(this.#engine.config.root, changed);
        if (!headMoved && kept.length === 0 && events <= changed.length) return;
        this.#indexing = kept;
        await this.#run(headMoved ? "head" : "files", kept, events - (changed.length - kept.length));
      })().finally(() => {
        this.#indexing = [];
        this.#settle();
      });
    }, delay);
  }

  /** After a run (or a window of ignored events): the events that came meanwhile arm the next. */
  #settle(): void {
    this.#running = null;
    if (!this.#closed && this.#firstEventAt !== 0) this.#arm();
  }

  /** One index run (scheduled); its report, or undefined when it failed (a first run's failure throws). */
  async #run(reason: WatchRun["reason"], changed: string[], events: number): Promise<WatchRun | undefined> {
    const schedule = this.#options.schedule ?? ((run) => run());
    try {
      const stats = await schedule(() => this.#engine.index({ wait: true, onProgress: this.#options.onProgress }));
      const result = { reason, changed, events, stats };
      this.#options.onRun?.(result);
      return result;
    } catch (error) {
      const err = ContextSmithError.from(error, "INTERNAL");
      if (reason === "start") throw err;
      this.#options.onError?.(err);
      return undefined;
    }
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

/** The folders git ignores under `root` (relative, `/`), or none outside git. */
async function gitIgnoredFolders(root: string): Promise<Set<string>> {
  const r = await execa("git", ["ls-files", "--others", "--ignored", "--exclude-standard", "--directory", "-z", "--", "."], { cwd: root, reject: false, maxBuffer: 64 * 1024 * 1024 });
  if (r.exitCode !== 0) return new Set();
  return new Set(r.stdout.split("\0").filter((p) => p.endsWith("/")).map((p) => p.slice(0, -1)));
}

/** The repository's git folder (absolute), or null outside git. */
async function gitDirectory(root: string): Promise<string | null> {
  const r = await execa("git", ["rev-parse", "--absolute-git-dir"], { cwd: root, reject: false });
  return r.exitCode === 0 ? r.stdout.trim() : null;
}
