import { describe, expect, it } from "vitest";
import { scoreContext, scoredGold, scoreRanking } from "../../src/bench/score.js";
import type { GoldFile } from "../../src/bench/types.js";

const gold = (path: string, lines: number[], extra: Partial<GoldFile> = {}): GoldFile => ({ path, lines, isNew: false, isTest: false, ...extra });

describe("scoring", () => {
  it("scores only non-test files present at the base commit", () => {
    const { scored, unscored } = scoredGold([gold("a.py", [1]), gold("tests/test_a.py", [2], { isTest: true }), gold("new.py", [1], { isNew: true })]);
    expect(scored.map((g) => g.path)).toEqual(["a.py"]);
    expect(unscored).toEqual([
      { path: "tests/test_a.py", reason: "test file" },
      { path: "new.py", reason: "created by the patch" },
    ]);
  });

  it("counts a recall at k only when every gold file is in the top k", () => {
    const result = scoreRanking(["x.py", "a.py", "y.py", "z.py", "b.py"], [gold("a.py", [1]), gold("b.py", [1])]);
    expect(result.ranks).toEqual({ "a.py": 2, "b.py": 5 });
    expect(result.recall).toEqual({ "1": false, "3": false, "5": true, "10": true });
    expect(scoreRanking(["x.py"], [gold("a.py", [1])]).ranks).toEqual({ "a.py": null });
  });

  it("counts file and lines in budget from the shown spans", () => {
    const spans = [
      { path: "a.py", start: 10, end: 20, kind: "body" as const, symbol: "f" },
      { path: "a.py", start: 30, end: 30, kind: "file-outline" as const, symbol: null },
      { path: "b.py", start: 1, end: 5, kind: "file" as const, symbol: null },
    ];
    expect(scoreContext(spans, [gold("a.py", [10, 20, 30]), gold("b.py", [5])])).toEqual({ file: true, lines: true, missedLines: {} });
    expect(scoreContext(spans, [gold("a.py", [21, 30])])).toEqual({ file: true, lines: false, missedLines: { "a.py": [21] } });
    expect(scoreContext(spans, [gold("c.py", [1])])).toEqual({ file: false, lines: false, missedLines: { "c.py": [1] } });
  });
});
