import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { checkName, Registry, resolveDataDir } from "../../src/workspace/registry.js";

const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true })));
const registry = (): Registry => {
  const dir = mkdtempSync(join(tmpdir(), "ctxsmith-registry-"));
  dirs.push(dir);
  return new Registry(dir);
};
const repo = (name: string) => ({ name, kind: "local" as const, path: `/src/${name}`, addedAt: 1 });

describe("the workspace registry", () => {
  it("finds its data folder: --data-dir, CTXSMITH_DATA_DIR, then the XDG data home", () => {
    expect(resolveDataDir("/x/y", { CTXSMITH_DATA_DIR: "/env" })).toBe("/x/y");
    expect(resolveDataDir(undefined, { CTXSMITH_DATA_DIR: "/env" })).toBe("/env");
    expect(resolveDataDir(undefined, { XDG_DATA_HOME: "/xdg" })).toBe("/xdg/contextsmith");
    expect(resolveDataDir(undefined, { XDG_DATA_HOME: "relative" })).toMatch(/\/\.local\/share\/contextsmith$/);
  });

  it("validates names", () => {
    for (const ok of ["web", "auth-service", "a.b_c", "0day"]) expect(checkName(ok, "repository")).toBe(ok);
    for (const bad of ["", "Web", "-x", ".x", "a/b", "a b", "x".repeat(65), "../etc"]) expect(() => checkName(bad, "group")).toThrow(expect.objectContaining({ code: "INVALID_ARGUMENT" }));
  });

  it("writes changes atomically, readable by its owner only; a change that throws writes nothing", async () => {
    const r = registry();
    expect(r.read()).toEqual({ version: 1, repos: [], groups: {}, relations: [] });
    await r.update((d) => void d.repos.push(repo("web")));
    await expect(
      r.update((d) => {
        d.repos.push(repo("half"));
        throw new Error("changed my mind");
      }),
    ).rejects.toThrow("changed my mind");
    expect(r.read().repos.map((x) => x.name)).toEqual(["web"]);
    const { statSync } = await import("node:fs");
    expect(statSync(r.file).mode & 0o777).toBe(0o600);
  });

  it("reports a damaged or inconsistent registry and never replaces it", async () => {
    const cases: Array<[string, unknown, RegExp]> = [
      ["half a file", null, /damaged \(.*JSON/],
      ["a wrong shape", { version: 1, repos: [{ name: "web" }], groups: {}, relations: [] }, /damaged \(repos\.0\./],
      // Said in words (zod/mini has no messages of its own: "Invalid input" would say nothing).
      ["a relative path", { version: 1, repos: [{ ...repo("web"), path: "web" }], groups: {}, relations: [] }, /repos\.0\.path: Invalid string: must start with "\/"/],
      ["a name twice", { version: 1, repos: [repo("web"), repo("web")], groups: {}, relations: [] }, /registered twice/],
      ["a stranger in a group", { version: 1, repos: [repo("web")], groups: { g: ["nope"] }, relations: [] }, /group g names nope/],
      ["a cycle", { version: 1, repos: [repo("a"), repo("b")], groups: {}, relations: [["a", "b"], ["b", "a"]] }, /cycle: b → a would close a cycle: b → a → b/],
    ];
    for (const [, content, message] of cases) {
      const r = registry();
      const text = content === null ? '{"version": 1, "repos": [' : JSON.stringify(content);
      writeFileSync(r.file, text);
      expect(() => r.read()).toThrow(expect.objectContaining({ code: "REGISTRY_DAMAGED", message: expect.stringMatching(message) }));
      await expect(r.update((d) => void d.repos.push(repo("new")))).rejects.toMatchObject({ code: "REGISTRY_DAMAGED" });
      expect(readFileSync(r.file, "utf8")).toBe(text);
    }
  });
});
