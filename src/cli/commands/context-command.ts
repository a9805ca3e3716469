import type { Argv } from "yargs";
import type { CliIO } from "../io.js";
import { positiveWholeOption, printNotices, queryOptions, readTask, taskOptions, withQueryEngine, type QueryArgs } from "../query-args.js";
import { formatCount } from "../../core/format.js";

interface ContextArgs extends QueryArgs {
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
      queryOptions(taskOptions(y))
        .option("budget", positiveWholeOption("budget", "Token budget of the output (tiktoken count)", 4000, "b"))
        .option("rerank", { type: "boolean", default: false, describe: "Experimental: re-order the top 20 files with a cross-encoder (CTXSMITH_RERANK_MODEL)" }),
    handler: async (args: ContextArgs) => {
      const task = await readTask(args, io);
      const result = await withQueryEngine(args, io, (engine, options) => engine.context(task, { ...options, budget: args.budget, rerank: args.rerank }));
      printNotices(result.notices, io);
      if (args.json) {
        const { text, tokens, budget, files, spans } = result;
        io.stdout.write(`${JSON.stringify({ text, tokens, budget, files, spans, notes: result.notes ?? [], notices: result.notices ?? [] })}\n`);
        return;
      }
      io.stdout.write(result.text);
      if (result.files.length === 0) io.stderr.write("Nothing matched the task (or the budget is too small for any code).\n");
      else io.stderr.write(`${formatCount(result.tokens)} of ${formatCount(result.budget)} tokens · ${result.files.length} files · ${result.spans.length} spans\n`);
    },
  };
}
