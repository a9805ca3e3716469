/**
 * The layers of ContextSmith, checked by `npm test` (`npm run layers`). Each layer imports only the
 * layers below it; nothing imports upward, and no modules import each other in a circle:
 *
 *   doors: cli, http, mcp, bench (src/bench), index.ts  (cli may use http, mcp and bench; http may use mcp)
 *   review, watch                                        a change between two commits mapped onto the index; the index kept fresh as files change
 *   workspace                                            many repositories: registry, groups, relations, fused queries
 *   engine.ts                                            one repository over the shared runtime
 *   notes -> query -> graph;  indexing -> graph          read path, write path
 *   store                                                LMDB schema and tables, the lexical and vector indexes
 *   runtime                                              what one process shares: pools, lock, models, token counter
 *   core                                                 types, errors, config
 *
 * workers/ are thin entries over the layers below the engine; they never import a door or the engine.
 * There is no exception list: a new import that breaks a rule is a design question, not a waiver.
 */
const layer = (name, from, allowed) => ({
  name,
  severity: "error",
  comment: `${name}: may import only ${allowed.length ? allowed.join(", ") : "itself"}`,
  from: { path: from },
  to: { path: "^(src|workers)/", pathNot: [from, ...allowed.map((a) => `^src/${a}`)] },
});

module.exports = {
  forbidden: [
    { name: "no-circular", severity: "error", comment: "modules that import each other in a circle", from: {}, to: { circular: true } },
    layer("core", "^src/core/", []),
    layer("runtime", "^src/runtime/", ["core/"]),
    layer("store", "^src/store/", ["runtime/", "core/"]),
    layer("graph", "^src/graph/", ["store/", "runtime/", "core/"]),
    layer("query", "^src/query/", ["graph/", "store/", "runtime/", "core/"]),
    layer("indexing", "^src/indexing/", ["graph/", "store/", "runtime/", "core/"]),
    layer("notes", "^src/notes/", ["query/", "graph/", "store/", "runtime/", "core/"]),
    layer("engine", "^src/engine\\.ts$", ["notes/", "query/", "indexing/", "graph/", "store/", "runtime/", "core/"]),
    layer("workspace", "^src/workspace/", ["engine\\.ts$", "notes/", "query/", "indexing/", "graph/", "store/", "runtime/", "core/"]),
    layer("review", "^src/review/", ["workspace/", "engine\\.ts$", "notes/", "query/", "indexing/", "graph/", "store/", "runtime/", "core/"]),
    layer("watch", "^src/watch/", ["workspace/", "engine\\.ts$", "notes/", "query/", "indexing/", "graph/", "store/", "runtime/", "core/"]),
    layer("mcp", "^src/mcp/", ["watch/", "review/", "workspace/", "engine\\.ts$", "notes/", "query/", "indexing/", "graph/", "store/", "runtime/", "core/"]),
    layer("http", "^src/http/", ["mcp/", "watch/", "review/", "workspace/", "engine\\.ts$", "notes/", "query/", "indexing/", "graph/", "store/", "runtime/", "core/"]),
    // The web UI runs in a browser: it talks to the server over HTTP only and imports nothing of the project.
    layer("ui", "^src/ui/", []),
    layer("bench", "^src/bench/", ["engine\\.ts$", "notes/", "query/", "indexing/", "graph/", "store/", "runtime/", "core/"]),
    layer("workers", "^workers/", ["query/", "indexing/", "graph/", "store/", "runtime/", "core/"]),
    {
      name: "not-to-unresolvable",
      severity: "error",
      comment: "a relative import that resolves to no file (packages resolve through their own exports maps at run time)",
      from: {},
      to: { couldNotResolve: true, path: "^[.]" },
    },
  ],
  options: {
    doNotFollow: { path: "node_modules" },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.json" },
  },
};
