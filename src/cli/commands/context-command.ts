import type { Argv } from "yargs";
import { ContextSmithError } from "../../core/errors.js";
import type { CliIO } from "../io.js";
import { positiveWholeOption, printNotices, queryOptions, readTask, taskOptions, withQueryEngine, type QueryArgs } from "../query-args.js";
import { formatCount } from "../../core/format.js";
import { scopeOf, scopeOptions, withWorkspace, type ScopeArgs } from "../workspace-args.js";

interface ContextArgs extends QueryArgs, ScopeArgs {
  task?: string;
  "task-file"?: string;
  budget: number;
  rerank: boolean;
}

/** `ctxsmith context "task" --budget N` */
export function contextCommand(io: CliIO) {
  return {
    command: "context [task]",
    describe: "Pack the code to read for a task into a token budget (markdown, or --json)",
    builder: (y: Argv) =>
      scopeOptions(queryOptions(taskOptions(y)))
        .option("budget", positiveWholeOption("budget", "Token budget of the output (tiktoken count)", 4000, "b"))
        .option("rerank", { type: "boolean", default: false, describe: "Experimental: re-order the top 20 files with a cross-encoder (CTXSMITH_RERANK_MODEL)" }),
    handler: async (args: ContextArgs) => {
      const task = await readTask(args, io);
      const scope = scopeOf(args);
      if (scope) {
        if (args.rerank) throw new ContextSmithError("INVALID_ARGUMENT", "--rerank is for one repository (--path); it does not combine with a workspace scope yet.");
        const packed = await withWorkspace(args, io, (ws, options) => ws.context(task, scope, { ...options, budget: args.budget }));
        printNotices(packed.notices, io);
        if (args.json) {
          const { text, tokens, budget, files, repos, spans } = packed;
          io.stdout.write(`${JSON.stringify({ text, tokens, budget, files, repos, spans, scope: packed.scope, notes: packed.notes, notices: packed.notices ?? [] })}\n`);
        } else report(packed, io);
        return;
      }
      const result = await withQueryEngine(args, io, (engine, options) => engine.context(task, { ...options, budget: args.budget, rerank: args.rerank }));
      printNotices(result.notices, io);
      if (args.json) {
        const { text, tokens, budget, files, spans } = result;
        io.stdout.write(`${JSON.stringify({ text, tokens, budget, files, spans, notes: result.notes ?? [], notices: result.notices ?? [] })}\n`);
        return;
      }
      report(result, io);
    },
  };
}

/** The packed text on stdout, its size on stderr. */
function report(result: { text: string; tokens: number; budget: number; files: readonly string[]; spans: readonly unknown[]; repos?: readonly string[] }, io: CliIO): void {
  io.stdout.write(result.text);
  if (result.files.length === 0) io.stderr.write("Nothing matched the task (or the budget is too small for any code).\n");
  else {
    const repos = result.repos ? ` from ${new Set(result.repos).size} repositories` : "";
    io.stderr.write(`${formatCount(result.tokens)} of ${formatCount(result.budget)} tokens · ${result.files.length} files${repos} · ${result.spans.length} spans\n`);
  }
}
