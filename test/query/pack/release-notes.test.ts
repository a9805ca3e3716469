import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Engine } from "../../../src/engine.js";
import { notesCandidate } from "../../../src/query/pack/candidates.js";
import { fileText } from "../../../src/query/pack/file-text.js";
import { packEntries, releaseNotesEntry, withReleaseNotes, type PackEntry, type PackSource } from "../../../src/query/pack/pack-ranking.js";
import { resolveRanking } from "../../../src/query/ranking-config.js";
import { TempRepo } from "../../helpers/repo.js";

const source = (releaseNotes: PackSource["releaseNotes"]): PackSource => ({ termWeights: new Map(), text: () => null, symbols: () => undefined, focus: () => [], releaseNotes });
/** Ranked entries of one repository whose newest commits change `notes`. */
const entries = (notes: PackSource["releaseNotes"], ...paths: string[]): PackEntry[] => paths.map((path) => ({ file: { path, score: 1, signals: {} }, source: source(notes) }));
const config = resolveRanking({ pack: { notesValue: 0.05, notesShare: 0.1 } });

describe("the release notes a fix adds to, named after the code", () => {
  it("picks, of the notes whose folder holds the best file, the deepest folder's (a module's own changelog first), then the most changed", () => {
    const notes = [
      { path: "CHANGELOG.md", share: 0.3, window: 300 },
      { path: "plugins/maven/CHANGELOG.md", share: 0.15, window: 300 },
      { path: "plugins/gradle/CHANGELOG.md", share: 0.2, window: 300 },
    ];
    expect(releaseNotesEntry(entries(notes, "plugins/maven/src/Build.java"), config)).toMatchObject({
      file: { path: "plugins/maven/CHANGELOG.md" }, notes: true, note: "release notes: 15% of the newest 300 commits add to them",
    });
    expect(releaseNotesEntry(entries(notes, "core/Main.java"), config)?.file.path).toBe("CHANGELOG.md");
    // A sibling module's changelog shares a folder with the best file, but does not speak for it.
    expect(releaseNotesEntry(entries(notes, "plugins/ant/src/Ant.java"), config)?.file.path).toBe("CHANGELOG.md");
    // With no notes that hold the best file, none: another module's notes would mislead.
    expect(releaseNotesEntry(entries(notes.slice(1), "plugins/ant/src/Ant.java"), config)).toBeNull();
    // Notes under the documentation folder are the project's.
    expect(releaseNotesEntry(entries([{ path: "CHANGES", share: 0.1, window: 300 }, { path: "docs/changelog.md", share: 0.3, window: 300 }], "src/x.py"), config)?.file.path).toBe("docs/changelog.md");
    // A folder of notes speaks for the folder it is in.
    const folders = [{ path: "CHANGES.md", share: 0.3, window: 40 }, { path: "lib/changelog.d/123.fix.md", share: 0.2, window: 40 }];
    expect(releaseNotesEntry(entries(folders, "lib/src/x.py"), config)).toMatchObject({ file: { path: "lib/changelog.d/123.fix.md" }, note: "release notes: 20% of the newest 40 commits add to them" });
    expect(releaseNotesEntry(entries(folders, "app/x.py"), config)?.file.path).toBe("CHANGES.md");
  });

  it("shows the notes of the best file's repository, in a pack across repositories", () => {
    const web = [{ path: "CHANGELOG.md", share: 0.5, window: 300 }];
    const api = [{ path: "NEWS.md", share: 0.2, window: 300 }];
    const packed = [{ ...entries(api, "server/routes.py")[0]!, repo: "api" }, { ...entries(web, "src/app.ts")[0]!, repo: "web" }];
    expect(releaseNotesEntry(packed, config)).toMatchObject({ file: { path: "NEWS.md" }, repo: "api", notes: true });
    // The same path in another repository is another file: it stays packed.
    const both = [...packed, { ...entries(web, "NEWS.md")[0]!, repo: "web" }];
    expect(withReleaseNotes(both, config).map((e) => [e.repo, e.file.path, e.notes ?? false])).toEqual([
      ["api", "server/routes.py", false], ["web", "src/app.ts", false], ["web", "NEWS.md", false], ["api", "NEWS.md", true],
    ]);
  });

  it("leaves out notes changed by too few of the newest commits, notes already packed, and everything when turned off", () => {
    const changes = [{ path: "CHANGES", share: 0.5, window: 300 }];
    expect(releaseNotesEntry(entries([{ path: "NEWS", share: 0.05, window: 300 }], "a.py"), config)).toBeNull();
    // The task is about the notes themselves: they are packed as the best file.
    expect(releaseNotesEntry(entries(changes, "CHANGES", "a.py"), config)).toBeNull();
    expect(releaseNotesEntry(entries(changes, "a.py"), resolveRanking({ pack: { notesValue: 0 } }))).toBeNull();
    expect(releaseNotesEntry([], config)).toBeNull();
  });

  it("shows notes ranked among the files (packed or only named) by their head instead", () => {
    const changes = [{ path: "CHANGES", share: 0.5, window: 300 }];
    const shape = (list: PackEntry[]) => list.map((e) => [e.file.path, e.coverOnly ?? false, e.notes ?? false]);
    const named = [...entries(changes, "a.py"), { ...entries(changes, "CHANGES")[0]!, coverOnly: true }];
    expect(shape(withReleaseNotes(named, config))).toEqual([["a.py", false, false], ["CHANGES", false, true]]);
    expect(shape(withReleaseNotes(entries(changes, "a.py", "CHANGES", "b.py"), config))).toEqual([["a.py", false, false], ["b.py", false, false], ["CHANGES", false, true]]);
  });

  it("gives notes the ranking placed no code file's place", () => {
    const ranked = ["a.py", "CHANGES", "b.py", "c.py", "d.py", "e.py", "f.py"].map((path) => ({ path, score: 1, signals: {}, ...(path === "CHANGES" ? { releaseNotes: "release notes" } : {}) }));
    const picked = packEntries(ranked, 4000, resolveRanking({ pack: { maxFiles: 5, coverFiles: 6 } }), (file) => ({ file, source: source([]) }));
    expect(picked.map((e) => [e.file.path, e.coverOnly ?? false])).toEqual([["a.py", false], ["b.py", false], ["c.py", false], ["d.py", false], ["e.py", false], ["f.py", true]]);
  });
});

describe("the head of release notes: the title and the open section, where a new entry goes", () => {
  const head = (text: string) => notesCandidate({ ...fileText("NOTES", null, text), rank: 1, why: "" }, config.pack)?.ranges;
  const entries = (n: number) => Array.from({ length: n }, (_, i) => `- entry ${i}`).join("\n");

  it("ends before the second release's heading, in the formats projects write", () => {
    // jib: an open section with empty headings; it ends at line 11.
    expect(head(`# Change Log\nAll notable changes.\n\n## [unreleased]\n\n### Added\n\n### Changed\n\n### Fixed\n\n## 2.5.0\n\n${entries(30)}`)).toEqual([[1, 11]]);
    // jackson: release lines without markup; a new entry goes at the end of the open one (line 12).
    expect(head(`Project: x\n\n---\n=== Releases ===\n---\n\n2.17.0 (not yet released)\n\n${entries(4)}\n\n2.16.1 (24-Dec-2023)\n\n${entries(30)}`)).toEqual([[1, 13]]);
    expect(head(`Version 2.3.0\n-------------\n\n${entries(3)}\n\nVersion 2.2.5\n-------------\n${entries(30)}`)).toEqual([[1, 7]]);
    expect(head(`# unreleased\n\n## Bugfixes\n\n${entries(2)}\n\n# v0.24.0\n\n${entries(30)}`)).toEqual([[1, 7]]);
    expect(head(`Changelog\n\n[Unreleased] - next\n\n${entries(2)}\n\nUnreleased:\n\n${entries(30)}`)).toEqual([[1, 7]]);
  });

  it("knows Markdown headings of the open release, however they go on", () => {
    for (const heading of ["## Unreleased changes", "## Unreleased — 2024", "## [Unreleased][]", "## **Unreleased**"]) {
      expect(head(`# Changes\n\n${heading}\n\n${entries(2)}\n\n## 1.0\n\n${entries(50)}`)).toEqual([[1, 7]]);
    }
  });

  it("takes no prose for a heading", () => {
    // "Unreleased changes go…" is a sentence, not the open release: the open one ends at "## 1.0".
    expect(head(`# Changes\nUnreleased changes go under the next version.\n\n## 1.1\n\n${entries(3)}\n\n## 1.0\n\n${entries(50)}`)).toEqual([[1, 9]]);
  });

  it("shows notes shorter than 40 lines whole when no second release's heading ends them", () => {
    expect(head(`# Changes\n\n## Unreleased\n\n${entries(25)}`)).toEqual([[1, 29]]);
    expect(head(`Changes\n\n${entries(38)}`)).toEqual([[1, 40]]);
  });

  it("shows the first 15 lines of longer notes whose open section is over 40 lines or has no heading it knows", () => {
    expect(head(`Release 7.2.0 (in development)\n\n${entries(60)}\n\nRelease 7.1.2\n`)).toEqual([[1, 15]]);
    expect(head(`Changes\n\n${entries(60)}`)).toEqual([[1, 15]]);
    expect(head("")).toBeUndefined();
  });
});

describe("release notes in a packed context (a real repository whose fixes add to CHANGELOG.md)", () => {
  let repo: TempRepo;
  let engine: Engine;
  const changelog = (n: number) => `# Changelog\n\n## Unreleased\n\n${Array.from({ length: n }, (_, i) => `- fix ${i}`).join("\n")}\n\n## 1.0\n\n- first release\n${"- older entry\n".repeat(40)}`;

  beforeAll(async () => {
    repo = TempRepo.create({ "shop/cart.py": "def total(items):\n    return sum(items)\n", "README.md": "# shop\n", "CHANGELOG.md": changelog(0) }, { git: true });
    for (let i = 1; i <= 19; i++) {
      repo.write({ "shop/cart.py": `def total(items):\n    return sum(items) + ${i}\n`, ...(i % 2 === 0 ? { "CHANGELOG.md": changelog(i % 4) } : {}) });
      repo.commitAll(`Update ${i}`);
    }
    engine = new Engine(repo.root, { jobs: 1 });
    await engine.index();
  }, 60_000);
  afterAll(async () => {
    await engine.close();
    repo.dispose();
  });

  it("shows the head of the notes after the code, with why", async () => {
    const result = await engine.context("cart total is wrong", { budget: 2000, refresh: false });
    expect(result.files[0]).toBe("shop/cart.py");
    // 10 of the 20 commits changed CHANGELOG.md; the last one left two entries.
    // The title and the open section, up to the line before "## 1.0".
    expect(result.spans).toContainEqual({ path: "CHANGELOG.md", start: 1, end: 7, kind: "file-outline", symbol: null });
    expect(result.text).toContain("### CHANGELOG.md · lines 1-7 · release notes: 50% of the newest 20 commits add to them\n```markdown\n1|# Changelog");
    expect(result.tokens).toBeLessThanOrEqual(2000);
  });

  it("ranks the notes fifth at the latest, saying why, and packs their head, not their code, unless they are pinned", async () => {
    const { files } = await engine.rank("cart total is wrong", { refresh: false });
    expect(files[0]!.path).toBe("shop/cart.py");
    const at = files.findIndex((f) => f.path === "CHANGELOG.md");
    expect(at).toBeGreaterThanOrEqual(1);
    expect(at).toBeLessThanOrEqual(4);
    expect(files[at]!.releaseNotes).toBe("release notes: 50% of the newest 20 commits add to them");
    const off = await engine.rank("cart total is wrong", { refresh: false, ranking: { notesRank: 0 } });
    expect(off.files.some((f) => f.releaseNotes !== undefined)).toBe(false);
    const result = await engine.context("cart total is wrong", { budget: 2000, refresh: false });
    expect(result.spans.filter((s) => s.path === "CHANGELOG.md")).toEqual([{ path: "CHANGELOG.md", start: 1, end: 7, kind: "file-outline", symbol: null }]);
    // Pinned, the notes are packed whole, first, as any pinned file.
    const pinned = await engine.context("cart total is wrong", { budget: 2000, refresh: false, pinned: [{ path: "CHANGELOG.md" }] });
    expect(pinned.files[0]).toBe("CHANGELOG.md");
    expect(pinned.spans.filter((s) => s.path === "CHANGELOG.md")).toEqual([{ path: "CHANGELOG.md", start: 1, end: 50, kind: "file", symbol: null }]);
  });

  it("leaves the notes out where the code takes the whole budget", async () => {
    const result = await engine.context("cart total is wrong", { budget: 60, refresh: false });
    expect(result.files).toEqual(["shop/cart.py"]);
  });
});
