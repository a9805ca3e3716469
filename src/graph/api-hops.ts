import type { ApiMap } from "./api-links.js";
import type { ApiHop, ImpactNode } from "./types.js";


/** Code a hop starts from: a definition's file and lines, in a repository. */
export interface HopSite {
  repo: string;
  path: string;
  startLine: number;
  endLine: number;
}

/** Whether code at `file` lines `start`–`end` (one line for a named handler or a call) is in a site. */
const within = (site: HopSite, repo: string, file: string | undefined, start: number | undefined, end = start): boolean =>
  site.repo === repo && site.path === file && start !== undefined && start <= site.endLine && site.startLine <= end!;

/** The requests that reach a route whose handler is defined in one of `sites`, best first. */
export function apiCallersOf(map: ApiMap, sites: readonly HopSite[]): ApiHop[] {
  const hops: ApiHop[] = [];
  for (const call of map.calls) {
    for (const t of call.targets) {
      if (!sites.some((s) => within(s, t.repo, t.handlerFile, t.handlerLine, t.handlerEndLine))) continue;
      hops.push({ repo: call.repo, file: call.file, line: call.line, symbol: call.symbol, method: call.method, path: call.url, via: t.handler || null, confidence: t.confidence, how: t.how });
    }
  }
  return sorted(hops);
}

/** The route handlers that the requests made in `sites` reach, best first. */
export function apiHandlersOf(map: ApiMap, sites: readonly HopSite[]): ApiHop[] {
  const hops: ApiHop[] = [];
  for (const call of map.calls) {
    if (!sites.some((s) => within(s, call.repo, call.file, call.line))) continue;
    for (const t of call.targets) {
      hops.push({ repo: t.repo, file: t.handlerFile ?? t.file, line: t.handlerLine ?? t.line, symbol: t.handler || null, method: t.method, path: t.pattern, via: call.symbol, confidence: t.confidence, how: t.how });
    }
  }
  return sorted(hops);
}

function sorted(hops: ApiHop[]): ApiHop[] {
  const seen = new Set<string>();
  return hops
    .sort((a, b) => b.confidence - a.confidence || a.repo.localeCompare(b.repo) || a.file.localeCompare(b.file) || a.line - b.line)
    .filter((h) => {
      const key = `${h.repo}\0${h.file}\0${h.line}\0${h.symbol}`;
      return !seen.has(key) && !!seen.add(key);
    });
}

/** The code an impact tree covers: its targets and every caller in it (a caller outside any definition by its call lines: a handler written in place). */
export function impactSites(result: { targets: ReadonlyArray<{ path: string; startLine: number; endLine: number }>; tree: readonly ImpactNode[] }): Array<{ path: string; startLine: number; endLine: number }> {
  const sites = [...result.targets];
  const walk = (nodes: readonly ImpactNode[]): void => {
    for (const n of nodes) {
      if (n.symbol) sites.push(n.symbol);
      else sites.push(...n.lines.map((line) => ({ path: n.path, startLine: line, endLine: line })));
      walk(n.children);
    }
  };
  walk(result.tree);
  return sites;
}
