import type { SymbolInfo } from "../../core/types.js";
import type { ApiContext } from "../context.js";
import { HttpError } from "../errors.js";
import { route } from "../route.js";
import { CallsResponse, FileParams, FileQuery, FileResponse, ImpactQuery, ImpactResponse, SymbolParams, SymbolResponse } from "../schemas.js";

/** The most lines one file request returns. */
const MAX_FILE_LINES = 5000;

/** A file's symbols as an outline: each with its depth of nesting. */
function outline(symbols: readonly SymbolInfo[]) {
  const depth = (i: number, seen = 0): number => (i < 0 || seen > 32 ? 0 : 1 + depth(symbols[i]!.parent, seen + 1));
  return symbols.map((s, i) => ({ name: s.name, qualifiedName: s.qualifiedName, kind: s.kind, signature: s.signature, startLine: s.startLine, endLine: s.endLine, depth: depth(i) - 1 }));
}

export function codeRoutes(ctx: ApiContext) {
  return [
    route({
      method: "get",
      path: "/repos/:name/files/:path{.+}",
      tag: "code",
      summary: "A file of a repository's index, as indexed (lines start..end), with its outline and the notes pinned to it. Only files of the index are served: anything else is 404 and nothing is read",
      query: FileQuery,
      params: FileParams,
      response: FileResponse,
      async handler({ params, query }) {
        const file = await ctx.workspace.file(params.name!, params.path!, { refresh: false });
        const start = query.start ?? 1;
        const end = Math.min(query.end ?? file.lines, file.lines, start + MAX_FILE_LINES - 1);
        if (start > Math.max(file.lines, 1)) throw new HttpError("INVALID_ARGUMENT", `start ${start} is past the end of ${file.path} (${file.lines} lines).`);
        if (end < start) throw new HttpError("INVALID_ARGUMENT", `end ${query.end} is before start ${start}.`);
        const notes = (await ctx.workspace.notes(file.repo, { path: file.path }, { refresh: false })).map((n) => ({ ...n, repo: file.repo }));
        return {
          repo: file.repo,
          path: file.path,
          language: file.language,
          lines: file.lines,
          start,
          end,
          text: file.text.split("\n").slice(start - 1, end).join("\n"),
          outline: outline(file.symbols),
          notes,
        };
      },
    }),
    route({
      method: "get",
      path: "/repos/:name/symbols/:symbol{.+}",
      tag: "code",
      summary: "Where a function, method or class is defined in a repository (bare, Class.method or path:name); close names when none",
      params: SymbolParams,
      response: SymbolResponse,
      handler: ({ params }) => ctx.workspace.symbol(params.symbol!, { repo: params.name!, refresh: false }),
    }),
    ...(["callers", "callees"] as const).map((direction) =>
      route({
        method: "get",
        path: `/repos/:name/${direction}/:symbol{.+}`,
        tag: "code",
        summary: direction === "callers" ? "What calls a symbol, one hop up the call graph, with the call lines" : "What a symbol calls, one hop down the call graph",
        params: SymbolParams,
        response: CallsResponse,
        async handler({ params }) {
          return { results: await ctx.workspace.calls(params.symbol!, direction, { repo: params.name!, refresh: false }) };
        },
      }),
    ),
    route({
      method: "get",
      path: "/repos/:name/impact/:symbol{.+}",
      tag: "code",
      summary: "Everything that calls a symbol, transitively (default depth 5), tests apart from production code",
      query: ImpactQuery,
      params: SymbolParams,
      response: ImpactResponse,
      async handler({ params, query }) {
        return { results: await ctx.workspace.impact(params.symbol!, query.depth ?? 5, { repo: params.name!, refresh: false }) };
      },
    }),
  ];
}
