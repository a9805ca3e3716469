import { html } from "./html.js";
import type { Repo } from "./api.js";

/** What a query runs over, as the UI's filters set it. */
export interface ScopeState {
  repos: string[];
  group: string;
  expand: "" | "upstream" | "downstream" | "both";
  depth: number;
}

export const emptyScope: ScopeState = { repos: [], group: "", expand: "", depth: 1 };

/** The scope as request fields. */
export function scopeBody(s: ScopeState): Record<string, unknown> {
  return {
    ...(s.repos.length > 0 ? { repos: s.repos } : {}),
    ...(s.group ? { groups: [s.group] } : {}),
    ...(s.expand ? { expand: s.expand, expand_depth: s.depth } : {}),
  };
}

/** Filters: repositories (none: all), a group, expansion along the dependency graph. */
export function ScopeFilters(props: { scope: ScopeState; repos: Repo[]; groups: Record<string, string[]>; onChange: (s: ScopeState) => void }) {
  const { scope, onChange } = props;
  const toggle = (name: string) => onChange({ ...scope, repos: scope.repos.includes(name) ? scope.repos.filter((r) => r !== name) : [...scope.repos, name] });
  const groups = Object.keys(props.groups);
  return html`<div class="filters">
    <div class="repo-chips" role="group" aria-label="repositories">
      <span class="label">Repositories</span>
      <button type="button" class=${`chip toggle${scope.repos.length === 0 ? " on" : ""}`} aria-pressed=${scope.repos.length === 0} onClick=${() => onChange({ ...scope, repos: [] })}>all</button>
      ${props.repos.map((r) => html`<button type="button" key=${r.name} class=${`chip toggle${scope.repos.includes(r.name) ? " on" : ""}`} aria-pressed=${scope.repos.includes(r.name)} onClick=${() => toggle(r.name)}>${r.name}</button>`)}
    </div>
    ${groups.length > 0 &&
    html`<label>Group
      <select value=${scope.group} onChange=${(e: Event) => onChange({ ...scope, group: (e.target as HTMLSelectElement).value })}>
        <option value="">—</option>
        ${groups.map((g) => html`<option value=${g} key=${g}>${g}</option>`)}
      </select></label>`}
    <label>Expand
      <select value=${scope.expand} onChange=${(e: Event) => onChange({ ...scope, expand: (e.target as HTMLSelectElement).value as ScopeState["expand"] })}>
        <option value="">no</option>
        <option value="upstream">upstream (what they depend on)</option>
        <option value="downstream">downstream (what depends on them)</option>
        <option value="both">both</option>
      </select></label>
    ${scope.expand &&
    html`<label>Hops <input type="number" min="1" max="10" value=${scope.depth} onInput=${(e: Event) => onChange({ ...scope, depth: Math.max(1, Math.min(10, Number((e.target as HTMLInputElement).value) || 1)) })} /></label>`}
  </div>`;
}
