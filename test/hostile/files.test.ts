import { mkdirSync, symlinkSync } from "node:fs";
import { afterEach, describe, expect, it } from "vitest";
import { ContextSmithError } from "../../src/core/errors.js";
import { Engine } from "../../src/engine.js";
import { TempRepo } from "../helpers/repo.js";
import { storeOf } from "../helpers/store.js";

describe("hostile files", () => {
  let repo: TempRepo | undefined;
  afterEach(() => repo?.dispose());

  it("skips and counts binary, undecodable and generated files, and indexes broken syntax", async () => {
    repo = TempRepo.create({
      "good.py": "def ok():\n    return 1\n",
      "broken.py": "def broken(:\n    return (\n\ndef after():\n    pass\n",
      "binary.py": Buffer.from([0x64, 0x65, 0x66, 0x00, 0x01, 0x02]),
      // A NUL past git's 8,000-byte probe: tree-sitter would stop there and drop `after_nul`.
      "late-nul.py": Buffer.concat([Buffer.from(`${"# padding\n".repeat(1000)}def before_nul():\n    pass\n`), Buffer.from([0]), Buffer.from("\ndef after_nul():\n    pass\n")]),
      "latin1.py": Buffer.from("x = 'caf\xe9'\n", "latin1"),
      "one-line.js": `var x = ${"1+".repeat(2_500_000)}1;`, // a 5 MB single line
      "bom.py": "\ufeffdef with_bom():\n    pass\n",
    });
    const engine = new Engine(repo.root, { jobs: 1, git: false, maxFileBytes: 8 * 1024 * 1024 });
    try {
      const stats = await engine.index();
      expect(stats.files.parsed).toBe(3);
      expect(stats.files.skipped).toEqual({ binary: 2, undecodable: 1, generated: 1 });
      const store = storeOf(engine)!;
      const broken = store.parse.parsed("broken.py")!;
      expect(broken.hasErrors).toBe(true);
      // tree-sitter recovers: the definition after the error is still found.
      expect(broken.symbols.map((s) => s.name)).toContain("after");
      expect(store.parse.parsed("bom.py")!.symbols.map((s) => s.name)).toEqual(["with_bom"]);
      expect(store.file("binary.py")).toMatchObject({ skipped: "binary" });
      expect(store.file("late-nul.py")).toMatchObject({ skipped: "binary" });
      // Skipped files are remembered, so an unchanged one is not even read next time.
      const again = await engine.index();
      expect(again.files).toMatchObject({ parsed: 0, unchanged: 7 });
    } finally {
      await engine.close();
    }
  });

  it("keeps definitions nested deeper than 32 inside their enclosing one (5,000 nested functions took 74 s and 1.6 GB)", async () => {
    const nested = (n: number, open: (i: number) => string, close: string): string => Array.from({ length: n }, (_, i) => open(i)).join("") + close.repeat(n);
    repo = TempRepo.create({
      "deep.js": nested(5000, (i) => `function f${i}() {\n  call${i}();\n`, "}\n"),
      "deep.py": Array.from({ length: 300 }, (_, i) => `${" ".repeat(i)}def g${i}():\n`).join("") + `${" ".repeat(300)}pass\n`,
    });
    const engine = new Engine(repo.root, { jobs: 1, git: false });
    try {
      const stats = await engine.index();
      expect(stats.files.parsed).toBe(2);
      const store = storeOf(engine)!;
      for (const [path, prefix] of [["deep.js", "f"], ["deep.py", "g"]] as const) {
        const symbols = store.parse.symbols(path)!;
        expect(symbols).toHaveLength(32);
        expect(symbols.at(-1)!.qualifiedName).toBe(Array.from({ length: 32 }, (_, i) => `${prefix}${i}`).join("."));
      }
      // The calls of the deeper functions belong to the deepest one listed.
      const calls = store.parse.parsed("deep.js")!.calls;
      expect(calls).toHaveLength(5000);
      expect(calls.at(-1)!.caller).toBe(31);
    } finally {
      await engine.close();
    }
  });

  describe("a file that crashes its parse worker", () => {
    afterEach(() => {
      delete process.env.CTXSMITH_FAULT;
    });
    const good = (n: number): Record<string, string> => Object.fromEntries(Array.from({ length: n }, (_, i) => [`src/m${i}.py`, `def f${i}():\n    return ${i}\n`]));

    it("is skipped as parser-crashed, and the run completes (it failed every run before)", async () => {
      process.env.CTXSMITH_FAULT = "parse-crash"; // read by the parse threads
      repo = TempRepo.create({ ...good(30), "src/CTXSMITH_FAULT_bad.py": "def bad():\n    pass\n" });
      const engine = new Engine(repo.root, { jobs: 1, git: false });
      try {
        const stats = await engine.index();
        expect(stats.files).toMatchObject({ parsed: 30, skipped: { "parser-crashed": 1 } });
        expect(stats.warnings.join("\n")).toMatch(/src\/CTXSMITH_FAULT_bad\.py: the parser crashed on it \(.*\); skipped/);
        expect(storeOf(engine)!.file("src/CTXSMITH_FAULT_bad.py")).toMatchObject({ skipped: "parser-crashed" });
        // Not tried again until it changes.
        expect((await engine.index()).files).toMatchObject({ parsed: 0, unchanged: 31 });
        expect((await engine.rank("f7")).files[0]!.path).toBe("src/m7.py");
      } finally {
        await engine.close();
      }
    });

    it("fails the run when most files crash alone: the fault is the parser's, not the files'", async () => {
      process.env.CTXSMITH_FAULT = "parse-crash";
      repo = TempRepo.create(Object.fromEntries(Array.from({ length: 10 }, (_, i) => [`CTXSMITH_FAULT_${i}.py`, `x = ${i}\n`])));
      const engine = new Engine(repo.root, { jobs: 1, git: false });
      try {
        await expect(engine.index()).rejects.toBeInstanceOf(ContextSmithError);
      } finally {
        await engine.close();
      }
    });
  });

  it("skips a file over the size limit without reading it", async () => {
    repo = TempRepo.create({ "huge.py": `x = ${"1".repeat(2 * 1024 * 1024)}\n`, "small.py": "x = 1\n" });
    const engine = new Engine(repo.root, { jobs: 1, git: false });
    try {
      const stats = await engine.index();
      expect(stats.files.parsed).toBe(1);
      expect(stats.files.skipped).toEqual({ "too-large": 1 });
    } finally {
      await engine.close();
    }
  });

  it("survives a symlink loop and links out of the root", async () => {
    repo = TempRepo.create({ "a.py": "def a():\n    pass\n" });
    mkdirSync(repo.path("loop"));
    symlinkSync(repo.path("loop"), repo.path("loop/again"));
    symlinkSync("/etc/passwd", repo.path("passwd.txt"));
    const engine = new Engine(repo.root, { jobs: 1, git: false });
    try {
      const stats = await engine.index();
      expect(stats.files.parsed).toBe(1);
      expect(stats.files.skipped).toEqual({ symlink: 2 });
    } finally {
      await engine.close();
    }
  });

  it("reports a missing path and a file given as root clearly", () => {
    expect(() => new Engine("/definitely/not/here")).toThrowError(expect.objectContaining({ code: "PATH_NOT_FOUND" }));
    repo = TempRepo.create({ "f.txt": "x" });
    expect(() => new Engine(repo!.path("f.txt"))).toThrowError(expect.objectContaining({ code: "NOT_A_DIRECTORY" }));
  });
});
