import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { resolveConfig } from "../../src/core/config.js";
import { runIndex } from "../../src/indexing/indexer.js";
import { ParsePools } from "../../src/runtime/pools.js";
import type { TempRepo } from "../helpers/repo.js";
import { shopRepo } from "../helpers/shop.js";
import { CountingHeap } from "../helpers/heap.js";
import { ManualTimers } from "../helpers/timers.js";

describe("runIndex and the memory of its stages", () => {
  let repo: TempRepo;
  beforeAll(() => {
    repo = shopRepo();
  });
  afterAll(() => repo.dispose());

  it("hands back what the graph stage freed after a run that rebuilt the lexical index, and not after a no-change run", async () => {
    // Pools that never trim by themselves here: kept warm, and their timer never fires.
    const heap = new CountingHeap();
    const pools = new ParsePools(60_000, heap, new ManualTimers());
    const config = resolveConfig(repo.root, { jobs: 1, semantic: false }, {});
    try {
      const cold = await runIndex(config, null, pools);
      expect(cold.files.parsed).toBeGreaterThan(0);
      expect(heap.count).toBe(1);
      await runIndex(config, null, pools);
      expect(heap.count).toBe(1);
    } finally {
      await pools.close();
    }
  });
});
