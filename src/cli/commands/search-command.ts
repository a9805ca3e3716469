import type { Argv } from "yargs";
import { ContextSmithError } from "../../core/errors.js";
import type { CliIO } from "../io.js";
import { positiveWholeOption, queryOptions, withQueryEngine, type QueryArgs } from "../query-args.js";

interface SearchArgs extends QueryArgs {
  query: string;
  limit: number;
}

/** `ctxsmith search "query"` */
export function searchCommand(io: CliIO) {
  return {
    command: "search <query>",
    describe: "Find functions and classes: ranked, with file:line and signature",
    builder: (y: Argv) =>
      queryOptions(y)
        .positional("query", { type: "string", demandOption: true, describe: "Words, names or a description" })
        .option("limit", positiveWholeOption("limit", "Results to show", 20, "k")),
    handler: async (args: SearchArgs) => {
      if (args.query.trim() === "") throw new ContextSmithError("INVALID_ARGUMENT", "The search query is empty.");
      const hits = await withQueryEngine(args, io, (engine, options) => engine.search(args.query, { ...options, limit: args.limit }));
      if (args.json) {
        io.stdout.write(`${JSON.stringify({ results: hits })}\n`);
        return;
      }
      if (hits.length === 0) io.stdout.write("No function or class matched.\n");
      for (const h of hits) io.stdout.write(`${h.path}:${h.line}  ${h.kind} ${h.qualifiedName}\n    ${h.signature}\n`);
    },
  };
}
