import { afterEach, describe, expect, it } from "vitest";
import { logCommits } from "../../../src/indexing/git/log.js";
import { TempRepo } from "../../helpers/repo.js";

describe("logCommits", () => {
  let repo: TempRepo | undefined;
  afterEach(() => repo?.dispose());

  const collect = async (root: string, head: string, since: string | null = null, renames = false) => {
    const out = [];
    for await (const c of logCommits(root, head, since, 1000, { renames })) out.push(c);
    return out;
  };

  it("streams commits newest first with messages and file lists, unicode intact", async () => {
    repo = TempRepo.create({ "naïve/ファイル.py": "x = 1\n" }, { git: true, message: "Ajoute la première fonction ✓\n\nCorps du message." });
    repo.write({ "b.py": "y = 2\n" });
    const head = repo.commitAll("Second");
    const commits = await collect(repo.root, head);
    expect(commits.map((c) => [c.message, c.files])).toEqual([
      ["Second", ["b.py"]],
      ["Ajoute la première fonction ✓\n\nCorps du message.", ["naïve/ファイル.py"]],
    ]);
    expect(commits[0]!.hash).toBe(head);
  });

  it("reads only commits after `since`", async () => {
    repo = TempRepo.create({ "a.py": "x\n" }, { git: true });
    const first = repo.git("rev-parse", "HEAD").trim();
    repo.write({ "a.py": "y\n" });
    const head = repo.commitAll("Later");
    expect((await collect(repo.root, head, first)).map((c) => c.message)).toEqual(["Later"]);
  });

  it("lists a renamed file under both its paths, and the rename itself when asked for renames", async () => {
    const body = Array.from({ length: 20 }, (_, i) => `value_${i} = ${i}\n`).join("");
    repo = TempRepo.create({ "pkg/core.py": body, "pkg/other.py": "y = 1\n", "pkg/same.py": "z = 1\n" }, { git: true });
    repo.git("mv", "pkg/core.py", "pkg/old core.py");
    repo.git("mv", "pkg/same.py", "pkg/same_moved.py");
    // A rename with a small change, one without, and an edit in the same commit.
    repo.write({ "pkg/old core.py": `${body}extra = 1\n`, "pkg/other.py": "y = 2\n" });
    const head = repo.commitAll("Move core aside");
    const [renamed] = await collect(repo.root, head, null, true);
    expect(renamed!.files.sort()).toEqual(["pkg/core.py", "pkg/old core.py", "pkg/other.py", "pkg/same.py", "pkg/same_moved.py"]);
    expect(renamed!.renamed.sort()).toEqual([["pkg/core.py", "pkg/old core.py"], ["pkg/same.py", "pkg/same_moved.py"]]);
    const [without] = await collect(repo.root, head);
    expect(without!.files.sort()).toEqual(renamed!.files);
    expect(without!.renamed).toEqual([]);
  });

  it("goes on after `skip` commits of the same walk", async () => {
    repo = TempRepo.create({ "a.py": "x\n" }, { git: true, message: "First" });
    for (const n of [2, 3, 4]) {
      repo.write({ "a.py": `x = ${n}\n` });
      repo.commitAll(`Commit ${n}`);
    }
    const head = repo.git("rev-parse", "HEAD").trim();
    const rest = [];
    for await (const c of logCommits(repo.root, head, null, 2, { renames: false, skip: 1 })) rest.push(c.message);
    expect(rest).toEqual(["Commit 3", "Commit 2"]);
  });

  it("fails with GIT_FAILED when git cannot read the history", async () => {
    repo = TempRepo.create({ "a.py": "x\n" }, { git: true });
    await expect(collect(repo.root, "0123456789abcdef0123456789abcdef01234567")).rejects.toMatchObject({ code: "GIT_FAILED" });
  });
});
