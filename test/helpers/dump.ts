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
        parsed: store.parse.parsed(f.path) ?? null,
        symbols: store.parse.symbols(f.path) ?? null,
        terms: store.parse.terms(f.path) ?? null,
        history: store.history.of(f.path) ?? null,
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
      commitMessages: [...store.history.allCommits()].map(([hash, commit]) => [hash, commit.message]),
      graph: {
        files: Object.fromEntries(store.graph.files()),
        defs: store.graph.pairs("defs"),
        refs: store.graph.pairs("refs"),
        dependents: store.graph.pairs("dependents"),
        links: Object.fromEntries(store.graph.allLinks()),
        pagerank: store.graph.pageRank() ?? null,
        journal: store.graph.pending(),
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
