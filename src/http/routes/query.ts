import { scopeOf } from "../../mcp/workspace-tools.js";
import type { Workspace } from "../../workspace/workspace.js";
import type { WorkspaceSearchHit } from "../../workspace/types.js";
import type { ApiContext } from "../context.js";
import { Fifo } from "../fifo.js";
import { route } from "../route.js";
import { ApiMapQuery, ApiMapResponse, ContextRequest, ContextResponse, SearchRequest, SearchResponse } from "../schemas.js";
import type { z } from "zod";

/** The longest chunk a search result carries, in lines. */
const CHUNK_LINES = 40;

/** `### repo: path · lines a-b · in Symbol`: where a chunk is, as the packed context heads it. */
function scopeHeader(hit: { repo: string; path: string; line: number; endLine: number; qualifiedName?: string }): string {
  return `### ${hit.repo}: ${hit.path} · lines ${hit.line}-${hit.endLine}${hit.qualifiedName ? ` · in ${hit.qualifiedName}` : ""}`;
}

/**
 * Each hit with its lines as indexed (each repository's files read at once, through the engine's
 * safe reader). A file that changed since it was indexed has no text to show: its hits are left out
 * with a notice, as packing leaves them out, rather than shown under other line numbers.
 */
async function withText(workspace: Workspace, hits: readonly WorkspaceSearchHit[], notices: string[]): Promise<Array<z.infer<typeof SearchResponse>["results"][number]>> {
  const byRepo = new Map<string, Set<string>>();
  for (const hit of hits) (byRepo.get(hit.repo) ?? byRepo.set(hit.repo, new Set()).get(hit.repo)!).add(hit.path);
  const lines = new Map<string, string[] | null>();
  for (const [repo, paths] of byRepo) {
    const files = await workspace.files(repo, [...paths], { refresh: false });
    for (const [path, file] of files) lines.set(`${repo}\0${path}`, file ? file.text.split("\n") : null);
  }
  const shown = [];
  const changed = new Set<string>();
  for (const hit of hits) {
    const text = lines.get(`${hit.repo}\0${hit.path}`);
    if (!text) {
      changed.add(`${hit.repo}: ${hit.path}`);
      continue;
    }
    const end = Math.min(hit.endLine, hit.line + CHUNK_LINES - 1);
    shown.push({ ...hit, header: scopeHeader(hit), text: text.slice(hit.line - 1, end).join("\n"), truncated: end < hit.endLine });
  }
  if (changed.size > 0) notices.push(`left out, changed since they were indexed: ${[...changed].join(", ")}`);
  return shown;
}

export function queryRoutes(ctx: ApiContext) {
  const queue = new Fifo();
  return [
    route({
      method: "post",
      path: "/search",
      tag: "query",
      summary: "Functions and classes for a query across repositories, ranked, each with its code, signals and provenance",
      body: SearchRequest,
      response: SearchResponse,
      handler: ({ body, signal }) =>
        queue.run(signal, async () => {
          const found = await ctx.workspace.search(body.query, scopeOf(body), { limit: body.limit ?? 20, signal });
          const notices = [...(found.notices ?? [])];
          return { results: await withText(ctx.workspace, found.results, notices), scope: found.scope, notices };
        }),
    }),
    route({
      method: "post",
      path: "/context",
      tag: "query",
      summary: "The code to read for a task, packed into one token budget across repositories (the contract of `ctxsmith context --json`)",
      body: ContextRequest,
      response: ContextResponse,
      handler: ({ body, signal }) =>
        queue.run(signal, async () => {
          const packed = await ctx.workspace.context(body.task, scopeOf(body), { budget: body.budget ?? 4000, signal });
          const { text, tokens, budget, files, repos, spans, scope, notes } = packed;
          return { text, tokens, budget, files, repos, spans, scope, notes, notices: packed.notices ?? [] };
        }),
    }),
    route({
      method: "get",
      path: "/api-map",
      tag: "query",
      summary: "The API contract map of the scope: routes served, HTTP calls made, and the handlers each call reaches in any repository (or why none), the contract of `ctxsmith api --json`",
      query: ApiMapQuery,
      response: ApiMapResponse,
      async handler({ query, signal }) {
        const list = (value: string | undefined) => value?.split(",").map((v) => v.trim()).filter((v) => v !== "");
        const scope = scopeOf({ repos: list(query.repos), groups: list(query.groups), expand: query.expand, expand_depth: query.expand_depth });
        const map = await ctx.workspace.apiMap(scope, { signal });
        const unmatched = query.unmatched === "true" || query.unmatched === "1";
        return { routes: unmatched ? [] : map.routes, calls: unmatched ? map.calls.filter((c) => c.targets.length === 0) : map.calls, scope: map.scope, notices: map.notices ?? [] };
      },
    }),
  ];
}
