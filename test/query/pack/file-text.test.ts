import { describe, expect, it } from "vitest";
import { tokenize } from "../../../src/core/tokenize.js";
import { fileText, hasLineIn } from "../../../src/query/pack/file-text.js";

/** Every token's lines, by tokenizing every line: what `linesOf` must answer. */
function expected(lines: readonly string[]): Map<string, number[]> {
  const out = new Map<string, number[]>();
  lines.forEach((line, i) => {
    for (const token of new Set(tokenize(line))) out.set(token, [...(out.get(token) ?? []), i + 1]);
  });
  return out;
}

describe("fileText", () => {
  const ascii = [
    "class HTTPServer:",
    "    def parseHTTPResponse_v2(self, determinant):",
    "        return self.computeDet(determinant)  # det, not determinant",
    "aaaa aa $aa aa_b",
  ];

  it("answers each token's lines as tokenizing every line does, in ASCII text", () => {
    const file = fileText("m.py", "python", ascii.join("\r\n"));
    for (const [token, lines] of expected(file.lines)) expect(file.linesOf(token), token).toEqual(lines);
    expect(file.linesOf("det")).toEqual([3]);
    expect(file.linesOf("aa")).toEqual([4]);
    expect(file.linesOf("etermin")).toEqual([]);
  });

  it("answers each token's lines as tokenizing every line does, in text beyond ASCII", () => {
    const text = [
      "class HTTPServer:",
      "    def parseHTTPResponse_v2(self, determinant):",
      "        return self.det(determinant)  # det, not determinant",
      "",
      "İstanbul = 'İİİ'  # lower-casing lengthens these: later lines keep their numbers",
      "def det(m):\r",
      "    return m.det_cache or compute_det(m)",
      "aaaa aa",
    ].join("\n");
    const file = fileText("m.py", "python", `${text}\n`);
    expect(file.lines).toHaveLength(8);
    const all = expected(file.lines);
    for (const [token, lines] of all) expect(file.linesOf(token), token).toEqual(lines);
    expect(file.linesOf("det")).toEqual([3, 6, 7]);
    expect(file.linesOf("parsehttpresponse_v2")).toEqual([2]);
    // A substring that is no token of its line, and a token of no line.
    expect(file.linesOf("etermin")).toEqual([]);
    expect(file.linesOf("nowhere")).toEqual([]);
    // Asked again: the same answer.
    expect(file.linesOf("det")).toEqual([3, 6, 7]);
  });

  it("answers the same once enough tokens were asked that it tokenizes every line instead", () => {
    const lines = Array.from({ length: 60 }, (_, i) => `def handler${i}(request_${i % 7}, chargeCard${i % 5}):  # step ${i}`);
    const file = fileText("h.py", "python", lines.join("\n"));
    const all = expected(file.lines);
    expect(all.size).toBeGreaterThan(80);
    for (const [token, want] of all) expect(file.linesOf(token), token).toEqual(want);
    expect(file.linesOf("absent")).toEqual([]);
    expect(file.linesOf("hand")).toEqual([]);

    // Asked for all at once, by a fresh file: the same answers.
    const tokens = [...all.keys(), "absent", "hand"];
    expect(fileText("h.py", "python", lines.join("\n")).linesOfEach(tokens)).toEqual([...all.values(), [], []]);
    expect(fileText("h.py", "python", lines.join("\n")).linesOfEach(["chargecard3", "hand"])).toEqual([all.get("chargecard3"), []]);
  });

  it("answers as the tokenizer reads words longer than it keeps, odd case mappings, and long runs of a token", () => {
    const long = `k${"a".repeat(70)}`;
    const text = [
      `x = "${long}" + ${long.slice(0, 60)}`,
      "Kelvin\u212a sign and ſtraße: ſs ſ Kk",
      `blob = 0x${"f".repeat(20_000)}`,
      "ff = 1",
    ].join("\n");
    const file = fileText("o.py", "python", text);
    for (const [token, lines] of expected(file.lines)) expect(file.linesOf(token), token).toEqual(lines);
    // Not tokens at all: answered with no lines.
    expect(file.linesOf(long)).toEqual([]);
    expect(file.linesOf("k")).toEqual([]);
    expect(file.linesOf("ff")).toEqual([4]);
    // A hex blob holds 200,000 occurrences of "ff" in one word: its word is read once (read at each
    // occurrence, this took minutes, past the test's timeout).
    const blob = fileText("b.py", "python", `a = 0x${"f".repeat(400_000)}\nff = 1\n`);
    expect(blob.linesOf("ff")).toEqual([2]);
  });

  it("keeps the answers of a spread copy (a PackFile is a FileText spread with its rank)", () => {
    const file = { ...fileText("a.py", "python", "x = alpha\nbeta = alpha\n"), rank: 1 };
    expect(file.linesOf("alpha")).toEqual([1, 2]);
  });

  it("finds a sorted line in a range", () => {
    expect(hasLineIn([2, 5, 9], 3, 5)).toBe(true);
    expect(hasLineIn([2, 5, 9], 6, 8)).toBe(false);
    expect(hasLineIn([], 1, 100)).toBe(false);
  });
});
