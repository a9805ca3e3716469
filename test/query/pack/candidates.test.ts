import { afterAll, describe, expect, it } from "vitest";
import type { SymbolInfo } from "../../../src/core/types.js";
import { coverCandidate, fileCandidates, heaviest } from "../../../src/query/pack/candidates.js";
import { fileText, type FileText } from "../../../src/query/pack/file-text.js";
import { coverDepth, packDepth, packRanking, packSources, type PackSource } from "../../../src/query/pack/pack-ranking.js";
import { resolveRanking } from "../../../src/query/ranking-config.js";
import type { RankedFile } from "../../../src/query/types.js";
import { TokenWorker } from "../../../src/runtime/token-worker.js";

/** A module of `functions` functions of ten lines each; the function named `hot` mentions the task's term. */
function module(path: string, functions: number, hot: number): { text: FileText; symbols: SymbolInfo[] } {
  const lines: string[] = ["import os", ""];
  const symbols: SymbolInfo[] = [];
  for (let f = 0; f < functions; f++) {
    const start = lines.length + 1;
    const name = f === hot ? "refund_ledger" : `helper_${f}`;
    lines.push(`def ${name}(value):`, `    """Does step ${f}."""`);
    for (let i = 0; i < 7; i++) lines.push(`    value = value + ${i} * ${f === hot ? "ledger" : "other"}`);
    lines.push("    return value", "");
    symbols.push({ name, qualifiedName: name, kind: "function", signature: `def ${name}(value):`, doc: `Does step ${f}.`, startLine: start, endLine: start + 9, parent: -1 });
  }
  return { text: fileText(path, "python", lines.join("\n")), symbols };
}

const files = Array.from({ length: 20 }, (_, i) => ({ path: `pkg/m${i + 1}.py`, ...module(`pkg/m${i + 1}.py`, 30, 17) }));
const byPath = new Map(files.map((f) => [f.path, f]));
const source: PackSource = {
  termWeights: new Map([["ledger", 3], ["refund", 2]]),
  text: (path) => byPath.get(path)?.text ?? null,
  symbols: (path) => byPath.get(path)?.symbols,
  focus: () => [],
};
const ranked: RankedFile[] = files.map((f, i) => ({ path: f.path, score: 1 / (i + 1), signals: { lexical: { rank: i + 1, score: 1, evidence: "ledger" } } }));
const counter = new TokenWorker("cl100k_base");
afterAll(() => counter.close());

describe("file coverage: files below the packed ones are named by their best definitions", () => {
  it("names the matching definition of a file, by its declaration line, and falls back to a first line", () => {
    const { text, symbols } = files[0]!;
    const config = resolveRanking().pack;
    const cover = coverCandidate({ ...text, rank: 8, why: "#8" }, symbols, source.termWeights, config)!;
    const hot = symbols[17]!;
    expect(cover.kind).toBe("file-outline");
    expect(cover.ranges).toEqual([[hot.startLine, hot.startLine]]);
    expect(cover.value).toBeCloseTo(config.coverValue / Math.pow(8, config.rankDecay), 9);
    // Nothing matches: the first top-level declaration; no definitions at all: the first non-blank line.
    expect(coverCandidate({ ...text, rank: 8, why: "#8" }, symbols, new Map([["absent", 1]]), config)!.ranges).toEqual([[symbols[0]!.startLine, symbols[0]!.startLine]]);
    // A line the task names (a traceback frame) puts its definition first among the three.
    const framed = symbols[4]!;
    const withFrame = coverCandidate({ ...text, rank: 8, why: "#8" }, symbols, new Map([["absent", 1]]), config, [framed.startLine + 3])!;
    expect(withFrame.ranges).toEqual([[framed.startLine, framed.startLine]]);
    const notes = fileText("NOTES.md", null, "\n\n# Notes\nledger things\n");
    expect(coverCandidate({ ...notes, rank: 9, why: "#9" }, undefined, source.termWeights, config)!.ranges).toEqual([[3, 3]]);
  });

  it("chooses the named definitions by the task's coverTerms heaviest terms only", () => {
    const { text, symbols } = files[0]!;
    // `other` (in every body but the hot one) is the lighter term: with one term only `ledger` counts.
    const terms = new Map([["other", 1], ["ledger", 3]]);
    const named = (coverTerms: number) => coverCandidate({ ...text, rank: 8, why: "#8" }, symbols, terms, resolveRanking({ pack: { coverTerms } }).pack)!.ranges;
    expect(named(1)).toEqual([[symbols[17]!.startLine, symbols[17]!.startLine]]);
    // With both, the hot definition (3) still leads, and the next two that hold `other` join it, in file order.
    expect(named(2)).toEqual([[symbols[0]!.startLine, symbols[0]!.startLine], [symbols[1]!.startLine, symbols[1]!.startLine], [symbols[17]!.startLine, symbols[17]!.startLine]]);
    expect(heaviest(new Map([["b", 2], ["a", 2], ["c", 5]]), 2)).toEqual(new Map([["c", 5], ["a", 2]]));
    expect(heaviest(terms, 5)).toBe(terms);
    expect(heaviest(terms, 0).size).toBe(0);
    expect(heaviest(terms, -1).size).toBe(0);
  });

  it("finds a named file's prose lines only when it holds one of the terms asked", () => {
    const { text, symbols } = files[0]!;
    const noProse = { ...text, rank: 8, why: "#8", prose: () => expect.unreachable("prose() read for a file holding no term") };
    expect(coverCandidate(noProse, symbols, new Map([["absent", 1]]), resolveRanking().pack)!.ranges).toEqual([[symbols[0]!.startLine, symbols[0]!.startLine]]);
    let read = 0;
    const counted = { ...text, rank: 8, why: "#8", prose: () => (read++, text.prose()) };
    coverCandidate(counted, symbols, new Map([["ledger", 1]]), resolveRanking().pack);
    expect(read).toBe(1);
  });

  it("at 4,000 tokens shows code of the top files and names the files down to coverFiles, never over budget", async () => {
    const config = resolveRanking({ pack: { maxFiles: 5, coverFiles: 15 } });
    expect(packDepth(config, 4000)).toBe(5);
    expect(coverDepth(config, 4000)).toBe(15);
    expect(coverDepth(config, 8000)).toBe(30);
    // However large the budget, at most 60 files are named beyond the packed ones.
    expect(coverDepth(config, 400_000) - packDepth(config, 400_000)).toBe(60);
    const packed = await packRanking(ranked, 4000, counter, config, source);
    expect(packed.tokens).toBeLessThanOrEqual(4000);
    expect(packed.files).toEqual(files.slice(0, 15).map((f) => f.path));
    const hotLine = files[0]!.symbols[17]!.startLine;
    for (const path of packed.files.slice(5)) {
      // Only the declaration of the definition that matches, in one line.
      expect(packed.spans.filter((s) => s.path === path).map((s) => [s.start, s.end, s.kind])).toEqual([[hotLine, hotLine, "file-outline"]]);
    }
    // The matching body of the best file is shown whole.
    expect(packed.spans.some((s) => s.path === files[0]!.path && s.kind === "body" && s.start === hotLine && s.end >= hotLine + 9)).toBe(true);
  });

  it("with coverFiles at maxFiles, no file below the packed ones is named", async () => {
    const packed = await packRanking(ranked, 4000, counter, resolveRanking({ pack: { maxFiles: 5, coverFiles: 5 } }), source);
    expect(packed.files.length).toBeLessThanOrEqual(5);
    expect(packed.tokens).toBeLessThanOrEqual(4000);
  });
});


describe("a packed file's worth follows its fused score's share of the best file's (scoreSharpness)", () => {
  const lines = (packed: { spans: Array<{ path: string; start: number; end: number }> }, path: string): number =>
    packed.spans.filter((s) => s.path === path).reduce((sum, s) => sum + s.end - s.start + 1, 0);

  it("scales every candidate of the file by scoreShare^scoreSharpness", () => {
    const { text, symbols } = files[1]!;
    const config = resolveRanking().pack;
    expect(config.scoreSharpness).toBeGreaterThan(0);
    const plain = fileCandidates({ ...text, rank: 2, why: "#2" }, symbols, source.termWeights, config);
    const behind = fileCandidates({ ...text, rank: 2, why: "#2", scoreShare: 0.5 }, symbols, source.termWeights, config);
    expect(behind.length).toBe(plain.length);
    behind.forEach((c, i) => expect(c.value).toBeCloseTo(plain[i]!.value * Math.pow(0.5, config.scoreSharpness), 12));
  });

  it("gives a second file far behind the first less of the budget than one close to it, and a file no fusion placed its rank's worth", async () => {
    const config = resolveRanking();
    const two = (second: number): RankedFile[] => [
      { ...ranked[0]!, score: 1 },
      { ...ranked[1]!, score: second },
    ];
    const close = await packRanking(two(0.95), 1500, counter, config, source);
    const far = await packRanking(two(0.3), 1500, counter, config, source);
    const second = files[1]!.path;
    expect(lines(far, second)).toBeLessThan(lines(close, second));
    expect(lines(far, files[0]!.path)).toBeGreaterThan(lines(close, files[0]!.path));
    for (const packed of [close, far]) expect(packed.tokens).toBeLessThanOrEqual(1500);
    // With scoreSharpness 0 the score does not count: the rank alone decides.
    const flat = resolveRanking({ pack: { scoreSharpness: 0 } });
    expect((await packRanking(two(0.3), 1500, counter, flat, source)).spans).toEqual((await packRanking(two(0.95), 1500, counter, flat, source)).spans);
    // A file an API link placed is worth what its rank gives, as with scores equal, whether the
    // link brought it from outside the ranking (score 0) or from the files only named (a low score).
    const level = await packRanking(two(1), 1500, counter, config, source);
    for (const score of [0, 0.2]) {
      const linked = await packSources([{ file: { ...ranked[0]!, score: 1 }, source }, { file: { ...ranked[1]!, score }, source, linked: true }], 1500, counter, config);
      expect(linked.spans).toEqual(level.spans);
    }
    // A file that cannot be read sets no scale: the files after it are read against the best one shown.
    const withGone = (score: number) => packSources([{ file: { path: "pkg/gone.py", score, signals: {} }, source }, ...two(0.3).map((file) => ({ file, source }))], 1500, counter, config);
    expect((await withGone(50)).spans).toEqual((await withGone(1)).spans);
  });
});

describe("import statements are a piece of their own, worth importsValue of the file besides their share", () => {
  const { text, symbols } = module("pkg/imports.py", 30, 17);
  // module() starts with "import os" and a blank line; put two more imports and a constant before the functions.
  const lines = ["import os", "from pkg import (", "    ledger_tools)", "LIMIT = 3", "TABLE = {}", "", ...text.lines.slice(2)];
  const shifted = symbols.map((s) => ({ ...s, startLine: s.startLine + 4, endLine: s.endLine + 4 }));
  const file = { ...fileText("pkg/imports.py", "python", lines.join("\n")), rank: 1, why: "#1" };
  const code = (importsValue: number) => fileCandidates(file, shifted, source.termWeights, resolveRanking({ pack: { importsValue } }).pack).filter((c) => c.kind === "code");

  it("splits the imports from the module-level code after them, and adds importsValue to the imports alone", () => {
    const without = code(0);
    const withImports = code(0.1);
    // The constants are shown through the blank line after them (where code added after them goes).
    expect(without.map((c) => c.ranges)).toEqual([[[1, 3]], [[4, 6]]]);
    expect(withImports.map((c) => c.ranges)).toEqual([[[1, 3]], [[4, 6]]]);
    // The file's weight at rank 1 is 1: the imports gain exactly 0.1, the constants nothing.
    expect(withImports[0]!.value - without[0]!.value).toBeCloseTo(0.1, 9);
    expect(withImports[1]!.value).toBeCloseTo(without[1]!.value, 12);
  });

  it("shows a run of code through the blank lines after it, without counting them as its size", () => {
    // The imports, two blank lines (the insertion point of a new import), then the functions.
    const spaced = ["import os", "import sys", "", "", ...text.lines.slice(2)];
    const moved = symbols.map((s) => ({ ...s, startLine: s.startLine + 2, endLine: s.endLine + 2 }));
    const tight = ["import os", "import sys", ...text.lines.slice(2)];
    const imports = (lines: string[], defs: SymbolInfo[]) =>
      fileCandidates({ ...fileText("pkg/spaced.py", "python", lines.join("\n")), rank: 1, why: "#1" }, defs, source.termWeights, resolveRanking().pack).find((c) => c.kind === "code")!;
    const withBlanks = imports(spaced, moved);
    const without = imports(tight, symbols);
    expect(withBlanks.ranges).toEqual([[1, 4]]);
    expect(without.ranges).toEqual([[1, 2]]);
    // The same share of the file: the blank lines are shown, not weighed.
    expect(withBlanks.value).toBeCloseTo(without.value, 12);
    expect(withBlanks.chars).toBeGreaterThan(without.chars);
  });
});

describe("a task's terms on prose lines count proseValue of their weight in matching pieces", () => {
  // Two functions of seven lines: one names the task's terms in its docstring and comments only,
  // the other in its code.
  const lines = [
    "def documented(value):", '    """Refund the ledger.', "", "    The ledger is refunded.", '    """', "    # ledger", "    return value",
    "def working(value):", "    total = value", "    total = total", "    total = total", "    total = total", "    total = total", "    return refund(ledger)",
  ];
  const symbols: SymbolInfo[] = [
    { name: "documented", qualifiedName: "documented", kind: "function", signature: "def documented(value):", doc: "", startLine: 1, endLine: 7, parent: -1 },
    { name: "working", qualifiedName: "working", kind: "function", signature: "def working(value):", doc: "", startLine: 8, endLine: 14, parent: -1 },
  ];
  const file = { ...fileText("pkg/prose.py", "python", lines.join("\n")), rank: 1, why: "#1" };
  const value = (proseValue: number, name: string) =>
    // (A budget too small for the whole file, so that it is cut into pieces.)
    fileCandidates(file, symbols, source.termWeights, resolveRanking({ pack: { proseValue } }).pack, [], 10).find((c) => c.symbol === name)!.value;

  it("weighs the code's match above the docstring's, and both alike at 1", () => {
    expect(value(1, "documented")).toBeCloseTo(value(1, "working"), 12);
    expect(value(0.1, "working")).toBeGreaterThan(2 * value(0.1, "documented"));
    // Prose still counts: at 0 the documented function matches nothing.
    expect(value(0.1, "documented")).toBeGreaterThan(value(0, "documented"));
  });

  it("counts a term whole where a piece holds it in code, whether or not its prose holds it too", () => {
    // `working` with its docstring naming the same terms as its code: the same value as without.
    const both = [...lines.slice(0, 8), '    """Refund the ledger."""', ...lines.slice(9)];
    const withDoc = { ...fileText("pkg/prose.py", "python", both.join("\n")), rank: 1, why: "#1" };
    const of = (f: typeof file) => fileCandidates(f, symbols, source.termWeights, resolveRanking({ pack: { proseValue: 0.1 } }).pack, [], 10).find((c) => c.symbol === "working")!.value;
    expect(of(withDoc)).toBeCloseTo(of(file), 12);
  });

  it("names a lower file's definitions by their code's match too", () => {
    const named = (proseValue: number) => coverCandidate({ ...file, rank: 5 }, symbols, new Map([["ledger", 3]]), resolveRanking({ pack: { proseValue } }).pack)!.ranges;
    // "ledger" is in `documented`'s docstring and comment and in `working`'s code: both are named
    // at 1, where they tie; at 0 only `working` is, its declaration on line 8.
    expect(named(1)).toEqual([[1, 1], [8, 8]]);
    expect(named(0)).toEqual([[8, 8]]);
  });
});

