import { utimesSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { resolveConfig } from "../../src/core/config.js";
import { runIndex } from "../../src/indexing/indexer.js";
import { ParsePools } from "../../src/runtime/pools.js";
import { IndexStore } from "../../src/store/store.js";
import { loadLexical } from "../../src/store/lexical.js";
import { TempRepo } from "../helpers/repo.js";
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

describe("runIndex and the lexical snapshot's segments", () => {
  it("finishes a snapshot whose segments it wrote, even when the changes turn out too few to need one", async () => {
    const files = Object.fromEntries(Array.from({ length: 60 }, (_, i) => [`pkg/m${i}.py`, `def f${i}(x):\n    return x + ${i}\n`]));
    const repo = TempRepo.create(files);
    const pools = new ParsePools(60_000);
    // A segment every few rows: any real change writes one while the parse runs.
    const config = resolveConfig(repo.root, { jobs: 1, semantic: false, git: false }, { CTXSMITH_LEXICAL_SEGMENT_ROWS: "4" });
    try {
      await runIndex(config, null, pools);
      // Every file read again (a checkout touched them all: a snapshot looks due), two of them changed.
      const later = new Date(Date.now() + 60_000);
      for (const path of Object.keys(files)) utimesSync(join(repo.root, path), later, later);
      repo.write({ "pkg/m1.py": "def refund(x):\n    return -x\n", "pkg/m2.py": "def charge(x):\n    return x\n" });
      const run = await runIndex(config, null, pools);
      expect(run.files).toMatchObject({ parsed: 2, touched: 58 });
      const store = IndexStore.openForRead(config.indexDir)!;
      try {
        // Two changes alone would have stayed in the journal; the segment written for them made a snapshot.
        expect(store.lexical.pendingCount()).toBe(0);
        const lex = loadLexical(store);
        expect(lex.bm25.docs).toBe(60);
        expect([...lex.names.postings("refund").ids].map((id) => lex.pathOf(id))).toEqual(["pkg/m1.py"]);
        expect(lex.names.df("f1")).toBe(0);
      } finally {
        await store.close();
      }
    } finally {
      await pools.close();
      repo.dispose();
    }
  });
});

describe("runIndex and the id map in one value", () => {
  it("seals it at the end of a run that added or removed files, and once into an index that lacks it, and a no-change run writes nothing", async () => {
    const repo = TempRepo.create({ "a.py": "def a():\n    return 1\n", "b.py": "def b():\n    return 2\n" });
    const pools = new ParsePools(60_000);
    const config = resolveConfig(repo.root, { jobs: 1, semantic: false, git: false }, {});
    const state = async (): Promise<{ sealed: boolean; paths: string[]; meta: unknown }> => {
      const store = IndexStore.openForRead(config.indexDir)!;
      try {
        return { sealed: store.lexical.idsSealed(), paths: [...store.lexical.ids().values()].sort(), meta: store.meta() };
      } finally {
        await store.close();
      }
    };
    try {
      await runIndex(config, null, pools);
      expect(await state()).toMatchObject({ sealed: true, paths: ["a.py", "b.py"] });
      repo.write({ "c.py": "def c():\n    return 3\n" });
      repo.remove("a.py");
      await runIndex(config, null, pools);
      expect(await state()).toMatchObject({ sealed: true, paths: ["b.py", "c.py"] });
      // An index from before the sealed map (or a run that ended before its last commit).
      const store = (await IndexStore.openForWrite(config.indexDir)).store;
      await store.transaction(() => store.lexical.assignId(999, "gone.py"));
      await store.transaction(() => store.lexical.releaseId(999));
      await store.close();
      const unsealed = await state();
      expect(unsealed.sealed).toBe(false);
      await runIndex(config, null, pools);
      const sealed = await state();
      expect(sealed).toMatchObject({ sealed: true, paths: ["b.py", "c.py"] });
      // Sealing it is all that run wrote: its meta (the last run's) stayed as it was.
      expect(sealed.meta).toEqual(unsealed.meta);
      await runIndex(config, null, pools);
      expect(await state()).toEqual(sealed);
    } finally {
      await pools.close();
      repo.dispose();
    }
  });
});
