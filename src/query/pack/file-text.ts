import { tokenize } from "../../core/tokenize.js";
import type { Language } from "../../core/types.js";

/** A file's text as packing reads it: its lines, and on which lines each token occurs. */
export interface FileText {
  path: string;
  language: Language | null;
  /** The file's lines, without line ends. */
  lines: string[];
  /** Token -> the 1-based lines it occurs on, ascending. */
  tokenLines: ReadonlyMap<string, readonly number[]>;
}

/** Splits and tokenizes a file once; every body of it is then scored without re-reading it. */
export function fileText(path: string, language: Language | null, text: string): FileText {
  const lines = text.split(/\r?\n/);
  if (lines[lines.length - 1] === "") lines.pop();
  const tokenLines = new Map<string, number[]>();
  lines.forEach((line, i) => {
    const add = (token: string): void => {
      const list = tokenLines.get(token);
      if (!list) tokenLines.set(token, [i + 1]);
      else if (list[list.length - 1] !== i + 1) list.push(i + 1);
    };
    for (const token of tokenize(line)) add(token);
    for (const token of camelSegments(line)) add(token);
  });
  return { path, language, lines, tokenLines };
}

/** An identifier. */
const WORD = /[A-Za-z0-9_$]+/g;
/** A segment in camel case: a lower-case letter before an upper-case one, or an acronym before a word. */
const CAMEL = /[a-z][A-Z]|[A-Z]{2}[a-z]/;

/**
 * The camel-case segments of snake-case identifiers, lower-cased: `_print_FourierSeries` holds
 * `fourierseries`, the name a task writes as `FourierSeries` (the tokenizer gives the identifier
 * whole and its words, not the segment). For matching a task's names to code while packing.
 */
function camelSegments(line: string): string[] {
  if (!line.includes("_")) return [];
  const out: string[] = [];
  for (const [word] of line.matchAll(WORD)) {
    if (!word.includes("_")) continue;
    for (const segment of word.split("_")) if (CAMEL.test(segment)) out.push(segment.toLowerCase());
  }
  return out;
}

/** Whether a sorted list of lines has one in [start, end]. */
export function hasLineIn(lines: readonly number[], start: number, end: number): boolean {
  let lo = 0;
  let hi = lines.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (lines[mid]! < start) lo = mid + 1;
    else hi = mid;
  }
  return lo < lines.length && lines[lo]! <= end;
}
