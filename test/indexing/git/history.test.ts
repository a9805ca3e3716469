import { existsSync, rmSync } from "node:fs";
import { join } from "node:path";
import { open } from "lmdb";
import { afterEach, describe, expect, it } from "vitest";
import { Engine } from "../../../src/engine.js";
import { withIndexedEngine } from "../../helpers/index.js";
import { TempRepo } from "../../helpers/repo.js";
import { storeOf } from "../../helpers/store.js";
import { decodeRenames, loadHistoryIndex } from "../../../src/store/history-index.js";
import { formerPaths, indexGitHistory } from "../../../src/indexing/git/history.js";
import { PROTOCOL_VERSION } from "../../../src/indexing/protocol.js";
import { IndexStore } from "../../../src/store/store.js";

describe("git history", () => {
  let repo: TempRepo | undefined;
  let clone: TempRepo | undefined;
  afterEach(() => {
    repo?.dispose();
    clone?.dispose();
    clone = undefined;
  });

  /** a.py and b.py change together twice, c.py alone once. */
  function scriptedRepo(): TempRepo {
    const r = TempRepo.create({ "a.py": "a = 1\n", "b.py": "b = 1\n", "c.py": "c = 1\n" }, { git: true, message: "Initial import" });
    r.write({ "a.py": "a = 2\n", "b.py": "b = 2\n" });
    r.commitAll("Fix retry timeout in payments");
    r.write({ "c.py": "c = 2\n" });
    r.commitAll("Tweak c");
    r.write({ "a.py": "a = 3\n", "b.py": "b = 3\n" });
    r.commitAll("Fix retry again");
    return r;
  }

  const indexed = (root: string, fn: (engine: Engine) => void | Promise<void>) => withIndexedEngine(root, {}, fn);

  it("records per-file commits, churn, last change and co-change", async () => {
    repo = scriptedRepo();
    await indexed(repo.root, (engine) => {
      const store = storeOf(engine)!;
      const a = store.history.of("a.py")!;
      expect(a.churn).toBe(3);
      expect(a.cochange).toEqual({ "b.py": 3, "c.py": 1 });
      expect(a.commits.map((h) => store.history.commit(h)!.message)).toEqual(["Fix retry again", "Fix retry timeout in payments", "Initial import"]);
      expect(store.history.of("c.py")).toMatchObject({ churn: 2, cochange: { "a.py": 1, "b.py": 1 } });
      expect(a.lastChange).toBeGreaterThan(0);
      expect(engine.status()!.commits).toBe(4);
    });
  });

  it("reads only the new commits on the next run", async () => {
    repo = scriptedRepo();
    await indexed(repo.root, () => undefined);
    repo.write({ "c.py": "c = 3\n", "d.py": "d = 1\n" });
    repo.commitAll("Add d next to c");
    const engine = new Engine(repo.root, { jobs: 1 });
    try {
      const stats = await engine.index();
      expect(stats.commitsRead).toBe(1);
      const store = storeOf(engine)!;
      expect(store.history.of("c.py")).toMatchObject({ churn: 3, cochange: { "a.py": 1, "b.py": 1, "d.py": 1 } });
      expect(store.history.of("a.py")!.churn).toBe(3);
      expect(engine.status()!.commits).toBe(5);
      // Nothing new: no commits read at all.
      expect((await engine.index()).commitsRead).toBe(0);
    } finally {
      await engine.close();
    }
  });

  it("rebuilds the history when it was rewritten", async () => {
    repo = scriptedRepo();
    await indexed(repo.root, () => undefined);
    repo.git("reset", "-q", "--hard", "HEAD~2");
    repo.write({ "a.py": "a = 9\n" });
    repo.commitAll("Rewritten history");
    await indexed(repo.root, (engine) => {
      const store = storeOf(engine)!;
      const a = store.history.of("a.py")!;
      expect(a.commits.map((h) => store.history.commit(h)!.message)).toEqual(["Rewritten history", "Fix retry timeout in payments", "Initial import"]);
      expect(engine.status()!.commits).toBe(3);
    });
  });

  it("works on a detached HEAD and on a shallow clone", async () => {
    repo = scriptedRepo();
    repo.git("checkout", "-q", "--detach", "HEAD~1");
    await indexed(repo.root, (engine) => {
      expect(engine.status()!.commits).toBe(3);
      expect(storeOf(engine)!.history.of("a.py")!.churn).toBe(2);
    });
    clone = TempRepo.create();
    clone.dispose();
    repo.git("checkout", "-q", "main");
    repo.git("clone", "-q", "--depth", "2", `file://${repo.root}`, clone.root);
    await indexed(clone.root, (engine) => {
      expect(engine.status()!.commits).toBe(2);
      expect(storeOf(engine)!.history.of("a.py")!.churn).toBe(1);
    });
  });

  it("keeps history for current files only", async () => {
    repo = scriptedRepo();
    repo.remove("c.py");
    repo.commitAll("Remove c");
    await indexed(repo.root, (engine) => {
      const store = storeOf(engine)!;
      expect(store.history.of("c.py")).toBeUndefined();
      expect(store.history.of("a.py")!.cochange).toEqual({ "b.py": 3 });
    });
  });

  it("indexes a folder that is not a git repository, and a repository without commits", async () => {
    repo = TempRepo.create({ "a.py": "def f():\n    pass\n" });
    await indexed(repo.root, (engine) => {
      expect(engine.status()).toMatchObject({ gitHead: null, commits: 0 });
      expect(engine.status()!.totals.files).toBe(1);
    });
    repo.git("init", "-q");
    await indexed(repo.root, (engine) => {
      expect(engine.status()).toMatchObject({ gitHead: null, commits: 0 });
    });
  });

  it("skips history with git disabled", async () => {
    repo = scriptedRepo();
    const engine = new Engine(repo.root, { jobs: 1, git: false });
    try {
      expect((await engine.index()).commitsRead).toBe(0);
      expect(engine.status()!.commits).toBe(0);
    } finally {
      await engine.close();
    }
  });

  /** `n` commits that change src/a.py alone. */
  function tweak(r: TempRepo, n: number): void {
    for (let i = 0; i < n; i++) {
      r.write({ "src/a.py": `a = ${i + 10}\n` });
      r.commitAll(`Tweak a ${i}`);
    }
  }
  /** The window as stored, raw (an older version wrote none; a damaged one may hold anything). */
  async function setRecent(engine: Engine, value: string | null): Promise<void> {
    const env = open({ path: join(engine.config.indexDir, "index.lmdb") });
    const table = env.openDB("history-index", { encoding: "binary" });
    await (value === null ? table.remove("recent") : table.put("recent", Buffer.from(value, "utf8")));
    await env.close();
  }
  const releaseNotes = (engine: Engine) => loadHistoryIndex(storeOf(engine)!).releaseNotes;

  it("keeps which release notes the newest commits change, and slides that window on the next run", async () => {
    repo = TempRepo.create({ "src/a.py": "a = 1\n", "CHANGELOG.md": "# Changes\n", "docs/NEWS": "news\n" }, { git: true });
    repo.write({ "src/a.py": "a = 2\n", "CHANGELOG.md": "# Changes\n- fix a\n" });
    repo.commitAll("Fix a");
    tweak(repo, 18);
    await indexed(repo.root, (engine) => {
      // Of 20 commits: the first added both files, the second changed CHANGELOG.md again.
      expect(releaseNotes(engine)).toEqual([
        { path: "CHANGELOG.md", share: 2 / 20, window: 20 },
        { path: "docs/NEWS", share: 1 / 20, window: 20 },
      ]);
    });
    repo.write({ "src/a.py": "a = 4\n" });
    repo.remove("docs/NEWS");
    repo.commitAll("Drop the old news");
    const engine = new Engine(repo.root, { jobs: 1 });
    try {
      expect((await engine.index()).commitsRead).toBe(1);
      // The new commit goes in front of the stored ones; notes that are gone drop out.
      expect(releaseNotes(engine)).toEqual([{ path: "CHANGELOG.md", share: 2 / 21, window: 21 }]);
    } finally {
      await engine.close();
    }
  });

  it("reads no habit from a young repository: its first commit added every file", async () => {
    repo = TempRepo.create({ "src/a.py": "a = 1\n", "CHANGELOG.md": "# Changes\n" }, { git: true });
    tweak(repo, 18);
    await indexed(repo.root, (engine) => expect(releaseNotes(engine)).toEqual([]));
    tweak(repo, 1);
    await indexed(repo.root, (engine) => expect(releaseNotes(engine)).toEqual([{ path: "CHANGELOG.md", share: 1 / 20, window: 20 }]));
  });

  it("reads the history again, once, in an index written before it kept the window of recent commits", async () => {
    repo = TempRepo.create({ "src/a.py": "a = 1\n", "NEWS": "news\n" }, { git: true });
    repo.write({ "src/a.py": "a = 2\n", "NEWS": "news 2\n" });
    repo.commitAll("Fix a");
    tweak(repo, 18);
    const engine = new Engine(repo.root, { jobs: 1 });
    try {
      await engine.index();
      // As an older version left it: no window stored. At the same HEAD, the next run fills it.
      await setRecent(engine, null);
      expect((await engine.index()).commitsRead).toBe(20);
      expect(releaseNotes(engine)).toEqual([{ path: "NEWS", share: 2 / 20, window: 20 }]);
      expect((await engine.index()).commitsRead).toBe(0);
      // And after new commits: all of them, not only the new one.
      await setRecent(engine, null);
      tweak(repo, 1);
      expect((await engine.index()).commitsRead).toBe(21);
      expect(releaseNotes(engine)).toEqual([{ path: "NEWS", share: 2 / 21, window: 21 }]);
    } finally {
      await engine.close();
    }
  });

  it("survives a damaged window: queries answer, and the next run reads the history again", async () => {
    repo = TempRepo.create({ "src/a.py": "a = 1\n", "src/retry.py": "def retry():\n    return 1\n", "NEWS": "news\n" }, { git: true });
    tweak(repo, 19);
    const engine = new Engine(repo.root, { jobs: 1 });
    try {
      await engine.index();
      await setRecent(engine, "{bad");
      expect(releaseNotes(engine)).toEqual([]);
      expect((await engine.context("retry", { budget: 500, refresh: false })).files).toContain("src/retry.py");
      expect((await engine.index()).commitsRead).toBe(20);
      expect(releaseNotes(engine)).toEqual([{ path: "NEWS", share: 1 / 20, window: 20 }]);
      // Well-formed JSON of the wrong shape: entries that are no list count as commits without notes.
      await setRecent(engine, JSON.stringify([["NEWS", 7], {}, ...Array.from({ length: 18 }, () => [])]));
      expect(releaseNotes(engine)).toEqual([{ path: "NEWS", share: 1 / 20, window: 20 }]);
      await setRecent(engine, JSON.stringify({ recent: [] }));
      expect(releaseNotes(engine)).toEqual([]);
      expect((await engine.index()).commitsRead).toBe(20);
    } finally {
      await engine.close();
    }
  });

  describe("renames", () => {
    const body = (name: string) => Array.from({ length: 20 }, (_, i) => `${name}_${i} = ${i}\n`).join("");
    const renames = (engine: Engine) => decodeRenames(storeOf(engine)!.history.renames());

    /** seaborn's way: `core.py` became `core/orig.py`, then `oldcore.py`, each move with an edit. */
    function movedRepo(): TempRepo {
      const r = TempRepo.create({ "pkg/core.py": body("core"), "pkg/gone.py": body("gone"), "pkg/keep.py": "k = 1\n" }, { git: true });
      r.git("mv", "pkg/core.py", "pkg/orig.py");
      r.git("mv", "pkg/gone.py", "pkg/gone2.py");
      r.write({ "pkg/orig.py": `${body("core")}a = 1\n` });
      r.commitAll("Move core aside");
      r.git("mv", "pkg/orig.py", "pkg/oldcore.py");
      r.write({ "pkg/oldcore.py": `${body("core")}a = 2\n` });
      r.remove("pkg/gone2.py");
      r.commitAll("Rename again, drop gone");
      return r;
    }

    it("keeps each renamed path with the file it is now, followed through later renames", async () => {
      repo = movedRepo();
      await indexed(repo.root, (engine) => {
        // gone.py's last name was deleted: it leads nowhere.
        expect(renames(engine)).toEqual(new Map([["pkg/core.py", "pkg/oldcore.py"], ["pkg/orig.py", "pkg/oldcore.py"]]));
        // History itself is as without renames: both paths of a move are listed.
        expect(storeOf(engine)!.history.of("pkg/oldcore.py")!.churn).toBe(1);
      });
    });

    it("adds the renames of new commits to the stored ones, and drops a path that exists again", async () => {
      repo = movedRepo();
      await indexed(repo.root, () => undefined);
      repo.git("mv", "pkg/oldcore.py", "pkg/legacy.py");
      repo.write({ "pkg/orig.py": "fresh = 1\n" });
      repo.commitAll("Rename to legacy, a new orig.py");
      const engine = new Engine(repo.root, { jobs: 1 });
      try {
        expect((await engine.index()).commitsRead).toBe(1);
        expect(renames(engine)).toEqual(new Map([["pkg/core.py", "pkg/legacy.py"], ["pkg/oldcore.py", "pkg/legacy.py"]]));
      } finally {
        await engine.close();
      }
    });

    it("reads on without renames from the commit where git cannot compare a moved file's blobs", async () => {
      repo = movedRepo();
      // The blob of core.py as first committed is lost (a damaged copy, a mirror with objects left out).
      const blob = repo.git("rev-parse", "HEAD~2:pkg/core.py").trim();
      const loose = join(repo.root, ".git", "objects", blob.slice(0, 2), blob.slice(2));
      expect(existsSync(loose)).toBe(true);
      rmSync(loose);
      // Newer commits, read before git meets the missing blob (a rename without an edit compares no content).
      repo.git("mv", "pkg/keep.py", "pkg/kept.py");
      repo.commitAll("Keep is kept");
      repo.write({ "pkg/kept.py": "k = 2\n" });
      repo.commitAll("Edit kept");
      const engine = new Engine(repo.root, { jobs: 1 });
      try {
        const stats = await engine.index();
        expect(stats.commitsRead).toBe(5);
        expect(stats.warnings.join("\n")).toMatch(/renames read in the newest 2 commits only \(git log failed: .*unable to read/);
        // Every commit counted once, whole: from where git failed, the log is read on without renames.
        const store = storeOf(engine)!;
        expect(store.history.of("pkg/kept.py")!.churn).toBe(2);
        expect(store.history.of("pkg/oldcore.py")!.commits.map((h) => store.history.commit(h)!.message)).toEqual(["Rename again, drop gone"]);
        expect(engine.status()!.commits).toBe(5);
        // The renames of the commits read before are kept.
        expect(renames(engine)).toEqual(new Map([["pkg/keep.py", "pkg/kept.py"]]));
      } finally {
        await engine.close();
      }
    });

    it("follows a rename chain forward in time only", () => {
      // Newest first: b.py deleted (not a rename), then a.py -> b.py, and long before, b.py -> c.py.
      const renamed: Array<[string, string]> = [["a.py", "b.py"], ["b.py", "c.py"]];
      // a.py's content went to a b.py made after the old b.py had become c.py, and was deleted.
      expect(formerPaths(renamed, new Map(), new Set(["c.py"]))).toEqual(new Map([["b.py", "c.py"]]));
      // Forward: x.py -> y.py, later y.py -> z.py.
      expect(formerPaths([["y.py", "z.py"], ["x.py", "y.py"]], new Map(), new Set(["z.py"]))).toEqual(new Map([["x.py", "z.py"], ["y.py", "z.py"]]));
      // Stored renames are older than this run's: a stored path follows this run's renames on.
      expect(formerPaths([["y.py", "z.py"]], new Map([["x.py", "y.py"]]), new Set(["z.py"]))).toEqual(new Map([["x.py", "z.py"], ["y.py", "z.py"]]));
      // A path that exists now is its own file, whatever it was renamed to once.
      expect(formerPaths([["x.py", "y.py"]], new Map(), new Set(["x.py", "y.py"]))).toEqual(new Map());
    });

    it("reads renames in the newest commits of its window only, and the rest of the history whole", async () => {
      repo = movedRepo();
      repo.write({ "pkg/keep.py": "k = 2\n" });
      repo.commitAll("Edit keep");
      await indexed(repo.root, () => undefined);
      const indexDir = join(repo.root, ".contextsmith");
      const { store } = await IndexStore.openForWrite(indexDir);
      try {
        await store.transaction(() => store.updateMeta((m) => void (m.gitHead = null)), "history");
        const task = { version: PROTOCOL_VERSION, root: repo.root, indexDir, maxCommits: 100, cochangeMaxFiles: 50, historyPerFile: 200, cochangePerFile: 24 };
        // A window of 2: the newest commit renames nothing, the one before renames orig.py to oldcore.py.
        const read = await indexGitHistory(store, { ...task, renameCommits: 2 });
        expect(read.commitsRead).toBe(4);
        expect(decodeRenames(store.history.renames())).toEqual(new Map([["pkg/orig.py", "pkg/oldcore.py"]]));
        expect(store.history.of("pkg/keep.py")!.churn).toBe(2);
        await store.transaction(() => store.updateMeta((m) => void (m.gitHead = null)), "history");
        expect((await indexGitHistory(store, { ...task, renameCommits: 0 })).commitsRead).toBe(4);
        expect(decodeRenames(store.history.renames())).toEqual(new Map());
      } finally {
        await store.close();
      }
    });

    it("collects the log's garbage once after reading commits, and not when nothing was new", async () => {
      repo = movedRepo();
      await indexed(repo.root, () => undefined);
      const indexDir = join(repo.root, ".contextsmith");
      const { store } = await IndexStore.openForWrite(indexDir);
      try {
        await store.transaction(() => store.updateMeta((m) => void (m.gitHead = null)), "history");
        const task = { version: PROTOCOL_VERSION, root: repo.root, indexDir, maxCommits: 100, cochangeMaxFiles: 50, historyPerFile: 200, cochangePerFile: 24, renameCommits: 10 };
        let collections = 0;
        const collect = (): void => void collections++;
        expect((await indexGitHistory(store, task, collect)).commitsRead).toBeGreaterThan(0);
        expect(collections).toBe(1);
        expect((await indexGitHistory(store, task, collect)).commitsRead).toBe(0);
        expect(collections).toBe(1);
      } finally {
        await store.close();
      }
    });

    it("asks a partial clone for no renames: its missing blobs are never fetched", async () => {
      repo = movedRepo();
      repo.git("config", "uploadpack.allowFilter", "true");
      clone = TempRepo.create();
      clone.dispose();
      repo.git("clone", "-q", "--filter=blob:none", `file://${repo.root}`, clone.root);
      const objects = () => clone!.git("count-objects", "-v");
      const before = objects();
      await indexed(clone.root, (engine) => {
        expect(engine.status()!.commits).toBe(3);
        expect(renames(engine)).toEqual(new Map());
        expect(storeOf(engine)!.history.of("pkg/oldcore.py")!.churn).toBe(1);
      });
      expect(objects()).toBe(before);
    });

    it("ranks the file a traceback's renamed path became", async () => {
      repo = movedRepo();
      repo.write({ "pkg/other.py": body("other") });
      repo.commitAll("Add other");
      const task = "KeyError in lookup\nTraceback (most recent call last):\n  File \"/usr/lib/python3/site-packages/pkg/core.py\", line 12, in lookup\n    value = table[key]\nKeyError: 'x'";
      await indexed(repo.root, async (engine) => {
        const ranked = await engine.rank(task, { refresh: false });
        expect(ranked.files[0]!.path).toBe("pkg/oldcore.py");
        expect(JSON.stringify(ranked.files[0]!.signals)).toMatch(/core\.py:12/);
      });
    });
  });
});
