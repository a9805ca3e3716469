import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { CLI, runCli } from "../helpers/cli.js";
import { TempRepo } from "../helpers/repo.js";
import { makeServices } from "../helpers/services.js";

const services = makeServices();
const dataDir = mkdtempSync(join(tmpdir(), "ctxsmith-ws-cli-"));
const env = { CTXSMITH_DATA_DIR: dataDir };

afterAll(() => {
  rmSync(dataDir, { recursive: true, force: true });
  Object.values(services).forEach((r) => r.dispose());
});

describe("the workspace commands", () => {
  it("repo add, list --json, relation add, and a scoped context --json with repositories on files and spans", () => {
    for (const [name, repo] of Object.entries(services)) {
      const added = runCli(["repo", "add", name, repo.root, "--json"], { env });
      // With its stderr, so that a failure says why.
      expect({ status: added.status, stderr: added.stderr }).toMatchObject({ status: 0 });
      expect(JSON.parse(added.stdout).repo).toMatchObject({ name, kind: "local" });
    }
    const list = JSON.parse(runCli(["repo", "list", "--json"], { env }).stdout);
    expect(list.repos.map((r: { name: string; files: number }) => [r.name, r.files])).toEqual([["web", 3], ["auth", 2], ["schema", 2]]);
    expect(runCli(["relation", "add", "web", "auth"], { env }).status).toBe(0);
    const cycle = runCli(["relation", "add", "auth", "web", "--json"], { env });
    expect(cycle.status).toBe(1);
    expect(JSON.parse(cycle.stdout).error).toMatchObject({ code: "DEPENDENCY_CYCLE", data: { cycle: ["auth", "web", "auth"] } });

    const ctx = runCli(["context", "submitLogin and the login session token", "--repo", "web", "--expand", "upstream", "--budget", "800", "--json"], { env });
    expect({ status: ctx.status, stderr: ctx.stderr }).toMatchObject({ status: 0 });
    const out = JSON.parse(ctx.stdout);
    expect(out.tokens).toBeLessThanOrEqual(800);
    expect(out.scope).toEqual([{ repo: "web", relation: "primary", hops: 0 }, { repo: "auth", relation: "expanded", direction: "upstream", hops: 1 }]);
    expect(out.repos).toHaveLength(out.files.length);
    expect(out.spans.every((s: { repo: string }) => s.repo === "web" || s.repo === "auth")).toBe(true);

    const rank = JSON.parse(runCli(["rank", "login session token", "--all", "--json"], { env }).stdout);
    expect(rank.files[0]).toHaveProperty("repo");
    expect(rank.files[0]).toHaveProperty("signals");
    expect(runCli(["search", "x", "--expand", "both"], { env, cwd: services.web.root }).status).toBe(2);
  });

  it("two processes writing the registry at once: every change of both lands", async () => {
    // Two shells, each creating eight groups one after another, side by side.
    const shells = ["a", "b"].map((p) => {
      const script = Array.from({ length: 8 }, (_, i) => `"${process.execPath}" "${CLI}" group create ${p}${i} --repos auth`).join(" && ");
      const child = spawn("sh", ["-c", script], { env: { ...process.env, ...env }, stdio: "ignore" });
      return new Promise<number | null>((resolve) => child.on("close", resolve));
    });
    expect(await Promise.all(shells)).toEqual([0, 0]);
    const groups = JSON.parse(runCli(["group", "list", "--json"], { env }).stdout).groups;
    const expected = ["a", "b"].flatMap((p) => Array.from({ length: 8 }, (_, i) => `${p}${i}`));
    expect(Object.keys(groups).sort()).toEqual(expected.sort());
  });

  it("a damaged registry is reported and never replaced", () => {
    const file = join(dataDir, "workspace.json");
    const good = readFileSync(file, "utf8");
    writeFileSync(file, good.slice(0, good.length / 2));
    const damaged = readFileSync(file, "utf8");
    const r = runCli(["group", "create", "later", "--json"], { env });
    expect(r.status).toBe(1);
    expect(JSON.parse(r.stdout).error.code).toBe("REGISTRY_DAMAGED");
    expect(r.stderr).toContain("Nothing was changed");
    expect(readFileSync(file, "utf8")).toBe(damaged);
    writeFileSync(file, good);
    expect(runCli(["repo", "list"], { env }).status).toBe(0);
  });

  it("repo sync exits 1 when a repository fails, and says which", () => {
    const gone = TempRepo.create({ "x.py": "def x():\n    return 1\n" }, { git: true });
    expect(runCli(["repo", "add", "gone", gone.root], { env }).status).toBe(0);
    gone.dispose();
    const r = runCli(["repo", "sync", "--json"], { env });
    expect(r.status).toBe(1);
    const results = JSON.parse(r.stdout).results as Array<{ repo: string; ok: boolean; error?: { code: string } }>;
    expect(results.find((x) => x.repo === "gone")).toMatchObject({ ok: false, error: { code: "PATH_NOT_FOUND" } });
    expect(results.filter((x) => x.repo !== "gone").every((x) => x.ok)).toBe(true);
    expect(runCli(["repo", "remove", "gone"], { env }).status).toBe(0);
  });

  it("repo remove keeps a local folder", () => {
    expect(runCli(["repo", "remove", "schema"], { env }).stdout).toContain("is left as it is");
    expect(readFileSync(join(services.schema.root, "schema/user.py"), "utf8")).toContain("class UserRecord");
    expect(runCli(["repo", "remove", "schema"], { env }).status).toBe(1);
  });
});
