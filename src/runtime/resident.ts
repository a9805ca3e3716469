import type { KeepAlive } from "../core/embedding-settings.js";

/** Timers, injected so the keep-alive policy is tested without waiting. */
export interface Timers {
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

export const REAL_TIMERS: Timers = {
  setTimeout: (fn, ms) => {
    const t = setTimeout(fn, ms);
    t.unref(); // an idle model never keeps the process alive
    return t;
  },
  clearTimeout: (handle) => clearTimeout(handle as NodeJS.Timeout),
};

/**
 * A resource loaded on first use and released after an idle grace period: concurrent users share
 * one load, a use during the grace period cancels the release, `0` releases after every use, and
 * `always` keeps it until {@link Resident.close}.
 */
export class Resident<T> {
  #value: Promise<T> | null = null;
  #users = 0;
  #timer: unknown = null;

  constructor(
    private readonly load: () => Promise<T>,
    private readonly release: (value: T) => Promise<void>,
    private readonly keepAlive: KeepAlive,
    private readonly timers: Timers = REAL_TIMERS,
  ) {}

  /** Whether the resource is loaded (or loading) now. */
  get loaded(): boolean {
    return this.#value !== null;
  }

  /** Runs `work` with the resource, loading it first when it is not resident. */
  async use<R>(work: (value: T) => Promise<R>): Promise<R> {
    this.#cancelRelease();
    this.#users++;
    try {
      if (!this.#value) {
        const loading = this.load();
        this.#value = loading;
        // A failed load is not kept: the next use tries again.
        loading.catch(() => {
          if (this.#value === loading) this.#value = null;
        });
      }
      return await work(await this.#value);
    } finally {
      this.#users--;
      if (this.#users === 0) this.#scheduleRelease();
    }
  }

  /** Releases the resource now (waiting for nothing: callers stop using it first). */
  async close(): Promise<void> {
    this.#cancelRelease();
    const value = this.#value;
    this.#value = null;
    if (!value) return;
    try {
      await this.release(await value);
    } catch {
      // a load that failed has nothing to release; a failed release leaves nothing to retry
    }
  }

  #scheduleRelease(): void {
    if (this.keepAlive === "always" || !this.#value) return;
    if (this.keepAlive <= 0) {
      void this.close();
      return;
    }
    this.#timer = this.timers.setTimeout(() => {
      this.#timer = null;
      if (this.#users === 0) void this.close();
    }, this.keepAlive);
  }

  #cancelRelease(): void {
    if (this.#timer !== null) this.timers.clearTimeout(this.#timer);
    this.#timer = null;
  }
}
