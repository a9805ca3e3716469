import { z } from "zod";
import { ContextSmithError } from "../core/errors.js";
import { formatApiMap, formatCalls, formatImpact, formatLookup } from "../graph/format.js";
import { expansionLabel } from "../workspace/relations.js";
import type { Provenance, Scope } from "../workspace/types.js";
import type { Workspace } from "../workspace/workspace.js";
import { boundText } from "./bound.js";
import { ANSWER_TOKENS, DEFAULT_BUDGET, MAX_TOKENS } from "./tools.js";

/** What a workspace tool runs against. */
export interface WorkspaceToolContext {
  workspace: Workspace;
  log?: (line: string) => void;
  /** With a watcher (`serve --watch`): per repository, the files changed since its committed index, being indexed now. */
  pending?: () => Array<{ repo: string; changed: string[] }>;
}

/** One workspace tool: its schema, its description for the agent, and a thin adapter over the workspace. */
export interface WorkspaceTool {
  name: string;
  title: string;
  description: string;
  inputSchema: z.ZodRawShape;
  readOnly: boolean;
  run(args: Record<string, unknown>, ctx: WorkspaceToolContext): Promise<{ text: string; notFound?: boolean }>;
}

function defineTool<S extends z.ZodRawShape>(tool: {
  name: string;
  title: string;
  description: string;
  inputSchema: S;
  readOnly: boolean;
  run(args: z.infer<z.ZodObject<S>>, ctx: WorkspaceToolContext): Promise<{ text: string; notFound?: boolean }>;
}): WorkspaceTool {
  return tool as unknown as WorkspaceTool;
}

const repoName = z.string().trim().min(1).max(64);
const scopeShape = {
  repos: z.array(repoName).max(200).optional().describe("Repositories to search (default: all of the workspace)"),
  groups: z.array(repoName).max(50).optional().describe("Groups whose repositories to search"),
  expand: z.enum(["upstream", "downstream", "both"]).optional().describe("Also search what they depend on (upstream), what depends on them (downstream), or both"),
  expand_depth: z.number().int().min(0).max(10).optional().describe("Dependency hops to follow (default 1)"),
};
const symbolName = z.string().trim().min(1, "give a name").max(500).describe("A function, method or class: bare, qualified (Class.method) or path:name");

/** The scope fields of a tool's arguments (and of a REST request: the same names) as the workspace's {@link Scope}. */
export function scopeOf(args: { repos?: string[]; groups?: string[]; expand?: Scope["expand"]; expand_depth?: number }): Scope {
  return {
    ...(args.repos ? { repos: args.repos } : {}),
    ...(args.groups ? { groups: args.groups } : {}),
    ...(args.expand ? { expand: args.expand } : {}),
    ...(args.expand_depth !== undefined ? { expandDepth: args.expand_depth } : {}),
  };
}

function scopeLine(scope: readonly Provenance[]): string {
  return `Searched: ${scope.map((p) => (expansionLabel(p) ? `${p.repo} (${expansionLabel(p)})` : p.repo)).join(", ")}`;
}

function noticesOf(notices: readonly string[] | undefined): string {
  return notices && notices.length > 0 ? `\n${notices.map((n) => `note: ${n}`).join("\n")}` : "";
}

/** The tools of `serve --workspace`, in the order they are listed. */
export const WORKSPACE_TOOLS: readonly WorkspaceTool[] = [
  defineTool({
    name: "get_context",
    title: "Get the code for a task, across repositories",
    description:
      "Start here for any coding task. Returns the code most relevant to the task from the workspace's repositories — function bodies, outlines, whole small files — packed into one token budget, each piece headed with its repository, path, lines, scope and why it was chosen. Narrow with repos/groups; add expand to follow the dependency graph.",
    inputSchema: {
      task: z.string().trim().min(1, "describe the task").max(100_000).describe("The task: an issue text, an error message, a question"),
      budget_tokens: z.number().int().min(100).max(MAX_TOKENS).optional().describe(`Tokens to fill (default ${DEFAULT_BUDGET}, at most ${MAX_TOKENS})`),
      ...scopeShape,
    },
    readOnly: true,
    async run(args, { workspace }) {
      const result = await workspace.context(args.task, scopeOf(args), { budget: args.budget_tokens ?? DEFAULT_BUDGET });
      if (result.files.length === 0) return { text: `Nothing matched the task. ${scopeLine(result.scope)}.${noticesOf(result.notices)}` };
      return { text: `${result.text}${noticesOf(result.notices)}` };
    },
  }),
  defineTool({
    name: "search_codebases",
    title: "Search definitions across repositories",
    description: "Find functions and classes by words or names across the workspace's repositories: ranked `repo: file:line kind name` with signatures, and whether each comes from a searched repository or one reached by expansion.",
    inputSchema: {
      query: z.string().trim().min(1, "give a query").max(10_000).describe("Words, names or a description"),
      limit: z.number().int().min(1).max(100).optional().describe("Results to return (default 20)"),
      ...scopeShape,
    },
    readOnly: true,
    async run(args, { workspace }) {
      const found = await workspace.search(args.query, scopeOf(args), { limit: args.limit ?? 20 });
      const lines = found.results.map((h) => `${h.repo}: ${h.path}:${h.line}  ${h.kind} ${h.qualifiedName}${expansionLabel(h) ? ` [${expansionLabel(h)}]` : ""}\n    ${h.signature}`);
      return { text: `${lines.length > 0 ? lines.join("\n") : "No function or class matched."}\n\n${scopeLine(found.scope)}${noticesOf(found.notices)}` };
    },
  }),
  defineTool({
    name: "get_symbol_definition",
    title: "Find a definition",
    description: "Where a function, method or class is defined, in every repository of the workspace (or in `repo`): repository, file, lines, kind, signature and doc.",
    inputSchema: { name: symbolName, repo: repoName.optional().describe("Only this repository") },
    readOnly: true,
    async run(args, { workspace }) {
      const found = await workspace.symbol(args.name, { repo: args.repo });
      if (found.matches.length === 0) {
        return { text: `No definition of ${args.name} in the workspace.${found.suggestions.length ? ` Did you mean: ${found.suggestions.join(", ")}?` : ""}`, notFound: true };
      }
      const byRepo = new Map<string, typeof found.matches>();
      for (const m of found.matches) byRepo.set(m.repo, [...(byRepo.get(m.repo) ?? []), m]);
      return { text: [...byRepo].map(([repo, matches]) => `## ${repo}\n${formatLookup({ query: args.name, matches, suggestions: [] })}`).join("\n") };
    },
  }),
  defineTool({
    name: "get_call_hierarchy",
    title: "Callers or callees",
    description:
      "Who calls a function (callers, transitively to `depth`, tests apart) or what it calls (callees, one hop), in every repository where it is defined (or in `repo`); across the API contract too: the HTTP requests, in any repository, that reach a route handler, and the handlers a function's requests reach.",
    inputSchema: {
      name: symbolName,
      direction: z.enum(["callers", "callees"]).describe("callers: who calls it; callees: what it calls"),
      depth: z.number().int().min(1).max(10).optional().describe("Levels of callers (default 1; callees are one level)"),
      repo: repoName.optional().describe("Only this repository"),
    },
    readOnly: true,
    async run(args, { workspace }) {
      const depth = args.depth ?? 1;
      const sections =
        args.direction === "callers" && depth > 1
          ? (await workspace.impact(args.name, depth, { repo: args.repo })).map((r) => `## ${r.repo}\n${formatImpact(r, { maxLines: 100, more: "ask with a smaller depth" })}`)
          : (await workspace.calls(args.name, args.direction, { repo: args.repo })).map((r) => `## ${r.repo}\n${formatCalls(r, args.direction)}`);
      if (sections.length === 0) return { text: `No definition of ${args.name} in the workspace: try get_symbol_definition or search_codebases.`, notFound: true };
      return { text: sections.join("\n") };
    },
  }),
  defineTool({
    name: "get_api_map",
    title: "The API contract map, across repositories",
    description:
      "The HTTP routes the workspace's repositories serve and the requests they make, each request linked to the route handlers that serve it in any repository of the scope (repository, file, line, how sure, how it matched) or with why none does. Use it before changing an endpoint or a client call: the other side, often in another repository, is what breaks.",
    inputSchema: { ...scopeShape, unmatched: z.boolean().optional().describe("Only the requests that reach no route, with why") },
    readOnly: true,
    async run(args, { workspace }) {
      const map = await workspace.apiMap(scopeOf(args));
      const body = map.routes.length === 0 && map.calls.length === 0 ? "No HTTP routes or requests found." : formatApiMap(map, { unmatched: args.unmatched }).trimEnd();
      return { text: `${body}\n\n${scopeLine(map.scope)}${noticesOf(map.notices)}` };
    },
  }),
  defineTool({
    name: "list_repositories",
    title: "The workspace's repositories",
    description: "Every repository of the workspace: name, kind (local or cloned), where it is, its index (files, commit) and its groups.",
    inputSchema: {},
    readOnly: true,
    async run(_args, { workspace }) {
      const repos = await workspace.status();
      if (repos.length === 0) return { text: "The workspace has no repository yet (ctxsmith repo add NAME PATH|URL)." };
      const groups = Object.entries(workspace.groups());
      return {
        text: repos
          .map((r) => {
            const member = groups.filter(([, m]) => m.includes(r.name)).map(([g]) => g);
            const index = r.missing ? "folder missing" : r.files === null ? "not indexed" : `${r.files} files${r.indexedCommit ? ` at ${r.indexedCommit.slice(0, 12)}` : ""}`;
            return `${r.name} (${r.kind}) ${r.url ?? r.path} · ${index}${member.length ? ` · groups: ${member.join(", ")}` : ""}`;
          })
          .join("\n"),
      };
    },
  }),
  defineTool({
    name: "get_repository_relations",
    title: "The dependency graph",
    description: "What a repository depends on and what depends on it (direct and transitive, with hops), or the whole graph when no repository is given.",
    inputSchema: { repo: repoName.optional() },
    readOnly: true,
    async run(args, { workspace }) {
      const view = workspace.relations(args.repo);
      if (view.repo === null) return { text: view.edges.length === 0 ? "No relation recorded." : view.edges.map(([a, b]) => `${a} depends on ${b}`).join("\n") };
      const list = (l: Array<{ repo: string; hops: number }>) => l.map((r) => `${r.repo} (${r.hops} hop${r.hops > 1 ? "s" : ""})`).join(", ") || "nothing";
      return { text: `${view.repo} depends on: ${list(view.dependsOn!)}\n${view.repo} is depended on by: ${list(view.dependents!)}` };
    },
  }),
  defineTool({
    name: "manage_repository_relations",
    title: "Change groups and dependencies",
    description:
      "Change the workspace's groups and dependency graph: create_group (group, repos), delete_group (group), add_to_group / remove_from_group (group, repos), add_dependency / remove_dependency (from depends on to). A dependency that would close a cycle is refused, naming the cycle.",
    inputSchema: {
      action: z.enum(["create_group", "delete_group", "add_to_group", "remove_from_group", "add_dependency", "remove_dependency"]),
      group: repoName.optional(),
      repos: z.array(repoName).max(200).optional(),
      from: repoName.optional().describe("add/remove_dependency: the repository that depends"),
      to: repoName.optional().describe("add/remove_dependency: the repository it depends on"),
    },
    readOnly: false,
    async run(args, { workspace }) {
      const need = <T>(value: T | undefined, what: string): T => {
        if (value === undefined) throw new ContextSmithError("INVALID_ARGUMENT", `${args.action} needs ${what}.`);
        return value;
      };
      switch (args.action) {
        case "create_group":
          return { text: `Group ${args.group}: ${(await workspace.createGroup(need(args.group, "group"), args.repos ?? [])).join(", ") || "(empty)"}` };
        case "delete_group":
          await workspace.deleteGroup(need(args.group, "group"));
          return { text: `Deleted group ${args.group}.` };
        case "add_to_group":
          return { text: `Group ${args.group}: ${(await workspace.addToGroup(need(args.group, "group"), need(args.repos, "repos"))).join(", ")}` };
        case "remove_from_group":
          return { text: `Group ${args.group}: ${(await workspace.removeFromGroup(need(args.group, "group"), need(args.repos, "repos"))).join(", ") || "(empty)"}` };
        case "add_dependency":
          await workspace.addRelation(need(args.from, "from"), need(args.to, "to"));
          return { text: `${args.from} depends on ${args.to}.` };
        case "remove_dependency":
          await workspace.removeRelation(need(args.from, "from"), need(args.to, "to"));
          return { text: `${args.from} no longer depends on ${args.to}.` };
      }
    },
  }),
];

/** Runs a workspace tool: the adapter, then the bound on the answer; an error is a tool error with its message. */
export async function runWorkspaceTool(tool: WorkspaceTool, args: Record<string, unknown>, ctx: WorkspaceToolContext): Promise<{ text: string; isError: boolean }> {
  let answer: { text: string; notFound?: boolean };
  try {
    answer = await tool.run(args, ctx);
  } catch (error) {
    const err = ContextSmithError.from(error, "INTERNAL");
    return { text: err.code === "INTERNAL" ? `Internal error: ${err.message}` : `${err.code}: ${err.message}`, isError: true };
  }
  const limit = tool.name === "get_context" ? Math.min(MAX_TOKENS, Number(args.budget_tokens ?? DEFAULT_BUDGET)) : ANSWER_TOKENS;
  // First, so that the bound never cuts it: the answer is the committed indexes', and lacks these.
  const pending = (ctx.pending?.() ?? []).map(({ repo, changed }) => `${repo}: ${changed.slice(0, 20).join(", ")}${changed.length > 20 ? ` and ${changed.length - 20} more` : ""}`);
  const text = pending.length > 0 ? `Being indexed now, changed since this answer's index: ${pending.join("; ")}.\n\n${answer.text}` : answer.text;
  return { text: await boundText(text, limit, (t) => ctx.workspace.countTokens(t)), isError: answer.notFound === true };
}
