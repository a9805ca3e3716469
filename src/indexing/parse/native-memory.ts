import v8 from "node:v8";
import vm from "node:vm";

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
  // The documented way to get `gc` without the --expose-gc command-line flag, which worker
  // threads do not accept.
  v8.setFlagsFromString("--expose-gc");
  const gc = vm.runInNewContext("gc") as () => void;
  let since = 0;
  return (parsedBytes) => {
    since += parsedBytes;
    if (since >= everyBytes) {
      since = 0;
      gc();
    }
  };
}
