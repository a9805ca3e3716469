import type { Argv } from "yargs";
import { ContextSmithError } from "../../core/errors.js";
import { formatMs } from "../../core/format.js";
import { Engine } from "../../engine.js";
import { RepoWatcher, type WatchRun } from "../../watch/watcher.js";
import type { CliIO } from "../io.js";
import { positiveWholeOption } from "../query-args.js";
import { dataDirOption, withWorkspace } from "../workspace-args.js";

interface WatchArgs {
  path: string;
  "index-dir"?: string;
  debounce: number;
  workspace: boolean;
  "data-dir"?: string;
  json: boolean;
}

/** `ctxsmith watch [PATH]` */
export function watchCommand(io: CliIO) {
  return {
    command: "watch [path]",
    describe: "Keep the index up to date while files change and commits move (Ctrl-C to stop)",
    builder: (y: Argv) =>
      dataDirOption(
        y
          .positional("path", { type: "string", default: ".", describe: "Repository root" })
          .option("index-dir", { type: "string", describe: "Where the index lives (default PATH/.contextsmith)" })
          .option("debounce", positiveWholeOption("debounce", "Quiet milliseconds after the last change before an index run", 300))
          .option("workspace", { type: "boolean", default: false, describe: "Watch every repository of the workspace (one index run at a time)" })
          .option("json", { type: "boolean", default: false, describe: "One JSON line per index run on stdout" }),
      ),
    handler: async (args: WatchArgs) => {
      const report = (repo: string | null) => (run: WatchRun) => io.stdout.write(args.json ? `${JSON.stringify(runLine(repo, run))}\n` : formatRun(repo, run));
      const failed = (repo: string | null) => (error: ContextSmithError) => io.stderr.write(`ctxsmith watch: ${repo ? `${repo}: ` : ""}${error.message} (watching on)\n`);
      if (!args.workspace) {
        if (args["data-dir"] !== undefined) throw new ContextSmithError("INVALID_ARGUMENT", "--data-dir names a workspace: add --workspace.");
        const engine = new Engine(io.resolvePath(args.path), { indexDir: args["index-dir"] === undefined ? undefined : io.resolvePath(args["index-dir"]) });
        try {
          await watchUntilStopped([{ repo: null, engine }], args.debounce, report, failed, io);
        } finally {
          await engine.close();
        }
        return;
      }
      if ((args.path !== undefined && args.path !== ".") || args["index-dir"] !== undefined) throw new ContextSmithError("INVALID_ARGUMENT", "Give a PATH (and --index-dir) or --workspace, not both.");
      await withWorkspace({ "data-dir": args["data-dir"] }, io, async (ws, options) => {
        const names = ws.repos().map((r) => r.name);
        if (names.length === 0) throw new ContextSmithError("NOT_FOUND", "The workspace has no repositories: add one with `ctxsmith repo add`.");
        const engines = [];
        for (const repo of names) {
          try {
            engines.push({ repo, engine: (await ws.engine(repo, options)).engine });
          } catch (error) {
            const err = ContextSmithError.from(error, "INTERNAL");
            if (err.code === "ABORTED" || err.code === "INTERNAL") throw err;
            io.stderr.write(`ctxsmith watch: ${repo} left out: ${err.message}\n`);
          }
        }
        if (engines.length === 0) throw new ContextSmithError("NOT_FOUND", "No repository of the workspace can be watched (see above).");
        await watchUntilStopped(engines, args.debounce, report, failed, io);
      });
    },
  };
}

/** Watches each engine's repository (their index runs one at a time) until the process is told to stop. */
async function watchUntilStopped(
  targets: ReadonlyArray<{ repo: string | null; engine: Engine }>,
  debounceMs: number,
  report: (repo: string | null) => (run: WatchRun) => void,
  failed: (repo: string | null) => (error: ContextSmithError) => void,
  io: CliIO,
): Promise<void> {
  let queue: Promise<unknown> = Promise.resolve();
  const schedule = <T>(run: () => Promise<T>): Promise<T> => {
    const next = queue.then(run, run);
    queue = next.catch(() => undefined);
    return next;
  };
  const watchers = targets.map(({ repo, engine }) => ({ repo, watcher: new RepoWatcher(engine, { debounceMs, schedule, onRun: report(repo), onError: failed(repo) }) }));
  // Told to stop, even in a first run: the runs in flight are cancelled, the index stays as committed.
  const stop = (): void => void Promise.all(watchers.map(({ watcher }) => watcher.close()));
  io.signal?.addEventListener("abort", stop, { once: true });
  try {
    for (const { repo, watcher } of watchers) {
      await watcher.start();
      if (io.signal?.aborted) break;
      io.stderr.write(`ctxsmith watch: watching ${repo ?? targets[0]!.engine.config.root}\n`);
    }
    if (!io.signal?.aborted) {
      // Held until told to stop: a watched folder that disappears leaves the watcher nothing to wait on.
      const hold = setInterval(() => undefined, 2 ** 30);
      try {
        await new Promise<void>((resolve) => io.signal?.addEventListener("abort", () => resolve(), { once: true }));
      } finally {
        clearInterval(hold);
      }
    }
  } finally {
    io.signal?.removeEventListener("abort", stop);
    await Promise.all(watchers.map(({ watcher }) => watcher.close()));
  }
}

function runLine(repo: string | null, run: WatchRun) {
  const { files, commitsRead, timings } = run.stats;
  return { ...(repo ? { repo } : {}), at: new Date().toISOString(), reason: run.reason, events: run.events, changed: run.changed, parsed: files.parsed, removed: files.removed, commitsRead, ms: Math.round(timings.total ?? 0) };
}

function formatRun(repo: string | null, run: WatchRun): string {
  const { files, commitsRead, timings } = run.stats;
  const what = run.reason === "start" ? "up to date" : run.reason === "head" ? "the commit moved" : `${run.events} change${run.events === 1 ? "" : "s"}`;
  const done = [`${files.parsed} parsed`, `${files.removed} removed`, ...(commitsRead > 0 ? [`${commitsRead} commits read`] : [])].join(", ");
  return `${new Date().toTimeString().slice(0, 8)} ${repo ? `${repo}: ` : ""}${what}: ${done} in ${formatMs(timings.total ?? 0)}\n`;
}
