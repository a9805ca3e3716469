import { existsSync, mkdirSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { hostname, tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { VERSION } from "../../src/core/version.js";
import { runCli, startCli } from "../helpers/cli.js";
import { TempRepo } from "../helpers/repo.js";

describe("ctxsmith index", () => {
  let repo: TempRepo | undefined;
  afterEach(() => repo?.dispose());

  const small = { "src/app.py": "import os\n\ndef main():\n    run()\n", "src/util.ts": "export function run() {}\n", "README.md": "# App\n" };

  it("--version says the package's version from any folder (an installed CLI has no package.json above the user's)", () => {
    const r = runCli(["--version"], { cwd: tmpdir() });
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout.trim()).toBe(VERSION);
  });

  it("prints a summary of what it did", () => {
    repo = TempRepo.create(small, { git: true });
    const r = runCli(["index", repo.root]);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^Indexed .* in /);
    expect(r.stdout).toMatch(/3 seen · 3 parsed · 0 unchanged · 0 removed · 0 skipped/);
    // main, run and the README's section.
    expect(r.stdout).toMatch(/3 files · 3 symbols · 1 calls · 1 imports/);
    expect(r.stdout).toMatch(/history +1 commits/);
    expect(r.stdout).toMatch(/timings +walk .* parse .* lexical/);
    expect(r.stdout).toMatch(/on disk/);
    // No model here (offline, empty model cache): one line says why semantic search is off and where to read how to enable it.
    expect(r.stdout).toMatch(/^ +semantic +off \(lexical search only\): The model BAAI\/bge-small-en-v1\.5 is not in the cache .* offline mode is on\. .*See "Semantic search" in the README to enable it\.$/m);
    // Piped stderr stays clean: no progress bar, no carriage returns.
    expect(r.stderr).toBe("");
  });

  it("indexes the current directory by default", () => {
    repo = TempRepo.create(small);
    const r = runCli(["index", "--json"], { cwd: repo.root });
    expect(r.status, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout).root).toBe(repo.root);
  });

  it("prints machine-readable stats with --json", () => {
    repo = TempRepo.create(small, { git: true });
    runCli(["index", repo.root]);
    repo.write({ "src/new.py": "def new():\n    pass\n" });
    const r = runCli(["index", repo.root, "--json"]);
    expect(r.status, r.stderr).toBe(0);
    const stats = JSON.parse(r.stdout);
    expect(stats.files).toMatchObject({ seen: 4, parsed: 1, unchanged: 3, removed: 0, skipped: {} });
    expect(stats.totals).toMatchObject({ files: 4, symbols: 4 });
    expect(stats.timings).toHaveProperty("parse");
    expect(stats.indexBytes).toBeGreaterThan(0);
  });

  it("streams progress events as JSON lines on request", () => {
    repo = TempRepo.create(small);
    const r = runCli(["index", repo.root, "--progress", "json", "--no-git"]);
    expect(r.status).toBe(0);
    const stages = r.stderr.trim().split("\n").map((l) => JSON.parse(l).stage);
    expect(stages).toEqual(expect.arrayContaining(["walk", "plan", "parse", "done"]));
  });

  it("is quiet with --quiet", () => {
    repo = TempRepo.create(small);
    const r = runCli(["index", repo.root, "--quiet"]);
    expect(r).toMatchObject({ status: 0, stdout: "", stderr: "" });
  });

  it("fails clearly on a missing path and on a file", () => {
    const missing = runCli(["index", "/no/such/repo"]);
    expect(missing.status).toBe(1);
    expect(missing.stderr).toBe("ctxsmith: No such directory: /no/such/repo\n");
    repo = TempRepo.create(small);
    const file = runCli(["index", repo.path("README.md")]);
    expect(file.status).toBe(1);
    expect(file.stderr).toMatch(/^ctxsmith: Not a directory: .*README\.md\n$/);
    const json = runCli(["index", "/no/such/repo", "--json"]);
    expect(JSON.parse(json.stdout)).toEqual({ error: { code: "PATH_NOT_FOUND", message: "No such directory: /no/such/repo" } });
  });

  it("keeps the index in --index-dir, and says clearly when it cannot be created", () => {
    repo = TempRepo.create(small);
    const cache = TempRepo.create();
    try {
      const r = runCli(["index", repo.root, "--index-dir", cache.path("idx"), "--json"]);
      expect(r.status, r.stderr).toBe(0);
      expect(existsSync(cache.path("idx/index.lmdb"))).toBe(true);
      expect(existsSync(repo.path(".contextsmith"))).toBe(false);
      const bad = runCli(["index", repo.root, "--index-dir", repo.path("README.md/idx")]);
      expect(bad.status).toBe(1);
      expect(bad.stderr).toMatch(/^ctxsmith: Cannot create the index folder .*README\.md\/idx: ENOTDIR.*--index-dir somewhere writable\.\n$/);
    } finally {
      cache.dispose();
    }
  });

  it("rejects unknown options and bad values with a usage error", () => {
    const r = runCli(["index", "--bogus"]);
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/Unknown argument: bogus/);
    const jobs = runCli(["index", "--jobs", "many"]);
    expect(jobs.status).toBe(2);
    expect(jobs.stderr).toBe("ctxsmith: jobs must be a positive integer, got NaN\n");
  });

  it("fails at once with --no-wait while another run holds the lock", () => {
    repo = TempRepo.create(small);
    runCli(["index", repo.root, "--quiet"]);
    // A live process (this test runner) holds the lock.
    writeFileSync(join(repo.root, ".contextsmith", "write.lock"), JSON.stringify({ pid: process.pid, host: hostname(), startedAt: Date.now() }));
    const r = runCli(["index", repo.root, "--no-wait"]);
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(new RegExp(`Another index run \\(pid ${process.pid}, started 0 min ago\\) is writing this index`));
  });

  it("says it waits even when piped, and gives up after --wait-timeout", () => {
    repo = TempRepo.create(small);
    runCli(["index", repo.root, "--quiet"]);
    writeFileSync(join(repo.root, ".contextsmith", "write.lock"), JSON.stringify({ pid: process.pid, host: hostname(), startedAt: Date.now() }));
    repo.write({ "b.py": "def b():\n    return 2\n" });
    const r = runCli(["context", "b", "--path", repo.root, "--wait-timeout", "1"]);
    expect(r.status).toBe(1);
    expect(r.stderr).toContain(`contextsmith: waiting for another index run (pid ${process.pid}`);
    expect(r.stderr).toMatch(/Gave up after waiting 1 s for another index run/);
  });

  it("takes over a lock restored from another machine's killed job, saying so", () => {
    repo = TempRepo.create(small);
    runCli(["index", repo.root, "--quiet"]);
    const lock = join(repo.root, ".contextsmith", "write.lock");
    writeFileSync(lock, JSON.stringify({ pid: 1, host: "ci-runner-7", startedAt: Date.now() - 3_600_000 }));
    const then = new Date(Date.now() - 3_600_000);
    utimesSync(lock, then, then);
    repo.write({ "b.py": "def b():\n    return 2\n" });
    const r = runCli(["context", "def b", "--path", repo.root]);
    expect(r.status).toBe(0);
    expect(r.stderr).toMatch(/contextsmith: took over the write lock of pid 1 on host ci-runner-7, started 60 min ago: its heartbeat stopped 360\d s ago/);
    expect(r.stdout).toContain("def b():");
    const indexed = runCli(["index", repo.root, "--json"]);
    expect(JSON.parse(indexed.stdout).files.parsed).toBe(0);
  });

  it("says in one line what to do when a folder stands where the index file should be, and touches nothing", () => {
    repo = TempRepo.create(small);
    runCli(["index", repo.root, "--quiet"]);
    const data = join(repo.root, ".contextsmith", "index.lmdb");
    rmSync(data);
    mkdirSync(data);
    writeFileSync(join(data, "keep.txt"), "mine");
    for (const args of [["index", repo.root], ["context", "a", "--path", repo.root]]) {
      const r = runCli(args);
      expect(r.status).toBe(1);
      expect(r.stderr).toBe(`ctxsmith: ${data} is a folder, not an index file: move it away (or delete it) and run \`ctxsmith index\`.\n`);
    }
    expect(existsSync(join(data, "keep.txt"))).toBe(true);
  });

  it("ends on SIGTERM while it waits, with 130 and a message", async () => {
    repo = TempRepo.create(small);
    runCli(["index", repo.root, "--quiet"]);
    writeFileSync(join(repo.root, ".contextsmith", "write.lock"), JSON.stringify({ pid: process.pid, host: hostname(), startedAt: Date.now() }));
    repo.write({ "b.py": "def b():\n    return 2\n" });
    let signalled = 0;
    const { done } = startCli(["context", "b", "--path", repo.root], (line, child) => {
      if (line.includes("waiting for another index run") && signalled === 0) {
        signalled = Date.now();
        child.kill("SIGTERM");
      }
    });
    const r = await done;
    expect(signalled).toBeGreaterThan(0);
    // Not a speed check: without the signal it would wait for the lock's holder (this test) forever.
    expect(Date.now() - signalled).toBeLessThan(10_000);
    expect(r.status).toBe(130);
    expect(r.stderr).toContain("cancelled");
    expect(r.stdout).toBe("");
  });
});
