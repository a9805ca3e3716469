import type { ParsedFile } from "../../../core/types.js";
import { firstSentence } from "../text.js";
import { lastTextLine, Outline } from "./outline.js";

/** An ATX heading: up to three spaces, 1–6 `#`, then its text (a closing run of `#` dropped). */
const ATX = /^ {0,3}(#{1,6})(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$/;
/** A setext underline: `===` makes the line above a level-1 heading, `---` a level-2 one. */
const SETEXT = /^ {0,3}(=+|-+)[ \t]*$/;
/** A code fence opening: three or more backticks or tildes. */
const FENCE = /^ {0,3}(`{3,}|~{3,})/;
/** Lines that cannot be a setext heading's text: list items, quotes, tables, HTML, fences. */
const NOT_PARAGRAPH = /^\s*(?:[-*+]\s|\d+[.)]\s|>|\||<|`{3}|~{3}|#)/;

/**
 * Markdown by headings: each section (ATX `## Title` or setext `Title\n---`) is a definition
 * running to the next heading of its level or above, nested under the heading above it, its
 * qualified name the path of headings (`Install > From source`). Headings in code fences, YAML
 * front matter and indented code are no headings; the fences are kept in their section.
 */
export function markdownOutline(text: string): ParsedFile {
  const lines = text.split(/\r?\n/);
  const outline = new Outline();
  /** Open sections, outermost first. */
  const open: Array<{ level: number; index: number }> = [];
  /** The open code fence's closing line, or null outside a fence. */
  let fence: RegExp | null = null;
  let start = 0;
  if (/^---\s*$/.test(lines[0] ?? "")) {
    const close = lines.findIndex((l, i) => i > 0 && /^(?:---|\.\.\.)\s*$/.test(l));
    if (close > 0) start = close + 1;
  }
  const closeTo = (level: number, line: number): void => {
    while (open.length > 0 && open[open.length - 1]!.level >= level) {
      const section = outline.at(open.pop()!.index);
      if (section) section.endLine = lastTextLine(lines, section.startLine, line - 1);
    }
  };
  const heading = (level: number, title: string, line: number, signature: string, bodyFrom: number): void => {
    closeTo(level, line);
    const name = plainText(title);
    if (name === "") return;
    const parent = open.length > 0 ? open[open.length - 1]!.index : -1;
    const qualifiedName = parent >= 0 ? `${outline.at(parent)!.qualifiedName} > ${name}` : name;
    const index = outline.add({ name, qualifiedName, kind: "section", signature, doc: firstParagraph(lines, bodyFrom), startLine: line, endLine: lines.length, parent });
    if (index >= 0) open.push({ level, index });
  };
  for (let i = start; i < lines.length; i++) {
    const line = lines[i]!;
    if (fence) {
      if (fence.test(line)) fence = null;
      continue;
    }
    const opening = FENCE.exec(line);
    if (opening) {
      // Closed by a run of the same character, at least as long.
      fence = new RegExp(`^ {0,3}\\${opening[1]![0]}{${opening[1]!.length},}\\s*$`);
      continue;
    }
    const atx = ATX.exec(line);
    if (atx) {
      heading(atx[1]!.length, atx[2] ?? "", i + 1, line, i + 1);
      continue;
    }
    const underline = SETEXT.exec(line);
    const above = lines[i - 1] ?? "";
    // `---` under a paragraph line is a heading; after a blank line it is a rule.
    if (underline && i > start && above.trim() !== "" && !NOT_PARAGRAPH.test(above) && !/^ {4}/.test(above) && (underline[1]![0] === "=" || underline[1]!.length >= 2)) {
      heading(underline[1]![0] === "=" ? 1 : 2, above.trim(), i, `${above.trim()}\n${line}`, i + 1);
    }
  }
  closeTo(0, lines.length + 1);
  return outline.done();
}

/** A heading's text without inline markup: links, code spans, emphasis, an `{#anchor}`. */
function plainText(title: string): string {
  return title
    .replace(/\s*\{#[\w-]+\}\s*$/, "")
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, "$1")
    .replace(/!?\[([^\]]*)\]\[[^\]]*\]/g, "$1")
    .replace(/<[^>]+>/g, "")
    .replace(/`+([^`]*)`+/g, "$1")
    .replace(/(\*\*|__|\*|_|~~)(\S(?:.*?\S)?)\1/g, "$2")
    .replace(/\s+/g, " ")
    .trim();
}

/** The first sentence of the paragraph that opens a section (none when it opens with code or a heading). */
function firstParagraph(lines: readonly string[], from: number): string {
  let i = from;
  while (i < lines.length && lines[i]!.trim() === "") i++;
  const paragraph: string[] = [];
  for (; i < lines.length; i++) {
    const line = lines[i]!;
    if (line.trim() === "" || ATX.test(line) || FENCE.test(line) || (paragraph.length > 0 && SETEXT.test(line))) break;
    if (paragraph.length === 0 && /^\s*(?:[|<]|\s{4})/.test(line)) break;
    paragraph.push(plainText(line));
  }
  return firstSentence(paragraph.join("\n"));
}
