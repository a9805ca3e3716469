import { z } from "zod";
import { ContextSmithError } from "../core/errors.js";
import type { Engine } from "../engine.js";
import { formatApiMap, formatCalls, formatImpact, formatLookup, formatOverview, formatRelated } from "../graph/format.js";
import type { CallsResult, ImpactResult, SymbolLookup } from "../graph/types.js";
import { describeTarget } from "../notes/format.js";
import { formatReview } from "../review/format.js";
import { review } from "../review/review.js";
import { boundText } from "./bound.js";
import type { Freshness, FreshState } from "./freshness.js";

/** The default budget of `get_context`, and the most any answer may take. */
export const DEFAULT_BUDGET = 4000;
export const MAX_TOKENS = 20_000;
/** Answers other than `get_context` are cut to this many tokens (`review_change`: this many beside its code). */
export const ANSWER_TOKENS = 6000;
/** The default budget of the code in `review_change`'s answer. */
const REVIEW_BUDGET = 2000;

/** One tool: its schema, its description for the agent, and a thin adapter over the engine. */
export interface ToolDefinition<S extends z.ZodRawShape> {
  name: string;
  title: string;
  description: string;
  inputSchema: S;
  readOnly: boolean;
  run(args: z.infer<z.ZodObject<S>>, ctx: ToolContext): Promise<ToolAnswer>;
}

/** What a tool answers: text for the agent, and the repository files it shows (checked for staleness). */
export interface ToolAnswer {
  text: string;
  files: string[];
  /** The answer is a "not found": returned as a tool error, with suggestions in the text. */
  notFound?: boolean;
}

/** A tool with its argument types erased, as the server lists and calls them. */
export interface AnyTool {
  name: string;
  title: string;
  description: string;
  inputSchema: z.ZodRawShape;
  readOnly: boolean;
  run(args: Record<string, unknown>, ctx: ToolContext): Promise<ToolAnswer>;
}

/** Checks a tool's adapter against its schema, then erases the argument types for the list. */
function defineTool<S extends z.ZodRawShape>(tool: ToolDefinition<S>): AnyTool {
  return tool as unknown as AnyTool;
}

export interface ToolContext {
  engine: Engine;
  freshness: Freshness;
  /** The server's log (stderr): what the agent need not read, such as a skipped semantic signal. */
  log?: (line: string) => void;
}

const name = z.string().trim().min(1, "give a name").max(500).describe("A function, method or class: bare (charge_card), qualified (Checkout.apply_coupon, shop.payments.charge_card) or path:name (payments.py:charge_card)");
const path = z.string().trim().min(1, "give a path").max(1000).describe("A file of the repository, relative to its root (a partial path such as payments.py is enough)");

const noQueryRefresh = { refresh: false } as const;

function lookupAnswer(result: SymbolLookup): ToolAnswer {
  if (result.matches.length === 0) return notFound(result.query, result.suggestions);
  return { text: formatLookup(result), files: result.matches.map((m) => m.path) };
}

function callsAnswer(result: CallsResult, direction: "callers" | "callees"): ToolAnswer {
  if (result.targets.length === 0) return notFound(result.query, result.suggestions);
  return { text: formatCalls(result, direction), files: [...result.targets.map((t) => t.path), ...result.calls.map((c) => c.path)] };
}

function impactAnswer(result: ImpactResult): ToolAnswer {
  if (result.targets.length === 0) return notFound(result.query, result.suggestions);
  return { text: formatImpact(result, { maxLines: 150, more: "ask with a smaller depth, or callers of one of them" }), files: [...result.targets.map((t) => t.path), ...result.files] };
}

function notFound(query: string, suggestions: readonly string[]): ToolAnswer {
  const hint = suggestions.length > 0 ? ` Did you mean: ${suggestions.join(", ")}?` : " Try search with words from its name or purpose.";
  return { text: `No definition of ${query} in the repository.${hint}`, files: [], notFound: true };
}

/** The tools of the server, in the order they are listed. */
export const TOOLS: readonly AnyTool[] = [
  defineTool({
    name: "get_context",
    title: "Get the code for a task",
    description:
      "Start here for any coding task in this repository. Returns the code most relevant to the task — the function bodies that match it, outlines of their classes and files, and the team's notes on that code — packed into a token budget, with paths and line numbers. Use it instead of grepping or opening whole files; pass the task as written (an issue text, an error message or a traceback all work). Use `search` only when you need a list of candidate definitions rather than code.",
    inputSchema: {
      task: z.string().trim().min(1, "describe the task").max(100_000).describe("The task: what to fix or build, an issue text, an error message or traceback"),
      budget_tokens: z.number().int().min(100).max(MAX_TOKENS).optional().describe(`Tokens to fill (default ${DEFAULT_BUDGET}, at most ${MAX_TOKENS})`),
    },
    readOnly: true,
    async run(args, { engine, log }) {
      const result = await engine.context(args.task, { ...noQueryRefresh, budget: args.budget_tokens ?? DEFAULT_BUDGET });
      for (const notice of result.notices ?? []) log?.(`contextsmith: ${notice}`);
      if (result.files.length === 0) return { text: "Nothing in the repository matched the task. Try other words, or `search`.", files: [] };
      return { text: result.text, files: result.files };
    },
  }),
  defineTool({
    name: "search",
    title: "Search definitions",
    description:
      "Find functions and classes by words or names: ranked `file:line kind name` with signatures. Use it to locate candidates; use `get_context` to read the code for a task, `find_symbol` when you know the exact name.",
    inputSchema: {
      query: z.string().trim().min(1, "give a query").max(10_000).describe("Words, names or a description"),
      limit: z.number().int().min(1).max(100).optional().describe("Results to return (default 20)"),
    },
    readOnly: true,
    async run(args, { engine }) {
      const hits = await engine.search(args.query, { ...noQueryRefresh, limit: args.limit ?? 20 });
      if (hits.length === 0) return { text: "No function or class matched.", files: [] };
      return { text: hits.map((h) => `${h.path}:${h.line}  ${h.kind} ${h.qualifiedName}\n    ${h.signature}`).join("\n"), files: hits.map((h) => h.path) };
    },
  }),
  defineTool({
    name: "find_symbol",
    title: "Find a definition",
    description: "Where a function, method or class is defined: file, lines, kind, signature and doc. Lists every candidate when the name is ambiguous, and close names when it is unknown.",
    inputSchema: { name },
    readOnly: true,
    async run(args, { engine }) {
      return lookupAnswer(await engine.symbol(args.name, noQueryRefresh));
    },
  }),
  defineTool({
    name: "callers",
    title: "Who calls it",
    description: "One hop up the call graph: every place that calls the function or method, with file, line and the calling function. Use `impact` for the transitive picture.",
    inputSchema: { name },
    readOnly: true,
    async run(args, { engine }) {
      return callsAnswer(await engine.callers(args.name, noQueryRefresh), "callers");
    },
  }),
  defineTool({
    name: "callees",
    title: "What it calls",
    description: "One hop down the call graph: the functions and methods defined in this repository that the given one calls, with where they are defined.",
    inputSchema: { name },
    readOnly: true,
    async run(args, { engine }) {
      return callsAnswer(await engine.callees(args.name, noQueryRefresh), "callees");
    },
  }),
  defineTool({
    name: "impact",
    title: "What may break",
    description: "Before changing a function: everything that calls it, transitively, as a tree by depth, with counts, production files apart from tests, and the test files to run.",
    inputSchema: { name, depth: z.number().int().min(1).max(20).optional().describe("Levels of callers (default 3)") },
    readOnly: true,
    async run(args, { engine }) {
      return impactAnswer(await engine.impact(args.name, { ...noQueryRefresh, depth: args.depth ?? 3 }));
    },
  }),
  defineTool({
    name: "related_files",
    title: "Related files",
    description: "Files related to a file: what it imports and what imports it, files changed in the same commits (git history), and the files it calls into or is called from.",
    inputSchema: { path },
    readOnly: true,
    async run(args, { engine }) {
      const result = await engine.related(args.path, noQueryRefresh);
      return { text: formatRelated(result), files: [result.path] };
    },
  }),
  defineTool({
    name: "add_note",
    title: "Pin a note to code",
    description:
      "Record a decision or gotcha next to the code it is about (give `path` or `symbol`), for later sessions: it is shown by `get_context` whenever that code is, and flagged when the code changes.",
    inputSchema: {
      text: z.string().trim().min(1, "the note is empty").max(4000).describe("The note: a decision, a gotcha, an invariant"),
      path: path.optional(),
      symbol: name.optional(),
    },
    readOnly: false,
    async run(args, { engine }) {
      if ((args.path === undefined) === (args.symbol === undefined)) {
        throw new ContextSmithError("INVALID_ARGUMENT", "Pin the note to a file (path) or to a symbol (symbol): exactly one of them.");
      }
      const note = await engine.addNote(args.text, { path: args.path, symbol: args.symbol }, noQueryRefresh);
      return { text: `Added note ${note.id} on ${describeTarget(note)}.`, files: [] };
    },
  }),
  defineTool({
    name: "overview",
    title: "Repository overview",
    description: "The repository at a glance: languages and size, central files (most depended on), hot files (most changed), and the index's state. Good first call in an unfamiliar repository.",
    inputSchema: {},
    readOnly: true,
    async run(_args, { engine }) {
      return { text: formatOverview(await engine.overview(noQueryRefresh)), files: [] };
    },
  }),
  defineTool({
    name: "get_api_map",
    title: "The API contract map",
    description:
      "The HTTP routes this repository serves and the requests it makes, each request linked to the route handlers that serve it (with how sure and how it matched) or with why none does. Use it before changing an endpoint or a client call: the other side is what breaks.",
    inputSchema: { unmatched: z.boolean().optional().describe("Only the requests that reach no route, with why") },
    readOnly: true,
    async run(args, { engine }) {
      const map = await engine.apiMap(noQueryRefresh);
      if (map.routes.length === 0 && map.calls.length === 0) return { text: "No HTTP routes or requests found in the repository.", files: [] };
      return { text: formatApiMap(map, { unmatched: args.unmatched }), files: [] };
    },
  }),
  defineTool({
    name: "review_change",
    title: "Review a change",
    description:
      "Before committing or opening a pull request: what the change touches. Compares the work tree (or `head`) with its merge base on the default branch (or `base`) and returns the definitions added, removed or changed, their callers and transitive impact (tests apart), the test files that reach them, removed names still used, notes on the touched code, and the code to read for the change within `budget_tokens`.",
    inputSchema: {
      base: z.string().trim().min(1).max(250).optional().describe("Compare from this branch, tag or commit (default: the merge base with the default branch)"),
      head: z.string().trim().min(1).max(250).optional().describe("Compare to this branch, tag or commit (default: the work tree)"),
      budget_tokens: z.number().int().min(100).max(MAX_TOKENS - ANSWER_TOKENS).optional().describe(`Tokens of the code for the change (default ${REVIEW_BUDGET})`),
    },
    readOnly: true,
    async run(args, { engine, log }) {
      const report = await review(engine, { ...noQueryRefresh, base: args.base, head: args.head, budget: args.budget_tokens ?? REVIEW_BUDGET });
      for (const notice of report.context?.notices ?? []) log?.(`contextsmith: ${notice}`);
      return { text: formatReview(report), files: [...new Set([...report.files.filter((f) => f.status !== "deleted").map((f) => f.path), ...(report.context?.files ?? [])])] };
    },
  }),
  defineTool({
    name: "reindex",
    title: "Re-index now",
    description: "Forces the incremental re-index now. Rarely needed: every answer already re-checks what changed (at most every 2 seconds).",
    inputSchema: {},
    readOnly: false,
    async run(_args, { engine, freshness }) {
      const state = await freshness.ensure({ force: true });
      const status = engine.status();
      const run = status?.lastRun;
      const text = state.problem
        ? `Could not re-index: ${state.problem}. Answers use the index as it is.`
        : `Index up to date: ${status?.totals.files ?? 0} files${run ? `, last change indexed ${new Date(run.at).toISOString()}` : ""}.`;
      return { text, files: [] };
    },
  }),
];

/**
 * Runs a tool the way the server does: freshness first, then the adapter, then the bound on the
 * answer, and a warning naming the files that changed since they were indexed when the index could
 * not be refreshed.
 */
export async function runTool(tool: AnyTool, args: Record<string, unknown>, ctx: ToolContext): Promise<{ text: string; isError: boolean }> {
  let state: FreshState;
  let answer: ToolAnswer;
  try {
    // Without any index, a failed first build fails the answer (there is nothing to answer from).
    state = tool.name === "reindex" ? { problem: null } : await ctx.freshness.ensure();
    answer = await tool.run(args, ctx);
  } catch (error) {
    const err = ContextSmithError.from(error, "INTERNAL");
    return { text: err.code === "INTERNAL" ? `Internal error: ${err.message}` : err.message, isError: true };
  }
  let text = answer.text;
  if (state.problem) {
    // First, so that the bound below never cuts it.
    const stale = ctx.engine.staleFiles(answer.files);
    text = `⚠ The index could not be refreshed (${state.problem}).${stale.length > 0 ? ` Changed since indexed, re-read them: ${stale.join(", ")}` : ""}\n\n${text}`;
  } else if (state.changed) {
    // The watcher is indexing them: the answer is the last committed index's.
    const shown = state.changed.slice(0, 20);
    text = `Being indexed now, changed since this answer's index: ${shown.join(", ")}${state.changed.length > shown.length ? ` and ${state.changed.length - shown.length} more` : ""}.\n\n${text}`;
  }
  const limit =
    tool.name === "get_context" ? Math.min(MAX_TOKENS, Number(args.budget_tokens ?? DEFAULT_BUDGET)) : tool.name === "review_change" ? ANSWER_TOKENS + Number(args.budget_tokens ?? REVIEW_BUDGET) : ANSWER_TOKENS;
  return { text: await boundText(text, limit, (t) => ctx.engine.countTokens(t)), isError: answer.notFound === true };
}
