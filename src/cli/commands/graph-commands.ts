import { existsSync } from "node:fs";
import type { Argv } from "yargs";
import { formatCalls, formatImpact, formatLookup, formatOverview, formatRelated } from "../../graph/format.js";
import { ContextSmithError } from "../../core/errors.js";
import type { Workspace } from "../../workspace/workspace.js";
import type { CliIO } from "../io.js";
import { dataDirOption, withWorkspace } from "../workspace-args.js";
import { positiveWholeOption, queryOptions, withQueryEngine, type QueryArgs } from "../query-args.js";

interface NameArgs extends QueryArgs {
  name: string;
}

function nameCommand(y: Argv) {
  return queryOptions(y).positional("name", {
    type: "string",
    demandOption: true,
    describe: "A name: bare (charge_card), qualified (Checkout.apply, pkg.module.func) or path:name",
  });
}

/** `ctxsmith symbol NAME` */
export function symbolCommand(io: CliIO) {
  return {
    command: "symbol <name>",
    describe: "Where a function, method or class is defined: file, lines, kind, signature, doc",
    builder: nameCommand,
    handler: async (args: NameArgs) => {
      const result = await withQueryEngine(args, io, (engine, options) => engine.symbol(args.name, options));
      requireFound(result, result.matches.length);
      if (args.json) return void io.stdout.write(`${JSON.stringify(result)}\n`);
      io.stdout.write(formatLookup(result));
    },
  };
}

interface WorkspaceGraphArgs {
  "data-dir"?: string;
  repo?: string;
  all: boolean;
}

/** `--repo NAME` / `--all`: ask the workspace instead of `--path` (links across its repositories over HTTP). */
function workspaceOptions<T>(y: Argv<T>) {
  return dataDirOption(y)
    .option("repo", { type: "string", describe: "Look the name up in this workspace repository (requests from every repository reach it)" })
    .option("all", { type: "boolean", default: false, describe: "Look the name up in every repository of the workspace" });
}

/**
 * The answer of every repository of the workspace where the name is defined, as `## repo` sections
 * (or `{ results }` in JSON, the REST API's contract); null when the question is about `--path`.
 */
async function inWorkspace<R extends { repo: string; query: string }>(args: WorkspaceGraphArgs & QueryArgs & { name: string }, io: CliIO, ask: (ws: Workspace) => Promise<R[]>, format: (result: R) => string): Promise<boolean> {
  if (args.repo === undefined && !args.all) return false;
  if (args.repo !== undefined && args.all) throw new ContextSmithError("INVALID_ARGUMENT", "--all already names every repository: drop --repo, or --all.");
  if ((args.path !== undefined && args.path !== ".") || args["index-dir"] !== undefined) throw new ContextSmithError("INVALID_ARGUMENT", "Give --path (and --index-dir) or a workspace repository (--repo, --all), not both.");
  const results = await withWorkspace(args, io, (ws) => ask(ws));
  if (results.length === 0) throw new ContextSmithError("NOT_FOUND", `No definition of ${args.name} in ${args.repo ?? "the workspace"}.`);
  io.stdout.write(args.json ? `${JSON.stringify({ results })}\n` : results.map((r) => `## ${r.repo}\n${format(r)}`).join("\n"));
  return true;
}

/** `ctxsmith callers NAME` and `ctxsmith callees NAME` */
export function callsCommand(io: CliIO, direction: "callers" | "callees") {
  return {
    command: `${direction} <name>`,
    describe: direction === "callers" ? "Who calls it: one hop up the call graph, with the call lines, and the HTTP requests that reach it" : "What it calls: one hop down the call graph, and the route handlers its HTTP requests reach",
    builder: (y: Argv) => workspaceOptions(nameCommand(y)),
    handler: async (args: NameArgs & WorkspaceGraphArgs) => {
      if (await inWorkspace(args, io, (ws) => ws.calls(args.name, direction, { repo: args.repo }), (r) => formatCalls(r, direction))) return;
      const result = await withQueryEngine(args, io, (engine, options) => engine[direction](args.name, options));
      requireFound(result, result.targets.length);
      if (args.json) return void io.stdout.write(`${JSON.stringify(result)}\n`);
      io.stdout.write(formatCalls(result, direction));
    },
  };
}

interface ImpactArgs extends NameArgs {
  depth: number;
}

/** `ctxsmith impact NAME` */
export function impactCommand(io: CliIO) {
  return {
    command: "impact <name>",
    describe: "What may break if it changes: every caller, transitively, tests apart",
    builder: (y: Argv) => workspaceOptions(nameCommand(y)).option("depth", positiveWholeOption("depth", "How many levels of callers", 5, "d")),
    handler: async (args: ImpactArgs & WorkspaceGraphArgs) => {
      const more = { maxLines: 200, more: "use --json for the whole tree" };
      if (await inWorkspace(args, io, (ws) => ws.impact(args.name, args.depth, { repo: args.repo }), (r) => formatImpact(r, more))) return;
      const result = await withQueryEngine(args, io, (engine, options) => engine.impact(args.name, { ...options, depth: args.depth }));
      requireFound(result, result.targets.length);
      if (args.json) return void io.stdout.write(`${JSON.stringify(result)}\n`);
      io.stdout.write(formatImpact(result, more));
    },
  };
}

interface RelatedArgs extends QueryArgs {
  file: string;
}

/** `ctxsmith related FILE` */
export function relatedCommand(io: CliIO) {
  return {
    command: "related <file>",
    describe: "Files related to a file: imports both ways, co-changes in git, call-graph neighbours",
    builder: (y: Argv) => queryOptions(y).positional("file", { type: "string", demandOption: true, describe: "A file of the repository (a partial path is enough)" }),
    handler: async (args: RelatedArgs) => {
      // A path that exists from here is taken as written; otherwise it is read within the repository.
      const absolute = io.resolvePath(args.file);
      const file = existsSync(absolute) ? absolute : args.file;
      const result = await withQueryEngine(args, io, (engine, options) => engine.related(file, options));
      if (args.json) return void io.stdout.write(`${JSON.stringify(result)}\n`);
      io.stdout.write(formatRelated(result));
    },
  };
}

/** `ctxsmith overview` */
export function overviewCommand(io: CliIO) {
  return {
    command: "overview",
    describe: "The repository at a glance: languages, size, central and hot files, index status",
    builder: (y: Argv) => queryOptions(y),
    handler: async (args: QueryArgs) => {
      const result = await withQueryEngine(args, io, (engine, options) => engine.overview(options));
      if (args.json) return void io.stdout.write(`${JSON.stringify(result)}\n`);
      io.stdout.write(formatOverview(result));
    },
  };
}

/** Nothing matched the name: an error (exit code 1; `{ error }` with `--json`) that offers close names. */
function requireFound<T extends { query: string; suggestions: string[] }>(result: T, found: number): T {
  if (found > 0) return result;
  const hint = result.suggestions.length > 0 ? ` Did you mean: ${result.suggestions.join(", ")}?` : "";
  throw new ContextSmithError("NOT_FOUND", `No definition of ${result.query} in the index.${hint}`, { suggestions: result.suggestions });
}
