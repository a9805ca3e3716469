import { execFileSync } from "node:child_process";
import { renameSync, rmSync } from "node:fs";
import { afterEach, describe, expect, it } from "vitest";
import { Engine } from "../../src/engine.js";
import { ContextSmithError } from "../../src/core/errors.js";
import { RepoWatcher, type WatchOptions, type WatchRun } from "../../src/watch/watcher.js";
import { TempRepo } from "../helpers/repo.js";

let cleanup: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const c of cleanup.reverse()) await c();
  cleanup = [];
});

/** A watched repository, with the runs its watcher made so far. */
async function watched(files: Record<string, string>, options: Pick<WatchOptions, "schedule"> & { root?: (repo: TempRepo) => string } = {}) {
  const repo = TempRepo.create(files, { git: true });
  const engine = new Engine(options.root?.(repo) ?? repo.root, { jobs: 1 });
  const runs: WatchRun[] = [];
  const errors: string[] = [];
  const watcher = new RepoWatcher(engine, { debounceMs: 150, onRun: (r) => runs.push(r), onError: (e) => errors.push(e.message), schedule: options.schedule });
  cleanup.push(() => repo.dispose(), () => engine.close(), () => watcher.close());
  await watcher.start();
  /** Waits until `n` runs happened after the first (or fails after a while). */
  const runsAfterStart = async (n: number): Promise<WatchRun[]> => {
    for (let waited = 0; runs.length - 1 < n; waited += 50) {
      if (waited > 15_000) throw new Error(`${runs.length - 1} runs after the start, not ${n}: ${JSON.stringify(runs.map((r) => r.reason))} ${errors.join("; ")}`);
      await sleep(50);
    }
    return runs.slice(1);
  };
  return { repo, engine, watcher, runs, errors, runsAfterStart };
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

const FILES = { "shop/payments.py": "def charge(card):\n    return card\n", "shop/cart.py": "def total(items):\n    return sum(items)\n", ".gitignore": "build/\nnode_modules/\n" };

describe("RepoWatcher", () => {
  it("indexes an edit, a new file, a deletion and a rename, each in a run of its own", async () => {
    const w = await watched(FILES);
    expect(w.runs[0]!.reason).toBe("start");

    w.repo.write({ "shop/payments.py": "def charge(card, amount):\n    return card\n\n\ndef refund(card):\n    return card\n" });
    const [edit] = await w.runsAfterStart(1);
    expect(edit).toMatchObject({ reason: "files", changed: ["shop/payments.py"], stats: { files: { parsed: 1 } } });
    expect((await w.engine.symbol("refund", { refresh: false })).matches).toHaveLength(1);

    w.repo.write({ "shop/tax.py": "def tax(x):\n    return x\n" });
    await w.runsAfterStart(2);
    expect((await w.engine.symbol("tax", { refresh: false })).matches.map((m) => m.path)).toEqual(["shop/tax.py"]);

    w.repo.remove("shop/cart.py");
    const removed = (await w.runsAfterStart(3))[2]!;
    expect(removed.stats.files.removed).toBe(1);
    expect((await w.engine.symbol("total", { refresh: false })).matches).toEqual([]);

    renameSync(w.repo.path("shop/tax.py"), w.repo.path("shop/taxes.py"));
    await w.runsAfterStart(4);
    expect((await w.engine.symbol("tax", { refresh: false })).matches.map((m) => m.path)).toEqual(["shop/taxes.py"]);
    expect(w.errors).toEqual([]);
  });

  it("follows a branch switch and a commit: the files and the history", async () => {
    const w = await watched(FILES);
    w.repo.git("checkout", "-q", "-b", "feature");
    w.repo.write({ "shop/coupons.py": "def apply_coupon(cart):\n    return cart\n" });
    const feature = w.repo.commitAll("coupons");
    w.repo.git("checkout", "-q", "main");
    await sleep(400);
    const before = w.runs.length;
    w.repo.git("checkout", "-q", "feature");
    for (let waited = 0; w.engine.status()?.gitHead !== feature || w.runs.length === before; waited += 50) {
      if (waited > 15_000) throw new Error(`no run after the checkout: ${JSON.stringify(w.runs.map((r) => r.reason))}`);
      await sleep(50);
    }
    expect((await w.engine.symbol("apply_coupon", { refresh: false })).matches).toHaveLength(1);

    // A commit that changes no file moves HEAD alone: the history signal is brought forward.
    const commits = w.engine.status()!.commits;
    const runs = w.runs.length;
    const empty = (w.repo.git("commit", "-q", "--allow-empty", "-m", "nothing"), w.repo.git("rev-parse", "HEAD").trim());
    for (let waited = 0; w.engine.status()?.gitHead !== empty || w.runs.length === runs || w.runs.at(-1)!.stats.totals.commits !== commits + 1; waited += 50) {
      if (waited > 15_000) throw new Error("the commit was not followed");
      await sleep(50);
    }
    expect(w.runs.at(-1)!.reason).toBe("head");
    expect(w.engine.status()!.commits).toBe(commits + 1);
  });

  it("counts a path once however many events it brings (written twice before the run)", async () => {
    const w = await watched(FILES);
    w.repo.write({ "shop/tax.py": "def tax(x):\n    return x\n" });
    w.repo.write({ "shop/tax.py": "def tax(x):\n    return 2 * x\n" });
    w.repo.write({ "shop/cart.py": "def total(items):\n    return 0\n" });
    const [run] = await w.runsAfterStart(1);
    expect(run!.changed.sort()).toEqual(["shop/cart.py", "shop/tax.py"]);
    expect(run!.events).toBe(2);
  });

  it("makes one run of a burst of 1,000 writes", async () => {
    const w = await watched(FILES);
    for (let i = 0; i < 1000; i++) w.repo.write({ [`gen/m${i}.py`]: `def f${i}():\n    return ${i}\n` });
    const [burst] = await w.runsAfterStart(1);
    await sleep(800);
    expect(w.runs.length - 1).toBe(1);
    expect(burst!.stats.files.parsed).toBe(1000);
    expect(burst!.events).toBe(1000);
    expect(burst!.changed).toHaveLength(1000);
  });

  it("keeps a failed run's changes and tries again", async () => {
    let calls = 0;
    // The second run (the first after the start) fails as a full disk would.
    const schedule = <T>(run: () => Promise<T>): Promise<T> => (++calls === 2 ? Promise.reject(new ContextSmithError("IO_ERROR", "the disk is full")) : run());
    const w = await watched(FILES, { schedule });
    w.repo.write({ "shop/cart.py": "def total(items):\n    return 0\n\n\ndef kept():\n    return 1\n" });
    for (let waited = 0; w.errors.length === 0; waited += 50) {
      if (waited > 10_000) throw new Error("the run did not fail");
      await sleep(50);
    }
    expect(w.watcher.changedSince()).toEqual(["shop/cart.py"]);
    const [retry] = await w.runsAfterStart(1);
    expect(retry).toMatchObject({ changed: ["shop/cart.py"], stats: { files: { parsed: 1 } } });
    expect((await w.engine.symbol("kept", { refresh: false })).matches).toHaveLength(1);
  });

  it("sees tracked files in folders the walk skips outside git (a committed venv/), and a folder git stops ignoring", async () => {
    const w = await watched({ ...FILES, "tools/venv/make.py": "def make():\n    return 1\n" });
    w.repo.write({ "tools/venv/make.py": "def make_venv():\n    return 1\n" });
    await w.runsAfterStart(1);
    expect((await w.engine.symbol("make_venv", { refresh: false })).matches).toHaveLength(1);
    w.repo.write({ ".gitignore": "node_modules/\n" }); // build/ no longer ignored
    await w.runsAfterStart(2);
    w.repo.write({ "build/gen.py": "def generated():\n    return 1\n" });
    await w.runsAfterStart(3);
    expect((await w.engine.symbol("generated", { refresh: false })).matches).toHaveLength(1);
  });

  it("follows a commit in a linked worktree, whose branch refs are the main repository's", async () => {
    const w = await watched(FILES, {
      root: (repo) => {
        repo.git("worktree", "add", "-q", "-b", "side", `${repo.root}-wt`);
        cleanup.push(() => rmSync(`${repo.root}-wt`, { recursive: true, force: true }));
        return `${repo.root}-wt`;
      },
    });
    const git = (...args: string[]) => execFileSync("git", args, { cwd: `${w.repo.root}-wt`, encoding: "utf8", env: { ...process.env, GIT_AUTHOR_NAME: "t", GIT_AUTHOR_EMAIL: "t@t", GIT_COMMITTER_NAME: "t", GIT_COMMITTER_EMAIL: "t@t" } });
    git("commit", "-q", "--allow-empty", "-m", "on the side");
    const head = git("rev-parse", "HEAD").trim();
    const [run] = await w.runsAfterStart(1);
    expect(run!.reason).toBe("head");
    expect(w.engine.status()?.gitHead).toBe(head);
  });

  it("ignores its own index folder, git's internals and what git ignores", async () => {
    const w = await watched(FILES);
    w.repo.write({ "shop/cart.py": "def total(items):\n    return 0\n" });
    await w.runsAfterStart(1);
    // The run wrote the index (inside the repository): that is no change to index.
    w.repo.git("status", "--porcelain"); // rewrites .git/index
    w.repo.write({ "build/out.py": "x = 1\n", "node_modules/pkg/index.js": "module.exports = 1;\n" });
    await sleep(1200);
    expect(w.runs.map((r) => r.reason)).toEqual(["start", "files"]);
    expect(w.watcher.changedSince()).toEqual([]);
  });
});
