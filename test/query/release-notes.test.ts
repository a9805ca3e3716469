import { describe, expect, it } from "vitest";
import { pickReleaseNotes, withRankedNotes } from "../../src/query/release-notes.js";
import { resolveRanking } from "../../src/query/ranking-config.js";
import type { RankedFile } from "../../src/query/types.js";

const habits = [{ path: "CHANGELOG.md", share: 0.3, window: 300 }];
const ranking = (...paths: string[]): RankedFile[] => paths.map((path, i) => ({ path, score: 10 - i, signals: { lexical: { rank: i + 1, score: 10 - i, evidence: "" } } }));
const shape = (files: RankedFile[]) => files.map((f) => `${f.path}${f.releaseNotes ? "*" : ""}@${f.score}`);
const config = resolveRanking({ notesRank: 3 });

describe("the release notes a fix most likely adds to, in the ranking", () => {
  it("picks them by the repository's habit and the best file's folder, never the best file itself", () => {
    expect(pickReleaseNotes("src/a.py", habits, 0.1)?.path).toBe("CHANGELOG.md");
    expect(pickReleaseNotes("src/a.py", habits, 0.5)).toBeNull();
    expect(pickReleaseNotes("CHANGELOG.md", habits, 0.1)).toBeNull();
    expect(pickReleaseNotes("plugins/b/x.java", [{ path: "plugins/a/CHANGELOG.md", share: 0.5, window: 300 }], 0.1)).toBeNull();
  });

  it("places notes from outside the ranking, or from below, at notesRank with the score of the file they pass", () => {
    expect(shape(withRankedNotes(ranking("src/a.py", "src/b.py", "src/c.py", "src/d.py"), habits, config))).toEqual(["src/a.py@10", "src/b.py@9", "CHANGELOG.md*@8", "src/c.py@8", "src/d.py@7"]);
    const moved = withRankedNotes(ranking("src/a.py", "src/b.py", "src/c.py", "src/d.py", "CHANGELOG.md"), habits, config);
    expect(shape(moved)).toEqual(["src/a.py@10", "src/b.py@9", "CHANGELOG.md*@8", "src/c.py@8", "src/d.py@7"]);
    // Moved, it keeps the signals that found it, and says why it is there.
    expect(moved[2]).toMatchObject({ signals: { lexical: { rank: 5 } }, releaseNotes: "release notes: 30% of the newest 300 commits add to them" });
    // A short ranking gets them at its end.
    expect(shape(withRankedNotes(ranking("src/a.py"), habits, config))).toEqual(["src/a.py@10", "CHANGELOG.md*@10"]);
  });

  it("moves notes just below notesRank up one place and leaves notes at notesRank where they are; notesRank 1 counts as 2", () => {
    expect(shape(withRankedNotes(ranking("src/a.py", "src/b.py", "src/c.py", "CHANGELOG.md"), habits, config))).toEqual(["src/a.py@10", "src/b.py@9", "CHANGELOG.md*@8", "src/c.py@8"]);
    expect(shape(withRankedNotes(ranking("src/a.py", "src/b.py", "CHANGELOG.md", "src/d.py"), habits, config))).toEqual(["src/a.py@10", "src/b.py@9", "CHANGELOG.md*@8", "src/d.py@7"]);
    expect(shape(withRankedNotes(ranking("src/a.py", "src/b.py"), habits, resolveRanking({ notesRank: 1 })))).toEqual(["src/a.py@10", "CHANGELOG.md*@9", "src/b.py@9"]);
  });

  it("moves nothing while packs show no notes (notesValue 0)", () => {
    const files = ranking("src/a.py", "src/b.py", "src/c.py", "src/d.py");
    expect(withRankedNotes(files, habits, resolveRanking({ notesRank: 3, pack: { notesValue: 0 } }))).toEqual(files);
  });

  it("leaves notes ranked higher where they are (marked), and the ranking alone without a habit, a ranking, or notesRank", () => {
    expect(shape(withRankedNotes(ranking("src/a.py", "CHANGELOG.md", "src/c.py"), habits, config))).toEqual(["src/a.py@10", "CHANGELOG.md*@9", "src/c.py@8"]);
    const files = ranking("src/a.py", "src/b.py", "src/c.py", "src/d.py");
    expect(withRankedNotes(files, habits, resolveRanking({ notesRank: 0 }))).toEqual(files);
    expect(withRankedNotes(files, [], config)).toEqual(files);
    expect(withRankedNotes([], habits, config)).toEqual([]);
  });
});
