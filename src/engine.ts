import { statSync } from "node:fs";
import { resolveConfig, type Config, type IndexOptions } from "./core/config.js";
import { ContextSmithError } from "./core/errors.js";
import type { IndexStats } from "./core/types.js";
import { runIndex, type RunOptions } from "./indexing/indexer.js";
import { loadLexical, type LexicalIndex } from "./store/lexical.js";
import { IndexStore } from "./store/store.js";
import type { StoreMeta } from "./store/types.js";

/** Options of an {@link Engine}: where the repository is and how it is indexed. */
export type EngineOptions = IndexOptions;

/** What `Engine.status()` reports about the stored index. */
export interface IndexStatus {
  root: string;
  indexDir: string;
  schema: number;
  totals: StoreMeta["totals"];
  gitHead: string | null;
  commits: number;
  semantic: boolean;
  lastRun: StoreMeta["lastRun"];
  indexBytes: number;
}

/**
 * The library entry: one repository's index. The CLI and the MCP server are thin layers over it,
 * and one process may hold several engines (one per repository).
 *
 * ```ts
 * const engine = new Engine("/path/to/repo");
 * const stats = await engine.index({ onProgress: console.error });
 * await engine.close();
 * ```
 */
export class Engine {
  /** The resolved configuration. */
  readonly config: Config;
  #reader: IndexStore | null = null;

  /** @throws ContextSmithError `PATH_NOT_FOUND` or `NOT_A_DIRECTORY` for a bad root. */
  constructor(root: string, options: EngineOptions = {}) {
    this.config = resolveConfig(root, options);
    let isDir: boolean;
    try {
      isDir = statSync(this.config.root).isDirectory();
    } catch {
      throw new ContextSmithError("PATH_NOT_FOUND", `No such directory: ${this.config.root}`);
    }
    if (!isDir) throw new ContextSmithError("NOT_A_DIRECTORY", `Not a directory: ${this.config.root}`);
  }

  /**
   * Brings the index up to date: a full build the first time, then only what changed.
   * Waits for a concurrent writer unless `wait: false` (then fails with `LOCKED`).
   */
  async index(options: RunOptions = {}): Promise<IndexStats> {
    return runIndex(this.config, options);
  }

  /** The stored index's state, or null when there is no index yet. */
  status(): IndexStatus | null {
    const store = this.#store();
    if (!store) return null;
    const meta = store.meta();
    return {
      root: this.config.root,
      indexDir: this.config.indexDir,
      schema: meta.schema,
      totals: meta.totals,
      gitHead: meta.gitHead,
      commits: meta.commits,
      semantic: meta.semantic,
      lastRun: meta.lastRun,
      indexBytes: store.diskBytes(),
    };
  }

  /** The lexical index (FlexSearch and BM25 statistics) as currently committed. */
  lexical(): LexicalIndex {
    const store = this.#store();
    if (!store) throw new ContextSmithError("INDEX_CORRUPT", "There is no index yet: run `ctxsmith index` first.");
    return loadLexical(store);
  }

  /** Read access to the stored tables, or null when there is no index yet. */
  store(): IndexStore | null {
    return this.#store();
  }

  /** Releases the store. The engine can be used again afterwards (it reopens lazily). */
  async close(): Promise<void> {
    const reader = this.#reader;
    this.#reader = null;
    await reader?.close();
  }

  #store(): IndexStore | null {
    // LMDB read transactions renew on each event-loop turn, so one open handle sees new commits.
    this.#reader ??= IndexStore.openForRead(this.config.indexDir);
    return this.#reader;
  }
}
