import { join } from "node:path";
import { open } from "lmdb";
import { loadHistoryIndex } from "../../src/store/history-index.js";
import { loadLexical } from "../../src/store/lexical.js";
import { IndexStore } from "../../src/store/store.js";

/**
 * Tables whose bytes depend on the order a run committed in (numeric file ids, vector labels,
 * timestamps, version counters): compared by what they mean, below. Every other table is compared
 * byte for byte, whatever it is: a table added later is covered without being listed here.
 */
const BY_MEANING = new Set(["files", "paths", "lexical", "meta", "labels", "embedded", "history-index"]);

/** Tables every index has; a dump of an index without one of them, or with another, fails loudly. */
const KNOWN = [
  "api", "commits", "defined", "defs", "dependents", "embed-journal", "embedded", "files", "graph", "graph-journal", "graph-meta", "history",
  "history-index", "journal", "labels", "lexical", "links", "meta", "parsed", "paths", "refs", "stats", "symbols", "terms",
];

/**
 * Everything an index holds, for comparing two indexes of the same tree: every table, byte for
 * byte, except those whose bytes depend on commit order, which are compared by path.
 */
export async function dumpIndex(indexDir: string): Promise<unknown> {
  const raw = rawTables(indexDir);
  const store = IndexStore.openForRead(indexDir);
  if (!store) throw new Error(`no index in ${indexDir}`);
  try {
    const meta = store.meta();
    const ids = store.lexical.ids();
    const lexical = loadLexical(store);
    const history = loadHistoryIndex(store);
    const probe = ["service", "compute", "handler", "finish", "shared", "method", "fix", "helper", "value"];
    const byPath = (id: number): string => ids.get(id) ?? `<removed id ${id}>`;
    return {
      tables: raw,
      files: [...store.allFiles()].map(({ id: _id, ...record }) => record),
      paths: [...ids.values()].sort(),
      meta: { schema: meta.schema, totals: meta.totals, gitHead: meta.gitHead, commits: meta.commits, lexicalFiles: meta.lexicalFiles, vectors: meta.semantic?.vectors ?? 0 },
      // Each BM25 statistic of the snapshot and journal, and FlexSearch, through what they answer.
      lexical: {
        body: { docs: lexical.bm25.docs, avgLength: lexical.bm25.avgLength, df: probe.map((t) => lexical.bm25.df(t)) },
        symbols: { docs: lexical.symbols.docs, avgLength: lexical.symbols.avgLength, df: probe.map((t) => lexical.symbols.df(t)) },
        names: { docs: lexical.names.docs, df: probe.map((t) => lexical.names.df(t)) },
        postings: probe.map((t) => postingsByPath(lexical.bm25.postings(t), byPath)),
        search: probe.map((t) => lexical.search(t, { limit: 1000 }).sort()),
      },
      history: { docs: history.bm25.docs, postings: probe.map((t) => postingsByPath(history.bm25.postings(t), (id) => history.pathOf(id) ?? "?")) },
      vectors: [...store.vectors.all()].map(([path, v]) => ({ path, hashes: v.hashes, names: v.names, vectors: v.vectors.toString("base64") })),
      labels: [...store.vectors.labels()].map(([, at]) => at.join("#")).sort(),
    };
  } finally {
    await store.close();
  }
}

function postingsByPath(postings: { ids: Uint32Array; tfs: Uint16Array } | undefined, pathOf: (id: number) => string): string[] {
  if (!postings) return [];
  return [...postings.ids].map((id, i) => `${pathOf(id)}:${postings.tfs[i]}`).sort();
}

/** Every table not compared by meaning, as hex `key=value` lines. */
function rawTables(indexDir: string): Record<string, string[]> {
  // The same flags as IndexStore: lmdb-js shares one environment per file, first flags winning.
  const env = open({ path: join(indexDir, "index.lmdb"), noSubdir: true, maxDbs: 32, compression: false });
  try {
    const names = [...env.getKeys()].map(String).sort();
    if (names.join(",") !== [...KNOWN].sort().join(",")) throw new Error(`the index has the tables ${names.join(", ")}: update KNOWN in test/helpers/dump.ts`);
    const tables: Record<string, string[]> = {};
    for (const name of names) {
      if (BY_MEANING.has(name)) continue;
      const db = env.openDB(name, { encoding: "binary", keyEncoding: "binary" });
      tables[name] = [...db.getRange()].map(({ key, value }) => `${Buffer.from(key as Uint8Array).toString("hex")}=${Buffer.from(value as Uint8Array).toString("hex")}`);
    }
    return tables;
  } finally {
    void env.close();
  }
}
