import { describe, expect, it } from "vitest";
import { fuse, semanticGate } from "../../src/query/fusion.js";
import { resolveRanking } from "../../src/query/ranking-config.js";
import type { SignalResult } from "../../src/query/types.js";

const hits = (...paths: string[]) => paths.map((path, i) => ({ path, score: 10 - i, evidence: "" }));
const task = { aboutTests: false, aboutDocs: false };

describe("fuse", () => {
  it("adds weighted reciprocal ranks over the signals and records each signal's rank", () => {
    const config = resolveRanking({ rrfK: 10, scoreMix: 0, weights: { lexical: 1, symbols: 2 } });
    const results: SignalResult[] = [
      { name: "lexical", hits: hits("a.py", "b.py") },
      { name: "symbols", hits: hits("b.py", "c.py") },
    ];
    const ranked = fuse(results, config, task);
    expect(ranked.map((f) => f.path)).toEqual(["b.py", "c.py", "a.py"]);
    expect(ranked[0]!.score).toBeCloseTo(1 / 12 + 2 / 11);
    expect(ranked[0]!.signals).toEqual({ lexical: { rank: 2, score: 9, evidence: "" }, symbols: { rank: 1, score: 10, evidence: "" } });
  });

  it("adds each list's scores as shares of its best, scoreMix times its first rank's term: a clear winner stays ahead", () => {
    // lexical: a.py far ahead of b.py; symbols: b.py just ahead of a.py. By ranks alone they tie.
    const results: SignalResult[] = [
      { name: "lexical", hits: [{ path: "a.py", score: 100, evidence: "" }, { path: "b.py", score: 10, evidence: "" }] },
      { name: "symbols", hits: [{ path: "b.py", score: 50, evidence: "" }, { path: "a.py", score: 49, evidence: "" }] },
    ];
    const weights = { lexical: 1, symbols: 1, references: 0, history: 0 };
    const ranks = fuse(results, resolveRanking({ rrfK: 10, scoreMix: 0, weights }), task);
    expect(ranks[0]!.score).toBeCloseTo(ranks[1]!.score);
    const mixed = fuse(results, resolveRanking({ rrfK: 10, scoreMix: 1, weights }), task);
    expect(mixed.map((f) => f.path)).toEqual(["a.py", "b.py"]);
    expect(mixed[0]!.score).toBeCloseTo(1 / 11 + 1 / 11 + 1 / 12 + 49 / 50 / 11);
    expect(mixed[1]!.score).toBeCloseTo(1 / 12 + 10 / 100 / 11 + 1 / 11 + 1 / 11);
  });

  it("gives the semantic list ranks only (its cosines are all near its best)", () => {
    const results: SignalResult[] = [{ name: "semantic", hits: [{ path: "a.py", score: 0.31, evidence: "" }, { path: "b.py", score: 0.3, evidence: "" }] }];
    const config = resolveRanking({ rrfK: 10, scoreMix: 1, weights: { lexical: 0, symbols: 0, references: 0, history: 0, semantic: 1 } });
    expect(fuse(results, config, task).map((f) => f.score)).toEqual([1 / 11, 1 / 12]);
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

  it("demotes vendored copies of other projects unless the task is about them", () => {
    const config = resolveRanking({ vendorPenalty: 0.1 });
    const results: SignalResult[] = [{ name: "lexical", hits: hits("requests/packages/urllib3/exceptions.py", "requests/adapters.py") }];
    expect(fuse(results, config, task).map((f) => f.path)).toEqual(["requests/adapters.py", "requests/packages/urllib3/exceptions.py"]);
    expect(fuse(results, config, { ...task, aboutVendored: true }).map((f) => f.path)).toEqual(["requests/packages/urllib3/exceptions.py", "requests/adapters.py"]);
  });
});

describe("the semantic signal's gate: its weight scaled by its agreement with the other signals beyond chance", () => {
  // Ranks only: the gate is what is tested.
  const config = resolveRanking({ scoreMix: 0, weights: { lexical: 2, symbols: 0, references: 0, history: 0, semantic: 0.5 } });
  const lexical = Array.from({ length: 30 }, (_, i) => `src/m${i}.py`);
  const noise = Array.from({ length: 40 }, (_, i) => `src/other${i}.py`);
  const withSemantic = (paths: string[], population: number): SignalResult[] => [
    { name: "lexical", hits: hits(...lexical) },
    { name: "semantic", hits: hits(...paths), population },
  ];

  it("a list that shares nothing with the others' best files (a useless model) gets no weight: the ranking is the others'", () => {
    const results = withSemantic(noise, 2000);
    expect(semanticGate(results, config, task)).toBe(0);
    const without = fuse([results[0]!], config, task).map((f) => f.path);
    const fused = fuse(results, config, task);
    expect(fused.map((f) => f.path).slice(0, 30)).toEqual(without);
    // Its evidence is still shown (rank --json, the pack's headers), for nothing in the score.
    expect(fused.find((f) => f.path === "src/other0.py")).toMatchObject({ score: 0, signals: { semantic: { rank: 1 } } });
  });

  it("a list whose first file is one of the others' best, the rest noise (a model that knows the answer), gets weight, and lifts that file", () => {
    const results = withSemantic(["src/m6.py", ...noise], 2000);
    // Its first file agrees: 1 of a possible H(10) = 2.93, chance 2.93 × 20/2000; a third of the excess, so that share of the weight over semanticAgreement.
    const possible = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10].reduce((sum, i) => sum + 1 / i, 0);
    const chance = (possible * 20) / 2000;
    expect(semanticGate(results, config, task)).toBeCloseTo((1 - chance) / (possible - chance) / config.semanticAgreement, 6);
    const ranked = fuse(results, config, task).map((f) => f.path);
    expect(ranked.indexOf("src/m6.py")).toBeLessThan(6);
  });

  it("a list whose deeper files keep landing on the others' best (noise that favours big files) sets its own, higher chance", () => {
    // First file agrees; so do a third of files 11–50, where a uniform draw would share 1%.
    const deep = Array.from({ length: 40 }, (_, i) => (i % 3 === 0 ? `src/m${(i % 19) + 1}.py` : `src/other${i}.py`));
    const results = withSemantic(["src/m0.py", ...noise.slice(0, 9), ...deep], 2000);
    const uniform = withSemantic(["src/m0.py", ...noise.slice(0, 9), ...noise.slice(10, 40), ...noise.slice(0, 10).map((p) => `${p}x`)], 2000);
    expect(semanticGate(results, config, task)).toBeLessThan(semanticGate(uniform, config, task) / 2);
  });

  it("agreement that chance gives in a small repository counts for nothing", () => {
    // 12 files in all: the others' best 3 (a fifth of the files, rounded up) hold a quarter of any list.
    const small = Array.from({ length: 12 }, (_, i) => `src/m${i}.py`);
    const shuffled = [small[5]!, small[0]!, small[9]!, small[7]!, small[3]!, small[11]!, small[1]!, small[8]!, small[2]!, small[10]!];
    const results: SignalResult[] = [{ name: "lexical", hits: hits(...small) }, { name: "semantic", hits: hits(...shuffled), population: 12 }];
    expect(semanticGate(results, config, task)).toBeLessThan(0.35);
    const agreeing: SignalResult[] = [{ name: "lexical", hits: hits(...small) }, { name: "semantic", hits: hits(...small.slice(0, 3), ...shuffled), population: 12 }];
    expect(semanticGate(agreeing, config, task)).toBeGreaterThan(0.75);
  });

  it("is off at semanticAgreement 0, has nothing to gate without semantic hits, and nothing to check against alone", () => {
    const results = withSemantic(noise, 2000);
    expect(semanticGate(results, resolveRanking({ ...config, semanticAgreement: 0 }), task)).toBe(1);
    // An override that leaves the setting undefined is no gate, not NaN scores.
    expect(semanticGate(results, { ...config, semanticAgreement: undefined as unknown as number }, task)).toBe(1);
    expect(semanticGate([results[0]!], config, task)).toBe(1);
    // The embeddings-only strategy: every other signal off.
    const alone = resolveRanking({ weights: { lexical: 0, symbols: 0, references: 0, history: 0, semantic: 1 } });
    expect(semanticGate(results, alone, task)).toBe(1);
    expect(fuse(results, alone, task).map((f) => f.path).slice(0, 2)).toEqual(["src/other0.py", "src/other1.py"]);
  });
});
