import { afterEach, describe, expect, it } from "vitest";
import { join } from "node:path";
import { Engine } from "../../src/engine.js";
import { updateGraph } from "../../src/indexing/graph-stage.js";
import { collectGarbage } from "../../src/runtime/gc.js";
import { IndexStore } from "../../src/store/store.js";
import { cleanIndexDump, indexOnce } from "../helpers/index.js";
import { dumpIndex } from "../helpers/dump.js";
import { TempRepo } from "../helpers/repo.js";
import { PYTHON, WORKSPACE } from "../graph/fixtures.js";

describe("graph stage: incremental updates", () => {
  let repo: TempRepo | undefined;
  afterEach(() => repo?.dispose());

  /** Re-indexes, then checks that the graph equals the graph of a clean index of the same tree. */
  async function reindexMatchesClean(engine: Engine): Promise<void> {
    await engine.index();
    const incremental = (await dumpIndex(engine.config.indexDir)) as { graph: unknown };
    const clean = (await cleanIndexDump(repo!.root)) as { graph: unknown };
    expect(incremental.graph).toEqual(clean.graph);
  }

  it("re-resolves the changed files, their dependents and the callers of names that appear or vanish", async () => {
    repo = TempRepo.create(PYTHON, { git: true });
    const engine = new Engine(repo.root, { jobs: 1 });
    try {
      await engine.index();
      const callees = async (name: string) => (await engine.callees(name)).calls.map((c) => `${c.symbol?.path}:${c.symbol?.startLine}`);

      // An edit inside a body concerns nobody else: only that file is resolved again.
      repo.write({ "shop/util.py": PYTHON["shop/util.py"]!.replace("return x", "return x + 0") });
      expect((await engine.index()).graphResolved).toBe(1);

      // The callee moves down three lines: callers point at its new place.
      repo.write({ "shop/util.py": `# moved\n\n\n${PYTHON["shop/util.py"]}` });
      await reindexMatchesClean(engine);
      expect(await callees("Gateway.send")).toEqual(["shop/util.py:4"]);

      // A third `render` appears: the call that was ambiguous between two now has three candidates.
      repo.write({ "views/c.py": "def render(x):\n    return x\n" });
      await reindexMatchesClean(engine);
      expect(await callees("page")).toEqual(["views/a.py:1", "views/b.py:1", "views/c.py:1"]);

      // One disappears.
      repo.remove("views/b.py");
      await reindexMatchesClean(engine);
      expect(await callees("page")).toEqual(["views/a.py:1", "views/c.py:1"]);

      // The imported name is renamed away: the call no longer resolves.
      repo.write({ "shop/util.py": "def retry_later(x):\n    return x\n\n\ndef log_event(name):\n    return retry_later(name)\n" });
      await reindexMatchesClean(engine);
      expect(await callees("Gateway.send")).toEqual([]);

      // A module appears that an import was looking for.
      repo.write({ "app/main.py": `import shop.extra\n${PYTHON["app/main.py"]}\n\ndef extra():\n    return shop.extra.bonus()\n`, });
      await reindexMatchesClean(engine);
      expect(await callees("extra")).toEqual([]);
      repo.write({ "shop/extra.py": "def bonus():\n    return 1\n" });
      await reindexMatchesClean(engine);
      expect(await callees("extra")).toEqual(["shop/extra.py:1"]);
    } finally {
      await engine.close();
    }
  });

  it("re-resolves bare imports when a workspace package is renamed", async () => {
    repo = TempRepo.create(WORKSPACE, { git: true });
    const engine = new Engine(repo.root, { jobs: 1 });
    try {
      await engine.index();
      const how = async () => (await engine.callees("render")).calls.map((c) => c.how);
      expect(await how()).toEqual(["import", "import"]);
      // The import no longer names a package of the repository: only the name fallback finds them.
      repo.write({ "packages/util/package.json": JSON.stringify({ name: "@acme/utils" }) });
      await reindexMatchesClean(engine);
      expect(await how()).toEqual(["unique", "unique"]);
      expect((await engine.related("packages/app/src/main.ts")).imports).toEqual([]);
    } finally {
      await engine.close();
    }
  });

  it("computes nothing on a run without changes", async () => {
    repo = TempRepo.create(PYTHON);
    const engine = new Engine(repo.root, { jobs: 1, git: false });
    try {
      const first = await engine.index();
      expect(first.timings.graph).toBeGreaterThanOrEqual(0);
      const second = await engine.index();
      expect(second.timings.graph).toBeUndefined();
    } finally {
      await engine.close();
    }
  });

  it("lets go of each resolver, caches and all, before the next starts, and resolves as one resolver does", async () => {
    // Enough files for three resolvers, calling across them.
    const more = Object.fromEntries(Array.from({ length: 6 }, (_, k) => [`more/m${k}.py`, `from shop.util import retry\nfrom more.m${(k + 1) % 6} import f${(k + 1) % 6}\n\n\ndef f${k}(x):\n    return retry(f${(k + 1) % 6}(x))\n`]));
    repo = TempRepo.create({ ...PYTHON, ...more }, { git: true });
    await indexOnce(repo.root);
    const clean = (await dumpIndex(join(repo.root, ".contextsmith"))) as { graph: unknown };
    const { store } = await IndexStore.openForWrite(join(repo.root, ".contextsmith"));
    const resolvers: Array<WeakRef<object>> = [];
    const progress: number[] = [];
    // At each collection: files done so far, and whether the resolver let go is gone after a real full collection.
    const collections: Array<[done: number, gone: boolean]> = [];
    try {
      const files = [...store.allPaths()];
      await store.transaction(() => files.forEach((path) => store.graph.markResolve(path)));
      // Two files a chunk, four a resolver: a collection before each resolver after the first.
      const update = await updateGraph(store, repo.root, {
        chunkFiles: 2,
        resolverFiles: 4,
        onResolved: (done) => progress.push(done),
        onResolver: (resolver) => resolvers.push(new WeakRef(resolver)),
        collect: () => {
          collectGarbage();
          collections.push([progress.at(-1)!, resolvers.at(-1)!.deref() === undefined]);
        },
      });
      expect(files.length).toBeGreaterThan(8);
      expect(update.resolved).toBeGreaterThan(0);
      expect(resolvers).toHaveLength(Math.ceil(files.length / 4));
      expect(collections).toEqual(Array.from({ length: resolvers.length - 1 }, (_, k) => [4 * (k + 1), true]));
    } finally {
      await store.close();
    }
    const again = (await dumpIndex(join(repo.root, ".contextsmith"))) as { graph: unknown };
    expect(again.graph).toEqual(clean.graph);
  });

  it("refuses chunk or resolver sizes below one file", async () => {
    repo = TempRepo.create({ "a.py": "def a():\n    return 1\n" });
    await indexOnce(repo.root);
    const { store } = await IndexStore.openForWrite(join(repo.root, ".contextsmith"));
    try {
      await expect(updateGraph(store, repo.root, { chunkFiles: 0 })).rejects.toThrow(/at least 1/);
      await expect(updateGraph(store, repo.root, { resolverFiles: Number.NaN })).rejects.toThrow(/at least 1/);
    } finally {
      await store.close();
    }
  });
});
