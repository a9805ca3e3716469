import v8 from "node:v8";
import vm from "node:vm";
import { constants, PerformanceObserver } from "node:perf_hooks";
import { describe, expect, it } from "vitest";
import { nativeMemoryKeeper } from "../../../src/indexing/parse/native-memory.js";
import { collectGarbage } from "../../../src/runtime/gc.js";

const MiB = 1024 * 1024;

describe("nativeMemoryKeeper", () => {
  it("forces a full collection once everyBytes of source were parsed without one", () => {
    let forced = 0;
    const after = nativeMemoryKeeper({ everyBytes: 4 * MiB, collect: () => forced++, watchFullCollections: () => undefined });
    after(3 * MiB);
    expect(forced).toBe(0);
    after(1 * MiB);
    expect(forced).toBe(1);
    // Counted afresh from the forced one.
    after(3 * MiB);
    expect(forced).toBe(1);
    after(1 * MiB);
    expect(forced).toBe(2);
  });

  it("counts afresh from a full collection V8 made on its own", () => {
    let forced = 0;
    let reportFull = (): void => undefined;
    const after = nativeMemoryKeeper({ everyBytes: 4 * MiB, collect: () => forced++, watchFullCollections: (listener) => (reportFull = listener) });
    after(3 * MiB);
    reportFull();
    after(3 * MiB);
    expect(forced).toBe(0);
    after(1 * MiB);
    expect(forced).toBe(1);
  });

  it("hears of V8's full collections through its gc performance entries, and not of scavenges", async () => {
    // V8's gc function, which takes the kind of collection to make.
    v8.setFlagsFromString("--expose-gc");
    const gc = vm.runInNewContext("gc") as (options?: { type: "minor" | "major" }) => void;
    v8.setFlagsFromString("--no-expose-gc");
    // Performance entries reach observers on a later turn of the event loop.
    const entriesDelivered = (): Promise<unknown> => new Promise((resolve) => setTimeout(resolve, 50));
    // V8 may make a full collection of its own at any time (in idle time, say): a window with one
    // shows nothing about scavenges, and is tried again.
    let fullCollections = 0;
    const observer = new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) if ((entry as { detail?: { kind?: number } }).detail?.kind === constants.NODE_PERFORMANCE_GC_MAJOR) fullCollections++;
    });
    observer.observe({ entryTypes: ["gc"] });
    try {
      let shown = false;
      for (let attempt = 0; attempt < 10 && !shown; attempt++) {
        let forced = 0;
        const after = nativeMemoryKeeper({ everyBytes: 4 * MiB, collect: () => forced++ });
        after(3 * MiB);
        await entriesDelivered();
        fullCollections = 0;
        // A scavenge (forced, as the full collection below is) leaves a promoted tree's wrapper alone.
        gc({ type: "minor" });
        await entriesDelivered();
        if (fullCollections > 0) continue;
        shown = true;
        after(1 * MiB);
        expect(forced).toBe(1);
        after(3 * MiB);
        collectGarbage();
        await entriesDelivered();
        after(3 * MiB);
        expect(forced).toBe(1);
        after(1 * MiB);
        expect(forced).toBe(2);
      }
      expect(shown, "V8 made a full collection of its own in every window").toBe(true);
    } finally {
      observer.disconnect();
    }
  });
});
