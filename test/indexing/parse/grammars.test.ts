import { createRequire } from "node:module";
import { describe, expect, it } from "vitest";
import { Grammars } from "../../../src/indexing/parse/grammars.js";
import { parseBatch } from "../../../src/indexing/parse/parse-batch.js";
import { PROTOCOL_VERSION, type ParseTask } from "../../../src/indexing/protocol.js";
import { TempRepo } from "../../helpers/repo.js";

const require = createRequire(import.meta.url);

describe("a grammar that cannot load", () => {
  it("leaves its language as text with one warning, and every other language parsed", () => {
    const repo = TempRepo.create({ "a.c": "int a(void) { return 1; }\n", "b.c": "int b(void) { return a(); }\n", "c.py": "def c():\n    pass\n" });
    try {
      // As on a machine where tree-sitter-c has no prebuild and no compiler built it.
      const grammars = new Grammars({
        load: (module) => {
          if (module === "tree-sitter-c") throw new Error("No native build was found for platform=plan9\nmore detail");
          return require(module);
        },
      });
      const file = (path: string, language: "c" | "python") => ({ path, size: 0, mtimeMs: 0, language, expectHash: null });
      const task: ParseTask = {
        version: PROTOCOL_VERSION,
        root: repo.root,
        files: [file("a.c", "c"), file("b.c", "c"), file("c.py", "python")],
        limits: { maxFileBytes: 1 << 20, maxLineChars: 10_000, maxMeanLineChars: 1_000 },
        lexical: false,
      };
      const result = parseBatch(grammars, task);
      expect(result.warnings).toEqual([
        "the c grammar cannot load on this machine (tree-sitter-c: No native build was found for platform=plan9): c files are indexed as text, without symbols or calls. Reinstall (npm rebuild), then index into a fresh index folder.",
      ]);
      expect(result.updates.map((u) => [u.path, u.kind, u.kind === "index" ? u.counts.symbols : -1, u.kind === "index" ? u.parsed !== null : null])).toEqual([
        ["a.c", "index", 0, false],
        ["b.c", "index", 0, false],
        ["c.py", "index", 1, true],
      ]);
      expect(grammars.failure("c")).toContain("tree-sitter-c");
      expect(grammars.failure("python")).toBeUndefined();
    } finally {
      repo.dispose();
    }
  });
});

describe("a parse that runs past its budget", () => {
  it("is abandoned, the file indexed as text with a warning, and the parser parses the next file afresh", () => {
    // The budget is checked every few thousand parse steps: a file of some length.
    const slow = Array.from({ length: 500 }, (_, i) => `int f${i}() { return ${i}; }\n`).join("");
    const repo = TempRepo.create({ "slow.cpp": slow, "next.cpp": "int next() { return 2; }\n" });
    try {
      // Error recovery can be worse than linear (13 s on 196 KB of array data): a budget of 0 ms stands for it.
      const grammars = new Grammars({ budgetMs: (chars) => (chars === slow.length ? 0 : 60_000) });
      const file = (path: string) => ({ path, size: 0, mtimeMs: 0, language: "cpp" as const, expectHash: null });
      const task: ParseTask = {
        version: PROTOCOL_VERSION,
        root: repo.root,
        files: [file("slow.cpp"), file("next.cpp")],
        limits: { maxFileBytes: 1 << 20, maxLineChars: 10_000, maxMeanLineChars: 1_000 },
        lexical: false,
      };
      const result = parseBatch(grammars, task);
      expect(result.warnings).toEqual(["slow.cpp: parser failed (tree-sitter gave up after 0.0 s, its error recovery too slow on this text); indexed as text"]);
      const [abandoned, next] = result.updates;
      expect(abandoned).toMatchObject({ kind: "index", parsed: null, counts: { symbols: 0 } });
      expect(next).toMatchObject({ kind: "index", counts: { symbols: 1 } });
    } finally {
      repo.dispose();
    }
  });
});

describe("node objects", () => {
  it("are not kept in node-tree-sitter's per-tree cache (a node read twice is two objects of one id)", () => {
    // The binding still has the cache this turns off: an upgrade that drops it must say so here.
    const Tree = (require("tree-sitter-core") as { Tree: { prototype: Record<string, unknown> } }).Tree;
    expect(typeof Tree.prototype._cacheNode).toBe("function");
    const root = new Grammars().get("python")!.parse("def f():\n    return g()\n");
    const first = root.firstNamedChild!;
    const again = root.firstNamedChild!;
    expect(again === first).toBe(false);
    expect(again.id).toBe(first.id);
    expect(first.text).toBe("def f():\n    return g()");
  });
});
