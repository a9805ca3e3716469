import type { ParsedFile } from "../../../core/types.js";
import { lineIndex } from "../text.js";
import { cssOutline } from "./css.js";
import { Outline, URL_SCHEME } from "./outline.js";

/** Parses an inline script's JavaScript, or null when the JavaScript grammar cannot load. */
export type ScriptParser = (code: string) => ParsedFile | null;

/** Elements that never have content (no end tag). */
const VOID: ReadonlySet<string> = new Set(["area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "param", "source", "track", "wbr"]);
/** Script types that hold JavaScript (no type is JavaScript too). */
const JS_TYPES = /^(?:module|(?:text|application)\/(?:javascript|ecmascript|babel|jsx)|text\/x-javascript)$/i;
const TAG = /<\/?([A-Za-z][\w:-]*)/y;
/** How many elements left open an end tag looks past for its own. */
const MAX_UNCLOSED = 256;
const ATTRIBUTE = /([^\s"'<>/=]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+)))?/g;

/**
 * HTML (and the templates written in it) by its elements with an `id`: each one a definition
 * from its start tag to its end tag, nested under the element with an id around it. An inline
 * `<script>` is parsed as JavaScript and a `<style>` block as CSS, their definitions and calls
 * under the element that holds them, at their lines in the page.
 */
export function htmlOutline(text: string, parseScript: ScriptParser): ParsedFile {
  const outline = new Outline();
  const lineOf = lineIndex(text);
  /** Open elements: their tag, their definition (-1 for one without) and the nearest definition at or around them. */
  const stack: Array<{ tag: string; index: number; owner: number }> = [];
  const parent = (): number => stack[stack.length - 1]?.owner ?? -1;
  const close = (index: number, offset: number): void => {
    const element = outline.at(index);
    if (element) element.endLine = lineOf(offset);
  };
  for (let i = text.indexOf("<"); i >= 0 && i < text.length; i = text.indexOf("<", i)) {
    if (text.startsWith("<!--", i)) {
      const end = text.indexOf("-->", i + 4);
      i = end < 0 ? text.length : end + 3;
      continue;
    }
    TAG.lastIndex = i;
    const tag = TAG.exec(text);
    if (!tag) {
      i++;
      continue;
    }
    const name = tag[1]!.toLowerCase();
    const end = tagEnd(text, TAG.lastIndex);
    const source = text.slice(i, end);
    if (text[i + 1] === "/") {
      // An end tag closes its element and whatever was left open inside it (`<p>`, `<li>`); one
      // with no open element of its name near the top closes nothing (a stray `</div>` in a
      // page of 100,000 unclosed tags is not looked for through all of them).
      let at = stack.length - 1;
      while (at >= 0 && at >= stack.length - MAX_UNCLOSED && stack[at]!.tag !== name) at--;
      if (at >= 0 && stack[at]!.tag === name) for (const open of stack.splice(at)) close(open.index, i);
      i = end;
      continue;
    }
    const attributes = attributesOf(source.slice(tag[0].length));
    const id = attributes.get("id")?.trim();
    const line = lineOf(i);
    if (name === "script" || name === "style") {
      const closing = new RegExp(`</${name}\\s*>`, "ig");
      closing.lastIndex = end;
      const found = closing.exec(text);
      const contentEnd = found ? found.index : text.length;
      const content = text.slice(end, contentEnd);
      const type = attributes.get("type") ?? "";
      const src = name === "script" ? attributes.get("src") : undefined;
      if (src) importOf(outline, src, line);
      const embedded = content.trim() === "" ? null : name === "style" ? cssOutline(content) : !attributes.has("src") && (type === "" || JS_TYPES.test(type)) ? parseScript(content) : null;
      if (id || embedded) {
        const index = outline.add({ name: id || name, kind: "element", signature: source, startLine: line, endLine: lineOf(found ? closing.lastIndex - 1 : text.length), parent: parent() });
        if (embedded && index >= 0) outline.merge(embedded, lineOf(end) - 1, index);
      }
      i = found ? closing.lastIndex : text.length;
      continue;
    }
    const stylesheet = name === "link" && /\bstylesheet\b/i.test(attributes.get("rel") ?? "") ? attributes.get("href") : undefined;
    if (stylesheet) importOf(outline, stylesheet, line);
    const index = id ? outline.add({ name: id, kind: "element", signature: source, startLine: line, endLine: line, parent: parent() }) : -1;
    if (!VOID.has(name) && !source.endsWith("/>")) stack.push({ tag: name, index, owner: index >= 0 ? index : parent() });
    i = end;
  }
  for (const open of stack) close(open.index, text.length);
  return outline.done();
}

/**
 * A page's `<script src>` or stylesheet `<link href>`, as an import of that path: relative to the
 * page, or to the root for `/static/app.js`. A URL (`https:`, `//cdn…`) or a template expression
 * (`{{ url_for(…) }}`) names no file of the repository.
 */
function importOf(outline: Outline, target: string, line: number): void {
  const path = target.trim().replace(/[?#].*$/, "");
  if (path === "" || URL_SCHEME.test(path) || /[{}<>%$]/.test(path)) return;
  outline.import({ module: path, names: [], alias: "", kind: "require", line });
}

/**
 * The offset just past a start or end tag's `>`, quoted attribute values skipped. A quote still
 * open at the next tag (`<img alt='it's'>` … `<div`) was no quote: the tag ends at its first `>`.
 */
function tagEnd(text: string, from: number): number {
  let quote = "";
  for (let i = from; i < text.length; i++) {
    const c = text[i]!;
    if (quote) {
      if (c === quote) quote = "";
      else if (c === "<" && /[A-Za-z/!]/.test(text[i + 1] ?? "")) {
        const gt = text.indexOf(">", from);
        return gt < 0 || gt > i ? i : gt + 1;
      }
    } else if (c === '"' || c === "'") quote = c;
    else if (c === ">") return i + 1;
    else if (c === "<") return i;
  }
  return text.length;
}

/** A start tag's attributes, names lower-cased. */
function attributesOf(source: string): Map<string, string> {
  const attributes = new Map<string, string>();
  for (const m of source.replace(/\/?>$/, "").matchAll(ATTRIBUTE)) attributes.set(m[1]!.toLowerCase(), m[2] ?? m[3] ?? m[4] ?? "");
  return attributes;
}
