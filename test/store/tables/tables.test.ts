import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { ContextSmithError } from "../../../src/core/errors.js";
import { open } from "lmdb";
import { IndexStore, isDamage } from "../../../src/store/store.js";
import { indexOnce } from "../../helpers/index.js";
import { TempRepo } from "../../helpers/repo.js";

/** The table groups keep the store's rule: data and its journal entries are written together, inside a transaction. */
describe("table groups", () => {
  let repo: TempRepo | undefined;
  let store: IndexStore | undefined;
  afterEach(async () => {
    await store?.close();
    store = undefined;
    repo?.dispose();
  });

  async function indexed(): Promise<IndexStore> {
    repo = TempRepo.create({ "a.py": "def a():\n    return b()\n", "b.py": "def b():\n    return 1\n" });
    await indexOnce(repo.root, { git: false });
    store = (await IndexStore.openForWrite(join(repo.root, ".contextsmith"))).store;
    return store;
  }

  it("refuses a write outside a transaction and leaves the index as it was", async () => {
    const s = await indexed();
    const before = s.meta();
    const writes: Array<() => void> = [
      () => s.graph.markResolve("a.py"),
      () => s.graph.putFile("a.py", null, false),
      () => s.lexical.markChanged("a.py"),
      () => s.vectors.reset(["a.py"]),
      () => s.history.write({ replace: true, live: new Set(), commits: [], files: new Map(), index: { bm25: Buffer.alloc(0), paths: Buffer.alloc(0), recent: Buffer.alloc(0), renames: Buffer.alloc(0) }, head: null, commitsRead: 0 }),
      () => s.updateMeta((m) => void (m.commits = 99)),
    ];
    for (const write of writes) {
      expect(write).toThrow(ContextSmithError);
      expect(write).toThrow(/outside a transaction/);
    }
    await s.transaction(() => undefined);
    expect(s.meta()).toEqual(before);
    expect(s.graph.file("a.py")).toBeDefined();
    expect(s.graph.pending()).toEqual([]);
    expect(s.lexical.pendingCount()).toBe(0);
  });

  it("writes nothing of a transaction whose action throws (lmdb-js would commit what it wrote before the throw)", async () => {
    const s = await indexed();
    const before = s.meta();
    await expect(s.transaction(() => {
      s.lexical.markChanged("a.py");
      s.graph.markResolve("a.py");
      s.updateMeta((m) => void (m.commits = 99));
      throw new Error("abandoned");
    })).rejects.toThrow("abandoned");
    expect(s.lexical.pendingCount()).toBe(0);
    expect(s.graph.pending()).toEqual([]);
    expect(s.meta()).toEqual(before);
  });

  it("journals a changed file for every derived part in the commit that writes its record", async () => {
    const s = await indexed();
    const versions = s.meta().versions;
    await s.writeBatch([], ["b.py"]);
    expect(s.file("b.py")).toBeUndefined();
    expect(s.graph.journal()).toEqual([{ path: "b.py", state: "changed" }]);
    expect([...s.lexical.pending()]).toEqual(["b.py"]);
    // Without embeddings configured the vectors journal keeps every file (the embed stage never ran).
    expect(s.vectors.pending()).toContain("b.py");
    expect([...s.lexical.ids().values()]).toEqual(["a.py"]);
    expect(s.meta().versions).toEqual({ ...versions, files: versions.files + 1 });
  });

  it("keeps the id map in one value while no id changes: a run seals it, an id assigned or released unseals it", async () => {
    const s = await indexed();
    expect(s.lexical.idsSealed()).toBe(true);
    const before = s.lexical.ids();
    expect([...before.values()].sort()).toEqual(["a.py", "b.py"]);
    // A file added: its id unseals the map, which then answers key by key, the new file included.
    await s.transaction(() => s.lexical.assignId(77, "c.py"));
    expect(s.lexical.idsSealed()).toBe(false);
    expect(s.lexical.ids()).toEqual(new Map([...before, [77, "c.py"]]));
    await s.transaction(() => s.lexical.sealIds());
    expect(s.lexical.idsSealed()).toBe(true);
    expect(s.lexical.ids()).toEqual(new Map([...before, [77, "c.py"]]));
    // A file removed: the same.
    await s.transaction(() => s.lexical.releaseId(77));
    expect(s.lexical.idsSealed()).toBe(false);
    expect(s.lexical.ids()).toEqual(before);
    // A transaction that fails changes neither the ids nor the seal.
    await s.transaction(() => s.lexical.sealIds());
    await expect(s.transaction(() => {
      s.lexical.assignId(78, "d.py");
      throw new Error("abandoned");
    })).rejects.toThrow("abandoned");
    expect(s.lexical.idsSealed()).toBe(true);
    expect(s.lexical.ids()).toEqual(before);
    // A sealed value that does not pair ids with paths is damage (the index is rebuilt), never a map of holes.
    await s.close();
    store = undefined;
    const env = open({ path: join(repo!.root, ".contextsmith", "index.lmdb"), noSubdir: true, maxDbs: 32, compression: false });
    await env.openDB<unknown, number>("paths", { keyEncoding: "uint32" }).put(0, { ids: [1, 2, 3], paths: "a.py" });
    await env.close();
    store = IndexStore.openForRead(join(repo!.root, ".contextsmith"))!;
    const damaged = ((): unknown => {
      try {
        store!.lexical.ids();
        return null;
      } catch (error) {
        return error;
      }
    })();
    expect(isDamage(damaged)).toBe(true);
  });

  it("settles a file's graph journal entry with its graph, and bumps only the graph's version", async () => {
    const s = await indexed();
    const graph = s.graph.file("a.py")!;
    const links = s.graph.links("a.py")!;
    expect(links.to).toEqual(["b.py"]);
    expect(s.graph.dependentsOf("b.py")).toEqual(["a.py"]);
    await s.transaction(() => s.graph.markResolve("a.py"));
    expect(s.graph.pending()).toEqual(["a.py"]);
    const versions = s.meta().versions;
    // The same graph again: the entry is settled, the links are unchanged.
    expect(await s.transaction(() => s.graph.putFile("a.py", { graph, links }, false))).toBe(false);
    expect(s.graph.pending()).toEqual([]);
    // No graph: the reverse entries and the links go with it.
    expect(await s.transaction(() => s.graph.putFile("a.py", null, false))).toBe(true);
    expect(s.graph.dependentsOf("b.py")).toEqual([]);
    expect(s.graph.links("a.py")).toBeUndefined();
    await s.transaction(() => s.graph.finish(null));
    expect(s.meta().versions).toEqual({ ...versions, graph: versions.graph + 1 });
  });

  it("writes a lexical snapshot in segments, staged unseen, then made the snapshot with its journal emptied and only the lexical version bumped", async () => {
    const s = await indexed();
    await s.writeBatch([], ["b.py"]);
    const versions = s.meta().versions;
    const empty = Buffer.alloc(0);
    const generation = s.lexical.nextGeneration();
    const segment = (n: number) => ({ flex: [[`${n}.cfg`, "{}"]] as Array<[string, string]>, bm25: { body: empty, symbols: Buffer.from([n]), names: empty } });
    // Staged segments are no reader's until the snapshot is written: the journal stays, as do the segments read.
    await s.transaction(() => s.lexical.stageSegment(generation, 0, segment(0)));
    await s.transaction(() => s.lexical.stageSegment(generation, 1, segment(1)));
    expect(s.lexical.pendingCount()).toBe(1);
    expect(s.lexical.segments().map((seg) => seg.bm25("symbols"))).not.toContainEqual(Buffer.from([1]));
    await s.transaction(() => s.lexical.writeSnapshot(generation, 2, 1));
    expect(s.lexical.pendingCount()).toBe(0);
    expect(s.lexical.segments().map((seg) => [[...seg.flexChunks()], seg.bm25("symbols")])).toEqual([[[["0.cfg", "{}"]], Buffer.from([0])], [[["1.cfg", "{}"]], Buffer.from([1])]]);
    expect(s.meta()).toMatchObject({ lexicalFiles: 1, versions: { ...versions, lexical: versions.lexical + 1 } });
    // The next snapshot's first staged segment clears what a killed run staged under its generation;
    // writing it removes the older generation.
    const next = s.lexical.nextGeneration();
    expect(next).toBe(generation + 1);
    await s.transaction(() => s.lexical.stageSegment(next, 0, segment(5)));
    await s.transaction(() => s.lexical.stageSegment(next, 1, segment(6)));
    await s.transaction(() => s.lexical.stageSegment(next, 0, segment(7)));
    await s.transaction(() => s.lexical.writeSnapshot(next, 1, 1));
    expect(s.lexical.segments().map((seg) => [...seg.flexChunks()])).toEqual([[["7.cfg", "{}"]]]);
  });

  it("keeps a file's labels and vectors together, and a reset journals every file", async () => {
    const s = await indexed();
    const vectors = { hashes: ["h"], labels: [7], names: ["a"], vectors: Buffer.alloc(4) };
    await s.transaction(() => s.vectors.putFile("a.py", { vectors, added: [[7, "a"]], removed: [] }));
    expect(s.vectors.label(7)).toEqual(["a.py", "a"]);
    expect(s.vectors.of("a.py")).toEqual(vectors);
    await s.transaction(() => s.vectors.putFile("a.py", { vectors: null, added: [], removed: [7] }));
    expect(s.vectors.label(7)).toBeUndefined();
    expect(s.vectors.of("a.py")).toBeUndefined();
    await s.transaction(() => s.vectors.reset(s.allPaths()));
    expect(s.vectors.pending()).toEqual(["a.py", "b.py"]);
  });
});
