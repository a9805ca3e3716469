import { describe, expect, it } from "vitest";
import { checkBranch, parseSource } from "../../src/workspace/git-remote.js";

describe("repository addresses", () => {
  it("clones URLs, uses folders as they are, and refuses command transports", () => {
    expect(parseSource("https://github.com/acme/auth.git", "/")).toEqual({ kind: "remote", url: "https://github.com/acme/auth.git" });
    expect(parseSource("git@github.com:acme/auth.git", "/")).toEqual({ kind: "remote", url: "git@github.com:acme/auth.git" });
    expect(parseSource("ssh://git@host/acme/auth", "/")).toMatchObject({ kind: "remote" });
    expect(parseSource("src/web", "/home/me")).toEqual({ kind: "local", path: "/home/me/src/web" });
    for (const hostile of ["ext::sh -c touch% /tmp/pwned", "fd::17", "--upload-pack=touch /tmp/x", "-u x", "ftp://host/x", ""]) {
      expect(() => parseSource(hostile, "/")).toThrow(expect.objectContaining({ code: "INVALID_ARGUMENT" }));
    }
  });

  it("takes branch names, never options or refspecs", () => {
    for (const ok of ["main", "release/2.1", "feature_x-y"]) expect(checkBranch(ok)).toBe(ok);
    for (const bad of ["--upload-pack=x", "-b", "a:b", "+main", "a..b", "main.lock", "a b", "x/", "a@{1}"]) {
      expect(() => checkBranch(bad)).toThrow(expect.objectContaining({ code: "INVALID_ARGUMENT" }));
    }
  });
});
