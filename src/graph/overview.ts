import type { IndexStore } from "../store/store.js";
import { semanticReady } from "../store/semantic-state.js";
import type { OverviewResult } from "./types.js";

/** Files listed as central and as hot. */
const TOP_FILES = 10;

/**
 * What a repository is and how its index stands: languages, size, the central files (PageRank over
 * the import and call graph, computed at index time) and the hot ones (most commits).
 */
export function overview(store: IndexStore, root: string, resolvedCalls: number, top = TOP_FILES): OverviewResult {
  const meta = store.meta();
  const languages = new Map<string, { files: number; lines: number }>();
  let lines = 0;
  for (const file of store.allFiles()) {
    if (file.skipped) continue;
    const key = file.language ?? textKind(file.path);
    const entry = languages.get(key) ?? { files: 0, lines: 0 };
    entry.files++;
    entry.lines += file.lines;
    lines += file.lines;
    languages.set(key, entry);
  }
  const ranked = store.graph.ranked() ?? { paths: [], scores: [] };
  const central = ranked.paths
    .map((path, i) => ({ path, score: Number(ranked.scores[i]!.toPrecision(4)) }))
    .filter(({ path }) => store.file(path) !== undefined)
    .sort((a, b) => b.score - a.score || a.path.localeCompare(b.path))
    .slice(0, top);
  const hot: Array<{ path: string; commits: number }> = [];
  for (const [path, history] of store.history.all()) hot.push({ path, commits: history.churn });
  hot.sort((a, b) => b.commits - a.commits || a.path.localeCompare(b.path));
  return {
    root,
    languages: [...languages].map(([language, v]) => ({ language, ...v })).sort((a, b) => b.lines - a.lines || a.language.localeCompare(b.language)),
    totals: {
      files: meta.totals.files,
      lines,
      bytes: meta.totals.bytes,
      symbols: meta.totals.symbols,
      calls: meta.totals.calls,
      resolvedCalls,
      imports: meta.totals.imports,
      commits: meta.commits,
    },
    central,
    hot: hot.slice(0, top),
    index: {
      schema: meta.schema,
      lastRun: meta.lastRun ? { ...meta.lastRun, at: new Date(meta.lastRun.at).toISOString() } : null,
      semantic: semanticReady(meta.semantic),
      indexBytes: store.diskBytes(),
      gitHead: meta.gitHead,
    },
  };
}

/** Text files are counted by extension (`md`, `json`), or by name when they have none. */
function textKind(path: string): string {
  const base = path.slice(path.lastIndexOf("/") + 1);
  const dot = base.lastIndexOf(".");
  return dot > 0 ? base.slice(dot + 1).toLowerCase() : base;
}
