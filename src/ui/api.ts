/** The REST API as the UI calls it: same origin, JSON in and out, one error shape. */

export interface ApiErrorBody {
  code: string;
  message: string;
  data?: Record<string, unknown>;
}

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly body: ApiErrorBody,
  ) {
    super(body.message);
  }
}

export interface Provenance {
  repo: string;
  relation: "primary" | "expanded";
  direction?: "upstream" | "downstream";
  hops: number;
}

export interface SearchResult extends Provenance {
  path: string;
  name: string;
  qualifiedName: string;
  kind: string;
  signature: string;
  line: number;
  endLine: number;
  score: number;
  signals: string[];
  header: string;
  text: string;
  truncated: boolean;
}

export interface SearchResponse {
  results: SearchResult[];
  scope: Provenance[];
  notices: string[];
}

export interface ContextResponse {
  text: string;
  tokens: number;
  budget: number;
  files: string[];
  repos: string[];
  spans: Array<{ repo: string; path: string; start: number; end: number; kind: string; symbol: string | null }>;
  scope: Provenance[];
  notices: string[];
}

export interface Repo {
  name: string;
  kind: "local" | "remote";
  path: string;
  url?: string;
  branch?: string;
  indexedCommit: string | null;
  headCommit: string | null;
  behind: number | null;
  files: number | null;
  indexBytes: number | null;
  missing: boolean;
  groups: string[];
}

export interface Job {
  id: string;
  kind: "add" | "sync";
  repos: string[];
  state: "queued" | "running" | "done" | "failed";
  progress: { stage: string; message: string; done?: number; total?: number } | null;
  error?: { code: string; message: string };
}

export interface Relations {
  repo: string | null;
  edges: Array<[string, string]>;
}

export interface OutlineEntry {
  name: string;
  qualifiedName: string;
  kind: string;
  signature: string;
  startLine: number;
  endLine: number;
  depth: number;
}

export interface FileView {
  repo: string;
  path: string;
  language: string | null;
  lines: number;
  start: number;
  end: number;
  text: string;
  outline: OutlineEntry[];
  notes: Array<{ id: string; text: string; status: string; target: { path: string; symbol?: string } }>;
}

export interface SymbolLocation {
  name: string;
  qualifiedName: string;
  kind: string;
  path: string;
  startLine: number;
  endLine: number;
}

export interface CallsResponse {
  results: Array<{ repo: string; targets: SymbolLocation[]; calls: Array<{ symbol: SymbolLocation | null; path: string; line: number; how: string }> }>;
}

const PREFIX = "/api/v1";

export async function api<T>(method: "GET" | "POST" | "DELETE", path: string, body?: unknown): Promise<T> {
  const response = await fetch(`${PREFIX}${path}`, {
    method,
    headers: body === undefined ? {} : { "Content-Type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
    credentials: "same-origin",
  });
  const text = await response.text();
  let value: unknown = null;
  try {
    value = text ? JSON.parse(text) : null;
  } catch {
    throw new ApiError(response.status, { code: "BAD_RESPONSE", message: `The server answered ${response.status} with something that is not JSON.` });
  }
  if (!response.ok) {
    const error = (value as { error?: ApiErrorBody } | null)?.error ?? { code: String(response.status), message: response.statusText };
    throw new ApiError(response.status, error);
  }
  return value as T;
}

/** A path segment, encoded (file paths keep their slashes). */
export const seg = (value: string): string => encodeURIComponent(value);
export const filePath = (path: string): string => path.split("/").map(encodeURIComponent).join("/");

/** Follows every job's changes (server-sent events); returns what stops it. */
export function followJobs(onJob: (job: Job) => void): () => void {
  const source = new EventSource(`${PREFIX}/events`);
  source.addEventListener("job", (event) => onJob(JSON.parse((event as MessageEvent<string>).data) as Job));
  return () => source.close();
}

/** Where a route's handler is defined, when found (it may be in another file than the route). */
interface HandlerAt {
  handlerFile?: string;
  handlerLine?: number;
  handlerEndLine?: number;
}

export interface ApiMapResponse {
  routes: Array<{ repo: string; method: string; path: string; pattern: string; file: string; line: number; handler: string; unknownPrefix?: string } & HandlerAt>;
  calls: Array<{
    repo: string;
    method: string;
    url: string;
    pattern: string;
    file: string;
    line: number;
    symbol: string | null;
    targets: Array<{ repo: string; method: string; pattern: string; file: string; line: number; handler: string; confidence: number; how: string } & HandlerAt>;
    why: string | null;
  }>;
  scope: Provenance[];
  notices: string[];
}
