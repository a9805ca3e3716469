import { useEffect, useState } from "preact/hooks";
import { api, ApiError, filePath, seg, type CallsResponse, type FileView } from "./api.js";
import { ErrorBox } from "./badges.js";
import { Code } from "./code.js";
import { html } from "./html.js";

/** The lines the inspector asks for at most (the server's cap). */
const WINDOW = 5000;

/** What the inspector opens: a file of a repository at some lines, and the symbol there. */
export interface InspectTarget {
  repo: string;
  path: string;
  line: number;
  endLine: number;
  symbol?: string;
}

/** The drawer: the file at those lines, its outline, the symbol's callers and callees, the notes pinned there. */
export function Inspector(props: { target: InspectTarget; onClose: () => void; onOpen: (t: InspectTarget) => void }) {
  const { target } = props;
  const [file, setFile] = useState<FileView | null>(null);
  const [calls, setCalls] = useState<{ callers: CallsResponse | null; callees: CallsResponse | null }>({ callers: null, callees: null });
  const [error, setError] = useState<{ code?: string; message: string } | null>(null);
  const [focus, setFocus] = useState<[number, number]>([target.line, target.endLine]);

  useEffect(() => {
    // An answer for a target the drawer has left since is dropped.
    let current = true;
    setFile(null);
    setError(null);
    setFocus([target.line, target.endLine]);
    // The server sends at most 5,000 lines: a window around the target in a longer file.
    const start = Math.max(1, target.line - WINDOW / 2);
    api<FileView>("GET", `/repos/${seg(target.repo)}/files/${filePath(target.path)}?start=${start}&end=${start + WINDOW - 1}`)
      .then((f) => current && setFile(f))
      .catch((err: unknown) => current && setError(err instanceof ApiError ? err.body : { message: String(err) }));
    setCalls({ callers: null, callees: null });
    if (target.symbol) {
      const symbol = seg(`${target.path}:${target.symbol}`);
      Promise.all([api<CallsResponse>("GET", `/repos/${seg(target.repo)}/callers/${symbol}`), api<CallsResponse>("GET", `/repos/${seg(target.repo)}/callees/${symbol}`)])
        .then(([callers, callees]) => current && setCalls({ callers, callees }))
        .catch(() => current && setCalls({ callers: { results: [] }, callees: { results: [] } }));
    }
    return () => {
      current = false;
    };
  }, [target.repo, target.path, target.line, target.symbol]);

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => e.key === "Escape" && props.onClose();
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [props.onClose]);

  const callList = (answer: CallsResponse | null, label: string) => {
    if (!target.symbol) return null;
    const hits = answer?.results.flatMap((r) => r.calls.map((c) => ({ ...c, repo: r.repo }))) ?? [];
    return html`<div class="calls"><h4>${label}</h4>
      ${answer === null ? html`<p class="muted">…</p>` : hits.length === 0 ? html`<p class="muted">none found</p>` : null}
      <ul>${hits.slice(0, 30).map((c) => html`<li key=${`${c.path}:${c.line}`}><a href="#" onClick=${(e: Event) => (e.preventDefault(), props.onOpen({ repo: c.repo, path: c.path, line: c.symbol?.startLine ?? c.line, endLine: c.symbol?.endLine ?? c.line, symbol: c.symbol?.qualifiedName }))}>${c.symbol?.qualifiedName ?? "(module)"}</a> <span class="muted">${c.path}:${c.line}</span></li>`)}</ul>
    </div>`;
  };

  return html`<aside class="drawer" role="dialog" aria-label="inspector" aria-modal="false">
    <header class="drawer-head">
      <div><div class="repo-tag">${target.repo}</div><h3 class="drawer-title">${target.path}</h3>${target.symbol && html`<div class="muted">${target.symbol} · lines ${target.line}–${target.endLine}</div>`}</div>
      <button type="button" class="secondary close" aria-label="close" onClick=${props.onClose}>✕</button>
    </header>
    <${ErrorBox} error=${error} />
    ${file &&
    html`<div class="drawer-body">
      <nav class="outline" aria-label="outline"><h4>Outline</h4>
        ${file.outline.length === 0 && html`<p class="muted">no functions or classes</p>`}
        <ul>${file.outline.map((o) => html`<li key=${`${o.qualifiedName}:${o.startLine}`} class=${`depth-${Math.min(o.depth, 3)}`}><a href="#" onClick=${(e: Event) => (e.preventDefault(), setFocus([o.startLine, o.endLine]))}><span class="kind">${o.kind}</span> ${o.name}</a></li>`)}</ul>
        ${callList(calls.callers, "Callers")}
        ${callList(calls.callees, "Callees")}
        ${file.notes.length > 0 && html`<div class="notes"><h4>Notes</h4><ul>${file.notes.map((n) => html`<li key=${n.id} class=${n.status}>${n.text}${n.status !== "current" && html` <span class="muted">(${n.status})</span>`}</li>`)}</ul></div>`}
      </nav>
      <${Code} text=${file.text} first=${file.start} highlight=${focus} scrollTo=${focus[0]} />
    </div>`}
  </aside>`;
}
