import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { collectGarbage } from "../../src/runtime/gc.js";
import { processHeap } from "../../src/runtime/native-heap.js";

const anonymousMb = (): number => Number(/RssAnon:\s+(\d+)/.exec(readFileSync("/proc/self/status", "utf8"))![1]) / 1024;

/** 200 MB of 16 KB buffers (C memory from this thread's malloc arena), every 8th kept: freed memory glibc cannot give back from the top. */
function fragment(): Buffer[] {
  const all: Buffer[] = [];
  for (let i = 0; i < (200 << 20) / 16384; i++) all.push(Buffer.allocUnsafeSlow(16384).fill(1));
  return all.filter((_, i) => i % 8 === 0);
}

describe.runIf(process.platform === "linux")("processHeap on Linux (glibc)", () => {
  it("hands back the freed pages that glibc keeps in its arenas", async () => {
    const heap = processHeap();
    expect(heap.trims).toBe(true);
    const kept = fragment();
    for (let i = 0; i < 3; i++) {
      collectGarbage();
      await new Promise((r) => setTimeout(r, 50));
    }
    const freed = anonymousMb();
    heap.trim();
    const trimmed = anonymousMb();
    // 175 MB were freed: without a trim glibc keeps them resident, after it they are gone.
    expect(freed - trimmed).toBeGreaterThan(100);
    expect(kept.length).toBe(1600);
  });
});
