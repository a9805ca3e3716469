import { describe, expect, it } from "vitest";
import { proseLines } from "../../../src/query/pack/prose.js";

/** The 1-based prose lines of `text`. */
function prose(text: string, language: Parameters<typeof proseLines>[1]): number[] {
  const mask = proseLines(text.split("\n"), language);
  return [...mask.keys()].filter((line) => mask[line] === 1);
}

describe("proseLines: comment and docstring lines", () => {
  it("marks Python docstrings (one line or many, with prefixes) and # comments, not code or strings in code", () => {
    const text = [
      "def f(x):", //              1
      '    """Sums the ledger.', // 2
      "", //                       3
      "    >>> f(1)", //            4
      '    """', //                 5
      "    # refund first", //      6
      '    y = """not a docstring"""', // 7
      "    return x  # trailing", // 8
      "    r'''Raw one-liner.'''", // 9
      "x = 1", //                   10
    ].join("\n");
    expect(prose(text, "python")).toEqual([2, 3, 4, 5, 6, 9]);
  });

  it("follows a Python string opened after code to its end as code, so its closing quotes open no docstring", () => {
    const text = [
      'SQL = """', //               1
      "SELECT refund", //            2
      '"""', //                      3
      "def refund(ledger):", //      4
      '    """Refunds it.', //       5
      "", //                         6
      '    """', //                  7
      "    return ledger.total", //  8
      'HELP = dedent("""usage', //   9
      '    """) + """x', //          10
      '"""', //                      11
      "run()", //                    12
      'b = f"""', //                 13
      '"""', //                      14
      "'''One-liner.'''", //         15
      "z = 1", //                    16
    ].join("\n");
    expect(prose(text, "python")).toEqual([5, 6, 7, 15]);
  });

  it("marks // lines and /* */ blocks in C-like languages; a line that starts with * outside a block is code", () => {
    const text = [
      "/**", //                 1
      " * Refunds the ledger.", // 2
      " */", //                 3
      "int f(int *p) {", //     4
      "  // first", //          5
      "  *p = 1; /* set */", // 6
      "  /* one line */", //    7
      "  return *p;", //        8
      "}", //                   9
    ].join("\n");
    expect(prose(text, "cpp")).toEqual([1, 2, 3, 5, 7]);
    expect(prose(text, "java")).toEqual([1, 2, 3, 5, 7]);
  });

  it("has no prose where it knows no comment syntax", () => {
    expect(prose("# Title\n\nSome text", "markdown")).toEqual([]);
    expect(prose("// x", null)).toEqual([]);
  });
});
