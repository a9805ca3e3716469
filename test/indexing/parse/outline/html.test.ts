import { describe, expect, it } from "vitest";
import { htmlOutline, type ScriptParser } from "../../../../src/indexing/parse/outline/html.js";
import { shape } from "./outline-helpers.js";

const PAGE = `<!doctype html>
<html>
<body>
<!-- <div id="commented"> -->
<section id="pricing" class="x">
  <p>one <p>two
  <div id='plan'><img src=x></div>
</section>
<script type="module">
function buy(plan) {
  return fetchPlan(plan);
}
</script>
<style>
.x { color: red }
</style>
<script type="text/template" id="tpl"><div id="inner"></div></script>
<script src="app.js"></script>
</body>
</html>
`;

describe("htmlOutline", () => {
  it("makes elements with an id definitions and reads inline scripts and styles at their lines", () => {
    const scripts: string[] = [];
    // Stands for the JavaScript grammar (the indexing tests parse real scripts): a script's own lines.
    const parseScript: ScriptParser = (code) => {
      scripts.push(code);
      return { symbols: [{ name: "buy", qualifiedName: "buy", kind: "function", signature: "function buy(plan)", doc: "", startLine: 2, endLine: 4, parent: -1 }], calls: [{ caller: 0, callee: "fetchPlan", receiver: "", line: 3 }], imports: [], hasErrors: false };
    };
    const parsed = htmlOutline(PAGE, parseScript);
    expect(shape(parsed)).toEqual({
      symbols: [
        "element pricing 5-8 ^-1",
        "element plan 7-7 ^0",
        "element script 9-13 ^-1",
        "function buy 10-12 ^2",
        "element style 14-16 ^-1",
        "rule .x 15-15 ^4",
        "element tpl 17-17 ^-1",
      ],
      calls: [".fetchPlan @11 <3"],
    });
    // Only the module script is JavaScript to parse: not the template, not the empty `src` one.
    expect(scripts).toHaveLength(1);
    expect(parsed.symbols[0]).toMatchObject({ name: "pricing", signature: '<section id="pricing" class="x">' });
  });

  it("survives unclosed tags, comments and scripts", () => {
    const none: ScriptParser = () => null;
    expect(shape(htmlOutline('<div id="a"><span id="b">', none)).symbols).toEqual(["element a 1-1 ^-1", "element b 1-1 ^0"]);
    expect(shape(htmlOutline('<div id="a">\n<!-- open\n<div id="b">', none)).symbols).toEqual(["element a 1-3 ^-1"]);
    expect(shape(htmlOutline('<script id="s">\nlet x = "</div>";\n', none)).symbols).toEqual(["element s 1-3 ^-1"]);
    expect(htmlOutline("< <> </> <<<", none).symbols).toEqual([]);
  });

  it("records script and stylesheet paths as imports, URLs and template expressions left out", () => {
    const parsed = htmlOutline('<link rel="stylesheet" href="/static/site.css?v=2">\n<script src="app.js"></script>\n<script src="https://cdn.example/x.js"></script>\n<script src="{{ url_for(\'static\', filename=\'a.js\') }}"></script>\n<link rel="icon" href="fav.ico">\n', () => null);
    expect(parsed.imports.map((i) => `${i.module}@${i.line}`)).toEqual(["/static/site.css@1", "app.js@2"]);
  });

  it("ends a tag whose quote is not closed at its first '>'", () => {
    expect(shape(htmlOutline(`<img alt='it's here'>\n<div id="after">x</div>\n<div id="after2"></div>\n`, () => null)).symbols).toEqual(["element after 2-2 ^-1", "element after2 3-3 ^-1"]);
  });
});
