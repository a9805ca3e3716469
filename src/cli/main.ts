import yargs from "yargs";
import { ContextSmithError } from "../core/errors.js";
import { VERSION } from "../core/version.js";
import { apiCommand } from "./commands/api-command.js";
import { benchCommand } from "./commands/bench-command.js";
import { contextCommand } from "./commands/context-command.js";
import { callsCommand, impactCommand, overviewCommand, relatedCommand, symbolCommand } from "./commands/graph-commands.js";
import { indexCommand } from "./commands/index-command.js";
import { mcpConfigCommand } from "./commands/mcp-config-command.js";
import { noteCommand } from "./commands/note-command.js";
import { reviewCommand } from "./commands/review-command.js";
import { watchCommand } from "./commands/watch-command.js";
import { serveCommand } from "./commands/serve-command.js";
import { rankCommand } from "./commands/rank-command.js";
import { searchCommand } from "./commands/search-command.js";
import { modelsCommand, unloadCommand } from "./commands/models-command.js";
import { apiRuleCommand, groupCommand, relationCommand, repoCommand } from "./commands/workspace-commands.js";
import { processIO } from "./io.js";

/** The part of yargs's internals that {@link withoutHelpCache} changes (not in its typings). */
interface YargsInternals {
  getInternalMethods?: () => { getUsageInstance?: () => { cacheHelpMessage?: () => void } };
}

/**
 * yargs renders the whole help text of a command each time it runs one (20–25 ms here, on the
 * event loop beside the command's own work), only to keep it for its default failure output. This
 * CLI's `fail` never prints help (`--help` renders it afresh), so the rendering is skipped.
 */
function withoutHelpCache<T>(cli: T): T {
  const usage = (cli as YargsInternals).getInternalMethods?.().getUsageInstance?.();
  if (usage && typeof usage.cacheHelpMessage === "function") usage.cacheHelpMessage = () => undefined;
  return cli;
}

/** Runs the CLI with `argv`; resolves to the exit code. */
export async function main(argv: string[]): Promise<number> {
  const abort = new AbortController();
  const onSignal = (): void => abort.abort();
  process.once("SIGINT", onSignal);
  process.once("SIGTERM", onSignal);
  const io = processIO(abort.signal);
  const json = argv.includes("--json");
  try {
    await withoutHelpCache(yargs(stdinDashes(argv)))
      .scriptName("ctxsmith")
      .usage("$0 <command> [options]\n\nThe local context engine for coding agents.")
      .command(indexCommand(io))
      .command(contextCommand(io))
      .command(rankCommand(io))
      .command(searchCommand(io))
      .command(symbolCommand(io))
      .command(callsCommand(io, "callers"))
      .command(callsCommand(io, "callees"))
      .command(impactCommand(io))
      .command(relatedCommand(io))
      .command(overviewCommand(io))
      .command(apiCommand(io))
      .command(watchCommand(io))
      .command(reviewCommand(io))
      .command(noteCommand(io))
      .command(repoCommand(io))
      .command(groupCommand(io))
      .command(relationCommand(io))
      .command(apiRuleCommand(io))
      .command(modelsCommand(io))
      .command(unloadCommand(io))
      .command(serveCommand(io))
      .command(mcpConfigCommand(io))
      .command(benchCommand(io))
      .demandCommand(1, "Name a command: see --help.")
      .strict()
      .help()
      .alias("h", "help")
      .version(VERSION)
      .wrap(Math.min(100, process.stdout.columns ?? 100))
      .fail((message, error) => {
        // yargs's own errors (a bad option value, including what an option's coerce refused) are usage errors.
        if (!error || error.name === "YError") throw new ContextSmithError("INVALID_ARGUMENT", error?.message ?? message);
        throw error;
      })
      .parseAsync();
    // A handler that finished but failed in part (`repo sync` with a repository that failed) set the code.
    return typeof process.exitCode === "number" ? process.exitCode : 0;
  } catch (error) {
    const err = ContextSmithError.from(error, "INTERNAL");
    if (json) process.stdout.write(`${JSON.stringify({ error: err.toJSON() })}\n`);
    process.stderr.write(`ctxsmith: ${err.message}\n`);
    // A bug, not bad input: the stack helps a report; CTXSMITH_DEBUG shows it for every error.
    if (err.code === "INTERNAL" || process.env.CTXSMITH_DEBUG) process.stderr.write(`${(error as Error).stack ?? ""}\n`);
    // 130: the shell's convention for a run stopped by Ctrl-C.
    return err.code === "INVALID_ARGUMENT" ? 2 : err.code === "ABORTED" ? 130 : 1;
  } finally {
    process.off("SIGINT", onSignal);
    process.off("SIGTERM", onSignal);
  }
}

/**
 * yargs-parser reads a lone `-` after an option as an empty value; `--task-file -` (stdin) is
 * passed on as `--task-file=-`, which it reads right.
 */
function stdinDashes(argv: string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === "--task-file" && argv[i + 1] === "-") {
      out.push("--task-file=-");
      i++;
    } else out.push(argv[i]!);
  }
  return out;
}

