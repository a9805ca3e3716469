import { useState } from "preact/hooks";
import { api, ApiError, seg, type Job, type Relations, type Repo } from "./api.js";
import { ErrorBox } from "./badges.js";
import { DependencyGraph } from "./graph.js";
import { html } from "./html.js";

type Err = { code?: string; message: string; data?: Record<string, unknown> } | null;
const errOf = (err: unknown): Err => (err instanceof ApiError ? err.body : { message: String(err) });

function JobLine(props: { job: Job }) {
  const { job } = props;
  const p = job.progress;
  const share = p?.total ? Math.round(((p.done ?? 0) / p.total) * 100) : null;
  return html`<li class=${`job ${job.state}`} data-job=${job.id}>
    <span class="badge">${job.state}</span> ${job.kind} ${job.repos.join(", ")}
    ${job.state === "running" && p && html` — <span class="progress-text">${p.message}</span>`}
    ${share !== null && job.state === "running" && html`<span class="bar small"><span class="fill" style=${{ width: `${share}%` }}></span></span>`}
    ${job.error && html` — <span class="error-text">${job.error.message}</span>`}
  </li>`;
}

/** Repositories (add, sync, remove, with live progress), groups, and the dependency graph. */
export function ReposView(props: { repos: Repo[]; groups: Record<string, string[]>; relations: Relations; editable: boolean; jobs: Job[]; reload: () => void }) {
  const [name, setName] = useState("");
  const [source, setSource] = useState("");
  const [branch, setBranch] = useState("");
  const [error, setError] = useState<Err>(null);
  const [relError, setRelError] = useState<Err>(null);
  const [groupError, setGroupError] = useState<Err>(null);
  const [from, setFrom] = useState("");
  const [to, setTo] = useState("");
  const [groupName, setGroupName] = useState("");
  const [groupRepos, setGroupRepos] = useState<string[]>([]);

  const call = async (setErr: (e: Err) => void, work: () => Promise<unknown>) => {
    setErr(null);
    try {
      await work();
      props.reload();
    } catch (err) {
      setErr(errOf(err));
    }
  };
  const add = (e: Event) => {
    e.preventDefault();
    void call(setError, async () => {
      await api("POST", "/repos", { name: name.trim(), source: source.trim(), ...(branch.trim() ? { branch: branch.trim() } : {}) });
      setName("");
      setSource("");
      setBranch("");
    });
  };
  const active = props.jobs.filter((j) => j.state === "queued" || j.state === "running");
  const recent = props.jobs.filter((j) => j.state === "failed").slice(0, 3);
  const names = props.repos.map((r) => r.name);
  const cycle = relError?.data?.cycle as string[] | undefined;

  return html`<section class="view repos-view">
    ${!props.editable && html`<p class="notice">This server serves one repository. Start it with <code>ctxsmith serve --http --workspace</code> to add, group and relate repositories.</p>`}
    ${(active.length > 0 || recent.length > 0) && html`<ul class="jobs" aria-label="jobs">${[...active, ...recent].map((j) => html`<${JobLine} job=${j} key=${j.id} />`)}</ul>`}
    <table class="repos">
      <thead><tr><th>Name</th><th>Source</th><th>Files</th><th>Indexed</th><th>Groups</th><th></th></tr></thead>
      <tbody>
        ${props.repos.length === 0 && html`<tr><td colspan="6" class="empty">No repositories yet: add a folder of this machine or a git URL below.</td></tr>`}
        ${props.repos.map(
          (r) => html`<tr key=${r.name} data-repo=${r.name}>
            <td><strong>${r.name}</strong> <span class="badge">${r.kind}</span>${r.missing && html` <span class="badge warn">folder missing</span>`}</td>
            <td class="path" title=${r.url ?? r.path}>${r.url ?? r.path}${r.branch && html` <span class="muted">(${r.branch})</span>`}</td>
            <td>${r.files ?? "—"}</td>
            <td>${r.indexedCommit ? html`<code>${r.indexedCommit.slice(0, 8)}</code>` : r.files !== null ? "yes" : "not yet"}${r.behind ? html` <span class="badge warn">${r.behind} behind</span>` : null}</td>
            <td>${r.groups.join(", ")}</td>
            <td class="actions">
              <button type="button" class="secondary" onClick=${() => call(setError, () => api("POST", `/repos/${seg(r.name)}/sync`, {}))}>Sync</button>
              ${props.editable && html`<button type="button" class="danger" onClick=${() => confirm(`Remove ${r.name} from the workspace?${r.kind === "remote" ? " Its clone and index are deleted." : " The folder itself is not touched."}`) && call(setError, () => api("DELETE", `/repos/${seg(r.name)}`))}>Remove</button>`}
            </td>
          </tr>`,
        )}
      </tbody>
    </table>
    <${ErrorBox} error=${error} />
    ${props.editable &&
    html`<form class="add-repo" onSubmit=${add} aria-label="add a repository">
      <h3>Add a repository</h3>
      <input placeholder="name (a-z, 0-9, . _ -)" aria-label="name" value=${name} onInput=${(e: Event) => setName((e.target as HTMLInputElement).value)} required />
      <input class="wide" placeholder="/absolute/folder or https://…/repo.git" aria-label="source" value=${source} onInput=${(e: Event) => setSource((e.target as HTMLInputElement).value)} required />
      <input placeholder="branch (optional)" aria-label="branch" value=${branch} onInput=${(e: Event) => setBranch((e.target as HTMLInputElement).value)} />
      <button type="submit">Add</button>
    </form>`}

    <div class="two-col">
      <div>
        <h3>Dependencies</h3>
        ${props.relations.edges.length === 0 && html`<p class="muted">No relations yet. Record that one repository depends on another to search along them (expand).</p>`}
        <${DependencyGraph} repos=${names} edges=${props.relations.edges} />
        ${props.editable &&
        names.length > 1 &&
        html`<form class="relation-form" onSubmit=${(e: Event) => (e.preventDefault(), call(setRelError, () => api("POST", "/relations", { from, to })))} aria-label="add a relation">
          <select aria-label="from" value=${from} onChange=${(e: Event) => setFrom((e.target as HTMLSelectElement).value)}><option value="">repository…</option>${names.map((n) => html`<option value=${n} key=${n}>${n}</option>`)}</select>
          <span>depends on</span>
          <select aria-label="to" value=${to} onChange=${(e: Event) => setTo((e.target as HTMLSelectElement).value)}><option value="">repository…</option>${names.map((n) => html`<option value=${n} key=${n}>${n}</option>`)}</select>
          <button type="submit" disabled=${!from || !to}>Add</button>
        </form>`}
        ${relError && html`<div class="error" role="alert"><strong>${relError.code === "DEPENDENCY_CYCLE" ? "Refused: a cycle" : relError.code}</strong> ${cycle ? cycle.join(" → ") : relError.message}</div>`}
        <ul class="edges">${props.relations.edges.map(([a, b]) => html`<li key=${`${a}->${b}`}>${a} → ${b} ${props.editable && html`<button type="button" class="link" aria-label=${`remove ${a} depends on ${b}`} onClick=${() => call(setRelError, () => api("DELETE", `/relations/${seg(a)}/${seg(b)}`))}>remove</button>`}</li>`)}</ul>
      </div>
      <div>
        <h3>Groups</h3>
        ${Object.keys(props.groups).length === 0 && html`<p class="muted">No groups yet. A group names repositories to search together.</p>`}
        <ul class="groups">${Object.entries(props.groups).map(
          ([g, members]) => html`<li key=${g}><strong>${g}</strong>: ${members.map((m) => html`<span class="chip" key=${m}>${m}${props.editable && html`<button type="button" class="link" aria-label=${`take ${m} out of ${g}`} onClick=${() => call(setGroupError, () => api("DELETE", `/groups/${seg(g)}/repos/${seg(m)}`))}>×</button>`}</span>`)}
            ${props.editable && html`<button type="button" class="link" onClick=${() => call(setGroupError, () => api("DELETE", `/groups/${seg(g)}`))}>delete</button>`}</li>`,
        )}</ul>
        ${props.editable &&
        names.length > 0 &&
        html`<form class="group-form" onSubmit=${(e: Event) => (e.preventDefault(), call(setGroupError, async () => (await api("POST", "/groups", { name: groupName.trim(), repos: groupRepos }), setGroupName(""), setGroupRepos([]))))} aria-label="create a group">
          <input placeholder="group name" aria-label="group name" value=${groupName} onInput=${(e: Event) => setGroupName((e.target as HTMLInputElement).value)} required />
          ${names.map((n) => html`<label class="check" key=${n}><input type="checkbox" checked=${groupRepos.includes(n)} onChange=${() => setGroupRepos(groupRepos.includes(n) ? groupRepos.filter((x) => x !== n) : [...groupRepos, n])} />${n}</label>`)}
          <button type="submit">Create</button>
        </form>`}
        <${ErrorBox} error=${groupError} />
      </div>
    </div>
  </section>`;
}
