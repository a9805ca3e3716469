import { createHash } from "node:crypto";
import { ContextSmithError } from "../core/errors.js";
import { isAmbiguousHeader, languageOf } from "../core/languages.js";
import { RepoFiles } from "../core/repo-file.js";
import type { ImportInfo, Language, SymbolInfo } from "../core/types.js";
import { encodeGraph } from "../graph/codec.js";
import { includeDirsOf, isBuildFile } from "../graph/include-dirs.js";
import { dirOf, fileModuleKeys, INCLUDE_KEY, ModuleResolver, PACKAGE_KEY, SWIFT_TARGETS_KEY, type RepoLayout, type SwiftModule } from "../graph/modules.js";
import { isSwiftManifest, swiftTargetsOf } from "../graph/swift-targets.js";
import { bestFirst, pageRank } from "../graph/pagerank.js";
import { FallbackAnswers, Resolver, type ResolveSource } from "../graph/resolve.js";
import { collectGarbage } from "../runtime/gc.js";
import type { IndexStore } from "../store/store.js";
import type { FileGraphWrite } from "../store/tables/graph.js";
import type { DefinedShape, FileGraph } from "../store/types.js";

/**
 * Files resolved per transaction: bounded memory and write-transaction size on any repository,
 * few enough commits (each one syncs) on a first build.
 */
const CHUNK_FILES = 1024;
/** Files resolved with one resolver's caches. */
const RESOLVER_FILES = CHUNK_FILES * 4;

/** How the graph stage cuts its work, and whom it tells. */
export interface GraphStageOptions {
  /** Hears after each chunk is resolved (files done, files to resolve). */
  onResolved?: (done: number, total: number) => void;
  /** Files resolved per transaction (1,024). */
  chunkFiles?: number;
  /** Files resolved with one resolver's caches (4,096; rounded up to whole chunks). */
  resolverFiles?: number;
  /** Frees what a let-go resolver held: a full collection. */
  collect?: () => void;
  /** Hears each resolver as it starts (a test looks at when they are collected). */
  onResolver?: (resolver: Resolver) => void;
}

/** What one graph update did. */
export interface GraphUpdate {
  /** Files whose content changed since the last update. */
  changed: number;
  /** Files resolved again (the changed ones and those that depend on them). */
  resolved: number;
}

/**
 * The graph stage: brings the stored call and import graph up to date with the parsed files.
 *
 * Incremental and crash-safe, driven by the graph journal that every parse commit fills in the same
 * transaction as the file records:
 * 1. `changed` entries: the definitions index (`defs`) is updated, and the files to resolve again
 *    are found: the changed files, the files whose resolution read them (`dependents`), and the
 *    files that looked up a name now defined or no longer defined (`refs`). All become `resolve`
 *    entries, in one transaction.
 * 2. `resolve` entries are resolved in chunks, each committed with its journal entries removed: a
 *    killed run resumes where it stopped.
 * 3. PageRank over the file graph (imports and calls), when anything changed.
 */
export async function updateGraph(store: IndexStore, root: string, options: GraphStageOptions = {}): Promise<GraphUpdate> {
  const { onResolved = () => undefined, chunkFiles = CHUNK_FILES, resolverFiles = RESOLVER_FILES, collect = collectGarbage, onResolver } = options;
  if (!(chunkFiles >= 1 && resolverFiles >= 1)) throw new ContextSmithError("INVALID_ARGUMENT", `Graph stage: chunks of ${chunkFiles} and resolvers of ${resolverFiles} files; both must be at least 1.`);
  const journal = store.graph.journal();
  // A run killed after its last chunk but before PageRank left it due: that is still to do.
  if (journal.length === 0 && !store.graph.ranksDue()) return { changed: 0, resolved: 0 };
  // A first build has nothing to re-resolve and no old entries to replace: it skips those reads.
  const cold = store.graph.isEmpty();
  const changed = journal.filter((e) => e.state === "changed").map((e) => e.path);
  if (changed.length > 0) await (cold ? expandCold(store, changed, chunkFiles) : expand(store, changed));

  // Every path, read once for both (decoding babel's 27,000 keys takes 30 ms).
  const paths = [...store.allPaths()];
  const modules = new ModuleResolver(paths, repoLayout(store, root, paths));
  const pending = store.graph.pending();
  const fallbacks = new FallbackAnswers();
  let resolver: Resolver | undefined;
  let resolverFrom = 0;
  let resolved = 0;
  let committing: Promise<unknown> = Promise.resolve();
  for (let i = 0; i < pending.length; i += chunkFiles) {
    const chunk = pending.slice(i, i + chunkFiles);
    // The resolver's caches of files (symbols, scopes) serve many chunks, and are let go now and
    // then so that memory stays bounded on huge repositories: with a full collection, or they stay
    // as garbage, and V8, which sized its heap limit while they were live, lets the next resolver's
    // garbage pile up on top. The fallback's answers, few and small, pass to the next resolver.
    if (resolver && i - resolverFrom >= resolverFiles) {
      resolver = undefined;
      collect();
    }
    if (!resolver) {
      resolver = new Resolver(storeSource(store, modules), fallbacks);
      resolverFrom = i;
      onResolver?.(resolver);
    }
    // No local variable holds the resolver: this async function would keep the last iteration's
    // alive through the next iteration's collection.
    const results = resolveChunk(store, resolver, chunk);
    resolved += results.filter((r) => r.resolved !== null).length;
    onResolved(Math.min(i + chunkFiles, pending.length), pending.length);
    // The next chunk is resolved while this one commits: resolution reads only what the parse
    // stage and step 1 committed, never what these transactions write.
    await committing;
    committing = store.transaction(() => {
      for (const { path, resolved: r } of results) {
        // Text files are in the journal too, but never in the graph.
        if (languageOf(path) === null) store.graph.settle(path);
        else store.graph.putFile(path, r?.write ?? null, cold);
        if (cold && r) store.graph.setDefined(path, r.defined, { cold });
      }
    }, "graph-chunk");
  }
  await committing;
  // PageRank only moves when the file graph does (a body edit usually leaves it as it was).
  const ranks = store.graph.ranksDue() ? bestFirst(pageRank(store.graph.allLinks())) : null;
  await store.transaction(() => store.graph.finish(ranks), "graph-finish");
  return { changed: changed.length, resolved };
}

/**
 * Step 1 of a first build: only the definitions index, and what each file registered in it (its
 * names; the shape comes with its graph in step 2, which reads its parse anyway). Without the names,
 * a run killed before step 2 would leave definitions no later run removes. Nothing is resolved
 * again on a first build: every file is in the journal already.
 *
 * In chunks, each its own transaction: all of a 100,000-file repository's definitions at once took
 * 124 MB of memory where chunks of 1,024 files take 33 MB, and that before the one transaction's
 * dirty pages (its `defs` table is 89 MB). A run killed between chunks leaves some files' names
 * registered; the next run finds the index not empty and takes the incremental path, which ends
 * in the same tables (in one transaction: that resumed run is not bounded so).
 */
async function expandCold(store: IndexStore, changed: readonly string[], chunkFiles: number): Promise<void> {
  for (let i = 0; i < changed.length; i += chunkFiles) {
    const defs: Array<[name: string, path: string]> = [];
    const defined: Array<[path: string, names: string[]]> = [];
    for (const path of changed.slice(i, i + chunkFiles)) {
      // Only parsed files take part in the graph (a text file defines nothing, imports nothing).
      if (languageOf(path) === null) continue;
      // A file gone or skipped has no parse either: its record need not be read to know.
      const own = definedNames(path, store.parse.symbols(path) ?? []);
      for (const name of own) defs.push([name, path]);
      defined.push([path, own]);
    }
    await store.transaction(() => {
      store.graph.addDefinitions(defs);
      for (const [path, names] of defined) store.graph.setDefined(path, { names, shape: "" }, { cold: true });
    }, "graph-expand");
  }
}

/** Step 1 of an update: the definitions index and the set of files to resolve again. */
async function expand(store: IndexStore, changed: string[]): Promise<void> {
  const toResolve = new Set<string>(changed);
  const names = new Set<string>();
  const defined = new Map<string, DefinedShape | null>();
  for (const path of changed) {
    // A workspace package.json may name a package (differently): bare imports may resolve anew.
    if (isPackageJson(path)) names.add(PACKAGE_KEY);
    // A build file may name other include folders: includes may resolve anew.
    if (isBuildFile(path)) names.add(INCLUDE_KEY);
    // A Package.swift may give a module another folder: Swift files may belong to other modules.
    if (isSwiftManifest(path)) names.add(SWIFT_TARGETS_KEY);
    // Only parsed files take part in the graph (a text file defines nothing, imports nothing).
    if (languageOf(path) === null) continue;
    const exists = store.file(path) !== undefined;
    const symbols = exists ? store.parse.symbols(path) ?? [] : [];
    const before = store.graph.defined(path);
    const now = exists ? { names: definedNames(path, symbols), shape: shapeOf(symbols, store.parse.parsed(path)?.imports ?? []) } : null;
    defined.set(path, now);
    // An edit inside bodies (the common case) leaves what others read of the file as it was.
    if (before && now && before.shape === now.shape) continue;
    const was = new Set(before?.names ?? []);
    const is = new Set(now?.names ?? []);
    for (const n of was) if (!is.has(n)) names.add(n);
    for (const n of is) if (!was.has(n)) names.add(n);
    // A file that appears or disappears changes what imports resolve to.
    const appeared = !before && store.graph.file(path) === undefined && exists;
    if (appeared || !exists) for (const key of fileModuleKeys(path)) names.add(key);
    for (const dependent of store.graph.dependentsOf(path)) toResolve.add(dependent);
  }
  for (const name of names) for (const file of store.graph.referrersOf(name)) toResolve.add(file);
  await store.transaction(() => {
    for (const [path, now] of defined) store.graph.setDefined(path, now);
    for (const path of toResolve) if (languageOf(path) !== null) store.graph.markResolve(path);
  }, "graph-expand");
}

/**
 * The names a file defines, once each, sorted; an SQL file's in lower case too, by which a query
 * that writes them in another case finds them (SQL folds an unquoted name's case).
 */
function definedNames(path: string, symbols: readonly SymbolInfo[]): string[] {
  const names = symbols.map((s) => s.name);
  if (languageOf(path) === "sql") for (const s of symbols) names.push(s.name.toLowerCase());
  return [...new Set(names)].sort();
}

/** A hash of what resolving other files reads of this one: its symbols without lines, and its imports. */
function shapeOf(symbols: readonly SymbolInfo[], imports: readonly ImportInfo[]): string {
  const hash = createHash("sha1");
  // A prototype that becomes a definition changes what C/C++ calls resolve to.
  for (const s of symbols) hash.update(`${s.name}\u0000${s.qualifiedName}\u0000${s.kind}\u0000${s.parent}\u0000${s.bases?.join(",") ?? ""}${s.decl ? "\u0000decl" : ""}\n`);
  hash.update("\u0001");
  for (const i of imports) hash.update(`${i.module}\u0000${i.kind}\u0000${i.alias}\u0000${i.names.map((n) => `${n.name} ${n.alias}`).join(",")}\n`);
  return hash.digest("hex");
}

/**
 * What the repository's own files say about where modules are: package name -> folder, from the
 * package.json files of the index (a JS/TS monorepo's workspaces), the C/C++ include folders
 * its build files name (compile_commands.json first: it is what the compiler was given), and the
 * Swift modules its Package.swift files give a folder of their own.
 */
function repoLayout(store: IndexStore, root: string, paths: readonly string[]): RepoLayout {
  const packages = new Map<string, string>();
  const includeDirs: Array<{ scope: string; dirs: string[] }> = [];
  const swiftTargets: SwiftModule[] = [];
  const files = new RepoFiles(root);
  for (const path of paths) {
    const build = isBuildFile(path);
    const manifest = isSwiftManifest(path);
    const record = build || manifest || isPackageJson(path) ? store.file(path) : undefined;
    const text = record ? files.readIndexed(record) : null;
    if (text === null) continue;
    if (manifest) {
      swiftTargets.push(...swiftTargetsOf(path, text));
      continue;
    }
    if (build) {
      // A build file's folders serve the files under it (CMake's directory scope); a compilation
      // database's, every file, before the others.
      const dirs = includeDirsOf(path, text, root);
      if (path.endsWith("compile_commands.json")) includeDirs.unshift({ scope: "", dirs });
      else if (dirs.length > 0) includeDirs.push({ scope: dirOf(path), dirs });
      continue;
    }
    try {
      const { name } = JSON.parse(text) as { name?: unknown };
      // The shallowest package.json wins a name that test fixtures reuse.
      const dir = dirOf(path);
      const known = packages.get(typeof name === "string" ? name : "");
      if (typeof name === "string" && name !== "" && (known === undefined || depth(dir) < depth(known))) packages.set(name, dir);
    } catch {
      // Not JSON (a template, a fixture): not a package.
    }
  }
  return { packages, includeDirs, swiftTargets };
}

function isPackageJson(path: string): boolean {
  return path === "package.json" || path.endsWith("/package.json");
}

function depth(dir: string): number {
  return dir === "" ? 0 : dir.split("/").length;
}

/** A chunk's graphs, packed as they are resolved: its call objects never pile up. */
function resolveChunk(store: IndexStore, resolver: Resolver, chunk: readonly string[]): Array<{ path: string; resolved: { write: FileGraphWrite; defined: DefinedShape } | null }> {
  return chunk.map((path) => {
    const r = resolveStored(store, resolver, path);
    return { path, resolved: r && { write: graphWrite(path, r.graph), defined: r.defined } };
  });
}

/** The graph of a stored file and what others read of it, or null when it is gone or has no parse. */
function resolveStored(store: IndexStore, resolver: Resolver, path: string): { graph: FileGraph; defined: DefinedShape } | null {
  const language = parsedLanguage(store, path);
  const parsed = language ? store.parse.parsed(path) : undefined;
  if (!language || !parsed) return null;
  return {
    graph: resolver.resolveFile(path, language, parsed),
    defined: { names: definedNames(path, parsed.symbols), shape: shapeOf(parsed.symbols, parsed.imports) },
  };
}

/**
 * The language a file is parsed as: its name's, which its record holds too, except a `.h` header's,
 * C or C++ by its repository (see headerLanguage): only then is the record read. A file with no
 * parse (gone, skipped) has a language here and no symbols or imports.
 */
function parsedLanguage(store: IndexStore, path: string): Language | null {
  const language = languageOf(path);
  return language !== null && isAmbiguousHeader(path) ? store.file(path)?.language ?? null : language;
}

/** A file's graph as stored, with its links weighted for PageRank. */
function graphWrite(path: string, graph: FileGraph): FileGraphWrite {
  const weights = new Map<string, number>();
  for (const call of graph.calls) {
    for (const [t] of call.targets) {
      // An ambiguous call's weight is shared among its candidates.
      if (t !== path) weights.set(t, (weights.get(t) ?? 0) + 1 / call.targets.length);
    }
  }
  for (const imp of graph.imports) for (const t of imp.targets) weights.set(t, (weights.get(t) ?? 0) + 1);
  const to = [...weights.keys()].sort();
  return { graph: encodeGraph(graph), links: { to, weight: to.map((t) => weights.get(t)!) } };
}

/** Resolution's view of the store, with per-chunk caches. */
function storeSource(store: IndexStore, modules: ModuleResolver): ResolveSource {
  const symbols = new Map<string, readonly SymbolInfo[]>();
  const imports = new Map<string, readonly ImportInfo[]>();
  const definers = new Map<string, string[]>();
  const languages = new Map<string, Language | null>();
  return {
    modules,
    symbols(path) {
      let s = symbols.get(path);
      if (!s) symbols.set(path, (s = store.parse.symbols(path) ?? []));
      return s;
    },
    imports(path) {
      let s = imports.get(path);
      if (!s) imports.set(path, (s = store.parse.parsed(path)?.imports ?? []));
      return s;
    },
    language(path) {
      let l = languages.get(path);
      if (l === undefined) languages.set(path, (l = parsedLanguage(store, path)));
      return l;
    },
    definers(name) {
      let d = definers.get(name);
      if (!d) definers.set(name, (d = store.graph.definersOf(name)));
      return d;
    },
  };
}
