import type { ParsedFile } from "../../../core/types.js";
import { firstSentence } from "../text.js";
import { MAX_OUTLINE_SYMBOLS, Outline } from "./outline.js";

/** The start of an ATX heading: up to three spaces, 1–6 `#`, then white space or the end. */
const ATX = /^ {0,3}(#{1,6})(?=[ \t]|$)/;
/** A setext underline: `===` makes the paragraph above a level-1 heading, `---` a level-2 one. */
const SETEXT = /^ {0,3}(=+|-+)[ \t]*$/;
/** A code fence opening: three or more backticks (no backtick after them) or tildes. */
const FENCE = /^ {0,3}(`{3,}(?!.*`)|~{3,})/;
/** Lines that cannot be a setext heading's text: list items, quotes, tables, HTML, fences, indented code. */
const NOT_PARAGRAPH = /^(?:\s*(?:[-*+]\s|\d+[.)]\s|>|\||<|`{3}|~{3}|#)| {4}|\t)/;
/** How much of a line a heading's name or doc is read from (the name keeps 120 characters, the doc 200). */
const MAX_READ = 400;
/** How many lines a setext heading's text may span. */
const MAX_SETEXT_LINES = 8;

/**
 * Markdown by headings: each section (ATX `## Title` or setext `Title\n---`) is a definition
 * running to the next heading of its level or above, nested under the heading above it, its
 * qualified name the path of headings (`Install > From source`). Headings in code fences, HTML
 * comments, YAML front matter and indented code are no headings; the fences are kept in their
 * section.
 */
export function markdownOutline(text: string): ParsedFile {
  const lines = text.split(/\r?\n/);
  const outline = new Outline();
  /** Open sections, outermost first. */
  const open: Array<{ level: number; index: number }> = [];
  /** The open code fence's closing line, or null outside a fence. */
  let fence: RegExp | null = null;
  let comment = false;
  let start = 0;
  if (/^---\s*$/.test(lines[0] ?? "")) {
    const close = lines.findIndex((l, i) => i > 0 && /^(?:---|\.\.\.)\s*$/.test(l));
    if (close > 0) start = close + 1;
  }
  const closeTo = (level: number, line: number): void => outline.endOpen(open, (section) => section.level >= level, lines, line);
  const heading = (level: number, title: string, line: number, signature: string, bodyFrom: number): void => {
    closeTo(level, line);
    // A full outline keeps only the ends of the sections it has.
    if (outline.size >= MAX_OUTLINE_SYMBOLS) return;
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
    if (comment || line.includes("<!--")) {
      // An HTML comment, perhaps over several lines: what it holds is no heading.
      const from: number = comment ? 0 : line.lastIndexOf("<!--");
      comment = !line.includes("-->", from);
      if (comment || /^\s*<!--/.test(line)) continue;
    }
    const opening = FENCE.exec(line);
    if (opening) {
      // Closed by a run of the same character, at least as long.
      fence = new RegExp(`^ {0,3}\\${opening[1]![0]}{${opening[1]!.length},}\\s*$`);
      continue;
    }
    const atx = ATX.exec(line);
    if (atx) {
      heading(atx[1]!.length, atxTitle(line.slice(atx[0].length, atx[0].length + MAX_READ)), i + 1, line, i + 1);
      continue;
    }
    const underline = SETEXT.exec(line);
    // `---` under a paragraph is a heading; after a blank line it is a rule.
    if (underline && i > start && isParagraphLine(lines[i - 1]!) && (underline[1]![0] === "=" || underline[1]!.length >= 2)) {
      let first = i - 1;
      while (first > start && i - first < MAX_SETEXT_LINES && isParagraphLine(lines[first - 1]!) && !SETEXT.test(lines[first - 1]!)) first--;
      const title = lines.slice(first, i).map((l) => l.trim().slice(0, MAX_READ)).join(" ");
      heading(underline[1]![0] === "=" ? 1 : 2, title, first + 1, `${title}\n${line}`, i + 1);
    }
  }
  closeTo(0, lines.length + 1);
  return outline.done();
}

function isParagraphLine(line: string): boolean {
  return line.trim() !== "" && !NOT_PARAGRAPH.test(line);
}

/** An ATX heading's text: trimmed, a closing run of `#` (after white space) dropped. */
function atxTitle(rest: string): string {
  const title = rest.trim();
  let end = title.length;
  while (end > 0 && title[end - 1] === "#") end--;
  if (end === 0) return "";
  return end < title.length && (title[end - 1] === " " || title[end - 1] === "\t") ? title.slice(0, end).trimEnd() : title;
}

/** A heading's text without inline markup: links, code spans, emphasis, an `{#anchor}`. */
function plainText(title: string): string {
  return title
    .slice(0, MAX_READ)
    .replace(/\s*\{#[\w-]+\}$/, "")
    .replace(/!?\[([^\]]{0,200})\]\([^)]{0,400}\)/g, "$1")
    .replace(/!?\[([^\]]{0,200})\]\[[^\]]{0,200}\]/g, "$1")
    .replace(/<[^<>]{0,200}>/g, "")
    .replace(/`+([^`]*)`+/g, "$1")
    .replace(/(\*\*|__|\*|_|~~)(\S[^*_~]{0,200}?)\1/g, "$2")
    .replace(/\s+/g, " ")
    .trim();
}

/** The first sentence of the paragraph that opens a section (none when it opens with code or a heading). */
function firstParagraph(lines: readonly string[], from: number): string {
  let i = from;
  while (i < lines.length && lines[i]!.trim() === "") i++;
  const paragraph: string[] = [];
  let read = 0;
  for (; i < lines.length && read < MAX_READ; i++) {
    const line = lines[i]!;
    // Lines with an underline after them are the next heading's title, not this section's text.
    if (SETEXT.test(line) && paragraph.length > 0) return "";
    if (line.trim() === "" || ATX.test(line) || FENCE.test(line) || SETEXT.test(line)) break;
    if (paragraph.length === 0 && /^\s*(?:[|<]|\s{4})/.test(line)) break;
    const text = plainText(line.trim());
    paragraph.push(text);
    read += text.length;
  }
  return firstSentence(paragraph.join("\n"));
}
