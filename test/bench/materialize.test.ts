import { execFileSync } from "node:child_process";
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { findMirror, Materializer } from "../../src/bench/materialize.js";
import { TempRepo } from "../helpers/repo.js";

const git = (cwd: string, ...args: string[]): string => execFileSync("git", args, { cwd, encoding: "utf8" }).trim();

describe("Materializer", () => {
  let source: TempRepo | undefined;
  let dir: string | undefined;
  afterEach(() => {
    source?.dispose();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  /** A history A -> B -> C with a branch and a tag at C, mirrored as `mirrors/acme+shop/repo`. */
  function setup(): { a: string; b: string; c: string; mirrors: string; cache: string } {
    source = TempRepo.create({ "app.py": "version = 'A'\n" }, { git: true, message: "A" });
    const a = source.git("rev-parse", "HEAD").trim();
    source.write({ "app.py": "version = 'B'\n", "data.bin.txt": "big data\n" });
    const b = source.commitAll("B");
    source.write({ "app.py": "version = 'C'\n", "later.py": "x = 1\n" });
    const c = source.commitAll("C: the fix");
    source.git("tag", "v1");
    source.git("branch", "feature");
    dir = mkdtempSync(join(tmpdir(), "ctxsmith-mat-"));
    const mirrors = join(dir, "mirrors");
    // A copy of .git keeps objects loose, so a test can delete one blob.
    cpSync(join(source.root, ".git"), join(mirrors, "acme+shop", "repo"), { recursive: true });
    return { a, b, c, mirrors, cache: join(dir, "cache") };
  }

  it("checks out the base commit with no ref, reflog or later commit reachable", async () => {
    const { a, b, c, mirrors, cache } = setup();
    const m = new Materializer(cache, { mirrors, network: false });
    const checkout = await m.checkout("acme/shop", b);
    expect(checkout.missing).toEqual([]);
    expect(readFileSync(join(checkout.root, "app.py"), "utf8")).toBe("version = 'B'\n");
    expect(existsSync(join(checkout.root, "later.py"))).toBe(false);
    expect(git(checkout.root, "rev-parse", "HEAD")).toBe(b);
    expect(git(checkout.root, "for-each-ref")).toBe("");
    const reachable = git(checkout.root, "rev-list", "--all", "--reflog").split("\n");
    expect(reachable.sort()).toEqual([a, b].sort());
    expect(reachable).not.toContain(c);
    expect(git(checkout.root, "log", "--format=%s")).toBe("B\nA");
  });

  it("moves one work clone between commits, forward and back, leaving no stray files", async () => {
    const { a, c, mirrors, cache } = setup();
    const m = new Materializer(cache, { mirrors, network: false });
    const atC = await m.checkout("acme/shop", c);
    expect(readFileSync(join(atC.root, "later.py"), "utf8")).toBe("x = 1\n");
    const atA = await m.checkout("acme/shop", a);
    expect(atA.root).toBe(atC.root);
    expect(existsSync(join(atA.root, "later.py"))).toBe(false);
    expect(existsSync(join(atA.root, "data.bin.txt"))).toBe(false);
    expect(git(atA.root, "rev-list", "--all")).toBe(a);
  });

  it("tolerates a blob the mirror lacks: the file is left out, the rest is checked out", async () => {
    const { b, mirrors, cache } = setup();
    const blob = git(source!.root, "rev-parse", `${b}:data.bin.txt`);
    rmSync(join(mirrors, "acme+shop", "repo", "objects", blob.slice(0, 2), blob.slice(2)));
    const m = new Materializer(cache, { mirrors, network: false });
    const checkout = await m.checkout("acme/shop", b);
    expect(checkout.missing).toEqual(["data.bin.txt"]);
    expect(readFileSync(join(checkout.root, "app.py"), "utf8")).toBe("version = 'B'\n");
    expect(existsSync(join(checkout.root, "data.bin.txt"))).toBe(false);
    // Moving on from a commit with a missing blob, to one without it and back.
    const atC = await m.checkout("acme/shop", git(source!.root, "rev-parse", "HEAD"));
    expect(readFileSync(join(atC.root, "later.py"), "utf8")).toBe("x = 1\n");
    expect((await m.checkout("acme/shop", git(source!.root, "rev-parse", "HEAD~2"))).missing).toEqual([]);
    expect((await m.checkout("acme/shop", b)).missing).toEqual(["data.bin.txt"]);
  });

  it("finds mirrors named owner+name/repo or owner+name, and says when there is none", async () => {
    const { mirrors, cache } = setup();
    expect(findMirror(mirrors, "acme/shop")).toBe(join(mirrors, "acme+shop", "repo"));
    expect(findMirror(mirrors, "acme/other")).toBeNull();
    const m = new Materializer(cache, { mirrors, network: false });
    await expect(m.checkout("acme/other", "HEAD")).rejects.toMatchObject({ code: "PATH_NOT_FOUND" });
  });
});
