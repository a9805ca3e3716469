import type { Argv } from "yargs";
import { ContextSmithError } from "../../core/errors.js";
import { formatReview } from "../../review/format.js";
import { review, type ReviewOptions } from "../../review/review.js";
import type { ReviewReport } from "../../review/types.js";
import type { CliIO } from "../io.js";
import { positiveWholeOption, printNotices, queryOptions, withQueryEngine, type QueryArgs } from "../query-args.js";
import { dataDirOption, withWorkspace } from "../workspace-args.js";

interface ReviewArgs extends QueryArgs {
  base?: string;
  head?: string;
  budget: number;
  depth: number;
  repo?: string;
  "data-dir"?: string;
}

/** `ctxsmith review [--base REF] [--head REF]` */
export function reviewCommand(io: CliIO) {
  return {
    command: "review",
    describe: "A change's impact: the definitions it changes, their callers and tests, notes on them, and the code to read (Markdown for a PR comment, or --json)",
    builder: (y: Argv) =>
      dataDirOption(queryOptions(y))
        .option("base", { type: "string", describe: "Compare from this branch, tag or commit (default: the merge base with the default branch)" })
        .option("head", { type: "string", describe: "Compare to this branch, tag or commit (default: the work tree, with uncommitted and untracked files)" })
        .option("budget", positiveWholeOption("budget", "Token budget of the context for the change", 4000, "b"))
        .option("depth", positiveWholeOption("depth", "Levels of callers counted as a definition's impact", 3, "d"))
        .option("repo", { type: "string", describe: "Review this workspace repository: with the requests of every repository and the repositories that depend on it" }),
    handler: async (args: ReviewArgs) => {
      const what = { base: args.base, head: args.head, budget: args.budget, depth: args.depth };
      const report = args.repo === undefined ? await withQueryEngine(args, io, (engine, options) => review(engine, { ...options, ...what })) : await inWorkspace(args, args.repo, what, io);
      if (args.json) return void io.stdout.write(`${JSON.stringify(report)}\n`);
      io.stdout.write(formatReview(report));
    },
  };
}

/** The review of a workspace repository, across the workspace. */
async function inWorkspace(args: ReviewArgs, name: string, what: ReviewOptions, io: CliIO): Promise<ReviewReport> {
  if ((args.path !== undefined && args.path !== ".") || args["index-dir"] !== undefined) throw new ContextSmithError("INVALID_ARGUMENT", "Give --path (and --index-dir) or a workspace repository (--repo), not both.");
  return withWorkspace(args, io, async (ws, options) => {
    const { engine, notices } = await ws.engine(name, options);
    printNotices(notices, io);
    const roots = new Map(ws.repos().map((r) => [r.name, r.path]));
    const dependents = (ws.relations(name).dependents ?? []).flatMap((d) => {
      const root = roots.get(d.repo);
      return root === undefined ? [] : [{ repo: d.repo, root }];
    });
    // The other repositories are brought up to date as any workspace query would.
    const across = { repo: name, apiMap: () => ws.apiMap({}, options), dependents };
    // The reviewed work tree is the head: its index is checked now, whenever the workspace last did.
    return review(engine, { ...options, ...what, refresh: args.refresh, across });
  });
}
