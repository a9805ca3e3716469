import type { ParsedFile } from "../../../core/types.js";
import { firstSentence, lineIndex } from "../text.js";
import { Outline } from "./outline.js";

/** How deep config keys are outlined (`jobs.build.steps` is depth 3). */
const MAX_DEPTH = 4;

/**
 * JSON (and JSON with comments and trailing commas: `tsconfig.json`, VS Code settings) by its
 * object keys, to {@link MAX_DEPTH} levels: each key a definition from its line to its value's
 * end, qualified by the keys above it (`compilerOptions.paths`). Keys of objects inside arrays
 * are left out: they repeat per item and name nothing.
 */
export function jsonOutline(text: string): ParsedFile {
  const outline = new Outline();
  const lineOf = lineIndex(text);
  /** Open containers: an object's key path and the key it is the value of, or an array. */
  const stack: Array<{ array: boolean; path: string; depth: number; key: number; inArray: boolean }> = [];
  /** The key whose value comes next. */
  let pending: { index: number; path: string } | null = null;
  let lastString = "";
  let lastStringStart = -1;
  /** Where the last value read ends: a scalar key ends on its value's line, not on the `}` after it. */
  let lastSolid = 0;
  const closeValue = (): void => {
    const key = outline.at(pending?.index ?? -1);
    if (key) key.endLine = lineOf(lastSolid);
    pending = null;
  };
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (c === "/" && text[i + 1] === "/") {
      const end = text.indexOf("\n", i);
      i = end < 0 ? text.length : end;
      continue;
    }
    if (c === "/" && text[i + 1] === "*") {
      const end = text.indexOf("*/", i + 2);
      i = end < 0 ? text.length : end + 1;
      continue;
    }
    if (c === '"') {
      let j = i + 1;
      while (j < text.length && text[j] !== '"' && text[j] !== "\n") j += text[j] === "\\" ? 2 : 1;
      lastString = text.slice(i + 1, j);
      lastStringStart = i;
      i = j;
      lastSolid = j;
      continue;
    }
    const top = stack[stack.length - 1];
    if (c === ":" && top && !top.array && lastStringStart >= 0) {
      const path = top.path === "" ? lastString : `${top.path}.${lastString}`;
      const depth = top.depth + 1;
      let index = -1;
      if (depth <= MAX_DEPTH && !top.inArray) {
        const lineEnd = text.indexOf("\n", i);
        const signature = text.slice(lastStringStart, lineEnd < 0 ? text.length : lineEnd).trim().replace(/,$/, "");
        index = outline.add({ name: lastString, qualifiedName: path, kind: "key", signature, startLine: lineOf(lastStringStart), endLine: lineOf(i), parent: top.key });
      }
      pending = { index, path };
      lastStringStart = -1;
      continue;
    }
    if (c === "{" || c === "[") {
      const holder: { index: number; path: string } | null = pending;
      pending = null;
      const depth = top ? (holder ? top.depth + 1 : top.depth) : 0;
      stack.push({ array: c === "[", path: holder?.path ?? top?.path ?? "", depth, key: holder?.index ?? top?.key ?? -1, inArray: c === "[" || (top?.inArray ?? false) });
      lastStringStart = -1;
      continue;
    }
    if (c === "}" || c === "]") {
      closeValue();
      lastSolid = i;
      const closed = stack.pop();
      const key = outline.at(closed?.key ?? -1);
      // The container of a key (not of the key's parent) closes: the key ends here.
      if (key && closed && stack.length > 0 && closed.key !== stack[stack.length - 1]!.key) key.endLine = lineOf(i);
      lastStringStart = -1;
      continue;
    }
    if (c === ",") {
      closeValue();
      lastStringStart = -1;
    } else if (c !== " " && c !== "\n" && c !== "\t" && c !== "\r") lastSolid = i;
  }
  return outline.done();
}

/** What a plain YAML key cannot start with (indicators: flow collections, anchors, tags, block scalars, comments). */
const NOT_KEY_START = /^[#'"?:,[\]{}&*!|>%@`]|^-(?:\s|$)/;

/**
 * A YAML line's key: an optional `- ` item marker (its width), then a quoted key or a plain one,
 * then `:` and a space or the end of the line. Read by scanning, not by a backtracking regex (a
 * 20,000-character line of spaces took 0.6 s with one).
 */
function yamlKey(line: string): { item: number; key: string; value: string } | null {
  let at = line.length - line.trimStart().length;
  let item = 0;
  const marker = /^-[ \t]+/.exec(line.slice(at, at + 64));
  if (marker) {
    item = marker[0].length;
    at += item;
  }
  let end: number;
  const quote = line[at];
  if (quote === '"' || quote === "'") {
    // A double-quoted key escapes with `\`, a single-quoted one doubles its quote (`'it''s'`).
    let j = at + 1;
    while (j < line.length && !(line[j] === quote && (quote === '"' || line[j + 1] !== "'"))) j += (quote === '"' && line[j] === "\\") || (quote === "'" && line[j] === "'") ? 2 : 1;
    end = j + 1;
    while (line[end] === " " || line[end] === "\t") end++;
    if (line[end] !== ":") return null;
  } else {
    if (NOT_KEY_START.test(line.slice(at, at + 2)) || at >= line.length) return null;
    // The first `:` followed by white space or the end; a ` #` before it starts a comment.
    end = at;
    for (;;) {
      end = line.indexOf(":", end);
      if (end < 0) return null;
      const next = line[end + 1];
      if (next === undefined || next === " " || next === "\t") break;
      end++;
    }
    const hash = line.indexOf(" #", at);
    if (hash >= 0 && hash < end) return null;
  }
  const next = line[end + 1];
  if (next !== undefined && next !== " " && next !== "\t") return null;
  return { item, key: line.slice(at, end).trim(), value: line.slice(end + 1).trim() };
}
/** A block scalar after a key (`script: |`, `description: >-`): the indented lines after it are its text. */
const BLOCK_SCALAR = /:\s*[|>][-+0-9]*\s*(?:#.*)?$/;

/**
 * YAML by its mapping keys, to {@link MAX_DEPTH} levels: each key runs to the next key at its
 * indentation or less, qualified by the keys above it (`jobs.build.runs-on`); comments, block
 * scalars and documents (`---`) are read as such. Keys inside sequence items are left out, as in
 * JSON. The comment block above a key is its doc.
 */
export function yamlOutline(text: string): ParsedFile {
  const lines = text.split(/\r?\n/);
  const outline = new Outline();
  /** Open keys and sequence items, outermost first, with their indentation; `empty`: a key whose value is on the lines below. */
  const open: Array<{ indent: number; index: number; path: string; item: boolean; empty: boolean }> = [];
  const comment: string[] = [];
  let scalarIndent = -1;
  /** The quote of a quoted scalar that runs on past its key's line, or "". */
  let quoted = "";
  const closeTo = (indent: number, line: number): void => outline.endOpen(open, (key) => key.indent >= indent, lines, line);
  const openItem = (indent: number, line: number): void => {
    closeTo(indent + 1, line);
    const top = open[open.length - 1];
    if (top?.item && top.indent === indent) open.pop();
    // `steps:\n- run: x`: a sequence at its key's own indentation is that key's value.
    const owner = open[open.length - 1];
    if (!(owner && !owner.item && owner.empty && owner.indent === indent)) closeTo(indent, line);
    open.push({ indent, index: -1, path: "", item: true, empty: false });
  };
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const indent = line.length - line.trimStart().length;
    if (quoted) {
      if (line.includes(quoted)) quoted = "";
      continue;
    }
    if (scalarIndent >= 0) {
      if (line.trim() === "" || indent > scalarIndent) continue;
      scalarIndent = -1;
    }
    if (commentLine(line, comment)) continue;
    if (/^(?:---|\.\.\.)(?:\s|$)/.test(line)) {
      closeTo(0, i + 1);
      comment.length = 0;
      continue;
    }
    const key = yamlKey(line);
    if (!key) {
      // A sequence item without a key (`- run: x` has one): its indentation still holds its lines.
      if (/^\s*-(?:\s|$)/.test(line)) openItem(indent, i + 1);
      comment.length = 0;
      continue;
    }
    const keyIndent = indent + key.item;
    if (key.item > 0) openItem(indent, i + 1);
    closeTo(keyIndent, i + 1);
    const parent = open[open.length - 1];
    const name = unquote(key.key);
    const inItem = open.some((o) => o.item);
    const depth = open.filter((o) => !o.item).length + 1;
    const path = parent && !parent.item ? `${parent.path}.${name}` : name;
    const index = !inItem && depth <= MAX_DEPTH
      ? outline.add({ name, qualifiedName: path, kind: "key", signature: line.trim(), doc: firstSentence(comment.join("\n")), startLine: i + 1, endLine: i + 1, parent: parent?.index ?? -1 })
      : -1;
    open.push({ indent: keyIndent, index, path, item: false, empty: key.value === "" || key.value.startsWith("#") });
    if (BLOCK_SCALAR.test(line)) scalarIndent = keyIndent;
    // `key: 'text that goes on\n  to the next line'`: the lines up to its closing quote are text.
    const quote = key.value[0];
    if ((quote === '"' || quote === "'") && !key.value.slice(1).includes(quote)) quoted = quote;
    comment.length = 0;
  }
  closeTo(-1, lines.length + 1);
  return outline.done();
}

/** In a `#`-commented format: a blank line ends the comment block above, a comment line adds to it; whether the line was either. */
function commentLine(line: string, comment: string[]): boolean {
  if (line.trim() === "") {
    comment.length = 0;
    return true;
  }
  if (!/^\s*#/.test(line)) return false;
  comment.push(line);
  return true;
}

function unquote(key: string): string {
  if (key.startsWith('"') && key.endsWith('"')) return key.slice(1, -1).replace(/\\(.)/g, "$1");
  if (key.startsWith("'") && key.endsWith("'")) return key.slice(1, -1).replace(/''/g, "'");
  return key;
}

/** A TOML key: bare, quoted or dotted, then `=`. */
const TOML_KEY = /^\s*((?:[\w-]+|"[^"]*"|'[^']*')(?:\s*\.\s*(?:[\w-]+|"[^"]*"|'[^']*'))*)\s*=/;

/**
 * TOML by its tables and keys: each `[table]` or `[[array]]` header runs to the next header that
 * does not extend it, under the nearest header it extends (`[tool.poetry.dependencies]` inside
 * `[tool.poetry]`); each key runs to the end of its value (a multi-line string or array
 * included), qualified by its table.
 */
export function tomlOutline(text: string): ParsedFile {
  const lines = text.split(/\r?\n/);
  const outline = new Outline();
  /** Open tables, outermost first: each one extended by those after it. */
  const tables: Array<{ index: number; path: string }> = [];
  const comment: string[] = [];
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (commentLine(line, comment)) continue;
    const header = tomlHeader(line);
    if (header !== null) {
      const path = dottedKey(header);
      outline.endOpen(tables, (open) => !path.startsWith(`${open.path}.`), lines, i + 1);
      const parent = tables[tables.length - 1]?.index ?? -1;
      const index = outline.add({ name: path.slice(path.lastIndexOf(".") + 1), qualifiedName: path, kind: "key", signature: line.trim(), doc: firstSentence(comment.join("\n")), startLine: i + 1, endLine: lines.length, parent });
      tables.push({ index, path });
      comment.length = 0;
      continue;
    }
    const key = TOML_KEY.exec(line);
    if (!key) {
      comment.length = 0;
      continue;
    }
    const table = tables[tables.length - 1];
    const name = dottedKey(key[1]!);
    const end = valueEnd(lines, i, line.slice(key[0].length));
    const path = table ? `${table.path}.${name}` : name;
    if (path.split(".").length <= MAX_DEPTH + 1) {
      outline.add({ name, qualifiedName: path, kind: "key", signature: line.trim(), doc: firstSentence(comment.join("\n")), startLine: i + 1, endLine: end + 1, parent: table?.index ?? -1 });
    }
    comment.length = 0;
    i = end;
  }
  outline.endOpen(tables, () => true, lines, lines.length + 1);
  return outline.done();
}

/** The inside of a table header line (`[tool.poetry]`, `[[bin]]`), or null for another line; quotes kept. */
function tomlHeader(line: string): string | null {
  const text = line.trim();
  if (!text.startsWith("[")) return null;
  const open = text.startsWith("[[") ? 2 : 1;
  let quote = "";
  for (let i = open; i < text.length; i++) {
    const c = text[i]!;
    if (quote) {
      if (c === quote) quote = "";
    } else if (c === '"' || c === "'") quote = c;
    else if (c === "]") {
      const rest = text.slice(i + open).trim();
      const inner = text.slice(open, i).trim();
      return (rest === "" || rest.startsWith("#")) && inner !== "" && (open === 1 || text[i + 1] === "]") ? inner : null;
    }
  }
  return null;
}

/** `a . "b.c"` as `a.b.c`: a dotted key split at the dots outside quotes, its quotes and spaces dropped. */
function dottedKey(raw: string): string {
  const parts: string[] = [];
  let quote = "";
  let from = 0;
  for (let i = 0; i < raw.length; i++) {
    const c = raw[i];
    if (quote) {
      if (c === quote) quote = "";
    } else if (c === '"' || c === "'") quote = c;
    else if (c === ".") {
      parts.push(raw.slice(from, i));
      from = i + 1;
    }
  }
  parts.push(raw.slice(from));
  return parts.map((part) => part.trim().replace(/^["']|["']$/g, "")).join(".");
}

/** The 0-based line a TOML value starting on line `start` ends on: a multi-line string or array runs on. */
function valueEnd(lines: readonly string[], start: number, value: string): number {
  const trimmed = value.trim();
  const quote = trimmed.startsWith('"""') ? '"""' : trimmed.startsWith("'''") ? "'''" : "";
  if (quote) {
    if (trimmed.length >= 6 && trimmed.slice(3).includes(quote)) return start;
    for (let i = start + 1; i < lines.length; i++) if (lines[i]!.includes(quote)) return i;
    return lines.length - 1;
  }
  let depth = 0;
  for (let i = start; i < lines.length; i++) {
    const text = (i === start ? value : lines[i]!).replace(/"(?:[^"\\]|\\.)*"|'[^']*'/g, "").replace(/#.*$/, "");
    for (const c of text) {
      if (c === "[" || c === "{") depth++;
      else if (c === "]" || c === "}") depth--;
    }
    if (depth <= 0) return i;
  }
  return lines.length - 1;
}
