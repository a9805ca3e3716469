import { describe, expect, it } from "vitest";
import { jsonOutline, tomlOutline, yamlOutline } from "../../../../src/indexing/parse/outline/config.js";
import { MAX_OUTLINE_SYMBOLS } from "../../../../src/indexing/parse/outline/outline.js";
import { shape } from "./outline-helpers.js";

describe("jsonOutline", () => {
  it("outlines object keys four levels deep, comments and trailing commas allowed, array items left out", () => {
    const parsed = jsonOutline(`{
  // comment
  "name": "x",
  "scripts": {
    "build": "tsc",
    "test": "vitest"
  },
  "files": [{"a": 1}, "b"],
  "deep": {"a": {"b": {"c": {"d": 1}}}},
}
`);
    expect(shape(parsed).symbols).toEqual([
      "key name 3-3 ^-1",
      "key scripts 4-7 ^-1",
      "key scripts.build 5-5 ^1",
      "key scripts.test 6-6 ^1",
      "key files 8-8 ^-1",
      "key deep 9-9 ^-1",
      "key deep.a 9-9 ^5",
      "key deep.a.b 9-9 ^6",
      "key deep.a.b.c 9-9 ^7",
    ]);
    expect(parsed.symbols[1]).toMatchObject({ name: "scripts", signature: '"scripts": {' });
  });

  it("stops at its cap and survives broken JSON", () => {
    const big = `{${Array.from({ length: MAX_OUTLINE_SYMBOLS + 5 }, (_, i) => `"k${i}": ${i}`).join(",\n")}}`;
    expect(jsonOutline(big).symbols).toHaveLength(MAX_OUTLINE_SYMBOLS);
    expect(shape(jsonOutline('{"a": {"b": "unterminated\n')).symbols).toEqual(["key a 1-1 ^-1", "key a.b 1-1 ^0"]);
    expect(jsonOutline("]]]}}:::,").symbols).toEqual([]);
    expect(jsonOutline("[1, 2]").symbols).toEqual([]);
  });
});

describe("yamlOutline", () => {
  it("outlines mapping keys by indentation, sequence items, block scalars and documents read as such", () => {
    const parsed = yamlOutline(`# The CI.
name: CI
on:
  push:
    branches: [main]
jobs:
  build:
    runs-on: ubuntu-latest
    steps:
      - name: Checkout
        uses: actions/checkout@v4
      - run: |
          echo a: b
          x: y
    env:
      "QUOTED": 1
---
other: 2
`);
    expect(shape(parsed).symbols).toEqual([
      "key name 2-2 ^-1",
      "key on 3-5 ^-1",
      "key on.push 4-5 ^1",
      "key on.push.branches 5-5 ^2",
      "key jobs 6-16 ^-1",
      "key jobs.build 7-16 ^4",
      "key jobs.build.runs-on 8-8 ^5",
      "key jobs.build.steps 9-14 ^5",
      "key jobs.build.env 15-16 ^5",
      "key jobs.build.env.QUOTED 16-16 ^8",
      "key other 18-18 ^-1",
    ]);
    expect(parsed.symbols[0]).toMatchObject({ signature: "name: CI", doc: "The CI." });
  });

  it("reads quoted keys, and no key in URLs, comments, flow collections or a long line of spaces", () => {
    expect(shape(yamlOutline(`"it's: a": 0\n"a: b": 1\n'it''s': 2\nurl: http://x:80\nx #: no\n{a: 1}\n- - deep: 1\n${"a" + " ".repeat(20_000)}b\n`)).symbols).toEqual([
      "key it's: a 1-1 ^-1",
      "key a: b 2-2 ^-1",
      "key it's 3-3 ^-1",
      "key url 4-6 ^-1",
    ]);
  });
});

describe("tomlOutline", () => {
  it("outlines tables under the tables they extend, and keys to the end of their values", () => {
    const parsed = tomlOutline(`# Project.
[project]
name = "x"
description = """
multi = line
"""
deps = [
  "a",
  "b",
]

[tool.poetry]
x = 1

[tool.poetry.dependencies]
python = "^3.9"
[[bin]]
name = "a"
`);
    expect(shape(parsed).symbols).toEqual([
      "key project 2-10 ^-1",
      "key project.name 3-3 ^0",
      "key project.description 4-6 ^0",
      "key project.deps 7-10 ^0",
      "key tool.poetry 12-16 ^-1",
      "key tool.poetry.x 13-13 ^4",
      "key tool.poetry.dependencies 15-16 ^4",
      "key tool.poetry.dependencies.python 16-16 ^6",
      "key bin 17-18 ^-1",
      "key bin.name 18-18 ^8",
    ]);
    expect(parsed.symbols[0]).toMatchObject({ name: "project", doc: "Project." });
    expect(parsed.symbols[6]!.name).toBe("dependencies");
  });

describe("yamlOutline and tomlOutline on common layouts", () => {
  it("keeps a sequence written at its key's indentation under that key, and reads a multi-line quoted scalar as text", () => {
    expect(shape(yamlOutline("steps:\n- uses: x\n- run: y\nnext: 1\nkey: 'multi\n  line: string'\nlast: 2\n")).symbols).toEqual([
      "key steps 1-3 ^-1",
      "key next 4-4 ^-1",
      "key key 5-6 ^-1",
      "key last 7-7 ^-1",
    ]);
  });

  it("reads table headers and dotted keys of hostile length in one pass", () => {
    const parsed = tomlOutline(`[a${" ".repeat(19_990)}x]\n${"a.".repeat(5_000)}a = 1\n["quoted.dot".b]\nc = 1\n`);
    expect(parsed.symbols.map((s) => s.qualifiedName.slice(0, 20))).toEqual(["a x", "quoted.dot.b", "quoted.dot.b.c"]);
  });
});
});
