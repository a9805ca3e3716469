import { readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { open } from "lmdb";
import { afterEach, describe, expect, it } from "vitest";
import { Engine } from "../../src/engine.js";
import { IndexStore } from "../../src/store/store.js";
import { SCHEMA_VERSION } from "../../src/store/types.js";
import { indexOnce } from "../helpers/index.js";
import { mapsOf } from "../helpers/maps.js";
import { TempRepo } from "../helpers/repo.js";
import { syntheticRepo } from "../helpers/synthetic.js";

describe("store", () => {
  let repo: TempRepo | undefined;
  afterEach(() => repo?.dispose());

  it("lives in .contextsmith, ignored by git from the inside", async () => {
    repo = TempRepo.create({ "a.py": "x = 1\n" }, { git: true });
    await indexOnce(repo.root);
    expect(repo.git("status", "--porcelain")).toBe("");
  });

  it("rebuilds cleanly when the schema version differs", async () => {
    repo = TempRepo.create({ "a.py": "def a():\n    pass\n" });
    await indexOnce(repo.root);
    // Simulate an index written by another version.
    const env = open({ path: join(repo.root, ".contextsmith", "index.lmdb"), noSubdir: true, maxDbs: 16 });
    const meta = env.openDB("meta", {});
    await meta.put("meta", { ...meta.get("meta"), schema: SCHEMA_VERSION + 100 });
    await env.close();
    const stats = await indexOnce(repo.root);
    expect(stats.rebuilt).toBe(true);
    expect(stats.warnings.join(" ")).toMatch(/schema/);
    expect(stats.files.parsed).toBe(1);
    expect(stats.totals).toMatchObject({ files: 1, symbols: 1 });
  });

  it("starts afresh when the data file was deleted by hand but its lock file was left", async () => {
    repo = syntheticRepo(240, { git: false });
    await indexOnce(repo.root);
    const lock = join(repo.root, ".contextsmith", "index.lmdb-lock");
    const staleLock = statSync(lock).birthtimeMs;
    await new Promise((resolve) => setTimeout(resolve, 20));
    rmSync(join(repo.root, ".contextsmith", "index.lmdb"));
    expect((await indexOnce(repo.root)).files.parsed).toBe(240);
    // The old environment's lock file was replaced (lmdb-js reads state back from it; on sympy,
    // writes to the new data file then failed on its freelist).
    expect(statSync(lock).birthtimeMs).not.toBe(staleLock);
    // Writes that reuse freed pages: they failed on the freelist when the old lock file was kept.
    for (let i = 0; i < 8; i++) {
      const path = `app/pkg${(i * 3 + 1) % 17}/service_${i * 3 + 1}.py`;
      repo.write({ [path]: `${readFileSync(repo.path(path), "utf8")}\n\ndef extra_${i}():\n    return ${i}\n` });
      expect((await indexOnce(repo.root)).files.parsed).toBe(1);
    }
  });

  it("rebuilds a damaged index file instead of crashing", async () => {
    repo = TempRepo.create({ "a.py": "def a():\n    pass\n" });
    await indexOnce(repo.root);
    const file = join(repo.root, ".contextsmith", "index.lmdb");
    writeFileSync(file, Buffer.alloc(50_000, 7));
    const stats = await indexOnce(repo.root);
    expect(stats.rebuilt).toBe(true);
    expect(stats.totals.symbols).toBe(1);
  });

  it("refuses to read a damaged index with a clear error", async () => {
    repo = TempRepo.create({ "a.py": "x = 1\n" });
    await indexOnce(repo.root);
    writeFileSync(join(repo.root, ".contextsmith", "index.lmdb"), "garbage");
    expect(() => IndexStore.openForRead(join(repo!.root, ".contextsmith"))).toThrowError(expect.objectContaining({ code: "INDEX_CORRUPT" }));
  });

  it("reads an empty data file (a writer has just created it) as no index yet; the next run builds it", async () => {
    repo = TempRepo.create({ "a.py": "x = 1\n" });
    await indexOnce(repo.root);
    writeFileSync(join(repo.root, ".contextsmith", "index.lmdb"), "");
    expect(IndexStore.openForRead(join(repo.root, ".contextsmith"))).toBeNull();
    const stats = await indexOnce(repo.root);
    expect(stats.rebuilt).toBe(true);
    expect(stats.files.parsed).toBe(1);
  });

  it("keeps running totals equal to a recount", async () => {
    repo = TempRepo.create({ "a.py": "def a():\n    b()\n", "b.py": "import os\ndef b():\n    pass\n", "c.md": "# Notes\n" });
    await indexOnce(repo.root);
    repo.write({ "a.py": "def a():\n    b()\n    c()\n\ndef z():\n    pass\n" });
    repo.remove("b.py");
    await indexOnce(repo.root);
    const store = IndexStore.openForRead(join(repo.root, ".contextsmith"))!;
    try {
      const recount = { files: 0, symbols: 0, calls: 0, imports: 0, bytes: 0, tokens: 0 };
      for (const f of store.allFiles()) {
        if (f.skipped) continue;
        const p = store.parse.parsed(f.path);
        recount.files++;
        recount.symbols += p?.symbols.length ?? 0;
        recount.calls += p?.calls.length ?? 0;
        recount.imports += p?.imports.length ?? 0;
        recount.bytes += f.size;
        recount.tokens += store.parse.terms(f.path)!.length;
      }
      expect(store.meta().totals).toEqual(recount);
      // a.a, a.z and c.md's section.
      expect(recount).toMatchObject({ files: 2, symbols: 3, calls: 2, imports: 0 });
    } finally {
      await store.close();
    }
  });

  it.runIf(process.platform === "linux" && process.arch.endsWith("64"))("holds one map of a grown data file, not one per size it passed through", async () => {
    repo = syntheticRepo(240, { git: false });
    const dataFile = join(repo.root, ".contextsmith", "index.lmdb");
    const seen: Array<{ size: number; maps: number }> = [];
    // Looked at while the index run writes: lmdb-js starts at 128 KB and keeps each old map when it
    // doubles one, so by the graph stage this file would have several.
    const engine = new Engine(repo.root, { jobs: 1, git: false });
    try {
      await engine.index({
        onProgress: (event) => {
          if (event.stage !== "graph") return;
          seen.push({ size: statSync(dataFile).size, maps: mapsOf(dataFile) });
        },
      });
    } finally {
      await engine.close();
    }
    expect(seen).toHaveLength(1);
    expect(seen[0]!.size).toBeGreaterThan(512 * 1024);
    expect(seen[0]!.maps).toBe(1);
  });
});
