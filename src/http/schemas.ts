/**
 * The REST API's contracts: a zod schema for every request and every response. The routes parse
 * requests with them, check their answers against them, and the OpenAPI document is made from them
 * (see openapi.ts), so the three cannot drift apart.
 */
import { z } from "zod";
import { SYMBOL_KINDS } from "../core/types.js";

/** The longest task or query text accepted (the MCP tools take the same). */
export const MAX_TEXT = 100_000;
/** The largest token budget a context may ask for. */
export const MAX_BUDGET = 100_000;

export const name = z.string().trim().regex(/^[a-z0-9][a-z0-9._-]{0,63}$/, "1–64 of a-z, 0-9, '.', '_', '-', starting with a letter or digit");

const scope = {
  repos: z.array(name).max(200).optional().describe("Repositories to search (default: all)"),
  groups: z.array(name).max(50).optional().describe("Groups whose repositories to search"),
  expand: z.enum(["upstream", "downstream", "both"]).optional().describe("Follow what they depend on (upstream), what depends on them (downstream), or both"),
  expand_depth: z.number().int().min(0).max(10).optional().describe("Dependency hops to follow (default 1)"),
};

export const ScopeBody = z.object(scope).strict();

export const SearchRequest = z
  .object({
    query: z.string().trim().min(1, "give a query").max(MAX_TEXT),
    limit: z.number().int().min(1).max(100).optional().describe("Results to return (default 20)"),
    ...scope,
  })
  .strict();

export const ContextRequest = z
  .object({
    task: z.string().trim().min(1, "describe the task").max(MAX_TEXT),
    budget: z.number().int().min(100).max(MAX_BUDGET).optional().describe("Tokens to fill (default 4,000); the answer is never over it"),
    ...scope,
  })
  .strict();

const provenance = {
  repo: z.string(),
  relation: z.enum(["primary", "expanded"]),
  direction: z.enum(["upstream", "downstream"]).optional(),
  hops: z.number().int(),
};
export const Provenance = z.object(provenance);

const symbolKind = z.enum(SYMBOL_KINDS);
const language = z.string().nullable();

export const SearchResult = z.object({
  ...provenance,
  path: z.string(),
  name: z.string(),
  qualifiedName: z.string(),
  kind: symbolKind,
  signature: z.string(),
  line: z.number().int(),
  endLine: z.number().int(),
  score: z.number(),
  signals: z.array(z.string()).describe("The signals that ranked its file: lexical, symbols, semantic, history, …"),
  header: z.string().describe("The chunk's scope header: repository, path, lines, symbol"),
  text: z.string().describe("The chunk's lines as indexed (at most 40; `truncated` when there are more)"),
  truncated: z.boolean(),
});

export const SearchResponse = z.object({
  results: z.array(SearchResult),
  scope: z.array(Provenance),
  notices: z.array(z.string()),
});

const span = z.object({
  repo: z.string(),
  path: z.string(),
  start: z.number().int(),
  end: z.number().int(),
  kind: z.enum(["body", "code", "class-outline", "file-outline", "file"]),
  symbol: z.string().nullable(),
});

const note = z.object({
  id: z.string(),
  repo: z.string(),
  text: z.string(),
  createdAt: z.string(),
  hash: z.string(),
  status: z.enum(["current", "changed", "missing"]).describe("current: the code is as it was; changed since; missing: the file or symbol is gone"),
  target: z.union([z.object({ kind: z.literal("file"), path: z.string() }), z.object({ kind: z.literal("symbol"), path: z.string(), name: z.string(), qualifiedName: z.string() })]),
  location: z.object({ path: z.string(), startLine: z.number().int(), endLine: z.number().int() }).nullable(),
});

export const ContextResponse = z.object({
  text: z.string(),
  tokens: z.number().int(),
  budget: z.number().int(),
  files: z.array(z.string()),
  repos: z.array(z.string()).describe("The repository of each of `files`"),
  spans: z.array(span),
  notes: z.array(note),
  scope: z.array(Provenance),
  notices: z.array(z.string()),
});

export const RepoStatus = z.object({
  name: z.string(),
  kind: z.enum(["local", "remote"]),
  path: z.string(),
  url: z.string().optional(),
  branch: z.string().optional(),
  addedAt: z.number(),
  indexedCommit: z.string().nullable(),
  headCommit: z.string().nullable(),
  behind: z.number().int().nullable(),
  files: z.number().int().nullable(),
  indexBytes: z.number().int().nullable(),
  missing: z.boolean(),
  groups: z.array(z.string()),
});

export const ReposResponse = z.object({ repos: z.array(RepoStatus), editable: z.boolean().describe("false: the server serves one repository and refuses changes") });

export const AddRepoRequest = z
  .object({
    name,
    source: z.string().trim().min(1).max(4096).describe("A folder of the server's machine, a git URL, or a bare repository"),
    branch: z.string().trim().min(1).max(255).optional(),
  })
  .strict();

export const Job = z.object({
  id: z.string(),
  kind: z.enum(["add", "sync"]),
  repos: z.array(z.string()),
  state: z.enum(["queued", "running", "done", "failed"]),
  progress: z.object({ stage: z.string(), message: z.string(), done: z.number().optional(), total: z.number().optional() }).nullable(),
  createdAt: z.number(),
  startedAt: z.number().nullable(),
  endedAt: z.number().nullable(),
  result: z.unknown().optional(),
  error: z.object({ code: z.string(), message: z.string() }).optional(),
});

export const JobAccepted = z.object({ job: Job });
export const JobsResponse = z.object({ jobs: z.array(Job) });

export const SyncRequest = z.object({}).strict();

export const GroupsResponse = z.object({ groups: z.record(z.string(), z.array(z.string())) });
export const GroupRequest = z.object({ name, repos: z.array(name).max(200).default([]) }).strict();
export const GroupMembersRequest = z.object({ repos: z.array(name).min(1).max(200) }).strict();
export const GroupResponse = z.object({ name: z.string(), repos: z.array(z.string()) });

export const RelationRequest = z.object({ from: name, to: name }).strict();
const hopList = z.array(z.object({ repo: z.string(), hops: z.number().int() }));
export const RelationsResponse = z.object({
  repo: z.string().nullable(),
  edges: z.array(z.tuple([z.string(), z.string()])),
  dependsOn: hopList.optional(),
  dependents: hopList.optional(),
});

const symbolLocation = z.object({
  name: z.string(),
  qualifiedName: z.string(),
  kind: symbolKind,
  signature: z.string(),
  doc: z.string(),
  startLine: z.number().int(),
  endLine: z.number().int(),
  path: z.string(),
  language,
});

export const FileResponse = z.object({
  repo: z.string(),
  path: z.string(),
  language,
  lines: z.number().int(),
  start: z.number().int(),
  end: z.number().int(),
  text: z.string().describe("Lines start..end of the file as indexed"),
  outline: z.array(z.object({ name: z.string(), qualifiedName: z.string(), kind: symbolKind, signature: z.string(), startLine: z.number().int(), endLine: z.number().int(), depth: z.number().int() })),
  notes: z.array(note),
});

/** At most this many bytes of UTF-8 in a path or a symbol name of a request (an index key holds about 2,000). */
const MAX_KEY_BYTES = 1000;
const keyPart = (what: string) => z.string().refine((v) => Buffer.byteLength(v) <= MAX_KEY_BYTES, `${what} is over ${MAX_KEY_BYTES} bytes`);
export const FileParams = z.object({ name: z.string(), path: keyPart("the path") });
export const SymbolParams = z.object({ name: z.string(), symbol: keyPart("the symbol name") });

export const FileQuery = z.object({
  start: z.coerce.number().int().min(1).optional(),
  end: z.coerce.number().int().min(1).optional(),
});

export const SymbolResponse = z.object({
  matches: z.array(symbolLocation.extend({ repo: z.string() })),
  suggestions: z.array(z.string()),
});

const callHit = z.object({ symbol: symbolLocation.nullable(), path: z.string(), line: z.number().int(), how: z.string(), candidates: z.number().int().optional() });
const apiHop = z
  .object({
    repo: z.string(),
    file: z.string(),
    line: z.number().int(),
    symbol: z.string().nullable().describe("The function making the request (callers) or the handler serving it (callees)"),
    method: z.string(),
    path: z.string().describe("The request's URL (callers) or the route's pattern (callees)"),
    via: z.string().nullable().describe("The handler (callers) or the requesting function (callees) on this side"),
    confidence: z.number(),
    how: z.string(),
  })
  .describe("One hop across the API contract");
const apiHops = z.array(apiHop).optional().describe("Across the API contract of the workspace: requests that reach it as a route handler (callers, impact) or the handlers its requests reach (callees)");
export const CallsResponse = z.object({
  results: z.array(z.object({ repo: z.string(), query: z.string(), targets: z.array(symbolLocation), calls: z.array(callHit), suggestions: z.array(z.string()), api: apiHops })),
});

export const ImpactQuery = z.object({ depth: z.coerce.number().int().min(1).max(10).optional() });
interface ImpactNode {
  symbol: z.infer<typeof symbolLocation> | null;
  path: string;
  lines: number[];
  how: string;
  depth: number;
  isTest: boolean;
  children: ImpactNode[];
  seen?: true;
}
const impactNode: z.ZodType<ImpactNode> = z.lazy(() =>
  z.object({
    symbol: symbolLocation.nullable(),
    path: z.string(),
    lines: z.array(z.number().int()),
    how: z.string(),
    depth: z.number().int(),
    isTest: z.boolean(),
    children: z.array(impactNode),
    seen: z.literal(true).optional(),
  }),
);
export const ImpactResponse = z.object({
  results: z.array(
    z.object({
      repo: z.string(),
      query: z.string(),
      targets: z.array(symbolLocation),
      depth: z.number().int(),
      tree: z.array(impactNode).describe("Callers, each with its own callers one level deeper"),
      byDepth: z.array(z.number().int()).describe("Distinct callers per depth (1 = direct callers)"),
      counts: z.object({ symbols: z.number().int(), files: z.number().int(), tests: z.number().int(), production: z.number().int() }),
      files: z.array(z.string()),
      tests: z.array(z.string()),
      truncated: z.boolean(),
      suggestions: z.array(z.string()),
      api: apiHops,
    }),
  ),
});

const keepAlive = z.union([z.number(), z.literal("always")]);
export const ModelsResponse = z.object({
  policy: z.object({ provider: z.string(), model: z.string(), keepAlive: keepAlive }),
  models: z.array(z.object({ role: z.enum(["embedder", "reranker"]), provider: z.string(), model: z.string(), keepAlive: keepAlive, loaded: z.boolean(), active: z.number().int() })),
  repos: z.array(z.object({ repo: z.string(), vectorsOf: z.string().nullable(), complete: z.boolean() })),
});

export const UnloadResponse = z.object({ unloaded: ModelsResponse.shape.models });

export const OkResponse = z.object({ ok: z.literal(true) });

export const ErrorResponse = z.object({
  error: z.object({ code: z.string(), message: z.string(), data: z.record(z.string(), z.unknown()).optional() }),
});

export const HealthResponse = z.object({ ok: z.literal(true), version: z.string(), repos: z.number().int(), mode: z.enum(["workspace", "repository"]) });

const handlerAt = {
  handlerFile: z.string().optional().describe("Where the handler is defined, when found"),
  handlerLine: z.number().int().optional(),
  handlerEndLine: z.number().int().optional().describe("The last line of a handler written in place"),
};
const apiTarget = z.object({ repo: z.string(), method: z.string(), pattern: z.string(), file: z.string(), line: z.number().int(), handler: z.string(), ...handlerAt, confidence: z.number(), how: z.string() });
export const ApiMapQuery = z.object({
  repos: z.string().max(4000).optional().describe("Repositories, comma-separated (default: all)"),
  groups: z.string().max(4000).optional().describe("Groups, comma-separated"),
  expand: z.enum(["upstream", "downstream", "both"]).optional(),
  expand_depth: z.coerce.number().int().min(0).max(10).optional(),
  unmatched: z.enum(["true", "false", "1", "0"]).optional().describe("Only the calls that reach no route"),
});
export const ApiMapResponse = z.object({
  routes: z.array(z.object({ repo: z.string(), method: z.string(), path: z.string(), pattern: z.string(), file: z.string(), line: z.number().int(), handler: z.string(), ...handlerAt, unknownPrefix: z.string().optional() })),
  calls: z.array(
    z.object({
      repo: z.string(),
      method: z.string(),
      url: z.string(),
      pattern: z.string(),
      file: z.string(),
      line: z.number().int(),
      symbol: z.string().nullable(),
      dynamic: z.literal(true).optional(),
      base: z.string().optional().describe("A base URL from configuration the URL starts with, by name"),
      host: z.string().optional(),
      targets: z.array(apiTarget),
      why: z.string().nullable(),
    }),
  ),
  scope: z.array(Provenance),
  notices: z.array(z.string()),
});
