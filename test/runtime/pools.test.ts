import { describe, expect, it } from "vitest";
import type { NativeHeap } from "../../src/runtime/native-heap.js";
import { ParsePools } from "../../src/runtime/pools.js";
import { ManualTimers } from "../helpers/timers.js";

class CountingHeap implements NativeHeap {
  trims = true;
  count = 0;
  trim(): void {
    this.count++;
  }
}

describe("ParsePools and freed C memory", () => {
  it("trims the heap now and then while a pool is in use, and once when a pool is let go", async () => {
    const heap = new CountingHeap();
    const timers = new ManualTimers();
    const pools = new ParsePools(0, heap, timers);
    let released!: () => void;
    const done = new Promise<void>((r) => (released = r));
    const run = pools.use(1, async () => {
      // Two runs at once share one timer.
      await pools.use(1, async () => {
        expect(timers.pending.size).toBe(1);
      });
      expect([...timers.pending.values()].map((t) => t.ms)).toEqual([2000]);
      timers.fireAll();
      timers.fireAll();
      expect(heap.count).toBe(2);
      expect(timers.pending.size).toBe(1);
      await done;
    });
    released();
    await run;
    expect(timers.pending.size).toBe(0);
    // keepAlive 0: the pool is destroyed after the run, then the ended threads' arenas are trimmed.
    await expect.poll(() => heap.count, { timeout: 10_000 }).toBe(3);
  });

  it("never schedules a trim where the heap cannot trim", async () => {
    const heap = new CountingHeap();
    heap.trims = false;
    const timers = new ManualTimers();
    const pools = new ParsePools(0, heap, timers);
    await pools.use(1, async () => expect(timers.pending.size).toBe(0));
  });
});
