import type { ParsedFile } from "../../../core/types.js";
import { firstSentence, lineIndex } from "../text.js";
import { MAX_OUTLINE_SYMBOLS, Outline, URL_SCHEME } from "./outline.js";

/** Sass blocks that define a callable: `@mixin name(…)`, `@function name(…)`, and a mixin's use. */
const MIXIN = /^@mixin\s+([\w-]+)/;
const SASS_FUNCTION = /^@function\s+([\w-]+)/;
const INCLUDE = /^@include\s+([\w-]+)/;
/** `--brand: …`, `$gap: …` (Sass), `@gap: …` (Less). */
const VARIABLE = /^(--[\w-]+|\$[\w-]+|@[\w-]+)\s*:/;
/** `@import "a.css"`, `@import url(a.css) screen`, Sass's `@use "partials/vars"` and `@forward`: the paths it names. */
const IMPORT = /^@(?:import|use|forward)\s+((?:url\([^)]*\)|"[^"]*"|'[^']*')(?:\s*,\s*(?:url\([^)]*\)|"[^"]*"|'[^']*'))*)/;
/** The longest selector written out from its nesting. */
const MAX_SELECTOR = 512;
/** `var(--brand)` in a value. */
const VAR_USE = /var\(\s*(--[\w-]+)/g;

/**
 * CSS, Sass (SCSS syntax) and Less by their blocks: each rule is a definition named by its
 * selector (`.btn:hover`; a nested `&:hover` written out under its parent), each at-rule block
 * (`@media (max-width: 600px)`, `@keyframes spin`) one holding the rules inside it, a Sass
 * `@mixin` or `@function` a function. Custom properties and Sass / Less variables are variables;
 * `var(--x)` and `@include x` are references to them (calls, for the graph).
 */
export function cssOutline(text: string): ParsedFile {
  const outline = new Outline();
  const lineOf = lineIndex(text);
  /**
   * Open blocks: their definition (-1 for one not kept), the nearest kept definition at or around
   * them (what a definition inside belongs to), and the selector the rules inside them extend.
   */
  const stack: Array<{ index: number; owner: number; selector: string }> = [];
  /**
   * The text since the last `{`, `}` or `;`, without its comments: the pieces read so far and where
   * the current piece starts (-1 between pieces), sliced from the text rather than built by
   * character, so that a long run without a brace stays linear.
   */
  let pieces: string[] = [];
  let piece = -1;
  let preludeStart = -1;
  let comment = "";
  /** Whether the current line has had anything but white space (a comment after code is no doc). */
  let solid = false;
  /** Parentheses open in the current prelude: inside `url(…)` a `;` or `//` is text. */
  let parens = 0;
  const endPiece = (at: number): void => {
    if (piece >= 0) pieces.push(text.slice(piece, at));
    piece = -1;
  };
  const takePrelude = (at: number): string => {
    endPiece(at);
    const taken = pieces.join("");
    pieces = [];
    return taken;
  };
  const parent = (): number => stack[stack.length - 1]?.owner ?? -1;
  /** `@include card(1);` or `@include mq(sm) { … }`: a call of the mixin, from the block it is in. */
  const includes = (source: string, line: number): void => {
    const include = INCLUDE.exec(source);
    if (include) outline.call({ caller: parent(), callee: include[1]!, receiver: "", line });
  };
  const statement = (end: number): void => {
    const body = takePrelude(end).trim();
    if (body !== "") {
      const line = lineOf(preludeStart);
      const variable = VARIABLE.exec(body);
      if (variable && !/^@(?:import|use|forward|charset|namespace|include|extend)\b/.test(body)) {
        // Custom properties are global names: `--brand` wherever it is declared.
        outline.add({ name: variable[1]!, kind: "variable", signature: body, doc: firstSentence(comment), startLine: line, endLine: lineOf(end), parent: parent() });
      }
      includes(body, line);
      const imported = IMPORT.exec(body);
      if (imported) {
        for (const target of imported[1]!.matchAll(/(?:url\(\s*)?["']?([^"'()\s,;]+)["']?\s*\)?/g)) {
          const module = target[1]!;
          // A URL, a media query after the path, or a Sass module of the language (`sass:math`).
          if (URL_SCHEME.test(module) || !/[\w.]/.test(module[0] ?? "")) continue;
          outline.import({ module, names: [], alias: "", kind: "require", line });
        }
      }
      for (const use of body.matchAll(VAR_USE)) outline.call({ caller: parent(), callee: use[1]!, receiver: "", line: lineOf(preludeStart + use.index) });
    }
    preludeStart = -1;
    comment = "";
    parens = 0;
  };
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (c === "/" && text[i + 1] === "*") {
      const end = text.indexOf("*/", i + 2);
      const stop = end < 0 ? text.length : end + 2;
      if (preludeStart < 0 && !solid) comment = text.slice(i, stop);
      solid = true;
      endPiece(i);
      i = stop - 1;
      continue;
    }
    // A `//` comment (Sass, Less), but not in `url(…)` nor the `//` of `http://`.
    if (c === "/" && text[i + 1] === "/" && parens === 0 && text[i - 1] !== ":") {
      const end = text.indexOf("\n", i);
      const stop = end < 0 ? text.length : end;
      if (preludeStart < 0 && !solid) comment = text.slice(i, stop);
      endPiece(i);
      i = stop - 1;
      continue;
    }
    if (c === "{" && text[i - 1] === "#") {
      // Sass interpolation `#{$x}` is part of the name, not a block.
      const end = text.indexOf("}", i);
      i = end < 0 ? text.length : end;
      continue;
    }
    if (c === "{") {
      const head = takePrelude(i).trim().replace(/\s+/g, " ");
      const start = preludeStart < 0 ? i : preludeStart;
      const outer = stack.length > 0 ? stack[stack.length - 1]!.selector : "";
      const mixin = MIXIN.exec(head) ?? SASS_FUNCTION.exec(head);
      const atRule = head.startsWith("@");
      // A rule's selector written out (`.card .title`, `&:hover` under `.btn` as `.btn:hover`); an
      // at-rule keeps the selector of the rules around it for the rules inside it.
      // Past MAX_SELECTOR characters (blocks nested without end) a rule's selector is its own.
      // A full outline keeps no more rules: their selectors are not written out.
      const written = atRule ? outer : outer === "" || outline.size >= MAX_OUTLINE_SYMBOLS ? head : nested(outer, head);
      const selector = written.length > MAX_SELECTOR ? head : written;
      // A nested declaration block (`font: { family: x }`) is no rule.
      const isRule = head !== "" && !/^[\w-]+\s*:\s*$/.test(head);
      const name = mixin ? mixin[1]! : atRule || !head.includes("&") ? head : selector;
      const index = isRule
        ? outline.add({ name, qualifiedName: mixin || atRule ? name : selector, kind: mixin ? "function" : "rule", signature: head, doc: firstSentence(comment), startLine: lineOf(start), endLine: lineOf(start), parent: parent() })
        : -1;
      includes(head, lineOf(start));
      stack.push({ index, owner: index >= 0 ? index : parent(), selector });
      preludeStart = -1;
      comment = "";
      parens = 0;
      solid = true;
      continue;
    }
    if (c === "}") {
      statement(i);
      solid = true;
      const block = stack.pop();
      const symbol = outline.at(block?.index ?? -1);
      if (symbol) symbol.endLine = lineOf(i);
      continue;
    }
    if (c === ";" && parens === 0) {
      statement(i);
      solid = true;
      continue;
    }
    if (c === "\n") solid = false;
    if (c === " " || c === "\n" || c === "\t" || c === "\r") continue;
    solid = true;
    if (c === "(") parens++;
    else if (c === ")") parens = Math.max(0, parens - 1);
    if (preludeStart < 0) preludeStart = i;
    if (piece < 0) piece = i;
    if (c === '"' || c === "'") {
      // A string's braces and semicolons are its own (`a[href="}"]`, `content: ";"`).
      let j = i + 1;
      while (j < text.length && text[j] !== c && text[j] !== "\n") j += text[j] === "\\" ? 2 : 1;
      i = Math.min(j, text.length - 1);
    }
  }
  statement(text.length);
  // Blocks left open run to the end of the file.
  for (const block of stack) {
    const symbol = outline.at(block.index);
    if (symbol) symbol.endLine = lineOf(text.length);
  }
  return outline.done();
}

/**
 * A nested rule's selector written out: `&` stands for each selector of the list around it, and
 * a selector without `&` is a descendant of each (`.a, .b { &:hover, .c {} }` is `.a:hover,
 * .b:hover, .a .c, .b .c`). Lists whose product would pass 32 selectors keep the nested text.
 */
function nested(outer: string, head: string): string {
  const outers = selectorList(outer);
  const heads = selectorList(head);
  if (outers.length * heads.length > 32) return head.includes("&") ? head.replace(/&/g, outer) : `${outer} ${head}`;
  return heads.flatMap((h) => outers.map((o) => (h.includes("&") ? h.replace(/&/g, o) : `${o} ${h}`))).join(", ");
}

/** A selector list's selectors: split at the commas outside parentheses and brackets (`:is(a, b)`). */
function selectorList(list: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let from = 0;
  for (let i = 0; i < list.length; i++) {
    const c = list[i];
    if (c === "(" || c === "[") depth++;
    else if (c === ")" || c === "]") depth = Math.max(0, depth - 1);
    else if (c === "," && depth === 0) {
      out.push(list.slice(from, i).trim());
      from = i + 1;
    }
  }
  out.push(list.slice(from).trim());
  return out.filter((s) => s !== "");
}
