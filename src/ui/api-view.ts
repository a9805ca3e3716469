import { useEffect, useState } from "preact/hooks";
import { api, ApiError, type ApiMapResponse, type Repo } from "./api.js";
import { ErrorBox } from "./badges.js";
import { html } from "./html.js";
import type { InspectTarget } from "./inspector.js";
import { ScopeFilters, type ScopeState } from "./scope.js";

/** The query string of a scope for `GET /api-map`. */
function scopeQuery(s: ScopeState, unmatched: boolean): string {
  const q = new URLSearchParams();
  if (s.repos.length > 0) q.set("repos", s.repos.join(","));
  if (s.group) q.set("groups", s.group);
  if (s.expand) {
    q.set("expand", s.expand);
    q.set("expand_depth", String(s.depth));
  }
  if (unmatched) q.set("unmatched", "true");
  const text = q.toString();
  return text ? `?${text}` : "";
}

/** Client calls → the route handlers that serve them, across repositories; unmatched calls with why. */
export function ApiView(props: { repos: Repo[]; groups: Record<string, string[]>; scope: ScopeState; onScope: (s: ScopeState) => void; onInspect: (t: InspectTarget) => void }) {
  const [map, setMap] = useState<ApiMapResponse | null>(null);
  const [error, setError] = useState<{ code?: string; message: string } | null>(null);
  const [unmatched, setUnmatched] = useState(false);
  const [showRoutes, setShowRoutes] = useState(false);
  const query = scopeQuery(props.scope, unmatched);
  useEffect(() => {
    let current = true;
    setError(null);
    api<ApiMapResponse>("GET", `/api-map${query}`)
      .then((m) => current && setMap(m))
      .catch((err: unknown) => current && setError(err instanceof ApiError ? err.body : { message: String(err) }));
    return () => {
      current = false;
    };
  }, [query, props.repos.length]);
  const open = (repo: string, file: string, line: number, endLine = line) => props.onInspect({ repo, path: file, line, endLine });
  // A handler opens where it is defined (the route may be declared in another file).
  const openHandler = (t: { repo: string; file: string; line: number; handlerFile?: string; handlerLine?: number; handlerEndLine?: number }) =>
    t.handlerFile && t.handlerLine ? open(t.repo, t.handlerFile, t.handlerLine, t.handlerEndLine ?? t.handlerLine) : open(t.repo, t.file, t.line);
  const linked = map?.calls.filter((c) => c.targets.length > 0).length ?? 0;
  return html`<section class="view api-view">
    <${ScopeFilters} scope=${props.scope} repos=${props.repos} groups=${props.groups} onChange=${props.onScope} />
    <label class="check"><input type="checkbox" checked=${unmatched} onChange=${() => setUnmatched(!unmatched)} /> only calls that reach no route</label>
    <${ErrorBox} error=${error} />
    ${map &&
    html`<p class="hint">${map.routes.length} routes · ${map.calls.length} calls${unmatched ? "" : `, ${linked} linked`}</p>
      ${map.calls.length === 0 && html`<div class="empty"><p>${unmatched ? "Every call reaches a route." : "No HTTP calls found in these repositories (fetch, axios, superagent, requests, httpx…)."}</p></div>`}
      <table class="api-calls">
        <thead><tr><th>Call</th><th>From</th><th>Reaches</th></tr></thead>
        <tbody>${map.calls.map(
          (c, i) => html`<tr key=${`${i}:${c.repo}:${c.file}:${c.line}`} class=${c.targets.length === 0 ? "unmatched" : ""}>
            <td><span class="badge">${c.method}</span> <code>${c.pattern}</code></td>
            <td><span class="repo-tag">${c.repo}</span> <a href="#" onClick=${(e: Event) => (e.preventDefault(), open(c.repo, c.file, c.line))}>${c.file}:${c.line}</a>${c.symbol ? html` <span class="muted">in ${c.symbol}</span>` : null}</td>
            <td>${c.targets.length === 0
              ? html`<span class="error-text">✗ ${c.why}</span>`
              : c.targets.map((t) => html`<div key=${`${t.repo}:${t.file}:${t.line}`} class="target"><span class="repo-tag">${t.repo}</span> <a href="#" title=${`route declared at ${t.file}:${t.line}`} onClick=${(e: Event) => (e.preventDefault(), openHandler(t))}>${t.handler || `${t.file}:${t.line}`}</a> <span class="muted" title=${t.how}>${t.how} · ${t.confidence}</span></div>`)}</td>
          </tr>`,
        )}</tbody>
      </table>
      ${!unmatched &&
      html`<h3><button type="button" class="link" aria-expanded=${showRoutes} onClick=${() => setShowRoutes(!showRoutes)}>${showRoutes ? "▾" : "▸"} Routes (${map.routes.length})</button></h3>
        ${showRoutes && html`<table class="api-routes"><tbody>${map.routes.map((r, i) => html`<tr key=${`${i}:${r.repo}:${r.file}:${r.line}`}><td><span class="badge">${r.method}</span> <code>${r.path}</code></td><td><span class="repo-tag">${r.repo}</span> <a href="#" title=${`route declared at ${r.file}:${r.line}`} onClick=${(e: Event) => (e.preventDefault(), openHandler(r))}>${r.handler || `${r.file}:${r.line}`}</a></td></tr>`)}</tbody></table>`}`}`}
  </section>`;
}
