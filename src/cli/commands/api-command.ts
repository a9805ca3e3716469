import type { Argv } from "yargs";
import type { ApiMap } from "../../graph/api-links.js";
import { formatApiMap } from "../../graph/format.js";
import type { CliIO } from "../io.js";
import { printNotices, queryOptions, withQueryEngine, type QueryArgs } from "../query-args.js";
import { scopeOf, scopeOptions, withWorkspace, type ScopeArgs } from "../workspace-args.js";

interface ApiArgs extends QueryArgs, ScopeArgs {
  unmatched: boolean;
}

/** `ctxsmith api`: the routes served, the HTTP requests made, and which requests reach which handlers. */
export function apiCommand(io: CliIO) {
  return {
    command: "api",
    describe: "The API contract map: routes, HTTP calls, and the handlers each call reaches (across repositories with a scope)",
    builder: (y: Argv) => scopeOptions(queryOptions(y)).option("unmatched", { type: "boolean", default: false, describe: "Only the calls that reach no route, with why" }),
    handler: async (args: ApiArgs) => {
      const scope = scopeOf(args);
      const map: ApiMap & { notices?: string[] } = scope
        ? await withWorkspace(args, io, (ws, options) => ws.apiMap(scope, options))
        : await withQueryEngine(args, io, (engine, options) => engine.apiMap(options));
      printNotices(map.notices, io);
      const calls = args.unmatched ? map.calls.filter((c) => c.targets.length === 0) : map.calls;
      if (args.json) {
        io.stdout.write(`${JSON.stringify({ routes: args.unmatched ? [] : map.routes, calls })}\n`);
        return;
      }
      io.stdout.write(formatApiMap(map, { unmatched: args.unmatched }));
    },
  };
}
