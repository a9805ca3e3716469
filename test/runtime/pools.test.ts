import { describe, expect, it } from "vitest";
import { collectGarbage } from "../../src/runtime/gc.js";
import { createPool, ParsePools, WORKER_LIMITS } from "../../src/runtime/pools.js";
import { CountingHeap } from "../helpers/heap.js";
import { ManualTimers } from "../helpers/timers.js";

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

  it("asks whether the heap can trim only at the first tick (a short run never loads koffi), and stops where it cannot", async () => {
    let asked = 0;
    const heap = new CountingHeap();
    const cannot = Object.defineProperty(heap, "trims", { get: () => (asked++, false) });
    const timers = new ManualTimers();
    const pools = new ParsePools(60_000, cannot, timers);
    try {
      await pools.use(1, async () => {
        expect(asked).toBe(0);
        expect(timers.pending.size).toBe(1);
        timers.fireAll();
        expect(asked).toBe(1);
        expect(timers.pending.size).toBe(0);
      });
      expect(heap.count).toBe(0);
    } finally {
      await pools.close();
    }
  });

  it("holds nothing of a run once it is over: a run's work (an index run's lexical builder) can be collected", async () => {
    // Kept warm (the server's setting), so the pool and what the pools keep of it outlive the run.
    const pools = new ParsePools(60_000, new CountingHeap(), new ManualTimers());
    const held = await (async () => {
      const state = { builder: new Uint8Array(1 << 20) };
      await pools.use(1, async () => void state.builder.length);
      return new WeakRef(state);
    })();
    // Finalization is asynchronous: give the collector a few turns.
    for (let i = 0; i < 5 && held.deref() !== undefined; i++) {
      await new Promise((r) => setTimeout(r, 10));
      collectGarbage();
    }
    try {
      expect(held.deref()).toBeUndefined();
    } finally {
      await pools.close();
    }
  });

  it("starts parse and git-log threads with a capped young generation, embed threads with V8's defaults", async () => {
    const pools = await Promise.all([createPool("parse", 1), createPool("git-log", 1), createPool("embed", 1)]);
    try {
      for (const pool of pools) expect(pool.threads).toHaveLength(1);
      const [parse, gitLog, embed] = pools.map((pool) => pool.threads[0]!.resourceLimits);
      expect(parse).toMatchObject(WORKER_LIMITS.parse);
      expect(gitLog).toMatchObject(WORKER_LIMITS["git-log"]);
      expect(embed?.maxYoungGenerationSizeMb).not.toBe(8);
    } finally {
      await Promise.all(pools.map((pool) => pool.destroy()));
    }
  });
});
