import { utimesSync } from "node:fs";
import { afterEach, describe, expect, it } from "vitest";
import { Engine } from "../../src/engine.js";
import { planRun } from "../../src/indexing/plan.js";
import { indexOnce } from "../helpers/index.js";
import { TempRepo } from "../helpers/repo.js";
import { storeOf } from "../helpers/store.js";
import { loadLexical } from "../../src/store/lexical.js";

describe("planRun", () => {
  const walked = (path: string, size: number, mtimeMs: number) => ({ path, size, mtimeMs, language: null });
  const stored = (path: string, size: number, mtimeMs: number, hash: string) => ({ path, size, mtimeMs, hash });

  it("reads new files with no expected hash", () => {
    const plan = planRun([walked("a.py", 1, 1)], []);
    expect(plan.read).toEqual([{ ...walked("a.py", 1, 1), expectHash: null }]);
    expect(plan).toMatchObject({ unchanged: 0, remove: [] });
  });

  it("skips files whose size and mtime match", () => {
    expect(planRun([walked("a.py", 1, 1)], [stored("a.py", 1, 1, "h")])).toEqual({ read: [], unchanged: 1, remove: [], kept: 0 });
  });

  it("re-reads a file whose stat changed, expecting its stored hash", () => {
    const plan = planRun([walked("a.py", 1, 2)], [stored("a.py", 1, 1, "h")]);
    expect(plan.read).toEqual([{ ...walked("a.py", 1, 2), expectHash: "h" }]);
  });

  it("removes stored files that are gone", () => {
    expect(planRun([], [stored("gone.py", 1, 1, "h")]).remove).toEqual(["gone.py"]);
  });
});

describe("incremental indexing", () => {
  let repo: TempRepo | undefined;
  afterEach(() => repo?.dispose());

  const files = {
    "src/a.py": "def alpha():\n    return beta()\n",
    "src/b.py": "def beta():\n    return 1\n",
    "src/c.py": "class Gamma:\n    pass\n",
  };

  it("indexes everything the first time, then nothing when nothing changed", async () => {
    repo = TempRepo.create(files);
    const first = await indexOnce(repo.root);
    expect(first.files).toMatchObject({ parsed: 3, unchanged: 0, removed: 0 });
    const second = await indexOnce(repo.root);
    expect(second.files).toMatchObject({ parsed: 0, unchanged: 3, touched: 0, removed: 0 });
    expect(second.totals).toMatchObject({ files: 3, symbols: 3 });
  });

  it("re-parses an added and a modified file only", async () => {
    repo = TempRepo.create(files);
    await indexOnce(repo.root);
    repo.write({ "src/d.py": "def delta():\n    pass\n", "src/a.py": "def alpha2():\n    return 2\n" });
    const stats = await indexOnce(repo.root);
    expect(stats.files).toMatchObject({ parsed: 2, unchanged: 2, removed: 0 });
    const engine = new Engine(repo.root);
    expect(storeOf(engine)!.parse.parsed("src/a.py")!.symbols.map((s) => s.name)).toEqual(["alpha2"]);
    await engine.close();
  });

  it("removes a deleted file with everything derived from it", async () => {
    repo = TempRepo.create(files);
    await indexOnce(repo.root);
    repo.remove("src/c.py");
    const stats = await indexOnce(repo.root);
    expect(stats.files).toMatchObject({ parsed: 0, removed: 1 });
    expect(stats.totals).toMatchObject({ files: 2, symbols: 2 });
    const engine = new Engine(repo.root);
    const store = storeOf(engine)!;
    expect(store.file("src/c.py")).toBeUndefined();
    expect(store.parse.parsed("src/c.py")).toBeUndefined();
    expect(store.parse.terms("src/c.py")).toBeUndefined();
    expect(loadLexical(storeOf(engine)!).search("gamma")).toEqual([]);
    await engine.close();
  });

  it("treats a rename as a removal and an addition", async () => {
    repo = TempRepo.create(files);
    await indexOnce(repo.root);
    repo.write({ "src/renamed.py": files["src/b.py"] });
    repo.remove("src/b.py");
    const stats = await indexOnce(repo.root);
    expect(stats.files).toMatchObject({ parsed: 1, removed: 1 });
    const engine = new Engine(repo.root);
    expect(loadLexical(storeOf(engine)!).search("beta", { field: "symbols" })).toEqual(["src/renamed.py"]);
    await engine.close();
  });

  it("only refreshes the stat of a file touched without a content change", async () => {
    repo = TempRepo.create(files);
    await indexOnce(repo.root);
    const later = new Date(Date.now() + 60_000);
    utimesSync(repo.path("src/a.py"), later, later);
    const stats = await indexOnce(repo.root);
    expect(stats.files).toMatchObject({ parsed: 0, unchanged: 3, touched: 1 });
    // The refreshed stat means the next run does not even read it.
    const again = await indexOnce(repo.root);
    expect(again.files).toMatchObject({ parsed: 0, touched: 0, unchanged: 3 });
  });

  it("re-parses nothing when every mtime changed but no content did (a restored CI cache)", async () => {
    repo = TempRepo.create(files);
    await indexOnce(repo.root);
    const later = new Date(Date.now() + 120_000);
    for (const path of Object.keys(files)) utimesSync(repo.path(path), later, later);
    const stats = await indexOnce(repo.root);
    expect(stats.files).toMatchObject({ parsed: 0, touched: 3, unchanged: 3, removed: 0 });
  });
});
