import { describe, expect, it } from "vitest";
import { markdownOutline } from "../../../../src/indexing/parse/outline/markdown.js";
import { MAX_OUTLINE_SYMBOLS } from "../../../../src/indexing/parse/outline/outline.js";
import { shape } from "./outline-helpers.js";

const DOC = `---
title: x
# not a heading: front matter
---
# Shop **API**

The shop API. It sells.

## Install

\`\`\`sh
# not a heading: a code fence
npm i
\`\`\`

Setup
-----

text

### From [source](http://x) {#from-source}

    # not a heading: indented code

# Appendix #
- item
---
`;

describe("markdownOutline", () => {
  it("makes each section a definition, nested under the heading above it, fences and front matter skipped", () => {
    const parsed = markdownOutline(DOC);
    expect(shape(parsed).symbols).toEqual([
      "section Shop API 5-23 ^-1",
      "section Shop API > Install 9-14 ^0",
      "section Shop API > Setup 16-23 ^0",
      "section Shop API > Setup > From source 21-23 ^2",
      "section Appendix 25-27 ^-1",
    ]);
    // Ends: the last text line before the next heading at the same level or above.
    expect(parsed.symbols.map((s) => s.name)).toEqual(["Shop API", "Install", "Setup", "From source", "Appendix"]);
    expect(parsed.symbols[0]).toMatchObject({ signature: "# Shop **API**", doc: "The shop API." });
    expect(parsed.symbols[2]).toMatchObject({ signature: "Setup -----", doc: "text" });
    expect(parsed.calls).toEqual([]);
    expect(parsed.hasErrors).toBe(false);
  });

  it("reads CRLF files, an unclosed fence and a heading-only file", () => {
    expect(shape(markdownOutline("# A\r\ntext\r\n\r\nB\r\n===\r\n")).symbols).toEqual(["section A 1-2 ^-1", "section B 4-5 ^-1"]);
    // Nothing after an unclosed fence is a heading.
    expect(shape(markdownOutline("# A\n```\n# B\n")).symbols).toEqual(["section A 1-3 ^-1"]);
    expect(shape(markdownOutline("####### seven\n#no space\n#\n")).symbols).toEqual([]);
  });

  it("keeps the first sections of a file with too many", () => {
    const parsed = markdownOutline(Array.from({ length: MAX_OUTLINE_SYMBOLS + 10 }, (_, i) => `## S${i}\n`).join(""));
    expect(parsed.symbols).toHaveLength(MAX_OUTLINE_SYMBOLS);
    expect(parsed.symbols.at(-1)).toMatchObject({ name: `S${MAX_OUTLINE_SYMBOLS - 1}` });
  });

  it("reads what is no heading as such: an inline code span, an HTML comment, indented text, the next heading's title", () => {
    const parsed = markdownOutline("# A\n```inline``` code\n# B\n<!--\n# hidden\n-->\n\ttabbed\n---\nTitle\n=====\n\nSub line\ncontinued\n---\nbody\n");
    expect(shape(parsed).symbols).toEqual(["section A 1-2 ^-1", "section B 3-8 ^-1", "section Title 9-15 ^-1", "section Title > Sub line continued 12-15 ^2"]);
    // A section's doc is its own text, not the title of the heading that follows.
    expect(parsed.symbols[2]!.doc).toBe("");
    expect(parsed.symbols[3]!.doc).toBe("body");
  });

  it("reads headings of hostile length by their first characters", () => {
    const parsed = markdownOutline(`# a${" ".repeat(20_000)}x\n${"[".repeat(20_000)}\n`);
    expect(parsed.symbols).toHaveLength(1);
    expect(parsed.symbols[0]!.name).toBe("a");
  });
});
