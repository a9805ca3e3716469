import { describe, expect, it } from "vitest";
import { importLines } from "../../../src/query/pack/imports.js";
import type { Language } from "../../../src/core/types.js";

/** The 1-based numbers of the lines marked as imports. */
function marked(source: string, language: Language | null): number[] {
  const marks = importLines(source.split("\n"), language);
  return [...marks.keys()].filter((i) => marks[i] === 1);
}

describe("importLines: which lines are import statements", () => {
  it("Python: plain and from-imports, a parenthesised list and a backslash continuation, not a call named import_module", () => {
    const source = [
      '"""Module doc."""', // 1
      "import os", // 2
      "from .core import (", // 3
      "    Basic,", // 4
      "    Expr)", // 5
      "from a.b import c, \\", // 6
      "    d", // 7
      "x = importlib.import_module('y')", // 8
      "def f():", // 9
      "    from math import sqrt", // 10
      "    return sqrt(2)", // 11
    ].join("\n");
    expect(marked(source, "python")).toEqual([2, 3, 4, 5, 6, 7, 10]);
  });

  it("JavaScript and TypeScript: import, re-export and require; a dynamic import() is code", () => {
    const source = [
      "import type { A } from './a';", // 1
      "import {", // 2
      "  b,", // 3
      "} from './b';", // 4
      "export * from './c';", // 5
      "const { d } = require('d');", // 6
      "const lazy = () => import('./e');", // 7
      "export const value = 1;", // 8
    ].join("\n");
    expect(marked(source, "typescript")).toEqual([1, 2, 3, 4, 5, 6]);
    expect(marked(source, "javascript")).toEqual([1, 2, 3, 4, 5, 6]);
  });

  it("Rust: use trees over several lines, pub(crate) use, extern crate and out-of-line modules; an inline module is code", () => {
    const source = [
      "use std::io;", // 1
      "pub(crate) use crate::a::{", // 2
      "    B,", // 3
      "    c::{D, E},", // 4
      "};", // 5
      "extern crate alloc;", // 6
      "mod parser;", // 7
      "mod tests {", // 8
      "    use super::*;", // 9
      "}", // 10
    ].join("\n");
    expect(marked(source, "rust")).toEqual([1, 2, 3, 4, 5, 6, 7, 9]);
  });

  it("Go's import block, Java's package and imports, C's includes", () => {
    expect(marked(["package main", "", "import (", '\t"fmt"', '\t"os"', ")", "", "func main() {}"].join("\n"), "go")).toEqual([1, 3, 4, 5, 6]);
    expect(marked(["package a.b;", "import java.util.List;", "import static a.B.c;", "class C {}"].join("\n"), "java")).toEqual([1, 2, 3]);
    expect(marked(['#include "zstd.h"', "# include <stdio.h>", "#define N 3", "int x;"].join("\n"), "c")).toEqual([1, 2]);
  });

  it("a bracket left open (in a comment or string) ends the statement after 200 lines; nothing for a language without imports", () => {
    const source = ["from a import ( # unbalanced", ...Array.from({ length: 300 }, (_, i) => `x${i} = ${i}`)].join("\n");
    const marks = marked(source, "python");
    expect(marks[0]).toBe(1);
    expect(marks.length).toBe(201);
    expect(marked("import os\nimport sys", null)).toEqual([]);
    expect(marked("import os\nimport sys", "markdown" as Language)).toEqual([]);
  });
});
