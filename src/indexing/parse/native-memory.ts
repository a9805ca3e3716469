import { PerformanceObserver, constants } from "node:perf_hooks";
import { collectGarbage } from "../../runtime/gc.js";

export interface NativeMemoryKeeperOptions {
  /** Source parsed since the last full collection at which one is forced (default 4 MiB). */
  everyBytes?: number;
  /** A full collection now (default: V8's). */
  collect?: () => void;
  /** Calls `listener` after each full collection V8 makes, its own or a forced one (default: a `gc` performance observer). */
  watchFullCollections?: (listener: () => void) => void;
}

/**
 * Keeps tree-sitter's native memory bounded in a parse worker.
 *
 * A tree-sitter tree lives in C memory (about 20 bytes per byte of source) and is freed only when
 * V8 collects its small JS wrapper and then runs the N-API finalizer on a later event-loop turn
 * (which is why the parse pool runs with piscina's `atomics: "disabled"`: its Atomics wait loop
 * never yields to the event loop between tasks). V8 cannot see the C memory: a wrapper that
 * outlived its first scavenges waits for a full collection. V8 makes those on its own, for the
 * garbage extraction leaves: measured on 2026-12-07, every 1.1–1.4 MB of sympy's source and 2.3 MB
 * of babel's (at most 4.4 MB apart). Where it has not made one for `everyBytes` of parsed source, a
 * full collection is forced, so about that much source's trees wait (V8's own collections are
 * heard of between tasks: one made during a batch counts from that batch's end). Forcing one every
 * MiB whatever V8 did (as before) cost 9% of a cold index's CPU for the same peak memory.
 */
export function nativeMemoryKeeper(options: NativeMemoryKeeperOptions = {}): (parsedBytes: number) => void {
  const { everyBytes = 4 * 1024 * 1024, collect = collectGarbage, watchFullCollections = watchMarkSweeps } = options;
  let since = 0;
  watchFullCollections(() => {
    since = 0;
  });
  return (parsedBytes) => {
    since += parsedBytes;
    if (since >= everyBytes) {
      since = 0;
      collect();
    }
  };
}

function watchMarkSweeps(listener: () => void): void {
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) if ((entry as { detail?: { kind?: number } }).detail?.kind === constants.NODE_PERFORMANCE_GC_MAJOR) listener();
  }).observe({ entryTypes: ["gc"] });
}
