import { describe, expect, it } from "vitest";
import { fileText, hasLineIn } from "../../../src/query/pack/file-text.js";

describe("fileText: the lines each token of a file is on", () => {
  it("finds the tokenizer's tokens, and the camel-case segments of snake-case identifiers", () => {
    const text = fileText("printer.py", "python", ["class Printer:", "    def _print_FourierSeries(self, s):", "        return self._print_Add(s.truncate())", "    test_HTTPServer_v2 = parse_args", ""].join("\n"));
    expect(text.lines.length).toBe(4);
    // The identifier whole and its words, as the tokenizer gives them.
    expect(text.tokenLines.get("_print_fourierseries")).toEqual([2]);
    expect(text.tokenLines.get("fourier")).toEqual([2]);
    expect(text.tokenLines.get("print")).toEqual([2, 3]);
    // The segment a task writes as `FourierSeries` or `HTTPServer`.
    expect(text.tokenLines.get("fourierseries")).toEqual([2]);
    expect(text.tokenLines.get("httpserver")).toEqual([4]);
    // A one-word segment is the tokenizer's word already; snake case alone adds nothing.
    expect(text.tokenLines.get("add")).toEqual([3]);
    expect([...text.tokenLines.keys()].sort()).toEqual(["_print_add", "_print_fourierseries", "add", "args", "class", "def", "fourier", "fourierseries", "http", "httpserver", "parse", "parse_args", "print", "printer", "return", "self", "series", "server", "test", "test_httpserver_v2", "truncate"]);
  });

  it("hasLineIn answers whether a sorted list of lines has one in a range", () => {
    expect(hasLineIn([2, 5, 9], 3, 4)).toBe(false);
    expect(hasLineIn([2, 5, 9], 3, 5)).toBe(true);
    expect(hasLineIn([2, 5, 9], 10, 12)).toBe(false);
    expect(hasLineIn([], 1, 1)).toBe(false);
  });
});
