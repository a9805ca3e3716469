import type { Database, RootDatabase } from "lmdb";
import type { CommitInfo, FileHistory } from "../../core/types.js";
import { COMPRESSED, type WriteScope } from "./scope.js";

/** The history index, encoded (see `store/history-index.ts`). */
export interface HistoryIndexData {
  bm25: Buffer;
  paths: Buffer;
  /** The release notes each of the newest file-touching commits changed (see `store/history-index.ts`). */
  recent: Buffer;
  /** Paths the history renamed, with the file each is now (see `store/history-index.ts`). */
  renames: Buffer;
}

/** One git stage's result, written at once. */
export interface HistoryWrite {
  /** True: the tables are replaced (a first read, or rewritten history); false: merged into. */
  replace: boolean;
  /** Files that still exist: the history of any other file is dropped. */
  live: ReadonlySet<string>;
  /** Commits to keep, by abbreviated hash. */
  commits: ReadonlyArray<[hash: string, commit: CommitInfo]>;
  /** The new history of each file this run read commits of. */
  files: ReadonlyMap<string, FileHistory>;
  /** The history index over every file's history after this run. */
  index: HistoryIndexData;
  head: string | null;
  /** Commits read by this run. */
  commitsRead: number;
}

/** The git history part: per-file history, the commits it lists, and the index over their messages. */
export class HistoryTables {
  readonly #files: Database<FileHistory, string>;
  readonly #commits: Database<CommitInfo, string>;
  readonly #index: Database<Buffer, string>;

  constructor(env: RootDatabase, private readonly scope: WriteScope) {
    this.#files = env.openDB("history", COMPRESSED);
    this.#commits = env.openDB("commits", {});
    this.#index = env.openDB("history-index", { encoding: "binary", ...COMPRESSED });
  }

  of(path: string): FileHistory | undefined {
    return this.#files.get(path);
  }

  *all(): IterableIterator<[path: string, history: FileHistory]> {
    for (const { key, value } of this.#files.getRange()) yield [key, value];
  }

  commit(hash: string): CommitInfo | undefined {
    return this.#commits.get(hash);
  }

  *allCommits(): IterableIterator<[hash: string, commit: CommitInfo]> {
    for (const { key, value } of this.#commits.getRange()) yield [key, value];
  }

  /** The stored window of recent commits alone (the index's postings are megabytes). */
  recent(): Buffer | undefined {
    return this.#index.get("recent");
  }

  /** The stored renames alone. */
  renames(): Buffer | undefined {
    return this.#index.get("renames");
  }

  /** The index the history signal reads (the renames, which only paths read, are left out). */
  index(): Partial<Omit<HistoryIndexData, "renames">> {
    return { bm25: this.#index.get("bm25"), paths: this.#index.get("paths"), recent: this.recent() };
  }

  /** Writes a run's history with its index and the head it reached. */
  write(run: HistoryWrite): void {
    this.scope.check();
    if (run.replace) {
      for (const key of this.#files.getKeys()) void this.#files.remove(key);
      for (const key of this.#commits.getKeys()) void this.#commits.remove(key);
    } else {
      for (const key of this.#files.getKeys()) if (!run.live.has(key)) void this.#files.remove(key);
    }
    for (const [hash, commit] of run.commits) void this.#commits.put(hash, commit);
    for (const [path, history] of run.files) void this.#files.put(path, history);
    void this.#index.put("bm25", run.index.bm25);
    void this.#index.put("paths", run.index.paths);
    void this.#index.put("recent", run.index.recent);
    void this.#index.put("renames", run.index.renames);
    this.scope.updateMeta((meta) => {
      meta.gitHead = run.head;
      meta.versions.history++;
      meta.commits = run.replace ? run.commitsRead : meta.commits + run.commitsRead;
    });
  }
}
