import { rmSync } from "node:fs";
import { afterEach, describe, expect, it } from "vitest";
import { Engine } from "../src/engine.js";
import { Runtime } from "../src/runtime/runtime.js";
import { TempRepo } from "./helpers/repo.js";
import { storeOf } from "./helpers/store.js";

describe("Engine: one repository over a shared runtime", () => {
  let repo: TempRepo | undefined;
  afterEach(() => repo?.dispose());

  it("a long-lived engine follows a rebuilt index: the old data file deleted, a new file added, the next answer has it", async () => {
    repo = TempRepo.create({ "a.py": "def alpha():\n    return 1\n" });
    const engine = new Engine(repo.root, { jobs: 1, git: false, semantic: false });
    try {
      expect((await engine.symbol("alpha")).matches).toHaveLength(1);
      rmSync(engine.config.indexDir, { recursive: true, force: true });
      repo.write({ "b.py": "def beta():\n    return alpha()\n" });
      expect((await engine.symbol("beta")).matches).toHaveLength(1);
      expect(engine.status()?.totals.files).toBe(2);
      expect((await engine.rank("beta")).files.map((f) => f.path)).toContain("b.py");
    } finally {
      await engine.close();
    }
  });

  it("a replaced index is picked up by a reader that does not refresh (another process rebuilt it)", async () => {
    repo = TempRepo.create({ "a.py": "def alpha():\n    return 1\n" });
    const reader = new Engine(repo.root, { jobs: 1, git: false, semantic: false });
    const writer = new Engine(repo.root, { jobs: 1, git: false, semantic: false });
    try {
      await writer.index();
      expect((await reader.search("alpha", { refresh: false })).map((h) => h.name)).toEqual(["alpha"]);
      rmSync(writer.config.indexDir, { recursive: true, force: true });
      repo.write({ "a.py": "def gamma():\n    return 1\n" });
      await writer.index();
      expect((await reader.search("gamma", { refresh: false })).map((h) => h.name)).toEqual(["gamma"]);
      expect((await reader.symbol("alpha", { refresh: false })).matches).toEqual([]);
    } finally {
      await reader.close();
      await writer.close();
    }
  });

  it("engines of one runtime share its token counter and embedder; closing an engine leaves the runtime to its owner", async () => {
    repo = TempRepo.create({ "a.py": "def alpha():\n    return 1\n" });
    const runtime = new Runtime();
    const one = new Engine(repo.root, { jobs: 1, git: false, runtime });
    const two = new Engine(repo.root, { jobs: 1, git: false, runtime, indexDir: `${repo.root}/.second` });
    try {
      expect(runtime.tokenCounter("cl100k_base")).toBe(runtime.tokenCounter("cl100k_base"));
      expect(runtime.embedder(one.config.embedding, 1)).toBe(runtime.embedder(two.config.embedding, 1));
      expect(await one.countTokens("hello world")).toBe(2);
      await one.close();
      expect(await two.countTokens("hello world")).toBe(2);
    } finally {
      await two.close();
      await runtime.close();
    }
  });

  it("versions each part of the index: a one-file edit moves the files, lexical overlay and graph, not the history", async () => {
    repo = TempRepo.create({ "a.py": "def alpha():\n    return 1\n" }, { git: true });
    const engine = new Engine(repo.root, { jobs: 1, semantic: false });
    try {
      await engine.index();
      const before = storeOf(engine)!.meta().versions;
      repo.write({ "a.py": "def alpha():\n    return 2\n\ndef delta():\n    return 3\n" });
      await engine.index();
      const after = storeOf(engine)!.meta().versions;
      expect(after.files).toBeGreaterThan(before.files);
      expect(after.graph).toBeGreaterThan(before.graph);
      expect(after.history).toBe(before.history);
      expect((await engine.search("delta", { refresh: false })).map((h) => h.name)).toEqual(["delta"]);
      await engine.index(); // nothing changed: no part moves
      expect(storeOf(engine)!.meta().versions).toEqual(after);
    } finally {
      await engine.close();
    }
  });
});
