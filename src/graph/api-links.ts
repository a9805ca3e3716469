/**
 * The API contract map: client HTTP calls matched to the route handlers that serve them, within a
 * repository and across the repositories of a scope. Pure: it works on what `repositoryApi` read.
 */

/** A route a repository serves: its full path (prefixes included) and its canonical pattern. */
export interface ApiRoute {
  /** Upper case; `*` where any method matches. */
  method: string;
  /** The path with its prefixes, as written; `{name}` for a prefix the code does not give the value of. */
  path: string;
  /** Canonical: lower case, `{}` for every parameter, no trailing slash (`/articles/{}/comments`). */
  pattern: string;
  file: string;
  line: number;
  handler: string;
  /** Where the handler is defined, when it is found (it may be in another file than the route). */
  handlerFile?: string;
  handlerLine?: number;
  /** The last line of a handler written in place, where the route is declared. */
  handlerEndLine?: number;
  /** A prefix mounted from a setting or a variable (`settings.api_prefix`): calls may carry it. */
  unknownPrefix?: string;
}

/** A request a repository makes. */
export interface ApiCall {
  /** Upper case; `*` when the code does not say. */
  method: string;
  /** The URL as written, constants resolved, `{}` for what is computed. */
  url: string;
  pattern: string;
  file: string;
  line: number;
  /** The function or method making the request. */
  symbol: string | null;
  /** The URL starts with something computed at run time: no path to match. */
  dynamic?: true;
  /** The URL starts with a base from configuration (`process.env.API`), kept by name; `pattern` is what follows it. */
  base?: string;
  /** The host an absolute URL names. */
  host?: string;
}

/** A route a call reaches: the route as its repository serves it (not its full path), and how sure the link is. */
export interface ApiTarget extends Pick<ApiRoute, "method" | "pattern" | "file" | "line" | "handler" | "handlerFile" | "handlerLine" | "handlerEndLine"> {
  repo: string;
  /**
   * 1: the same path; 0.9: through parameters; 0.8: the call's first segments taken as a prefix the
   * route is mounted under from a setting; 0.7: a gateway prefix taken off the call; 0.6: one taken
   * off the route (0.05 less each through parameters).
   */
  confidence: number;
  how: string;
}

/** A link the code cannot show, declared by a person: requests of `from` reach the route `to`. */
export interface DeclaredLink {
  from: { repo: string; method: string; url: string };
  to: { repo: string; method: string; path: string };
}

/** What the API map is told that the code does not say (the workspace's `api` settings). */
export interface ApiRules {
  /** Repository → the prefix its routes are reached under from outside (a gateway, a mount in configuration). */
  prefixes?: Record<string, string>;
  links?: DeclaredLink[];
}

export interface ApiMap {
  routes: Array<ApiRoute & { repo: string }>;
  calls: Array<ApiCall & { repo: string; targets: ApiTarget[]; why: string | null }>;
}

/** How many leading segments a gateway prefix may have (`/api`, `/api/v1`). */
const MAX_PREFIX = 2;

/**
 * The canonical form of a path or URL: scheme and host dropped, query and fragment dropped, lower
 * case, no empty segments, every parameter (`:id`, `{id}`, `<int:id>`, `(?P<id>…)`, `${x}`, a
 * number, a computed piece written `\0`) a `{}`.
 */
export function canonicalPattern(url: string): string {
  const path = url.replace(/^[a-z][a-z0-9+.-]*:\/\/[^/]*/i, "").replace(/^\/\/[^/]*/, "").split(/[?#]/)[0]!;
  const segments = path
    .split("/")
    .filter((s) => s !== "")
    .map((s) => (/\u0000|^:\w+\??$|^\{[^}]*\}$|^<[^>]+>$|^\(\?P?<\w+>.*\)$|^\d+$|^\$\{.*\}$/.test(s) ? "{}" : s.toLowerCase()));
  return `/${segments.join("/")}`;
}

/**
 * Calls matched to routes across `repos`: for each call, its best match in each repository, or
 * why there is none. Declared `rules` are honoured: a repository's routes are matched under its
 * prefix as well, and a declared link is certain.
 */
export function linkApi(repos: ReadonlyArray<{ repo: string; routes: readonly ApiRoute[]; calls: readonly ApiCall[] }>, rules: ApiRules = {}): ApiMap {
  const routes = repos.flatMap((r) => r.routes.map((route) => ({ ...route, repo: r.repo })));
  const split = routes.map((r) => segmentsOf(r.pattern));
  const declaredPrefix = (repo: string): string[] => segmentsOf(canonicalPattern(rules.prefixes?.[repo] ?? ""));
  const under = routes.map((r, i) => (declaredPrefix(r.repo).length > 0 ? [...declaredPrefix(r.repo), ...split[i]!] : null));
  const declared = (rules.links ?? []).map((l) => ({ ...l, fromPattern: canonicalPattern(l.from.url), toPattern: canonicalPattern(l.to.path) }));
  const calls = repos.flatMap((r) =>
    r.calls.map((call) => {
      const own = declared.filter((l) => l.from.repo === r.repo && l.fromPattern === call.pattern && methodMatches(l.from.method.toUpperCase(), call.method));
      if (own.length > 0) return { ...call, repo: r.repo, ...declaredTargets(own, routes) };
      if (call.dynamic) return { ...call, repo: r.repo, targets: [], why: "the URL is computed at run time (its start is not a constant of the code)" };
      const want = segmentsOf(call.pattern);
      // The best matches in each repository: a contract may be served by more than one backend.
      const bestIn = new Map<string, ApiTarget[]>();
      let pathOnly: string[] = [];
      routes.forEach((route, i) => {
        const prefix = under[i] ? samePath(want, under[i]!) : null;
        const found = prefix
          ? { confidence: prefix === "exact" ? 1 : 0.9, how: `${prefix === "exact" ? "same path" : "same path, through parameters"} under the declared prefix ${rules.prefixes![route.repo]}` }
          : matchPath(want, split[i]!, route.unknownPrefix !== undefined);
        if (!found) return;
        // A base URL from configuration, or another host, is less sure than a path of this origin.
        const doubt = call.base !== undefined ? { by: 0.1, note: `, after the base URL {${call.base}}` } : call.host ? { by: 0.1, note: `, on host ${call.host}` } : null;
        const match = doubt ? { confidence: found.confidence - doubt.by, how: `${found.how}${doubt.note}` } : found;
        if (!methodMatches(call.method, route.method)) {
          pathOnly.push(route.method);
          return;
        }
        const target = targetOf(route, Math.round(match.confidence * 100) / 100, match.how);
        const best = bestIn.get(route.repo);
        if (!best || target.confidence > best[0]!.confidence) bestIn.set(route.repo, [target]);
        else if (target.confidence === best[0]!.confidence) best.push(target);
      });
      const best = [...bestIn.values()].flat().sort((a, b) => b.confidence - a.confidence);
      pathOnly = [...new Set(pathOnly)];
      const why = best.length > 0 ? null : pathOnly.length > 0 ? `no route for ${call.method} ${call.pattern} (it is served for ${pathOnly.join(", ")})` : routes.length === 0 ? "no routes in the scope" : `no route matches ${call.pattern}`;
      return { ...call, repo: r.repo, targets: best, why };
    }),
  );
  return { routes, calls };
}

/** The targets of declared links: the routes they name, or why a named route is not there. */
function declaredTargets(links: ReadonlyArray<DeclaredLink & { toPattern: string }>, routes: ReadonlyArray<ApiRoute & { repo: string }>): { targets: ApiTarget[]; why: string | null } {
  const targets: ApiTarget[] = [];
  const missing: string[] = [];
  for (const link of links) {
    const method = link.to.method.toUpperCase();
    const found = routes.filter((r) => r.repo === link.to.repo && r.pattern === link.toPattern && methodMatches(method, r.method));
    if (found.length === 0) missing.push(`${link.to.repo} ${method} ${link.to.path}`);
    targets.push(...found.map((route) => targetOf(route, 1, "declared in the workspace")));
  }
  return { targets, why: targets.length > 0 ? null : `declared to reach ${missing.join(", ")}, which the code does not serve` };
}

function targetOf(route: ApiRoute & { repo: string }, confidence: number, how: string): ApiTarget {
  return {
    repo: route.repo,
    method: route.method,
    pattern: route.pattern,
    file: route.file,
    line: route.line,
    handler: route.handler,
    ...(route.handlerFile !== undefined ? { handlerFile: route.handlerFile, handlerLine: route.handlerLine! } : {}),
    ...(route.handlerEndLine !== undefined ? { handlerEndLine: route.handlerEndLine } : {}),
    confidence,
    how,
  };
}

function segmentsOf(pattern: string): string[] {
  return pattern.split("/").filter((s) => s !== "");
}

function methodMatches(call: string, route: string): boolean {
  return call === "*" || route === "*" || call === route;
}

/**
 * Segment by segment; a route parameter takes any segment, a call's computed piece only a
 * parameter. At least one literal segment must be the same: `/{}` is not a match for every call.
 */
function samePath(call: readonly string[], route: readonly string[]): "exact" | "template" | null {
  if (call.length !== route.length) return null;
  let template = false;
  let literal = call.length === 0;
  for (let i = 0; i < call.length; i++) {
    if (call[i] === route[i]) {
      if (call[i] === "{}") template = true;
      else literal = true;
      continue;
    }
    if (route[i] === "{}") template = true;
    else return null;
  }
  if (!literal) return null;
  return template ? "template" : "exact";
}

function matchPath(call: readonly string[], route: readonly string[], routeHasUnknownPrefix: boolean): { confidence: number; how: string } | null {
  const direct = samePath(call, route);
  if (direct === "exact") return { confidence: 1, how: "same path" };
  if (direct === "template") return { confidence: 0.9, how: "same path, through parameters" };
  // Through parameters counts a little less than the same literal path: `/feed` over `/{}`.
  const lessIfTemplate = (same: "exact" | "template", confidence: number): number => (same === "template" ? confidence - 0.05 : confidence);
  for (let k = 1; k <= MAX_PREFIX && k < call.length; k++) {
    const same = samePath(call.slice(k), route);
    if (same) {
      const prefix = `/${call.slice(0, k).join("/")}`;
      return routeHasUnknownPrefix
        ? { confidence: lessIfTemplate(same, 0.8), how: `the call's ${prefix} taken as the route's configured prefix` }
        : { confidence: lessIfTemplate(same, 0.7), how: `gateway prefix ${prefix} taken off the call` };
    }
  }
  for (let k = 1; k <= MAX_PREFIX && k < route.length; k++) {
    const same = samePath(call, route.slice(k));
    if (same) return { confidence: lessIfTemplate(same, 0.6), how: `prefix /${route.slice(0, k).join("/")} taken off the route` };
  }
  return null;
}
