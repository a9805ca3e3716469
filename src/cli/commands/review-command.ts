import type { Argv } from "yargs";
import { formatReview } from "../../review/format.js";
import { review } from "../../review/review.js";
import type { CliIO } from "../io.js";
import { positiveWholeOption, queryOptions, withQueryEngine, type QueryArgs } from "../query-args.js";

interface ReviewArgs extends QueryArgs {
  base?: string;
  head?: string;
  budget: number;
  depth: number;
}

/** `ctxsmith review [--base REF] [--head REF]` */
export function reviewCommand(io: CliIO) {
  return {
    command: "review",
    describe: "A change's impact: the definitions it changes, their callers and tests, notes on them, and the code to read (Markdown for a PR comment, or --json)",
    builder: (y: Argv) =>
      queryOptions(y)
        .option("base", { type: "string", describe: "Compare from this branch, tag or commit (default: the merge base with the default branch)" })
        .option("head", { type: "string", describe: "Compare to this branch, tag or commit (default: the work tree, with uncommitted and untracked files)" })
        .option("budget", positiveWholeOption("budget", "Token budget of the context for the change", 4000, "b"))
        .option("depth", positiveWholeOption("depth", "Levels of callers counted as a definition's impact", 3, "d")),
    handler: async (args: ReviewArgs) => {
      const report = await withQueryEngine(args, io, (engine, options) => review(engine, { ...options, base: args.base, head: args.head, budget: args.budget, depth: args.depth }));
      if (args.json) return void io.stdout.write(`${JSON.stringify(report)}\n`);
      io.stdout.write(formatReview(report));
    },
  };
}
