import { closeSync, mkdirSync, openSync, rmSync, statSync, utimesSync } from "node:fs";
import { join } from "node:path";
import { ContextSmithError } from "../core/errors.js";
import type { RunOptions } from "../core/types.js";

/** What a check runs: one repository's incremental index run. */
export type CheckRun = (options: RunOptions) => Promise<unknown>;

/**
 * When the workspace re-checks a repository for changes, and the checks that run in the
 * background. A check is due when the last one is older than `everyMs` (a file's time in
 * `<data-dir>/checks/`, shared by every process of the data folder): a query over twenty
 * repositories does not walk twenty trees. Background checks run one after another, each
 * repository queued once however many queries find it due.
 */
export class RepoChecks {
  readonly #dir: string;
  #chain: Promise<void> = Promise.resolve();
  /** Repositories queued or being checked, each with what cancels its check. */
  readonly #queued = new Map<string, AbortController>();
  /** The last background failure of each repository, until a check succeeds. */
  readonly #failed = new Map<string, string>();
  readonly #closing = new AbortController();

  constructor(
    dataDir: string,
    private readonly everyMs: number,
  ) {
    this.#dir = join(dataDir, "checks");
  }

  /** Whether a query should check the repository first (always when it has no index yet). */
  due(name: string, indexed: boolean, refresh: boolean | undefined): boolean {
    if (refresh === false || this.#queued.has(name)) return false;
    if (this.everyMs <= 0 || !indexed) return true;
    try {
      return Date.now() - statSync(join(this.#dir, name)).mtimeMs >= this.everyMs;
    } catch {
      return true;
    }
  }

  /** Records that the repository was brought up to date now (and forgets a failure of an earlier check). */
  checked(name: string): void {
    this.#failed.delete(name);
    const file = join(this.#dir, name);
    try {
      mkdirSync(this.#dir, { recursive: true });
      const now = new Date();
      try {
        utimesSync(file, now, now);
      } catch {
        closeSync(openSync(file, "w"));
      }
    } catch {
      // An unwritable data folder only means the next query checks again.
    }
  }

  /** Forgets a repository (it was removed): its queued or running check is cancelled. */
  forget(name: string): void {
    this.#queued.get(name)?.abort();
    this.#queued.delete(name);
    this.#failed.delete(name);
    rmSync(join(this.#dir, name), { force: true });
  }

  /**
   * Queues a background check (once per repository). It never waits for another writer of the
   * index: that one is bringing it up to date already. A failure is kept for {@link RepoChecks.failure}.
   */
  later(name: string, run: CheckRun, options: Pick<RunOptions, "onProgress">): void {
    if (this.#queued.has(name)) return;
    const cancel = new AbortController();
    this.#queued.set(name, cancel);
    this.#chain = this.#chain.then(async () => {
      const signal = AbortSignal.any([this.#closing.signal, cancel.signal]);
      if (signal.aborted) return;
      try {
        await run({ ...options, signal, wait: false });
        this.checked(name);
      } catch (error) {
        const err = ContextSmithError.from(error, "INTERNAL");
        if (err.code === "LOCKED") this.checked(name);
        else if (err.code !== "ABORTED") {
          // Checked, though it failed: the next check waits for the interval (no retry in a loop).
          this.checked(name);
          this.#failed.set(name, err.message);
        }
      } finally {
        if (this.#queued.get(name) === cancel) this.#queued.delete(name);
      }
    });
  }

  /** Whether a background check of the repository is queued or running. */
  pending(name: string): boolean {
    return this.#queued.has(name);
  }

  /** Why the last background check of a repository failed, or undefined. */
  failure(name: string): string | undefined {
    return this.#failed.get(name);
  }

  /** Waits for the background checks queued so far. */
  async settled(): Promise<void> {
    await this.#chain;
  }

  /** Cancels the background checks and waits for the one running to stop. */
  async close(): Promise<void> {
    this.#closing.abort();
    await this.#chain;
  }
}
