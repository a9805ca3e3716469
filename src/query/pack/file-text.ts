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
    for (const token of tokenize(line)) {
      const list = tokenLines.get(token);
      if (!list) tokenLines.set(token, [i + 1]);
      else if (list[list.length - 1] !== i + 1) list.push(i + 1);
    }
  });
  return { path, language, lines, tokenLines };
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
