import { describe, expect, it } from "vitest";
import { fuse } from "../../src/query/fusion.js";
import { resolveRanking } from "../../src/query/ranking-config.js";
import type { SignalResult } from "../../src/query/types.js";

const hits = (...paths: string[]) => paths.map((path, i) => ({ path, score: 10 - i, evidence: "" }));
const task = { aboutTests: false, aboutDocs: false };

describe("fuse", () => {
  it("adds weighted reciprocal ranks over the signals and records each signal's rank", () => {
    const config = resolveRanking({ rrfK: 10, weights: { lexical: 1, symbols: 2 } });
    const results: SignalResult[] = [
      { name: "lexical", hits: hits("a.py", "b.py") },
      { name: "symbols", hits: hits("b.py", "c.py") },
    ];
    const ranked = fuse(results, config, task);
    expect(ranked.map((f) => f.path)).toEqual(["b.py", "c.py", "a.py"]);
    expect(ranked[0]!.score).toBeCloseTo(1 / 12 + 2 / 11);
    expect(ranked[0]!.signals).toEqual({ lexical: { rank: 2, score: 9, evidence: "" }, symbols: { rank: 1, score: 10, evidence: "" } });
  });

  it("ignores signals with weight 0", () => {
    const config = resolveRanking({ weights: { history: 0 } });
    const ranked = fuse([{ name: "history", hits: hits("a.py") }], config, task);
    expect(ranked).toEqual([]);
  });

  it("demotes tests and docs unless the task is about them", () => {
    const config = resolveRanking({ testPenalty: 0.1, docPenalty: 0.1 });
    const results: SignalResult[] = [{ name: "lexical", hits: hits("tests/test_cart.py", "docs/cart.md", "cart.py") }];
    expect(fuse(results, config, task).map((f) => f.path)).toEqual(["cart.py", "tests/test_cart.py", "docs/cart.md"]);
    expect(fuse(results, config, { aboutTests: true, aboutDocs: true }).map((f) => f.path)).toEqual(["tests/test_cart.py", "docs/cart.md", "cart.py"]);
  });
});
