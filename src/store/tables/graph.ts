import type { Database, RootDatabase } from "lmdb";
import type { DefinedShape, FileLinks, RankedFiles, StoredFileGraph } from "../types.js";
import { COMPRESSED, type WriteScope } from "./scope.js";

/** Why a file is in the graph journal: its content changed, or something its resolution read did. */
export type GraphJournalState = "changed" | "resolve";

/** The reverse indexes of the graph, each a set of `[first, second]` keys. */
export type GraphPairs = "defs" | "refs" | "dependents";

/** A file's resolved graph as the graph stage writes it. */
export interface FileGraphWrite {
  graph: StoredFileGraph;
  links: FileLinks;
}

/**
 * The code graph part (written by the graph stage, `src/indexing/graph-stage.ts`): each file's
 * resolved calls and imports, the reverse indexes that say whom an edit concerns, the file graph
 * and its PageRank, and the journal of files to resolve again.
 */
export class GraphTables {
  /** Resolved calls and imports per file. */
  readonly #graph: Database<StoredFileGraph, string>;
  /** `[path, dependent]`: `dependent`'s resolution read `path`. */
  readonly #dependents: Database<true, [string, string]>;
  /** `[name, path]`: `path`'s resolution looked `name` up (a called name or a `mod:` module key). */
  readonly #refs: Database<true, [string, string]>;
  /** `[name, path]`: `path` defines `name`. */
  readonly #defs: Database<true, [string, string]>;
  readonly #defined: Database<DefinedShape, string>;
  readonly #links: Database<FileLinks, string>;
  readonly #journal: Database<GraphJournalState, string>;
  /** PageRank, best first (key `ranked`), and a marker while it is due (key `pagerank-due`). */
  readonly #meta: Database<RankedFiles | Record<string, never>, string>;

  constructor(env: RootDatabase, private readonly scope: WriteScope) {
    this.#graph = env.openDB("graph", COMPRESSED);
    this.#dependents = env.openDB("dependents", { keyEncoding: "ordered-binary" });
    this.#refs = env.openDB("refs", { keyEncoding: "ordered-binary" });
    this.#defs = env.openDB("defs", { keyEncoding: "ordered-binary" });
    this.#defined = env.openDB("defined", COMPRESSED);
    this.#links = env.openDB("links", COMPRESSED);
    this.#journal = env.openDB("graph-journal", {});
    this.#meta = env.openDB("graph-meta", {});
  }

  // Reading.

  journal(): Array<{ path: string; state: GraphJournalState }> {
    return [...this.#journal.getRange()].map(({ key, value }) => ({ path: key, state: value }));
  }

  /** Files journalled, in path order. */
  pending(): string[] {
    return [...this.#journal.getKeys()];
  }

  hasPending(): boolean {
    return this.#journal.getKeysCount({ limit: 1 }) > 0;
  }

  /** True before the first graph build: no graph and no definitions yet. */
  isEmpty(): boolean {
    return this.#graph.getKeysCount({ limit: 1 }) === 0 && this.#defined.getKeysCount({ limit: 1 }) === 0;
  }

  file(path: string): StoredFileGraph | undefined {
    return this.#graph.get(path);
  }

  *files(): IterableIterator<[path: string, graph: StoredFileGraph]> {
    for (const { key, value } of this.#graph.getRange()) yield [key, value];
  }

  /** Files whose resolution read `path`. */
  dependentsOf(path: string): string[] {
    return paired(this.#dependents, path);
  }

  /** Files whose resolution looked `name` up. */
  referrersOf(name: string): string[] {
    return paired(this.#refs, name);
  }

  /** Files defining `name`, in path order. */
  definersOf(name: string): string[] {
    return paired(this.#defs, name);
  }

  /** Every defined name, once, in order. */
  *definedNames(): IterableIterator<string> {
    let last: string | undefined;
    for (const [name] of this.#defs.getKeys()) {
      if (name !== last) yield name;
      last = name;
    }
  }

  /** Every key of one reverse index (for inspection and tests). */
  pairs(which: GraphPairs): Array<[string, string]> {
    const table = which === "defs" ? this.#defs : which === "refs" ? this.#refs : this.#dependents;
    return [...table.getKeys()];
  }

  defined(path: string): DefinedShape | undefined {
    return this.#defined.get(path);
  }

  links(path: string): FileLinks | undefined {
    return this.#links.get(path);
  }

  *allLinks(): IterableIterator<[path: string, links: FileLinks]> {
    for (const { key, value } of this.#links.getRange()) yield [key, value];
  }

  /** Every file's PageRank, best first; undefined before the first graph build. */
  ranked(): RankedFiles | undefined {
    return this.#meta.get(RANKED) as RankedFiles | undefined;
  }

  /** Whether PageRank is out of date: the file graph changed since it was computed, or it never was. */
  ranksDue(): boolean {
    return this.#meta.doesExist(RANKS_DUE) || !this.#meta.doesExist(RANKED);
  }

  // Writing (inside a transaction).

  /** Journals a file whose content changed (or that was removed). */
  markChanged(path: string): void {
    this.scope.check();
    void this.#journal.put(path, "changed");
  }

  /** Journals a file to resolve again (something its resolution read changed). */
  markResolve(path: string): void {
    this.scope.check();
    if (this.#journal.get(path) !== "resolve") void this.#journal.put(path, "resolve");
  }

  /** Settles a journal entry with nothing to write (a file that takes no part in the graph). */
  settle(path: string): void {
    this.scope.check();
    void this.#journal.remove(path);
  }

  /** Adds definitions on a first build (nothing to replace). */
  addDefinitions(pairs: Iterable<[name: string, path: string]>): void {
    this.scope.check();
    for (const key of pairs) void this.#defs.put(key, true);
  }

  /** Sets what a file defines now (null: it is gone), replacing only the definitions that changed. */
  setDefined(path: string, now: DefinedShape | null, options: { cold?: boolean } = {}): void {
    this.scope.check();
    if (options.cold) {
      if (now) void this.#defined.put(path, now);
      return;
    }
    const stored = this.#defined.get(path);
    replaceKeys(stored?.names ?? [], now?.names ?? [], (n) => this.#defs.remove([n, path]), (n) => this.#defs.put([n, path], true));
    if (!now) {
      if (stored) void this.#defined.remove(path);
    } else if (stored?.shape !== now.shape || stored.names.join("\u0000") !== now.names.join("\u0000")) void this.#defined.put(path, now);
  }

  /**
   * Replaces a file's graph, its reverse entries and its links, and settles its journal entry. Only
   * what changed is written: an edit inside one body rewrites one record, not every key the file
   * registered (fewer freed pages per commit; see native-notes/lmdb.md). `cold`: nothing stored to
   * replace. True when its links changed.
   */
  putFile(path: string, write: FileGraphWrite | null, cold: boolean): boolean {
    this.scope.check();
    const old = cold ? undefined : this.#graph.get(path);
    const oldLinks = cold ? undefined : this.#links.get(path);
    void this.#journal.remove(path);
    replaceKeys(old?.deps ?? [], write?.graph.deps ?? [], (dep) => this.#dependents.remove([dep, path]), (dep) => this.#dependents.put([dep, path], true));
    replaceKeys(old?.refs ?? [], write?.graph.refs ?? [], (name) => this.#refs.remove([name, path]), (name) => this.#refs.put([name, path], true));
    if (!write) {
      if (old) void this.#graph.remove(path);
      if (!oldLinks) return false;
      void this.#links.remove(path);
      this.#ranksMoved();
      return true;
    }
    void this.#graph.put(path, write.graph);
    if (oldLinks && JSON.stringify(oldLinks) === JSON.stringify(write.links)) return false;
    void this.#links.put(path, write.links);
    this.#ranksMoved();
    return true;
  }

  /** The file graph moved: PageRank is due, in the same commit (a run killed before it computes them knows). */
  #ranksMoved(): void {
    if (!this.#meta.doesExist(RANKS_DUE)) void this.#meta.put(RANKS_DUE, {});
  }

  /** Ends an update: the new PageRank when it was due, and the part's version. */
  finish(ranked: RankedFiles | null): void {
    this.scope.check();
    if (ranked) {
      void this.#meta.put(RANKED, ranked);
      void this.#meta.remove(RANKS_DUE);
    }
    this.scope.updateMeta((meta) => {
      meta.versions.graph++;
    });
  }
}

/** The `graph-meta` key present while PageRank is out of date. */
const RANKS_DUE = "pagerank-due";
/** The `graph-meta` key of {@link RankedFiles}. */
const RANKED = "ranked";

/** The second parts of the `[first, second]` keys whose first part is `first`. */
function paired(table: Database<true, [string, string]>, first: string): string[] {
  const seconds: string[] = [];
  for (const key of table.getKeys({ start: [first] })) {
    if (key[0] !== first) break;
    seconds.push(key[1]);
  }
  return seconds;
}

/** Removes the keys only in `before` and adds those only in `after`. */
function replaceKeys(before: readonly string[], after: readonly string[], remove: (key: string) => unknown, add: (key: string) => unknown): void {
  const was = new Set(before);
  const is = new Set(after);
  for (const key of was) if (!is.has(key)) void remove(key);
  for (const key of is) if (!was.has(key)) void add(key);
}
