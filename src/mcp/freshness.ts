import { ContextSmithError } from "../core/errors.js";
import type { ProgressEvent } from "../core/types.js";
import type { Engine } from "../engine.js";
import { IndexStore } from "../store/store.js";

/** How the index stood when an answer was computed. */
export interface FreshState {
  /** Why the index could not be brought up to date (another process is indexing, a read-only index), or null. */
  problem: string | null;
  /** With a watcher: the files changed since the last committed index run (being indexed now). */
  changed?: string[];
}

/** A watcher keeping the index up to date (see watch/watcher.ts): answers read the index as it is. */
export interface IndexWatcher {
  /** Resolves once the first run is done. */
  started: Promise<unknown>;
  changedSince(): string[];
}

/**
 * Keeps an engine's index fresh for a long-running server: the incremental check runs before an
 * answer, at most once every `minIntervalMs`, and concurrent answers share the run in flight. A run
 * that cannot happen (a CLI `index` holds the lock, a read-only cache) does not fail the answer: it
 * is answered from the index as it is, and told so.
 */
export class Freshness {
  readonly #engine: Engine;
  readonly #minIntervalMs: number;
  readonly #onProgress: (event: ProgressEvent) => void;
  readonly #now: () => number;
  #last = Number.NEGATIVE_INFINITY;
  #state: FreshState = { problem: null };
  #inFlight: Promise<FreshState> | null = null;

  readonly #watcher: IndexWatcher | null;

  constructor(engine: Engine, options: { minIntervalMs?: number; onProgress?: (event: ProgressEvent) => void; now?: () => number; watcher?: IndexWatcher } = {}) {
    this.#engine = engine;
    this.#watcher = options.watcher ?? null;
    this.#minIntervalMs = options.minIntervalMs ?? 2000;
    this.#onProgress = options.onProgress ?? (() => undefined);
    this.#now = options.now ?? Date.now;
  }

  /**
   * Brings the index up to date unless that was done less than the interval ago. With a watcher,
   * the watcher does that: an answer reads the last committed index (once there is one) and is
   * told the files changed since.
   */
  ensure(options: { force?: boolean } = {}): Promise<FreshState> {
    if (this.#watcher && !options.force) {
      const watcher = this.#watcher;
      const state = (): FreshState => {
        const changed = watcher.changedSince();
        return changed.length > 0 ? { problem: null, changed } : { problem: null };
      };
      // An index to answer from: at once, whatever the watcher's first run is doing (another
      // process may hold the lock for minutes). None yet: the first run builds it.
      return IndexStore.exists(this.#engine.config.indexDir) ? Promise.resolve(state()) : watcher.started.then(state);
    }
    if (this.#inFlight) return this.#inFlight;
    if (!options.force && this.#state.problem === null && this.#now() - this.#last < this.#minIntervalMs) return Promise.resolve(this.#state);
    this.#inFlight = this.#run().finally(() => {
      this.#last = this.#now();
      this.#inFlight = null;
    });
    return this.#inFlight;
  }

  async #run(): Promise<FreshState> {
    // With no index at all there is nothing to answer from: wait for a concurrent writer then.
    const hasIndex = IndexStore.exists(this.#engine.config.indexDir);
    try {
      await this.#engine.index({ wait: !hasIndex, onProgress: this.#onProgress });
      this.#state = { problem: null };
    } catch (error) {
      const err = ContextSmithError.from(error, "INTERNAL");
      if (!hasIndex && !IndexStore.exists(this.#engine.config.indexDir)) throw err;
      this.#state = {
        problem: err.code === "LOCKED" ? "another process is indexing this repository" : `the index could not be updated (${err.message})`,
      };
    }
    return this.#state;
  }
}
