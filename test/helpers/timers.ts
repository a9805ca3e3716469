import type { Timers } from "../../src/runtime/resident.js";

/** Timers that fire only when told to. */
export class ManualTimers implements Timers {
  readonly pending = new Map<number, { fn: () => void; ms: number }>();
  #next = 0;
  setTimeout(fn: () => void, ms: number): unknown {
    this.pending.set(++this.#next, { fn, ms });
    return this.#next;
  }
  clearTimeout(handle: unknown): void {
    this.pending.delete(handle as number);
  }
  fireAll(): void {
    const due = [...this.pending.values()];
    this.pending.clear();
    for (const t of due) t.fn();
  }
}
