import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Engine } from "../../src/engine.js";
import { DEFAULT_RANKING } from "../../src/query/ranking-config.js";
import { acquireWriteLock } from "../../src/runtime/lock.js";
import { Runtime } from "../../src/runtime/runtime.js";
import { Workspace } from "../../src/workspace/workspace.js";
import { TempRepo } from "../helpers/repo.js";
import { makeServices } from "../helpers/services.js";

describe("a workspace of three repositories", () => {
  const services = makeServices();
  const dataDir = mkdtempSync(join(tmpdir(), "ctxsmith-ws-"));
  const runtime = new Runtime();
  let ws: Workspace;

  beforeAll(async () => {
    ws = new Workspace({ dataDir, runtime, engine: { jobs: 1, semantic: false } });
    for (const [name, repo] of Object.entries(services)) await ws.addRepo(name, repo.root);
    await ws.addRelation("web", "auth");
    await ws.addRelation("auth", "schema");
  });

  afterAll(async () => {
    await ws.close();
    await runtime.close();
    rmSync(dataDir, { recursive: true, force: true });
    Object.values(services).forEach((r) => r.dispose());
  });

  it("lists the repositories with their indexes", async () => {
    const status = await ws.status();
    expect(status.map((s) => [s.name, s.kind, s.files, s.missing])).toEqual([
      ["web", "local", 3, false],
      ["auth", "local", 2, false],
      ["schema", "local", 2, false],
    ]);
    for (const s of status) {
      expect(s.indexedCommit).toBe(s.headCommit);
      expect(s.indexBytes).toBeGreaterThan(0);
    }
    // The local index stays in the repository, shared with the single-repository commands.
    expect(existsSync(join(services.web.root, ".contextsmith"))).toBe(true);
  });

  it("refuses a second name for a folder, a taken name and a bad name", async () => {
    await expect(ws.addRepo("web2", services.web.root)).rejects.toMatchObject({ code: "ALREADY_EXISTS", message: expect.stringContaining("as web") });
    await expect(ws.addRepo("web", services.auth.root)).rejects.toMatchObject({ code: "ALREADY_EXISTS" });
    await expect(ws.addRepo("Web!", services.auth.root)).rejects.toMatchObject({ code: "INVALID_ARGUMENT" });
    await expect(ws.addRepo("gone", join(dataDir, "no-such-folder"))).rejects.toMatchObject({ code: "PATH_NOT_FOUND" });
    await expect(ws.addRepo("evil", "ext::sh -c touch% /tmp/pwned")).rejects.toMatchObject({ code: "INVALID_ARGUMENT" });
    expect(ws.repos().map((r) => r.name)).toEqual(["web", "auth", "schema"]);
  });

  it("refuses a relation that closes a cycle, and keeps the graph as it was", async () => {
    await expect(ws.addRelation("schema", "web")).rejects.toMatchObject({ code: "DEPENDENCY_CYCLE", message: expect.stringContaining("schema → web → auth → schema") });
    expect(ws.relations().edges).toEqual([["web", "auth"], ["auth", "schema"]]);
    expect(ws.relations("auth")).toMatchObject({ dependsOn: [{ repo: "schema", hops: 1 }], dependents: [{ repo: "web", hops: 1 }] });
  });

  it("expands along dependencies with provenance and decay: the primary repository first", async () => {
    const task = "login fails with bad credentials: the session token is never returned";
    const alone = await ws.rank(task, { repos: ["web"] });
    expect(new Set(alone.files.map((f) => f.repo))).toEqual(new Set(["web"]));

    const one = await ws.rank(task, { repos: ["web"], expand: "upstream", expandDepth: 1 });
    expect(one.scope).toEqual([
      { repo: "web", relation: "primary", hops: 0 },
      { repo: "auth", relation: "expanded", direction: "upstream", hops: 1 },
    ]);
    const login = one.files.find((f) => f.repo === "auth" && f.path === "auth/login.py")!;
    expect(login).toMatchObject({ relation: "expanded", direction: "upstream", hops: 1 });
    // Scored × 0.85 per hop: the same file ranked from its own repository scores 1/0.85 as much.
    const own = (await ws.rank(task, { repos: ["auth"] })).files.find((f) => f.path === "auth/login.py")!;
    expect(login.score).toBeCloseTo(own.score * 0.85, 10);
    expect(login.repoRank).toBe(own.repoRank);

    const two = await ws.rank(task, { repos: ["web"], expand: "upstream", expandDepth: 2 });
    expect(two.scope.map((p) => [p.repo, p.hops])).toEqual([["web", 0], ["auth", 1], ["schema", 2]]);
    const down = await ws.rank(task, { repos: ["schema"], expand: "downstream", expandDepth: 2 });
    expect(down.scope.map((p) => [p.repo, p.direction ?? null, p.hops])).toEqual([["schema", null, 0], ["auth", "downstream", 1], ["web", "downstream", 2]]);
  });

  it("groups name their members; deleting a group keeps the repositories", async () => {
    await ws.createGroup("backend", ["auth", "schema"]);
    await expect(ws.createGroup("backend", ["web"])).rejects.toMatchObject({ code: "ALREADY_EXISTS" });
    await expect(ws.addToGroup("backend", ["nope"])).rejects.toMatchObject({ code: "NOT_FOUND" });
    const result = await ws.search("UserRecord", { groups: ["backend"] });
    expect(result.scope.map((p) => p.repo)).toEqual(["auth", "schema"]);
    expect(result.results[0]).toMatchObject({ repo: "schema", name: "UserRecord", path: "schema/user.py", relation: "primary", hops: 0 });
    await ws.removeFromGroup("backend", ["auth"]);
    expect(ws.groups().backend).toEqual(["schema"]);
    await ws.deleteGroup("backend");
    expect(ws.groups()).toEqual({});
    expect(ws.repos()).toHaveLength(3);
  });

  it("packs one budget across three repositories, never over, each piece headed with its repository", async () => {
    const task = "login with a bad password should raise PermissionError; check_password of UserRecord; submitLogin in the web client";
    for (const budget of [300, 1200, 4000]) {
      const ctx = await ws.context(task, { all: true }, { budget });
      expect(ctx.tokens).toBeLessThanOrEqual(budget);
      expect(ctx.tokens).toBe(await runtime.tokenCounter(DEFAULT_RANKING.pack.encoding).count(ctx.text));
      expect(ctx.repos).toHaveLength(ctx.files.length);
      for (const span of ctx.spans) {
        expect(ctx.text).toContain(`### ${span.repo}: ${span.path} · lines`);
        // A piece of a function or class names its scope in the header.
        if (span.symbol) expect(ctx.text).toMatch(new RegExp(`### ${span.repo}: ${span.path} · lines [^\n]* in [^\n]*${span.symbol.replace(/[.$]/g, "\\$&")}`));
      }
      if (budget === 4000) {
        expect(new Set(ctx.repos)).toEqual(new Set(["web", "auth", "schema"]));
        expect(ctx.text).toMatch(/### auth: auth\/login\.py · lines [\d, -]+ · #\d+ \(/);
      }
    }
  });

  it("shows the notes pinned to the code it packs, with their repository", async () => {
    const engine = new Engine(services.auth.root, { jobs: 1, semantic: false });
    try {
      await engine.addNote("login must never say which of email or password was wrong", { symbol: "login" });
    } finally {
      await engine.close();
    }
    const ctx = await ws.context("login raises PermissionError for bad credentials", { all: true }, { budget: 2000 });
    expect(ctx.tokens).toBeLessThanOrEqual(2000);
    expect(ctx.notes).toHaveLength(1);
    expect(ctx.notes[0]).toMatchObject({ repo: "auth", status: "current", target: { kind: "symbol", name: "login", path: "auth/login.py" }, location: { path: "auth/login.py" } });
    expect(ctx.text).toContain("### Notes\n- auth: auth/login.py:login: login must never say which of email or password was wrong");
    // The spans keep repository-relative paths.
    expect(ctx.spans.find((s) => s.repo === "auth")!.path).toBe("auth/login.py");
  });

  it("symbol definitions and callers carry their repository", async () => {
    const found = await ws.symbol("UserRecord");
    expect(found.matches.map((m) => [m.repo, m.path])).toEqual([["schema", "schema/user.py"]]);
    const callers = await ws.calls("open_session", "callers", { repo: "auth" });
    expect(callers).toHaveLength(1);
    expect(callers[0]!.repo).toBe("auth");
    expect(callers[0]!.calls.map((c) => c.path)).toEqual(["auth/login.py"]);
  });

  it("leaves out a repository whose folder is gone, with a notice, and answers from the rest", async () => {
    const extra = TempRepo.create({ "lib/x.py": "def login_helper():\n    return 1\n" }, { git: true });
    await ws.addRepo("extra", extra.root);
    extra.dispose();
    const result = await ws.rank("login", { all: true });
    expect(result.notices?.some((n) => n.startsWith("extra left out: its folder is gone"))).toBe(true);
    expect(result.scope.map((p) => p.repo)).not.toContain("extra");
    const removed = await ws.removeRepo("extra");
    expect(removed.kind).toBe("local");
  });
});

describe("a remote repository", () => {
  it("is cloned into the data folder, synced after a push (only the changed file read again) and deleted with its clone", async () => {
    const upstream = TempRepo.create({ "svc/a.py": "def alpha():\n    return 1\n", "svc/b.py": "def beta():\n    return 2\n" }, { git: true });
    const bare = mkdtempSync(join(tmpdir(), "ctxsmith-bare-"));
    execFileSync("git", ["clone", "-q", "--bare", upstream.root, bare]);
    const dataDir = mkdtempSync(join(tmpdir(), "ctxsmith-ws-"));
    const ws = new Workspace({ dataDir, engine: { jobs: 1, semantic: false } });
    try {
      const entry = await ws.addRepo("svc", bare);
      expect(entry).toMatchObject({ kind: "remote", url: bare, branch: "main", path: join(dataDir, "clones", "svc") });
      expect((await ws.search("alpha", { repos: ["svc"] })).results[0]).toMatchObject({ repo: "svc", name: "alpha" });

      // Push a one-file change upstream; sync fetches, checks it out and re-reads that file alone.
      upstream.write({ "svc/b.py": "def beta():\n    return 2\n\ndef gamma_ray():\n    return 3\n" });
      const head = upstream.commitAll("add gamma_ray");
      upstream.git("push", "-q", bare, "main");
      const [synced] = await ws.sync(["svc"]);
      expect(synced).toMatchObject({ repo: "svc", ok: true, to: head, parsed: 1, removed: 0 });
      const status = (await ws.status())[0]!;
      expect(status).toMatchObject({ headCommit: head, behind: 0, files: 2 });
      expect((await ws.search("gamma_ray", { repos: ["svc"] }, { refresh: false })).results[0]).toMatchObject({ name: "gamma_ray", path: "svc/b.py" });

      // A fetch that fails (the remote is gone) leaves the clone and its index as they were.
      rmSync(bare, { recursive: true, force: true });
      const [failed] = await ws.sync(["svc"]);
      expect(failed).toMatchObject({ repo: "svc", ok: false, error: { code: "GIT_FAILED" } });
      expect((await ws.status())[0]).toMatchObject({ headCommit: head, files: 2 });

      await ws.removeRepo("svc");
      expect(existsSync(join(dataDir, "clones", "svc"))).toBe(false);
      expect(existsSync(join(dataDir, "indexes", "svc"))).toBe(false);
      expect(ws.repos()).toEqual([]);
    } finally {
      await ws.close();
      upstream.dispose();
      rmSync(dataDir, { recursive: true, force: true });
      rmSync(bare, { recursive: true, force: true });
    }
  });

  it("a failed clone leaves the registry and the data folder as they were", async () => {
    const dataDir = mkdtempSync(join(tmpdir(), "ctxsmith-ws-"));
    const ws = new Workspace({ dataDir });
    try {
      // What a clone killed mid-way left (its process is gone) is cleared by the next clone of that name.
      const abandoned = join(dataDir, "clones", "bad+cloning-2147483646");
      mkdirSync(abandoned, { recursive: true });
      const notRepo = mkdtempSync(join(tmpdir(), "ctxsmith-bad-"));
      writeFileSync(join(notRepo, "HEAD"), "ref: refs/heads/main\n");
      await expect(ws.addRepo("bad", `file://${notRepo}`)).rejects.toMatchObject({ code: "GIT_FAILED" });
      expect(ws.repos()).toEqual([]);
      expect(existsSync(join(dataDir, "clones", "bad"))).toBe(false);
      expect(existsSync(abandoned)).toBe(false);
      rmSync(notRepo, { recursive: true, force: true });
    } finally {
      await ws.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

describe("a workspace that checks in the background (as the server does)", () => {
  it("answers from the index as it is while a check is due, and from the new one once a check ran", async () => {
    const repo = TempRepo.create({ "lib/a.py": "def alpha():\n    return 1\n" }, { git: true });
    const dataDir = mkdtempSync(join(tmpdir(), "ctxsmith-ws-"));
    const ws = new Workspace({ dataDir, checkEveryMs: 0, refreshInBackground: true, engine: { jobs: 1, semantic: false } });
    try {
      await ws.addRepo("lib", repo.root);
      repo.write({ "lib/b.py": "def beta_later():\n    return 2\n" });
      // Another writer holds the index: the background check leaves it to that writer, the query answers at once.
      const lock = await acquireWriteLock(join(repo.root, ".contextsmith"), { wait: false });
      const first = await ws.search("beta_later", { repos: ["lib"] });
      expect(first.results.some((h) => h.name === "beta_later")).toBe(false);
      expect(first.notices).toEqual(["lib: re-indexing in the background; answering from the index as it is"]);
      await ws.settled();
      lock.release();
      // The next query finds the check due again (every 0 ms here) and queues it; once it ran, the new file is there.
      await ws.search("beta_later", { repos: ["lib"] });
      await ws.settled();
      const third = await ws.search("beta_later", { repos: ["lib"] }, { refresh: false });
      expect(third.results[0]).toMatchObject({ repo: "lib", name: "beta_later", path: "lib/b.py" });
      expect(third.notices).toBeUndefined();
    } finally {
      await ws.close();
      repo.dispose();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
