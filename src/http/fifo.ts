import { ContextSmithError } from "../core/errors.js";

/**
 * Runs queries one after another, in the order they came. The serving thread does their work
 * anyway; taken in turn, twenty clients at once each wait for the queries ahead of them, instead of
 * all of them sharing the thread and one of them starving behind the others' steps. A query whose
 * client went away while it waited is not run.
 */
export class Fifo {
  #tail: Promise<unknown> = Promise.resolve();

  run<T>(signal: AbortSignal, work: () => Promise<T>): Promise<T> {
    const result = this.#tail.then(() => {
      if (signal.aborted) throw new ContextSmithError("ABORTED", "The client went away before its query ran.");
      return work();
    });
    this.#tail = result.catch(() => undefined);
    return result;
  }
}
