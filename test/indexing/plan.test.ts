import { utimesSync } from "node:fs";
import { afterEach, describe, expect, it } from "vitest";
import { Engine } from "../../src/engine.js";
import { planRun } from "../../src/indexing/plan.js";
import { indexOnce } from "../helpers/index.js";
import { TempRepo } from "../helpers/repo.js";
import { storeOf } from "../helpers/store.js";
import { loadLexical } from "../../src/store/lexical.js";
import type { Language } from "../../src/core/types.js";

describe("planRun", () => {
  const walked = (path: string, size: number, mtimeMs: number, language: Language | null = null) => ({ path, size, mtimeMs, language });
  const stored = (path: string, size: number, mtimeMs: number, hash: string, language: Language | null = null) => ({ path, size, mtimeMs, hash, language });

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

  it("parses a file again, whatever its content, when its language changed", () => {
    // A header that C++ sources now make C++, a language that gained a grammar since the last run.
    const plan = planRun([walked("x.h", 1, 1, "cpp"), walked("y.h", 1, 1, "c")], [stored("x.h", 1, 1, "h", "c"), stored("y.h", 1, 1, "h", "c")]);
    expect(plan.read).toEqual([{ ...walked("x.h", 1, 1, "cpp"), expectHash: null }]);
    expect(plan.unchanged).toBe(1);
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

  it("parses a repository's headers as C++ once its C++ sources outnumber its C sources", async () => {
    repo = TempRepo.create({ "lib/shape.h": "class Shape { public: int area(); };\n", "lib/a.c": "int a(void) { return 1; }\n" });
    await indexOnce(repo.root);
    const before = new Engine(repo.root);
    expect(storeOf(before)!.file("lib/shape.h")).toMatchObject({ language: "c" });
    await before.close();
    repo.write({ "lib/shape.cpp": '#include "shape.h"\nint Shape::area() { return 0; }\n', "lib/b.cc": "int b() { return 2; }\n" });
    const stats = await indexOnce(repo.root);
    // The header is unchanged on disk, and parsed again all the same.
    expect(stats.files).toMatchObject({ parsed: 3, unchanged: 1 });
    const after = new Engine(repo.root);
    expect(storeOf(after)!.file("lib/shape.h")).toMatchObject({ language: "cpp" });
    expect(storeOf(after)!.parse.symbols("lib/shape.h")!.map((s) => `${s.kind} ${s.qualifiedName}`)).toEqual(["class Shape", "method Shape.area"]);
    expect((await after.callers("Shape.area")).targets.map((t) => t.path).sort()).toEqual(["lib/shape.cpp", "lib/shape.h"]);
    await after.close();
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
