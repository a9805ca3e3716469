import { basename } from "node:path";
import type { Argv } from "yargs";
import { linkApi, type ApiMap } from "../../graph/api-links.js";
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
        : await withQueryEngine(args, io, async (engine, options) => linkApi([{ repo: basename(engine.config.root), ...(await engine.api(options)) }]));
      printNotices(map.notices, io);
      const calls = args.unmatched ? map.calls.filter((c) => c.targets.length === 0) : map.calls;
      if (args.json) {
        io.stdout.write(`${JSON.stringify({ routes: args.unmatched ? [] : map.routes, calls })}\n`);
        return;
      }
      if (!args.unmatched) {
        io.stdout.write(`Routes (${map.routes.length})\n`);
        for (const r of map.routes) io.stdout.write(`  ${r.repo}  ${r.method.padEnd(6)} ${r.path}  ${r.file}:${r.line}${r.handler ? `  ${r.handler}` : ""}\n`);
        if (map.routes.length === 0) io.stdout.write("  none found\n");
      }
      const linked = calls.filter((c) => c.targets.length > 0).length;
      io.stdout.write(`${args.unmatched ? "Unmatched calls" : "Calls"} (${calls.length}${args.unmatched ? "" : `, ${linked} linked`})\n`);
      for (const c of calls) {
        io.stdout.write(`  ${c.repo}  ${c.method.padEnd(6)} ${c.url}  ${c.file}:${c.line}${c.symbol ? ` in ${c.symbol}` : ""}\n`);
        if (c.targets.length === 0) io.stdout.write(`      ✗ ${c.why}\n`);
        for (const t of c.targets) io.stdout.write(`      → ${t.repo}  ${t.method} ${t.pattern}  ${t.file}:${t.line}${t.handler ? ` ${t.handler}` : ""}  (${t.how}, ${t.confidence})\n`);
      }
    },
  };
}
