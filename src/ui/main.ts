import { render } from "preact";
import { useCallback, useEffect, useState } from "preact/hooks";
import { api, ApiError, followJobs, type Job, type Relations, type Repo } from "./api.js";
import { ErrorBox } from "./badges.js";
import { ApiView } from "./api-view.js";
import { ContextView } from "./context-view.js";
import { html } from "./html.js";
import { Inspector, type InspectTarget } from "./inspector.js";
import { ReposView } from "./repos-view.js";
import { emptyScope, type ScopeState } from "./scope.js";
import { SearchView } from "./search-view.js";
import "./main.css";

type Tab = "search" | "context" | "api" | "repos";
type Theme = "auto" | "light" | "dark";
const TABS: Array<[Tab, string]> = [
  ["search", "Search"],
  ["context", "Context"],
  ["api", "API map"],
  ["repos", "Repositories"],
];

const tabOfHash = (): Tab => {
  const hash = location.hash.slice(1);
  return hash === "context" || hash === "repos" || hash === "api" ? hash : "search";
};

function App() {
  const [tab, setTab] = useState<Tab>(tabOfHash());
  const [repos, setRepos] = useState<Repo[] | null>(null);
  const [editable, setEditable] = useState(true);
  const [groups, setGroups] = useState<Record<string, string[]>>({});
  const [relations, setRelations] = useState<Relations>({ repo: null, edges: [] });
  const [jobs, setJobs] = useState<Job[]>([]);
  const [error, setError] = useState<{ code?: string; message: string } | null>(null);
  const [scope, setScope] = useState<ScopeState>(emptyScope);
  const [inspect, setInspect] = useState<InspectTarget | null>(null);
  const [theme, setTheme] = useState<Theme>((localStorage.getItem("ctxsmith-theme") as Theme | null) ?? "auto");

  const reload = useCallback(async () => {
    try {
      const [r, g, rel] = await Promise.all([
        api<{ repos: Repo[]; editable: boolean }>("GET", "/repos"),
        api<{ groups: Record<string, string[]> }>("GET", "/groups"),
        api<Relations>("GET", "/relations"),
      ]);
      setRepos(r.repos);
      setEditable(r.editable);
      setGroups(g.groups);
      setRelations(rel);
      setError(null);
    } catch (err) {
      setError(err instanceof ApiError ? err.body : { message: `The server cannot be reached (${String(err)}). Is \`ctxsmith serve --http\` still running?` });
    }
  }, []);

  useEffect(() => {
    void reload();
    // What the stream said meanwhile is newer than the list: the list fills in only the jobs it did not.
    void api<{ jobs: Job[] }>("GET", "/jobs")
      .then((j) => setJobs((streamed) => [...streamed, ...j.jobs.filter((job) => !streamed.some((s) => s.id === job.id))]))
      .catch(() => undefined);
    const stop = followJobs((job) => {
      setJobs((list) => [job, ...list.filter((j) => j.id !== job.id)]);
      if (job.state === "done" || job.state === "failed") void reload();
    });
    const onHash = () => setTab(tabOfHash());
    window.addEventListener("hashchange", onHash);
    return () => (stop(), window.removeEventListener("hashchange", onHash));
  }, [reload]);

  useEffect(() => {
    document.documentElement.dataset.theme = theme;
    localStorage.setItem("ctxsmith-theme", theme);
  }, [theme]);

  const go = (t: Tab) => {
    location.hash = t;
    setTab(t);
  };
  const nextTheme: Record<Theme, Theme> = { auto: "dark", dark: "light", light: "auto" };
  const running = jobs.filter((j) => j.state === "running" || j.state === "queued").length;

  return html`<div class=${`shell${inspect ? " with-drawer" : ""}`}>
    <header class="top">
      <div class="brand"><span class="logo" aria-hidden="true">◆</span> ContextSmith</div>
      <nav class="tabs" role="tablist">
        ${TABS.map(([t, label]) => html`<button type="button" role="tab" key=${t} id=${`tab-${t}`} aria-controls="panel" aria-selected=${tab === t} class=${tab === t ? "tab on" : "tab"} onClick=${() => go(t)}>${label}${t === "repos" && running > 0 ? html` <span class="badge">${running}</span>` : null}</button>`)}
      </nav>
      <button type="button" class="secondary theme" title="theme: auto, dark, light" onClick=${() => setTheme(nextTheme[theme])}>${theme === "auto" ? "◐ auto" : theme === "dark" ? "☾ dark" : "☀ light"}</button>
    </header>
    <main id="panel" role="tabpanel" aria-labelledby=${`tab-${tab}`}>
      <${ErrorBox} error=${error} />
      ${repos === null && !error && html`<p class="muted">Loading…</p>`}
      ${repos !== null && tab === "search" && html`<${SearchView} repos=${repos} groups=${groups} scope=${scope} onScope=${setScope} onInspect=${setInspect} onGoRepos=${() => go("repos")} />`}
      ${repos !== null && tab === "context" && html`<${ContextView} repos=${repos} groups=${groups} scope=${scope} onScope=${setScope} />`}
      ${repos !== null && tab === "api" && html`<${ApiView} repos=${repos} groups=${groups} scope=${scope} onScope=${setScope} onInspect=${setInspect} />`}
      ${repos !== null && tab === "repos" && html`<${ReposView} repos=${repos} groups=${groups} relations=${relations} editable=${editable} jobs=${jobs} reload=${reload} />`}
    </main>
    ${inspect && html`<${Inspector} target=${inspect} onClose=${() => setInspect(null)} onOpen=${setInspect} />`}
  </div>`;
}

render(html`<${App} />`, document.getElementById("app")!);
