import { existsSync } from "node:fs";
import type { Argv } from "yargs";
import type { CallsResult, ImpactNode, ImpactResult, OverviewResult, RelatedResult, SymbolLocation, SymbolLookup } from "../../graph/types.js";
import { ContextSmithError } from "../../core/errors.js";
import { formatBytes, formatCount } from "../format.js";
import type { CliIO } from "../io.js";
import { queryOptions, withQueryEngine, type QueryArgs } from "../query-args.js";

interface NameArgs extends QueryArgs {
  name: string;
}

/** Tree lines printed by `impact` before the rest is summarised (`--json` has all of it). */
const MAX_TREE_LINES = 200;

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

/** `ctxsmith callers NAME` and `ctxsmith callees NAME` */
export function callsCommand(io: CliIO, direction: "callers" | "callees") {
  return {
    command: `${direction} <name>`,
    describe: direction === "callers" ? "Who calls it: one hop up the call graph, with the call lines" : "What it calls: one hop down the call graph",
    builder: nameCommand,
    handler: async (args: NameArgs) => {
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
    builder: (y: Argv) => nameCommand(y).option("depth", { alias: "d", type: "number", default: 5, describe: "How many levels of callers" }),
    handler: async (args: ImpactArgs) => {
      const result = await withQueryEngine(args, io, (engine, options) => engine.impact(args.name, { ...options, depth: args.depth }));
      requireFound(result, result.targets.length);
      if (args.json) return void io.stdout.write(`${JSON.stringify(result)}\n`);
      io.stdout.write(formatImpact(result));
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

function where(s: SymbolLocation): string {
  return `${s.path}:${s.startLine}`;
}

function formatLookup(result: SymbolLookup): string {
  const head = result.matches.length > 1 ? `${result.query} is ambiguous: ${result.matches.length} definitions\n\n` : "";
  return head + result.matches
    .map((s) => `${where(s)}-${s.endLine}  ${s.kind} ${s.qualifiedName}\n    ${s.signature}${s.doc ? `\n    ${s.doc}` : ""}\n`)
    .join("");
}

function formatCalls(result: CallsResult, direction: "callers" | "callees"): string {
  const lines = [`${result.targets.map((t) => `${t.kind} ${t.qualifiedName} (${where(t)})`).join(", ")}`];
  if (result.calls.length === 0) lines.push(direction === "callers" ? "  no callers found in the repository" : "  calls nothing defined in the repository");
  for (const c of result.calls) {
    const who = c.symbol ? `${c.symbol.qualifiedName}${direction === "callees" ? ` (${where(c.symbol)})` : ""}` : "<module>";
    const note = c.how === "ambiguous" ? `  [ambiguous: ${c.candidates} candidates]` : c.how === "unique" ? "  [by name]" : "";
    lines.push(`  ${c.path}:${c.line}  ${who}${note}`);
  }
  return `${lines.join("\n")}\n`;
}

function formatImpact(result: ImpactResult): string {
  const out = [`Impact of ${result.targets.map((t) => `${t.qualifiedName} (${where(t)})`).join(", ")}`];
  let printed = 0;
  let omitted = 0;
  const walk = (nodes: readonly ImpactNode[], indent: string): void => {
    for (const n of nodes) {
      if (printed >= MAX_TREE_LINES) {
        omitted++;
        walk(n.children, indent);
        continue;
      }
      printed++;
      const name = n.symbol ? n.symbol.qualifiedName : "<module>";
      const marks = `${n.isTest ? " [test]" : ""}${n.seen ? " (see above)" : ""}${n.how === "ambiguous" ? " [ambiguous]" : ""}`;
      out.push(`${indent}${name}  ${n.path}:${n.lines.join(",")}${marks}`);
      walk(n.children, `${indent}  `);
    }
  };
  walk(result.tree, "  ");
  if (omitted > 0) out.push(`  … ${formatCount(omitted)} more lines (use --json for the whole tree)`);
  const c = result.counts;
  out.push("");
  out.push(`${formatCount(c.symbols)} callers in ${formatCount(c.files)} files: ${formatCount(c.production)} production files, ${formatCount(c.tests)} test files`);
  out.push(`by depth: ${result.byDepth.map((n, i) => `${i + 1}: ${formatCount(n)}`).join(", ") || "none"}${result.truncated ? ` (cut at depth ${result.depth}; raise --depth)` : ""}`);
  if (result.tests.length > 0) out.push(`tests to run: ${result.tests.slice(0, 20).join(" ")}${result.tests.length > 20 ? " …" : ""}`);
  return `${out.join("\n")}\n`;
}

function formatRelated(r: RelatedResult): string {
  const section = (title: string, items: string[]): string => `${title}${items.length === 0 ? " none" : `\n${items.map((i) => `  ${i}`).join("\n")}`}\n`;
  return [
    `${r.path}\n`,
    section("imports:", r.imports),
    section("imported by:", r.importedBy),
    section("changes with (shared commits):", r.cochange.slice(0, 15).map((c) => `${c.path}  ${c.commits}`)),
    section("calls into (call sites):", r.calls.slice(0, 15).map((c) => `${c.path}  ${c.sites}`)),
    section("called from (call sites):", r.calledBy.slice(0, 15).map((c) => `${c.path}  ${c.sites}`)),
  ].join("");
}

function formatOverview(o: OverviewResult): string {
  const t = o.totals;
  const lines = [
    `${o.root}`,
    `${formatCount(t.files)} files, ${formatCount(t.lines)} lines, ${formatBytes(t.bytes)}; ${formatCount(t.symbols)} definitions, ${formatCount(t.resolvedCalls)} of ${formatCount(t.calls)} calls resolved, ${formatCount(t.commits)} commits`,
    "",
    "languages:",
    ...o.languages.slice(0, 12).map((l) => `  ${l.language.padEnd(12)} ${formatCount(l.files).padStart(7)} files ${formatCount(l.lines).padStart(10)} lines`),
    "",
    "central files (PageRank over imports and calls):",
    ...o.central.map((c) => `  ${c.path}  ${c.score}`),
    "",
    "hot files (commits):",
    ...(o.hot.length > 0 ? o.hot.map((h) => `  ${h.path}  ${h.commits}`) : ["  no git history"]),
    "",
    `index: schema ${o.index.schema}, ${formatBytes(o.index.indexBytes)}, semantic ${o.index.semantic ? "on" : "off"}` +
      (o.index.lastRun ? `, last run ${o.index.lastRun.at} (${o.index.lastRun.parsed} files parsed in ${o.index.lastRun.ms} ms)` : ""),
  ];
  return `${lines.join("\n")}\n`;
}

/** Nothing matched the name: an error (exit code 1; `{ error }` with `--json`) that offers close names. */
function requireFound<T extends { query: string; suggestions: string[] }>(result: T, found: number): T {
  if (found > 0) return result;
  const hint = result.suggestions.length > 0 ? ` Did you mean: ${result.suggestions.join(", ")}?` : "";
  throw new ContextSmithError("NOT_FOUND", `No definition of ${result.query} in the index.${hint}`, { suggestions: result.suggestions });
}
