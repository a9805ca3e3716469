import type { Argv } from "yargs";
import { ContextSmithError } from "../../core/errors.js";
import type { CliIO } from "../io.js";
import { positiveWholeOption, printNotices, queryOptions, withQueryEngine, type QueryArgs } from "../query-args.js";
import { scopeOf, scopeOptions, withWorkspace, type ScopeArgs } from "../workspace-args.js";

interface SearchArgs extends QueryArgs, ScopeArgs {
  query: string;
  limit: number;
}

/** `ctxsmith search "query"` */
export function searchCommand(io: CliIO) {
  return {
    command: "search <query>",
    describe: "Find functions and classes: ranked, with file:line and signature",
    builder: (y: Argv) =>
      scopeOptions(queryOptions(y))
        .positional("query", { type: "string", demandOption: true, describe: "Words, names or a description" })
        .option("limit", positiveWholeOption("limit", "Results to show", 20, "k")),
    handler: async (args: SearchArgs) => {
      if (args.query.trim() === "") throw new ContextSmithError("INVALID_ARGUMENT", "The search query is empty.");
      const scope = scopeOf(args);
      if (scope) {
        const found = await withWorkspace(args, io, (ws, options) => ws.search(args.query, scope, { ...options, limit: args.limit }));
        printNotices(found.notices, io);
        if (args.json) io.stdout.write(`${JSON.stringify({ results: found.results, scope: found.scope, notices: found.notices ?? [] })}\n`);
        else if (found.results.length === 0) io.stdout.write("No function or class matched.\n");
        else for (const h of found.results) io.stdout.write(`${h.repo}: ${h.path}:${h.line}  ${h.kind} ${h.qualifiedName}\n    ${h.signature}\n`);
        return;
      }
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
