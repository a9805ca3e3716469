import { IndexStore } from "../../src/store/store.js";
import { loadLexical } from "../../src/store/lexical.js";

/**
 * Everything an index holds, keyed by path (numeric ids and timestamps depend on run order and
 * are left out), for comparing two indexes of the same tree.
 */
export async function dumpIndex(indexDir: string): Promise<unknown> {
  const store = IndexStore.openForRead(indexDir);
  if (!store) throw new Error(`no index in ${indexDir}`);
  try {
    const files: Record<string, unknown> = {};
    for (const f of store.allFiles()) {
      files[f.path] = {
        size: f.size,
        hash: f.hash,
        language: f.language,
        lines: f.lines,
        skipped: f.skipped,
        parsed: store.parsed.get(f.path) ?? null,
        symbols: store.symbols.get(f.path) ?? null,
        terms: store.terms.get(f.path) ?? null,
        history: store.history.get(f.path) ?? null,
      };
    }
    const meta = store.meta();
    const lexical = loadLexical(store);
    const probe = ["service", "compute", "handler", "finish", "shared", "method", "fix"];
    return {
      files,
      totals: meta.totals,
      gitHead: meta.gitHead,
      commits: meta.commits,
      commitMessages: [...store.commits.getRange()].map(({ key, value }) => [key, value.message]),
      graph: {
        files: Object.fromEntries(store.graph.getRange().map(({ key, value }) => [key, value])),
        defs: [...store.defs.getKeys()],
        refs: [...store.refs.getKeys()],
        dependents: [...store.dependents.getKeys()],
        links: Object.fromEntries(store.links.getRange().map(({ key, value }) => [key, value])),
        pagerank: store.graphMeta.get("pagerank") ?? null,
        journal: [...store.graphJournal.getKeys()],
      },
      lexical: {
        docs: lexical.bm25.docs,
        avgLength: lexical.bm25.avgLength,
        df: probe.map((t) => lexical.bm25.df(t)),
        search: probe.map((t) => lexical.search(t, { limit: 1000 }).sort()),
      },
    };
  } finally {
    await store.close();
  }
}
