import { describe, expect, it } from "vitest";
import { cssOutline } from "../../../../src/indexing/parse/outline/css.js";
import { MAX_OUTLINE_SYMBOLS } from "../../../../src/indexing/parse/outline/outline.js";
import { shape } from "./outline-helpers.js";

const SHEET = `/* Brand colours. */
:root {
  --brand: #f00;
  --gap: 4px;
}
.btn, .link { color: var(--brand); }
@media (max-width: 600px) {
  .btn { padding: var(--gap) }
}
@mixin card($x) { a: b }
.card {
  @include card(1);
  &:hover { color: red; }
  .title { font: { family: x; } }
}
$size: 3px; // after a declaration: no doc of the next rule
a[href="}"] { background: url(http://x/y.png) }
`;

describe("cssOutline", () => {
  it("makes rules, at-rule blocks, mixins and variables definitions, and var() and @include references", () => {
    const parsed = cssOutline(SHEET);
    expect(shape(parsed)).toEqual({
      symbols: [
        "rule :root 2-5 ^-1",
        "variable --brand 3-3 ^0",
        "variable --gap 4-4 ^0",
        "rule .btn, .link 6-6 ^-1",
        "rule @media (max-width: 600px) 7-9 ^-1",
        "rule .btn 8-8 ^4",
        "function card 10-10 ^-1",
        "rule .card 11-15 ^-1",
        "rule .card:hover 13-13 ^7",
        "rule .card .title 14-14 ^7",
        "variable $size 16-16 ^-1",
        'rule a[href="}"] 17-17 ^-1',
      ],
      calls: [".--brand @6 <3", ".--gap @8 <5", ".card @12 <7"],
    });
    expect(parsed.symbols[0]).toMatchObject({ name: ":root", doc: "Brand colours." });
    expect(parsed.symbols[9]).toMatchObject({ name: ".title", signature: ".title" });
    expect(parsed.symbols[11]!.doc).toBe("");
  });

  it("survives an unclosed comment, string and block", () => {
    expect(shape(cssOutline(".a { color: red;\n.b {")).symbols).toEqual(["rule .a 1-2 ^-1", "rule .a .b 2-2 ^0"]);
    expect(shape(cssOutline('.a { content: "x\n}\n/* open')).symbols).toEqual(["rule .a 1-2 ^-1"]);
    expect(cssOutline("}}}}").symbols).toEqual([]);
  });

  it("bounds what blocks nested without end make: the first rules, with selectors of bounded length", () => {
    const parsed = cssOutline(".a {".repeat(100_000));
    expect(parsed.symbols).toHaveLength(MAX_OUTLINE_SYMBOLS);
    // Past 512 characters of written-out selector, a rule's selector starts again from its own.
    expect(parsed.symbols[1]!.qualifiedName).toBe(".a .a");
    expect(parsed.symbols.findIndex((s, i) => i > 0 && s.qualifiedName === ".a")).toBe(171);
    expect(parsed.symbols.at(-1)).toMatchObject({ name: ".a", parent: MAX_OUTLINE_SYMBOLS - 2 });
  });

  it("keeps url() whole, however many ';' and '//' it holds, and expands nested selector lists", () => {
    const parsed = cssOutline(".icon { background: url(data:image/png;base64,iVBO//8AAA); }\n.b { x: y }\n.a, .b { &:hover, .c { } }\n");
    expect(shape(parsed).symbols).toEqual(["rule .icon 1-1 ^-1", "rule .b 2-2 ^-1", "rule .a, .b 3-3 ^-1", "rule .a:hover, .b:hover, .a .c, .b .c 3-3 ^2"]);
  });

  it("records @import and @use as imports, URLs and Sass's own modules left out", () => {
    const parsed = cssOutline('@import "base.css";\n@import url(theme.css) screen;\n@use "partials/vars" as v;\n@use "sass:math";\n@import url("https://cdn.example/x.css");\n');
    expect(parsed.imports.map((i) => `${i.module}@${i.line}`)).toEqual(["base.css@1", "theme.css@2", "partials/vars@3"]);
  });
});
