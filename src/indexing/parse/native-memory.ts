import { collectGarbage } from "../../runtime/gc.js";

/**
 * Keeps tree-sitter's native memory bounded in a parse worker.
 *
 * A tree-sitter tree lives in C memory (about 20 bytes per byte of source) and is freed only when
 * V8 collects its small JS wrapper and then runs the N-API finalizer on a later event-loop turn.
 * V8 cannot see the C memory, so with a small JS heap it rarely collects: measured on sympy, a
 * worker's RSS grew past 1.5 GB. So after every `everyBytes` of parsed source we force a
 * collection; the finalizers then run when the task returns to the event loop (which is why the
 * parse pool runs with piscina's `atomics: "disabled"`: its Atomics wait loop never yields to the
 * event loop between tasks).
 */
export function nativeMemoryKeeper(everyBytes = 1024 * 1024): (parsedBytes: number) => void {
  let since = 0;
  return (parsedBytes) => {
    since += parsedBytes;
    if (since >= everyBytes) {
      since = 0;
      collectGarbage();
    }
  };
}
