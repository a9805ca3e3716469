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
      "", // 8
      "", // 9
      "x = 1", // 10
      "y = 2", // 11
      "z = 3", // 12
      "import_module('y')", // 13
      "def f():", // 14
      "    from math import sqrt", // 15
      "    return sqrt(2)", // 16
    ].join("\n");
    expect(marked(source, "python")).toEqual([2, 3, 4, 5, 6, 7, 15]);
  });

  it("keeps up to two other lines between imports in the block (try/except, comments), and ignores brackets in comments and strings", () => {
    const source = [
      "import os", // 1
      "# third party (optional)", // 2
      "try:", // 3
      "    import numpy  # see numpy.array(", // 4
      "except ImportError:", // 5
      "    numpy = None", // 6
      "from a import b  # f(", // 7
      "X = 1", // 8
      "from c import ')'", // 9
      "Y = 2", // 10
    ].join("\n");
    expect(marked(source, "python")).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9]);
  });

  it("JavaScript and TypeScript: import, re-export and require; a dynamic import() is code", () => {
    const source = [
      "import type { A } from './a';", // 1
      "import {", // 2
      "  b,", // 3
      "} from './b';", // 4
      "export * from './c';", // 5
      "const { d } = require('d');", // 6
      "export type { F } from './f';", // 7
      "", // 8
      "export const value = 1;", // 9
      "export const other = 2;", // 10
      "export const third = 3;", // 11
      "import('./e').then(load);", // 12
      "import.meta.hot?.accept();", // 13
    ].join("\n");
    expect(marked(source, "typescript")).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect(marked(source, "javascript")).toEqual([1, 2, 3, 4, 5, 6, 7]);
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
      "    const A: u8 = 1;", // 9
      "    const B: u8 = 2;", // 10
      "    use super::*;", // 11
      "}", // 12
    ].join("\n");
    expect(marked(source, "rust")).toEqual([1, 2, 3, 4, 5, 6, 7, 11]);
  });

  it("Go's import block, Java's package and imports, C's includes", () => {
    expect(marked(["package main", "", "import (", '\t"fmt"', '\t"os"', ")", "", "func main() {}"].join("\n"), "go")).toEqual([1, 3, 4, 5, 6]);
    expect(marked(["package a.b;", "import java.util.List;", "import static a.B.c;", "class C {}"].join("\n"), "java")).toEqual([1, 2, 3]);
    expect(marked(['#include "zstd.h"', "# include <stdio.h>", "#define N 3", "int x;"].join("\n"), "c")).toEqual([1, 2]);
  });

  it("the other languages' imports, and their look-alikes that are code", () => {
    const code = ["", "", "a();", "b();", "c();"];
    expect(marked(["using System;", "using Alias = System.Collections.Generic.List<int>;", ...code, "using var stream = Open();", "using (var x = y) {}"].join("\n"), "csharp")).toEqual([1, 2]);
    expect(marked(["namespace App;", "use App\\Models\\User;", ...code, "class A {", "    use HasFactory;", "}", "$f = function () use ($b) {", "};", "require_once 'x.php';"].join("\n"), "php")).toEqual([1, 2, 13]);
    expect(marked(["package a.b", "import x.Y", ...code, "package c {", "}"].join("\n"), "scala")).toEqual([1, 2]);
    expect(marked(["package a.b", "import x.Y", ...code, "val importer = 1"].join("\n"), "kotlin")).toEqual([1, 2]);
    expect(marked(["#include <vector>", "import std;", "using namespace std;", ...code, "using T = int;"].join("\n"), "cpp")).toEqual([1, 2, 3]);
    expect(marked(["require 'json'", "require_relative 'a'", ...code, "required = 1"].join("\n"), "ruby")).toEqual([1, 2]);
    expect(marked(["import Foundation", "@testable import App", ...code, "let imported = 1"].join("\n"), "swift")).toEqual([1, 2]);
    expect(marked(["source ./lib.sh", ". ./env.sh", ...code, "echo ."].join("\n"), "bash")).toEqual([1, 2]);
  });

  it("reads a hostile line in one pass: no pattern backtracks over a long run of spaces", () => {
    // Before, `const` + 50,000 spaces took 4.5 s (`\s+` beside a class with spaces in it); this is 16 times as long.
    const spaces = " ".repeat(200_000);
    for (const [line, language] of [[`const${spaces}`, "javascript"], [`using${spaces}`, "csharp"], [`pub(${spaces}`, "rust"], [`from${spaces}x`, "python"]] as const) {
      expect(marked(`${line}\n${line}`, language)).toEqual([]);
    }
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
