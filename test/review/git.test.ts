import { afterEach, describe, expect, it } from "vitest";
import { changedFiles, grepWords, isWorkTreeAt, readBlobs, resolveRange } from "../../src/review/git.js";
import { TempRepo } from "../helpers/repo.js";

let repos: TempRepo[] = [];
afterEach(() => {
  for (const r of repos) r.dispose();
  repos = [];
});

function repo(files: Record<string, string | Buffer>): TempRepo {
  const r = TempRepo.create(files, { git: true });
  repos.push(r);
  return r;
}

describe("review's git", () => {
  it("lists changes with odd paths, renames with their line counts, and untracked files", async () => {
    const r = repo({ "a b.py": "x = 1\n", "é/ü.py": "y = 1\n", "old.py": "def f():\n    return 1\n\n\ndef g():\n    return 2\n" });
    const base = r.git("rev-parse", "HEAD").trim();
    r.write({ "a b.py": "x = 2\n", "é/ü.py": "y = 1\nz = 2\n" });
    r.git("mv", "old.py", "new.py");
    r.write({ "new.py": "def f():\n    return 1\n\n\ndef g():\n    return 3\n", "untracked file.py": "u = 1\n", "ignored.log": "x\n", ".gitignore": "*.log\n" });
    const files = await changedFiles(r.root, base, null);
    expect(files).toEqual([
      { status: "added", path: ".gitignore", additions: null, deletions: null },
      { status: "modified", path: "a b.py", additions: 1, deletions: 1 },
      { status: "renamed", path: "new.py", previousPath: "old.py", additions: 1, deletions: 1 },
      { status: "added", path: "untracked file.py", additions: null, deletions: null },
      { status: "modified", path: "é/ü.py", additions: 1, deletions: 0 },
    ]);
  });

  it("reads blobs at a commit, naming those too large, binary, missing, or past the change's total", async () => {
    const r = repo({ "small.py": "print(1)\n", "big.py": `${"x = 1\n".repeat(100)}`, "bin.dat": Buffer.from([1, 0, 2]), "latin.txt": Buffer.from([0xe9, 0x0a]), "z1.py": "a = 1\n", "z2.py": "b = 22\n" });
    const head = r.git("rev-parse", "HEAD").trim();
    const blobs = await readBlobs(r.root, head, ["small.py", "big.py", "bin.dat", "latin.txt", "gone.py", "line\nbreak.py", "z1.py", "z2.py"], { maxBytes: 100, totalBytes: 26 });
    expect(Object.fromEntries(blobs)).toEqual({
      "small.py": { text: "print(1)\n" },
      "big.py": { skipped: "too-large" },
      "bin.dat": { skipped: "binary" },
      "latin.txt": { skipped: "undecodable" },
      "gone.py": { skipped: "missing" },
      "line\nbreak.py": { skipped: "missing" },
      // 3 + 2 + 9 + 6 bytes read, in the order of the tree; the 7 of z2.py would pass the 26 of the whole change.
      "z1.py": { text: "a = 1\n" },
      "z2.py": { skipped: "change too large" },
    });
  });

  it("tells a clean checkout of a commit from a changed one", async () => {
    const r = repo({ "a.py": "a = 1\n" });
    const head = r.git("rev-parse", "HEAD").trim();
    expect(await isWorkTreeAt(r.root, head)).toBe(true);
    r.write({ "new.py": "n = 1\n" });
    expect(await isWorkTreeAt(r.root, head)).toBe(false);
  });

  it("finds the default branch, prefers origin's, and takes the merge base", async () => {
    const r = repo({ "a.py": "a = 1\n" });
    const first = r.git("rev-parse", "HEAD").trim();
    r.git("checkout", "-q", "-b", "topic");
    r.write({ "a.py": "a = 2\n" });
    const topic = r.commitAll("topic");
    r.git("checkout", "-q", "main");
    r.write({ "b.py": "b = 1\n" });
    const main = r.commitAll("main moves on");
    r.git("checkout", "-q", "topic");
    const { range, notices } = await resolveRange(r.root, {});
    expect(range).toEqual({ base: { ref: "main", commit: main }, from: first, head: { ref: null, commit: topic } });
    expect(notices).toEqual([]);
    r.git("update-ref", "refs/remotes/origin/main", first);
    expect((await resolveRange(r.root, {})).range.base).toEqual({ ref: "origin/main", commit: first });
  });

  it("greps whole words in one search, each line to the words it names, untracked files included, or at a commit", async () => {
    const r = repo({ "a.py": "refund(1)\nrefunded = 2\n", "odd:1:name.py": "charge(refund)\n" });
    const head = r.git("rev-parse", "HEAD").trim();
    r.write({ "b.py": "x = refund\n" });
    const found = await grepWords(r.root, null, ["refund", "charge", "absent"], 2);
    expect(Object.fromEntries(found)).toEqual({
      refund: { total: 3, hits: [{ path: "a.py", line: 1, text: "refund(1)" }, { path: "b.py", line: 1, text: "x = refund" }] },
      charge: { total: 1, hits: [{ path: "odd:1:name.py", line: 1, text: "charge(refund)" }] },
    });
    expect((await grepWords(r.root, head, ["refund"], 10)).get("refund")?.total).toBe(2);
    expect((await grepWords(r.root, null, ["absent"], 10)).size).toBe(0);
    // Only the files kept count (a review keeps code, not the docs that mention a name).
    expect((await grepWords(r.root, null, ["refund"], 10, (path) => path !== "b.py")).get("refund")?.total).toBe(2);
  });
});
