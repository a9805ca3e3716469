import { useState } from "preact/hooks";
import { api, ApiError, type ContextResponse, type Repo } from "./api.js";
import { ErrorBox } from "./badges.js";
import { html } from "./html.js";
import { ScopeFilters, scopeBody, type ScopeState } from "./scope.js";

/** A task and a budget → the packed context, exactly as an agent gets it, with its token meter. */
export function ContextView(props: { repos: Repo[]; groups: Record<string, string[]>; scope: ScopeState; onScope: (s: ScopeState) => void }) {
  const [task, setTask] = useState("");
  // The field's text as typed; clamped when the context is asked for (not at every keystroke).
  const [budgetText, setBudgetText] = useState("4000");
  const [packed, setPacked] = useState<ContextResponse | null>(null);
  const [error, setError] = useState<{ code?: string; message: string } | null>(null);
  const [busy, setBusy] = useState(false);
  const [copied, setCopied] = useState(false);

  const run = async (e: Event) => {
    e.preventDefault();
    if (!task.trim()) return;
    const budget = Math.max(100, Math.min(100_000, Math.round(Number(budgetText)) || 4000));
    setBudgetText(String(budget));
    setBusy(true);
    setError(null);
    try {
      setPacked(await api<ContextResponse>("POST", "/context", { task, budget, ...scopeBody(props.scope) }));
    } catch (err) {
      setPacked(null);
      setError(err instanceof ApiError ? err.body : { message: String(err) });
    } finally {
      setBusy(false);
    }
  };
  const copy = async () => {
    if (!packed) return;
    await navigator.clipboard.writeText(packed.text);
    setCopied(true);
    setTimeout(() => setCopied(false), 1500);
  };
  const share = packed ? Math.min(100, (packed.tokens / packed.budget) * 100) : 0;
  return html`<section class="view context-view">
    <form class="context-form" onSubmit=${run}>
      <textarea rows="4" placeholder="Describe the task: an issue, an error message, a question. ContextSmith packs the code to read into the budget." aria-label="task" value=${task} onInput=${(e: Event) => setTask((e.target as HTMLTextAreaElement).value)}></textarea>
      <div class="row">
        <label>Budget <input type="number" min="100" max="100000" step="100" value=${budgetText} aria-label="budget in tokens" onInput=${(e: Event) => setBudgetText((e.target as HTMLInputElement).value)} /> tokens</label>
        <button type="submit" disabled=${busy || props.repos.length === 0}>${busy ? "Packing…" : "Pack context"}</button>
      </div>
    </form>
    <${ScopeFilters} scope=${props.scope} repos=${props.repos} groups=${props.groups} onChange=${props.onScope} />
    <${ErrorBox} error=${error} />
    ${packed &&
    html`<div class="packed">
      <div class="meter" role="meter" aria-valuemin="0" aria-valuemax=${packed.budget} aria-valuenow=${packed.tokens} aria-label="tokens used">
        <div class="bar"><div class="fill" style=${{ width: `${share}%` }}></div></div>
        <span class="tokens">${packed.tokens.toLocaleString()} / ${packed.budget.toLocaleString()} tokens · ${packed.files.length} files · ${new Set(packed.repos).size} repositories</span>
        <button type="button" class="secondary" onClick=${copy}>${copied ? "Copied" : "Copy"}</button>
      </div>
      ${packed.notices.length > 0 && html`<ul class="notices">${packed.notices.map((n) => html`<li>${n}</li>`)}</ul>`}
      ${packed.files.length === 0
        ? html`<div class="empty"><p>Nothing matched the task, or the budget is too small for any code.</p></div>`
        : html`<ol class="files">${packed.files.map((f, i) => html`<li key=${`${packed.repos[i]}:${f}`}><span class="repo-tag">${packed.repos[i]}</span> ${f}</li>`)}</ol>`}
      <pre class="packed-text" aria-label="packed context">${packed.text}</pre>
    </div>`}
  </section>`;
}
