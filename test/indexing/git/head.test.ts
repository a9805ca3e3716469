import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { gitHead, headFromFiles } from "../../../src/indexing/git/head.js";
import { TempRepo } from "../../helpers/repo.js";

describe("gitHead and headFromFiles", () => {
  const cleanup: Array<() => void> = [];
  afterEach(() => {
    while (cleanup.length > 0) cleanup.pop()!();
  });
  const repo = (files: Record<string, string> = { "a.py": "x = 1\n" }): TempRepo => {
    const r = TempRepo.create(files, { git: true });
    cleanup.push(() => r.dispose());
    return r;
  };
  const noEnv = {};

  it("reads a branch's loose ref, the same ref once packed, and a detached HEAD, as git gives them", async () => {
    const r = repo();
    const first = r.git("rev-parse", "HEAD").trim();
    expect(headFromFiles(r.root, noEnv)).toBe(first);
    r.write({ "b.py": "y = 2\n" });
    const second = r.commitAll("Second");
    expect(headFromFiles(r.root, noEnv)).toBe(second);

    r.git("pack-refs", "--all");
    r.write({ "c.py": "z = 3\n" });
    const third = r.commitAll("Third");
    r.git("pack-refs", "--all");
    expect(headFromFiles(r.root, noEnv)).toBe(third);

    r.git("checkout", "--quiet", "--detach", first);
    expect(headFromFiles(r.root, noEnv)).toBe(first);
    expect(await gitHead(r.root)).toBe(first);
  });

  it("finds the repository above a subfolder, and a linked worktree's through its .git file", () => {
    const r = repo({ "pkg/sub/a.py": "x = 1\n" });
    const head = r.git("rev-parse", "HEAD").trim();
    expect(headFromFiles(join(r.root, "pkg", "sub"), noEnv)).toBe(head);

    const elsewhere = mkdtempSync(join(tmpdir(), "ctxsmith-worktree-"));
    cleanup.push(() => rmSync(elsewhere, { recursive: true, force: true }));
    const tree = join(elsewhere, "tree");
    r.git("worktree", "add", "--quiet", "-b", "feature", tree);
    writeFileSync(join(tree, "new.py"), "n = 1\n");
    r.git("-C", tree, "add", "new.py");
    r.git("-C", tree, "commit", "--quiet", "-m", "On the feature branch");
    const feature = r.git("-C", tree, "rev-parse", "HEAD").trim();
    expect(feature).not.toBe(head);
    expect(headFromFiles(tree, noEnv)).toBe(feature);
    expect(headFromFiles(r.root, noEnv)).toBe(head);
  });

  it("leaves to git what the files do not say plainly, and git's answer stands", async () => {
    // A branch not yet born: git says there is no commit.
    const unborn = TempRepo.create({}, { git: true });
    cleanup.push(() => unborn.dispose());
    expect(headFromFiles(unborn.root, noEnv)).toBeUndefined();
    expect(await gitHead(unborn.root)).toBeNull();

    // Outside any repository.
    const plain = mkdtempSync(join(tmpdir(), "ctxsmith-plain-"));
    cleanup.push(() => rmSync(plain, { recursive: true, force: true }));
    expect(headFromFiles(plain, noEnv)).toBeUndefined();
    expect(await gitHead(plain)).toBeNull();

    // Where git cannot be run to ask, that is no answer: an error, not "no commit".
    const path = process.env.PATH;
    process.env.PATH = plain;
    try {
      await expect(gitHead(unborn.root)).rejects.toMatchObject({ code: "GIT_FAILED" });
    } finally {
      process.env.PATH = path;
    }

    const r = repo();
    const head = r.git("rev-parse", "HEAD").trim();
    // The environment places the repository: git alone is asked.
    expect(headFromFiles(r.root, { GIT_DIR: join(r.root, ".git") })).toBeUndefined();
    // A ref that names another ref, and a HEAD that is not git's.
    r.git("symbolic-ref", "refs/heads/alias", "refs/heads/" + r.git("branch", "--show-current").trim());
    r.git("symbolic-ref", "HEAD", "refs/heads/alias");
    expect(headFromFiles(r.root, noEnv)).toBeUndefined();
    expect(await gitHead(r.root)).toBe(head);
    writeFileSync(join(r.root, ".git", "HEAD"), "ref: refs/heads/../../config\n");
    expect(headFromFiles(r.root, noEnv)).toBeUndefined();
    writeFileSync(join(r.root, ".git", "HEAD"), "not a ref\n");
    expect(headFromFiles(r.root, noEnv)).toBeUndefined();
  });
});
