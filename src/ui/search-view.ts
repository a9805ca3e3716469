import { useEffect, useRef, useState } from "preact/hooks";
import { api, ApiError, type Repo, type SearchResponse, type SearchResult } from "./api.js";
import { ErrorBox, ProvenanceBadge, Signals } from "./badges.js";
import { Code } from "./code.js";
import { html } from "./html.js";
import { ScopeFilters, scopeBody, type ScopeState } from "./scope.js";
import type { InspectTarget } from "./inspector.js";

export function SearchView(props: { repos: Repo[]; groups: Record<string, string[]>; scope: ScopeState; onScope: (s: ScopeState) => void; onInspect: (t: InspectTarget) => void; onGoRepos: () => void }) {
  const [query, setQuery] = useState("");
  const [answer, setAnswer] = useState<SearchResponse | null>(null);
  const [error, setError] = useState<{ code?: string; message: string } | null>(null);
  const [busy, setBusy] = useState(false);
  const [selected, setSelected] = useState(0);
  const input = useRef<HTMLInputElement>(null);
  const list = useRef<HTMLDivElement>(null);

  useEffect(() => {
    input.current?.focus();
    const onKey = (e: KeyboardEvent) => {
      if (e.key === "/" && document.activeElement?.tagName !== "INPUT" && document.activeElement?.tagName !== "TEXTAREA") {
        e.preventDefault();
        input.current?.focus();
      }
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, []);

  const run = async (e?: Event) => {
    e?.preventDefault();
    if (!query.trim()) return;
    setBusy(true);
    setError(null);
    try {
      setAnswer(await api<SearchResponse>("POST", "/search", { query, limit: 30, ...scopeBody(props.scope) }));
      setSelected(0);
    } catch (err) {
      setAnswer(null);
      setError(err instanceof ApiError ? err.body : { message: String(err) });
    } finally {
      setBusy(false);
    }
  };

  const results = answer?.results ?? [];
  // Results grouped by repository, in the order the scope lists them; the flat order drives the keys.
  const order = answer ? [...new Set([...answer.scope.map((p) => p.repo), ...results.map((r) => r.repo)])] : [];
  const grouped = order.map((repo) => ({ repo, items: results.filter((r) => r.repo === repo) })).filter((g) => g.items.length > 0);
  const flat = grouped.flatMap((g) => g.items);
  const inspect = (r: SearchResult) => props.onInspect({ repo: r.repo, path: r.path, line: r.line, endLine: r.endLine, symbol: r.qualifiedName });

  const onListKey = (e: KeyboardEvent) => {
    if (flat.length === 0) return;
    if (e.key === "ArrowDown" || e.key === "j") setSelected((s) => Math.min(flat.length - 1, s + 1));
    else if (e.key === "ArrowUp" || e.key === "k") setSelected((s) => Math.max(0, s - 1));
    else if (e.key === "Enter") inspect(flat[selected]!);
    else return;
    e.preventDefault();
  };
  useEffect(() => {
    list.current?.querySelector<HTMLElement>(`[data-index="${selected}"]`)?.scrollIntoView({ block: "nearest" });
  }, [selected]);

  if (props.repos.length === 0) {
    return html`<div class="empty"><h2>No repositories yet</h2><p>Add a folder or a git URL on the <a href="#repos" onClick=${props.onGoRepos}>Repositories</a> tab, or from a shell: <code>ctxsmith repo add NAME PATH|URL</code>.</p></div>`;
  }
  return html`<section class="view search-view">
    <form class="searchbar" onSubmit=${run} role="search">
      <input ref=${input} type="search" placeholder="Search code across repositories — a function, an error, a behaviour  ( / )" aria-label="search query" value=${query} onInput=${(e: Event) => setQuery((e.target as HTMLInputElement).value)} onKeyDown=${(e: KeyboardEvent) => e.key === "ArrowDown" && (e.preventDefault(), list.current?.focus())} />
      <button type="submit" disabled=${busy}>${busy ? "Searching…" : "Search"}</button>
    </form>
    <${ScopeFilters} scope=${props.scope} repos=${props.repos} groups=${props.groups} onChange=${props.onScope} />
    <${ErrorBox} error=${error} />
    ${answer && answer.notices.length > 0 && html`<ul class="notices">${answer.notices.map((n) => html`<li>${n}</li>`)}</ul>`}
    ${answer && flat.length === 0 && html`<div class="empty"><p>Nothing matched <q>${query}</q>. Try other words, a name as it is written in the code, or a wider scope.</p></div>`}
    ${flat.length > 0 && html`<p class="hint">${flat.length} results · ↑↓ or j/k to move, Enter to open</p>`}
    <div class="results" ref=${list} tabindex="0" onKeyDown=${onListKey} aria-label="results" role="listbox" aria-activedescendant=${flat.length > 0 ? `result-${selected}` : undefined}>
      ${grouped.map(
        (g) => html`<div class="repo-group" key=${g.repo}>
          <h3 class="repo-name">${g.repo} <${ProvenanceBadge} p=${g.items[0]!} /></h3>
          ${g.items.map((r) => {
            const index = flat.indexOf(r);
            return html`<article class=${`result${index === selected ? " selected" : ""}`} id=${`result-${index}`} role="option" aria-selected=${index === selected} data-index=${index} key=${`${r.path}:${r.line}:${r.qualifiedName}`} onClick=${() => (setSelected(index), inspect(r))}>
              <header>
                <span class="kind">${r.kind}</span>
                <span class="qname">${r.qualifiedName}</span>
                <span class="where">${r.path} · ${r.line}–${r.endLine}</span>
                <${Signals} signals=${r.signals} />
                <span class="score" title="score">${r.score.toFixed(2)}</span>
              </header>
              <${Code} text=${r.text} first=${r.line} />
              ${r.truncated && html`<div class="more">… ${r.endLine - r.line - 39} more lines: open to see all</div>`}
            </article>`;
          })}
        </div>`,
      )}
    </div>
  </section>`;
}
