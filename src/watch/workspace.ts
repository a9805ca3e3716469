import { ContextSmithError } from "../core/errors.js";
import type { Workspace, WorkspaceQueryOptions } from "../workspace/workspace.js";
import { RepoWatcher, type WatchRun } from "./watcher.js";

/** Options of {@link watchWorkspace}. */
export interface WorkspaceWatchOptions {
  debounceMs?: number;
  onRun?: (repo: string, run: WatchRun) => void;
  onError?: (repo: string, error: ContextSmithError) => void;
  /** A repository that cannot be watched (its folder gone, no index yet in a server): left out. */
  onLeftOut?: (repo: string, error: ContextSmithError) => void;
  /** How the repositories' engines are opened (a refresh, its progress). */
  open?: WorkspaceQueryOptions;
  /** Closes the watch, even while it starts (the first run in flight is cancelled). */
  signal?: AbortSignal;
}

/** The watchers of a workspace's repositories. */
export interface WorkspaceWatch {
  /** The repositories watched. */
  repos: string[];
  /** Per repository, the files changed since its last committed index run (those with any). */
  changedSince(): Array<{ repo: string; changed: string[] }>;
  close(): Promise<void>;
}

/**
 * Watches every repository of the workspace (see {@link RepoWatcher}), their index runs one at a
 * time across them through one queue. A repository that cannot be opened is left out (reported).
 */
export async function watchWorkspace(ws: Workspace, options: WorkspaceWatchOptions = {}): Promise<WorkspaceWatch> {
  let queue: Promise<unknown> = Promise.resolve();
  const schedule = <T>(run: () => Promise<T>): Promise<T> => {
    const next = queue.then(run, run);
    queue = next.catch(() => undefined);
    return next;
  };
  const watchers: Array<{ repo: string; watcher: RepoWatcher }> = [];
  let closed = false;
  const watch: WorkspaceWatch = {
    repos: [],
    changedSince: () => watchers.map(({ repo, watcher }) => ({ repo, changed: watcher.changedSince() })).filter((c) => c.changed.length > 0),
    async close() {
      closed = true;
      await Promise.all(watchers.map(({ watcher }) => watcher.close()));
    },
  };
  options.signal?.addEventListener("abort", () => void watch.close(), { once: true });
  for (const { name } of ws.repos()) {
    if (closed || options.signal?.aborted) break;
    try {
      // A server indexes a repository without an index in the background: watched once it has one.
      const open = (): ReturnType<Workspace["engine"]> => ws.engine(name, options.open);
      const { engine } = await open().catch(async (error: unknown) => {
        if (ContextSmithError.from(error).code !== "NO_INDEX") throw error;
        await ws.settled();
        return open();
      });
      const watcher = new RepoWatcher(engine, {
        debounceMs: options.debounceMs,
        schedule,
        onRun: (run) => options.onRun?.(name, run),
        onError: (error) => options.onError?.(name, error),
      });
      watchers.push({ repo: name, watcher });
      if (closed) break;
      await watcher.start();
      watch.repos.push(name);
    } catch (error) {
      const err = ContextSmithError.from(error, "INTERNAL");
      if (err.code === "ABORTED" || err.code === "INTERNAL") {
        await watch.close();
        throw err;
      }
      options.onLeftOut?.(name, err);
    }
  }
  return watch;
}

/**
 * A server's watch of its workspace: started in the background (serving does not wait for it), its
 * runs and problems logged. A repository without an index yet is watched once its background index
 * run has built it.
 */
export function watchInBackground(ws: Workspace, log: (line: string) => void, options: Pick<WorkspaceWatchOptions, "debounceMs"> = {}): Pick<WorkspaceWatch, "changedSince" | "close"> {
  const abort = new AbortController();
  const watching = watchWorkspace(ws, {
    ...options,
    signal: abort.signal,
    onRun: (repo, run) => void (run.reason !== "start" && log(`contextsmith: ${repo}: indexed ${run.events} changed files (${run.stats.files.parsed} parsed, ${run.stats.files.removed} removed)`)),
    onError: (repo, error) => log(`contextsmith: ${repo}: indexing failed: ${error.message} (watching on)`),
    onLeftOut: (repo, error) => log(`contextsmith: ${repo} not watched: ${error.message}`),
  });
  let started: WorkspaceWatch | null = null;
  watching.then(
    (w) => {
      started = w;
      if (w.repos.length > 0) log(`contextsmith: watching ${w.repos.join(", ")}`);
    },
    (error: unknown) => log(`contextsmith: watching failed: ${ContextSmithError.from(error, "INTERNAL").message}`),
  );
  return {
    changedSince: () => started?.changedSince() ?? [],
    async close() {
      abort.abort();
      await watching.then((w) => w.close(), () => undefined);
    },
  };
}
