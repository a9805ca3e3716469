import { mkdirSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { RepoFiles } from "../../src/core/repo-file.js";
import { walk } from "../../src/indexing/walk.js";
import { TempRepo } from "../helpers/repo.js";

const MiB = 1024 * 1024;

describe("walk", () => {
  let repo: TempRepo | undefined;
  afterEach(() => repo?.dispose());

  const paths = async (root: string, maxFileBytes = MiB) =>
    (await walk({ root, indexDir: join(root, ".contextsmith"), maxFileBytes })).files.map((f) => f.path);

  it("respects nested .gitignore files and .git/info/exclude in a git work tree", async () => {
    repo = TempRepo.create(
      {
        ".gitignore": "build/\n*.log\n",
        "src/keep.py": "x = 1\n",
        "src/.gitignore": "secret.py\n",
        "src/secret.py": "x = 2\n",
        "build/out.js": "x\n",
        "debug.log": "x\n",
      },
      { git: true },
    );
    repo.write({ ".git/info/exclude": "excluded.py\n", "excluded.py": "x\n", "untracked.py": "x = 3\n", "globally.py": "x\n" });
    // The global excludes file (core.excludesFile) is honoured too.
    repo.write({ "../global-excludes-for-test": "globally.py\n" });
    repo.git("config", "core.excludesFile", repo.path("../global-excludes-for-test"));
    const result = await walk({ root: repo.root, indexDir: repo.path(".contextsmith"), maxFileBytes: MiB });
    expect(result.git).toBe(true);
    // Untracked but not ignored files are included: the agent works on the current tree.
    expect(result.files.map((f) => f.path)).toEqual(["src/keep.py", "untracked.py"]);
  });

  it("uses .gitignore rules, negations included, in a folder that is not a git repository", async () => {
    repo = TempRepo.create({
      ".gitignore": "*.gen.ts\ndist/\n",
      "a.ts": "export const a = 1;\n",
      "b.gen.ts": "x\n",
      "dist/c.js": "x\n",
      "sub/.gitignore": "!keep.gen.ts\n",
      "sub/keep.gen.ts": "x\n",
      "node_modules/dep/index.js": "x\n",
    });
    const result = await walk({ root: repo.root, indexDir: repo.path(".contextsmith"), maxFileBytes: MiB });
    expect(result.git).toBe(false);
    expect(result.files.map((f) => f.path)).toEqual(["a.ts", "sub/keep.gen.ts"]);
  });

  it("skips lockfiles, minified bundles, unsupported and oversized files, counting each reason", async () => {
    repo = TempRepo.create({
      "package-lock.json": "{}",
      "Cargo.lock": "x",
      "app.min.js": "x",
      "image.png": "x",
      "big.py": "x".repeat(2000),
      "ok.py": "x = 1\n",
    });
    const result = await walk({ root: repo.root, indexDir: repo.path(".contextsmith"), maxFileBytes: 1000 });
    expect(result.files.map((f) => f.path)).toEqual(["ok.py"]);
    expect(result.skipped).toEqual({ lockfile: 2, generated: 1, unsupported: 1, "too-large": 1 });
  });

  it("never follows symlinks, so links out of the root and link loops are harmless", async () => {
    const outside = TempRepo.create({ "outside.py": "x = 1\n" });
    try {
      repo = TempRepo.create({ "in.py": "x = 1\n" });
      symlinkSync(outside.path("outside.py"), repo.path("link.py"));
      mkdirSync(repo.path("loop"));
      symlinkSync(repo.path("loop"), repo.path("loop/self"));
      symlinkSync(outside.root, repo.path("outdir"));
      const result = await walk({ root: repo.root, indexDir: repo.path(".contextsmith"), maxFileBytes: MiB });
      expect(result.files.map((f) => f.path)).toEqual(["in.py"]);
      expect(result.skipped.symlink).toBe(3);
    } finally {
      outside.dispose();
    }
  });

  it("does not follow a tracked folder that was replaced by a symlink out of the root", async () => {
    const outside = TempRepo.create({ "lib/secret.py": "x = 1\n" });
    try {
      repo = TempRepo.create({ "lib/secret.py": "x = 0\n", "ok.py": "x = 1\n" }, { git: true });
      repo.remove("lib");
      symlinkSync(outside.path("lib"), repo.path("lib"));
      const result = await walk({ root: repo.root, indexDir: repo.path(".contextsmith"), maxFileBytes: MiB });
      expect(result.files.map((f) => f.path)).toEqual(["ok.py"]);
      expect(result.skipped.symlink).toBe(2); // the link itself (untracked) and the entry behind it
    } finally {
      outside.dispose();
    }
  });

  it("checks the folders of a file only when it will be read: one the index holds unchanged behind such a link stays listed, and is never read through it", async () => {
    const outside = TempRepo.create({ "lib/secret.py": "x = 1\n" });
    try {
      repo = TempRepo.create({ "lib/secret.py": "x = 0\n", "ok.py": "x = 1\n" }, { git: true });
      repo.remove("lib");
      symlinkSync(outside.path("lib"), repo.path("lib"));
      const asked: string[] = [];
      const unchanged = (path: string) => (asked.push(path), path === "lib/secret.py");
      const result = await walk({ root: repo.root, indexDir: repo.path(".contextsmith"), maxFileBytes: MiB, unchanged });
      expect(asked.sort()).toEqual(["lib", "lib/secret.py", "ok.py"]);
      expect(result.files.map((f) => f.path)).toEqual(["lib/secret.py", "ok.py"]);
      expect(result.skipped.symlink).toBe(1); // the link itself
      // Whatever the walk lists, reading goes through the one reader, which refuses the link.
      expect(new RepoFiles(repo.root).read("lib/secret.py", { maxBytes: MiB })).toEqual({ ok: false, reason: "link" });
    } finally {
      outside.dispose();
    }
  });

  it("handles spaces and unicode in paths, with and without git", async () => {
    const files = { "dir with space/naïve file.py": "x = 1\n", "日本/コード.ts": "export {};\n" };
    repo = TempRepo.create(files);
    expect(await paths(repo.root)).toEqual(["dir with space/naïve file.py", "日本/コード.ts"]);
    repo.dispose();
    repo = TempRepo.create(files, { git: true });
    expect(await paths(repo.root)).toEqual(["dir with space/naïve file.py", "日本/コード.ts"]);
  });

  it("gives .h headers the language of the repository's sources: C unless C++ sources outnumber C ones", async () => {
    const languages = async (files: Record<string, string>) => {
      repo?.dispose();
      repo = TempRepo.create(files);
      const walked = await walk({ root: repo.root, indexDir: join(repo.root, ".contextsmith"), maxFileBytes: MiB });
      return Object.fromEntries(walked.files.map((f) => [f.path, f.language]));
    };
    expect(await languages({ "a.h": "", "a.c": "", "b.c": "", "x.cpp": "", "y.hpp": "" })).toEqual({ "a.h": "c", "a.c": "c", "b.c": "c", "x.cpp": "cpp", "y.hpp": "cpp" });
    expect(await languages({ "a.h": "", "a.c": "", "x.cpp": "", "y.cc": "" })).toEqual({ "a.h": "cpp", "a.c": "c", "x.cpp": "cpp", "y.cc": "cpp" });
  });

  it("never walks the index folder, even where git would list it", async () => {
    repo = TempRepo.create({ "a.py": "x\n", ".contextsmith/junk.py": "x\n", "custom-index/junk.py": "x\n" }, { git: true });
    const result = await walk({ root: repo.root, indexDir: repo.path("custom-index"), maxFileBytes: MiB });
    expect(result.files.map((f) => f.path)).toEqual(["a.py"]);
  });

  it("indexes a subfolder of a work tree with paths relative to that subfolder", async () => {
    repo = TempRepo.create({ "pkg/mod.py": "x\n", "other/x.py": "x\n" }, { git: true });
    expect(await paths(repo.path("pkg"))).toEqual(["mod.py"]);
  });

  it("ignores files deleted from the work tree but still in git's index", async () => {
    repo = TempRepo.create({ "a.py": "x\n", "b.py": "x\n" }, { git: true });
    repo.remove("b.py");
    expect(await paths(repo.root)).toEqual(["a.py"]);
  });
});
