import { writeFileSync } from "node:fs";
import { hostname } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { Engine } from "../../src/engine.js";
import { Freshness } from "../../src/mcp/freshness.js";
import { RepoWatcher } from "../../src/watch/watcher.js";
import { TempRepo } from "../helpers/repo.js";

describe("Freshness", () => {
  let repo: TempRepo | undefined;
  let engine: Engine | undefined;
  afterEach(async () => {
    await engine?.close();
    repo?.dispose();
  });

  it("re-checks at most once per interval, shares a run in flight, and runs when forced", async () => {
    repo = TempRepo.create({ "a.py": "def a():\n    return 1\n" });
    engine = new Engine(repo.root, { jobs: 1, git: false });
    let clock = 0;
    let runs = 0;
    const freshness = new Freshness(engine, { minIntervalMs: 2000, now: () => clock, onProgress: (e) => void (e.stage === "walk" && runs++) });
    await Promise.all([freshness.ensure(), freshness.ensure()]);
    expect(runs).toBe(1);
    clock = 1999;
    await freshness.ensure();
    expect(runs).toBe(1);
    clock = 2001;
    await freshness.ensure();
    expect(runs).toBe(2);
    await freshness.ensure({ force: true });
    expect(runs).toBe(3);
  });

  it("with a real watcher, never runs before an answer, and names the files changed since the committed index", async () => {
    repo = TempRepo.create({ "a.py": "def a():\n    return 1\n" }, { git: true });
    engine = new Engine(repo.root, { jobs: 1 });
    let runs = 0;
    const watcher = new RepoWatcher(engine, { debounceMs: 60_000, maxWaitMs: 60_000, onRun: () => runs++ });
    const freshness = new Freshness(engine, { watcher: { started: watcher.start(), changedSince: () => watcher.changedSince() } });
    try {
      expect(await freshness.ensure()).toEqual({ problem: null });
      expect(runs).toBe(1); // the watcher's first run
      repo.write({ "b.py": "def b():\n    return 2\n" });
      for (let waited = 0; watcher.changedSince().length === 0; waited += 50) {
        if (waited > 10_000) throw new Error("the watcher saw no change");
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      // The run waits out its minute of quiet: the answer is the committed index's, and says what it lacks.
      expect(await freshness.ensure()).toEqual({ problem: null, changed: ["b.py"] });
      expect(runs).toBe(1);
    } finally {
      await watcher.close();
    }
  });

  it("answers from the index as it is while another process holds the lock, and says why", async () => {
    repo = TempRepo.create({ "a.py": "def a():\n    return 1\n" });
    engine = new Engine(repo.root, { jobs: 1, git: false });
    await engine.index();
    writeFileSync(join(engine.config.indexDir, "write.lock"), JSON.stringify({ pid: process.pid, host: hostname(), startedAt: Date.now() }));
    const freshness = new Freshness(engine);
    expect((await freshness.ensure()).problem).toBe("another process is indexing this repository");
  });
});
