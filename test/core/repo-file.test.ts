import { createHash } from "node:crypto";
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { RepoFiles, type RepoFileOptions } from "../../src/core/repo-file.js";
import { TempRepo } from "../helpers/repo.js";

describe("RepoFiles", () => {
  let repo: TempRepo;
  let outside: string;
  beforeEach(() => {
    repo = TempRepo.create({ "src/a.py": "def a():\n    return 1\n", "src/big.txt": "x".repeat(5000) });
    outside = mkdtempSync(join(tmpdir(), "ctxsmith-outside-"));
    writeFileSync(join(outside, "secret.txt"), "TOP SECRET\n");
    mkdirSync(join(outside, "dir"));
    writeFileSync(join(outside, "dir", "a.py"), "SECRET = 1\n");
  });
  afterEach(() => {
    repo.dispose();
    rmSync(outside, { recursive: true, force: true });
  });

  const files = (): RepoFiles => new RepoFiles(repo.root);
  const refusal = (path: string, options: RepoFileOptions = { maxBytes: 1 << 20 }): string | null => {
    const read = files().read(path, options);
    return read.ok ? null : read.reason;
  };

  it("reads a regular file with its SHA-256", () => {
    const read = files().read("src/a.py", { maxBytes: 1 << 20 });
    expect(read.ok).toBe(true);
    if (!read.ok) return;
    expect(read.bytes.toString("utf8")).toBe("def a():\n    return 1\n");
    expect(read.hash).toBe(createHash("sha256").update("def a():\n    return 1\n").digest("hex"));
  });

  it("never follows a link: a file linked out, a folder linked out, a link inside the root", () => {
    symlinkSync(join(outside, "secret.txt"), repo.path("src/leak.py"));
    symlinkSync(join(outside, "dir"), repo.path("linked"));
    symlinkSync(repo.path("src/a.py"), repo.path("src/alias.py"));
    expect(refusal("src/leak.py")).toBe("link");
    expect(refusal("linked/a.py")).toBe("link");
    expect(refusal("src/alias.py")).toBe("link");
  });

  it("refuses paths that are not repository-relative", () => {
    expect(refusal("../" + join(outside.split("/").pop()!, "secret.txt"))).toBe("link");
    expect(refusal(join(outside, "secret.txt"))).toBe("link");
    expect(refusal("src/../../etc/passwd")).toBe("link");
    expect(refusal("")).toBe("link");
  });

  it("reads only regular files, and a FIFO does not block", () => {
    execFileSync("mkfifo", [repo.path("src/pipe.py")]);
    expect(refusal("src/pipe.py")).toBe("not-a-file");
    expect(refusal("src")).toBe("not-a-file");
    expect(refusal("src/gone.py")).toBe("missing");
  });

  it("caps the size and checks the indexed hash", () => {
    expect(refusal("src/big.txt", { maxBytes: 4999 })).toBe("too-large");
    expect(refusal("src/big.txt", { maxBytes: 5000 })).toBeNull();
    const hash = createHash("sha256").update("x".repeat(5000)).digest("hex");
    expect(files().read("src/big.txt", { maxBytes: 5000, expectHash: hash }).ok).toBe(true);
    repo.write({ "src/big.txt": "y".repeat(5000) });
    expect(refusal("src/big.txt", { maxBytes: 5000, expectHash: hash })).toBe("changed");
  });

  it("works through a root that is itself reached by a link", () => {
    const link = join(outside, "repo-link");
    symlinkSync(repo.root, link);
    expect(new RepoFiles(link).read("src/a.py", { maxBytes: 1 << 20 }).ok).toBe(true);
  });
});
