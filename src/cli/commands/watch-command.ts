import type { Argv } from "yargs";
import { ContextSmithError } from "../../core/errors.js";
import { formatMs } from "../../core/format.js";
import { Engine } from "../../engine.js";
import { RepoWatcher, type WatchRun } from "../../watch/watcher.js";
import { watchWorkspace } from "../../watch/workspace.js";
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
          await watchUntilStopped(engine, args.debounce, report(null), failed(null), io);
        } finally {
          await engine.close();
        }
        return;
      }
      if ((args.path !== undefined && args.path !== ".") || args["index-dir"] !== undefined) throw new ContextSmithError("INVALID_ARGUMENT", "Give a PATH (and --index-dir) or --workspace, not both.");
      await withWorkspace({ "data-dir": args["data-dir"] }, io, async (ws, options) => {
        if (ws.repos().length === 0) throw new ContextSmithError("NOT_FOUND", "The workspace has no repositories: add one with `ctxsmith repo add`.");
        const watch = await watchWorkspace(ws, {
          debounceMs: args.debounce,
          open: options,
          signal: io.signal,
          onRun: (repo, run) => report(repo)(run),
          onError: (repo, error) => failed(repo)(error),
          onLeftOut: (repo, error) => io.stderr.write(`ctxsmith watch: ${repo} left out: ${error.message}\n`),
        });
        try {
          if (io.signal?.aborted) return;
          if (watch.repos.length === 0) throw new ContextSmithError("NOT_FOUND", "No repository of the workspace can be watched (see above).");
          io.stderr.write(`ctxsmith watch: watching ${watch.repos.join(", ")}\n`);
          await held(io);
        } finally {
          await watch.close();
        }
      });
    },
  };
}

/** Holds the process until it is told to stop: a watched folder that disappears leaves the watcher nothing to wait on. */
async function held(io: CliIO): Promise<void> {
  if (io.signal?.aborted) return;
  const hold = setInterval(() => undefined, 2 ** 30);
  try {
    await new Promise<void>((resolve) => io.signal?.addEventListener("abort", () => resolve(), { once: true }));
  } finally {
    clearInterval(hold);
  }
}

/** Watches one repository until the process is told to stop (a first run in flight is cancelled). */
async function watchUntilStopped(engine: Engine, debounceMs: number, onRun: (run: WatchRun) => void, onError: (error: ContextSmithError) => void, io: CliIO): Promise<void> {
  const watcher = new RepoWatcher(engine, { debounceMs, onRun, onError });
  const stop = (): void => void watcher.close();
  io.signal?.addEventListener("abort", stop, { once: true });
  try {
    await watcher.start();
    if (io.signal?.aborted) return;
    io.stderr.write(`ctxsmith watch: watching ${engine.config.root}\n`);
    await held(io);
  } finally {
    io.signal?.removeEventListener("abort", stop);
    await watcher.close();
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
