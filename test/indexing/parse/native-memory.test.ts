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

  it("hears of V8's full collections through its gc performance entries", async () => {
    let forced = 0;
    const after = nativeMemoryKeeper({ everyBytes: 4 * MiB, collect: () => forced++ });
    after(3 * MiB);
    collectGarbage();
    // Performance entries reach observers on a later turn of the event loop.
    await new Promise((resolve) => setTimeout(resolve, 50));
    after(3 * MiB);
    expect(forced).toBe(0);
    after(1 * MiB);
    expect(forced).toBe(1);
  });
});
