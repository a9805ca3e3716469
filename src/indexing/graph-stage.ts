import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { languageOf } from "../core/languages.js";
import type { ImportInfo, Language, SymbolInfo } from "../core/types.js";
import { encodeGraph } from "../graph/codec.js";
import { dirOf, fileModuleKeys, ModuleResolver, PACKAGE_KEY } from "../graph/modules.js";
import { pageRank } from "../graph/pagerank.js";
import { Resolver, type ResolveSource } from "../graph/resolve.js";
import type { FileGraph } from "../store/types.js";
import { pairedWith, type IndexStore } from "../store/store.js";

/**
 * Files resolved per transaction: bounded memory and write-transaction size on any repository,
 * few enough commits (each one syncs) on a first build.
 */
const CHUNK_FILES = 1024;
/** Files resolved with one resolver's caches. */
const RESOLVER_FILES = CHUNK_FILES * 4;

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
 *
 * `onResolved` hears after each chunk is resolved (files done, files to resolve).
 */
export async function updateGraph(store: IndexStore, root: string, onResolved: (done: number, total: number) => void = () => undefined): Promise<GraphUpdate> {
  const journal = [...store.graphJournal.getRange()];
  if (journal.length === 0) return { changed: 0, resolved: 0 };
  // A first build has nothing to re-resolve and no old entries to replace: it skips those reads.
  const cold = store.graph.getKeysCount({ limit: 1 }) === 0 && store.defined.getKeysCount({ limit: 1 }) === 0;
  const changed = journal.filter((e) => e.value === "changed").map((e) => e.key);
  if (changed.length > 0) await expand(store, changed, cold);

  const modules = new ModuleResolver(store.allPaths(), workspacePackages(store, root));
  const pending = [...store.graphJournal.getKeys()];
  let resolver!: Resolver;
  let resolved = 0;
  let linksChanged = false;
  let committing: Promise<unknown> = Promise.resolve();
  for (let i = 0; i < pending.length; i += CHUNK_FILES) {
    const chunk = pending.slice(i, i + CHUNK_FILES);
    // The resolver's caches (symbols, fallbacks) serve many chunks, and are let go now and then
    // so that memory stays bounded on huge repositories.
    if (i % RESOLVER_FILES === 0) resolver = new Resolver(storeSource(store, modules));
    const results = chunk.map((path) => ({ path, resolved: resolveStored(store, resolver, path) }));
    resolved += results.filter((r) => r.resolved !== null).length;
    onResolved(Math.min(i + CHUNK_FILES, pending.length), pending.length);
    // The next chunk is resolved while this one commits: resolution reads only what the parse
    // stage and step 1 committed, never what these transactions write.
    await committing;
    committing = store.transaction(() => {
      for (const { path, resolved: r } of results) {
        // Text files are in the journal too, but never in the graph.
        if (languageOf(path) === null) void store.graphJournal.remove(path);
        else if (writeFileGraph(store, path, r?.graph ?? null, cold)) linksChanged = true;
        if (cold && r) void store.defined.put(path, r.defined);
      }
    });
  }
  await committing;
  await store.transaction(() => {
    // PageRank only moves when the file graph does (a body edit usually leaves it as it was).
    if (linksChanged || store.graphMeta.get("pagerank") === undefined) {
      void store.graphMeta.put("pagerank", Object.fromEntries(pageRank(new Map(store.links.getRange().map(({ key, value }) => [key, value])))));
    }
    store.updateMeta((meta) => {
      meta.versions.graph++;
    });
  });
  return { changed: changed.length, resolved };
}

/** Step 1: the definitions index and the set of files to resolve again. */
async function expand(store: IndexStore, changed: string[], cold: boolean): Promise<void> {
  const toResolve = new Set<string>(changed);
  const names = new Set<string>();
  const defined = new Map<string, { names: string[]; shape: string } | null>();
  const coldDefs: Array<[name: string, path: string]> = [];
  for (const path of changed) {
    // A workspace package.json may name a package (differently): bare imports may resolve anew.
    if (!cold && isPackageJson(path)) names.add(PACKAGE_KEY);
    // Only parsed files take part in the graph (a text file defines nothing, imports nothing).
    if (languageOf(path) === null) continue;
    const exists = store.file(path) !== undefined;
    const symbols = exists ? store.symbols.get(path) ?? [] : [];
    if (cold) {
      // Only the definitions index now; each file's `defined` record is written with its graph
      // (step 2 reads its parse anyway).
      for (const name of definedNames(symbols)) coldDefs.push([name, path]);
      continue;
    }
    const before = store.defined.get(path);
    const now = exists ? { names: definedNames(symbols), shape: shapeOf(symbols, store.parsed.get(path)?.imports ?? []) } : null;
    defined.set(path, now);
    // An edit inside bodies (the common case) leaves what others read of the file as it was.
    if (before && now && before.shape === now.shape) continue;
    const was = new Set(before?.names ?? []);
    const is = new Set(now?.names ?? []);
    for (const n of was) if (!is.has(n)) names.add(n);
    for (const n of is) if (!was.has(n)) names.add(n);
    // A file that appears or disappears changes what imports resolve to.
    const appeared = !before && store.graph.get(path) === undefined && exists;
    if (appeared || !exists) for (const key of fileModuleKeys(path)) names.add(key);
    for (const dependent of pairedWith(store.dependents, path)) toResolve.add(dependent);
  }
  if (cold) {
    await store.transaction(() => {
      for (const key of coldDefs) void store.defs.put(key, true);
    });
    return;
  }
  for (const name of names) for (const file of pairedWith(store.refs, name)) toResolve.add(file);
  await store.transaction(() => {
    for (const [path, now] of defined) {
      const stored = store.defined.get(path);
      replaceKeys(stored?.names ?? [], now?.names ?? [], (n) => store.defs.remove([n, path]), (n) => store.defs.put([n, path], true));
      if (!now) {
        if (stored) void store.defined.remove(path);
      } else if (stored?.shape !== now.shape || stored.names.join("\u0000") !== now.names.join("\u0000")) void store.defined.put(path, now);
    }
    for (const path of toResolve) if (languageOf(path) !== null && store.graphJournal.get(path) !== "resolve") void store.graphJournal.put(path, "resolve");
  });
}

/** The names a file defines, once each, sorted. */
function definedNames(symbols: readonly SymbolInfo[]): string[] {
  return [...new Set(symbols.map((s) => s.name))].sort();
}

/** A hash of what resolving other files reads of this one: its symbols without lines, and its imports. */
function shapeOf(symbols: readonly SymbolInfo[], imports: readonly ImportInfo[]): string {
  const hash = createHash("sha1");
  for (const s of symbols) hash.update(`${s.name}\u0000${s.qualifiedName}\u0000${s.kind}\u0000${s.parent}\u0000${s.bases?.join(",") ?? ""}\n`);
  hash.update("\u0001");
  for (const i of imports) hash.update(`${i.module}\u0000${i.kind}\u0000${i.alias}\u0000${i.names.map((n) => `${n.name} ${n.alias}`).join(",")}\n`);
  return hash.digest("hex");
}

/** Package name -> folder, from the package.json files of the index (a JS/TS monorepo's workspaces). */
function workspacePackages(store: IndexStore, root: string): Map<string, string> {
  const packages = new Map<string, string>();
  for (const path of store.allPaths()) {
    if (!isPackageJson(path)) continue;
    try {
      const { name } = JSON.parse(readFileSync(join(root, path), "utf8")) as { name?: unknown };
      // The shallowest package.json wins a name that test fixtures reuse.
      const dir = dirOf(path);
      const known = packages.get(typeof name === "string" ? name : "");
      if (typeof name === "string" && name !== "" && (known === undefined || depth(dir) < depth(known))) packages.set(name, dir);
    } catch {
      // Not JSON (a template, a fixture): not a package.
    }
  }
  return packages;
}

function isPackageJson(path: string): boolean {
  return path === "package.json" || path.endsWith("/package.json");
}

function depth(dir: string): number {
  return dir === "" ? 0 : dir.split("/").length;
}

/** The graph of a stored file and what others read of it, or null when it is gone or has no parse. */
function resolveStored(store: IndexStore, resolver: Resolver, path: string): { graph: FileGraph; defined: { names: string[]; shape: string } } | null {
  const language = languageOf(path);
  const parsed = language ? store.parsed.get(path) : undefined;
  if (!language || !parsed || !store.file(path)) return null;
  return {
    graph: resolver.resolveFile(path, language, parsed),
    defined: { names: definedNames(parsed.symbols), shape: shapeOf(parsed.symbols, parsed.imports) },
  };
}

/**
 * Replaces a file's graph and its reverse entries; call inside a transaction. Only what changed is
 * written: an edit inside one body rewrites one record, not every key the file registered (fewer
 * freed pages per commit; see native-notes/lmdb.md). True when its links changed.
 */
function writeFileGraph(store: IndexStore, path: string, graph: FileGraph | null, cold: boolean): boolean {
  const old = cold ? undefined : store.graph.get(path);
  const oldLinks = cold ? undefined : store.links.get(path);
  void store.graphJournal.remove(path);
  replaceKeys(old?.deps ?? [], graph?.deps ?? [], (dep) => store.dependents.remove([dep, path]), (dep) => store.dependents.put([dep, path], true));
  replaceKeys(old?.refs ?? [], graph?.refs ?? [], (name) => store.refs.remove([name, path]), (name) => store.refs.put([name, path], true));
  if (!graph) {
    if (old) void store.graph.remove(path);
    if (oldLinks) void store.links.remove(path);
    return oldLinks !== undefined;
  }
  const weights = new Map<string, number>();
  for (const call of graph.calls) {
    for (const [t] of call.targets) {
      // An ambiguous call's weight is shared among its candidates.
      if (t !== path) weights.set(t, (weights.get(t) ?? 0) + 1 / call.targets.length);
    }
  }
  for (const imp of graph.imports) for (const t of imp.targets) weights.set(t, (weights.get(t) ?? 0) + 1);
  void store.graph.put(path, encodeGraph(graph));
  const to = [...weights.keys()].sort();
  const links = { to, weight: to.map((t) => weights.get(t)!) };
  if (JSON.stringify(oldLinks) === JSON.stringify(links)) return false;
  void store.links.put(path, links);
  return true;
}

/** Removes the keys only in `before` and adds those only in `after`. */
function replaceKeys(before: readonly string[], after: readonly string[], remove: (key: string) => unknown, add: (key: string) => unknown): void {
  const was = new Set(before);
  const is = new Set(after);
  for (const key of was) if (!is.has(key)) void remove(key);
  for (const key of is) if (!was.has(key)) void add(key);
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
      if (!s) symbols.set(path, (s = store.symbols.get(path) ?? []));
      return s;
    },
    imports(path) {
      let s = imports.get(path);
      if (!s) imports.set(path, (s = store.parsed.get(path)?.imports ?? []));
      return s;
    },
    language(path) {
      let l = languages.get(path);
      if (l === undefined) languages.set(path, (l = languageOf(path)));
      return l;
    },
    definers(name) {
      let d = definers.get(name);
      if (!d) definers.set(name, (d = pairedWith(store.defs, name)));
      return d;
    },
  };
}
