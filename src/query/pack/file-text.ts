import { forEachToken, isWordChar, MAX_LEN, MIN_LEN, tokenize } from "../../core/tokenize.js";
import type { Language } from "../../core/types.js";
import { proseLines } from "./prose.js";

/** A file's text as packing reads it: its lines, and on which lines a token occurs. */
export interface FileText {
  path: string;
  language: Language | null;
  /** The file's lines, without line ends. */
  lines: string[];
  /** The 1-based lines `token` (a {@link tokenize} token) occurs on, ascending; empty when none. */
  linesOf(token: string): readonly number[];
  /** {@link FileText.linesOf} of each token, looked up together: many tokens are found by tokenizing every line once. */
  linesOfEach(tokens: readonly string[]): Array<readonly number[]>;
  /** Which lines are prose (comments, docstrings): {@link proseLines}, found once. */
  prose(): Uint8Array;
}

/** The lines of a token that occurs on none: one shared empty list. */
export const NO_LINES: readonly number[] = Object.freeze([]);
/**
 * Tokens looked up by scanning before the whole file is tokenized instead. Each scan reads the
 * whole text; tokenizing every line costs about as much as 35 scans (sympy's 180 KB
 * `matrixbase.py`: 0.21 ms a scan, 7.4 ms to tokenize), so a long issue text (hundreds of terms)
 * is answered from every line's tokens, found once.
 */
const SCANS = 32;

/**
 * Splits a file into lines. Which lines hold a token is found when a task first asks for it: the
 * token is looked up as a substring of the lower-cased text, and each occurrence is confirmed as a
 * token of its word (`det` is in `determinant` but is not one of its tokens; it is one of
 * `computeDet`'s). A short task asks for tens of terms and most of a long file holds none of
 * them, so this costs a fraction of tokenizing every line; past {@link SCANS} tokens (or asked for
 * more at once) every line is tokenized once and the rest answered from that. Each answer is kept
 * for the next task (a warm process packs the same files many times).
 */
export function fileText(path: string, language: Language | null, text: string): FileText {
  const lines = text.split(/\r?\n/);
  if (lines[lines.length - 1] === "") lines.pop();
  let lower: string | undefined;
  let breaks: number[] | undefined;
  // In ASCII text lower-casing maps character to character, so an occurrence's word is read at the
  // same offsets of the lower-cased text; elsewhere its line is tokenized.
  let ascii: boolean | undefined;
  let lineTokens = new Map<number, ReadonlySet<string>>();
  let answers = new Map<string, readonly number[]>();
  /** Whether `answers` holds every token of the file. */
  let complete = false;
  /**
   * Whether the occurrence of `token` at `at` (on `line`) is a token there, and where the next
   * occurrence may be one: past its word (every occurrence in a word has its word's answer), or,
   * outside ASCII, past its line.
   */
  const check = (token: string, at: number, line: number): { hit: boolean; next: number } => {
    if (ascii) {
      let start = at;
      while (start > 0 && isWordChar(lower!.charCodeAt(start - 1))) start--;
      let end = at + token.length;
      while (end < lower!.length && isWordChar(lower!.charCodeAt(end))) end++;
      // A word longer than the tokenizer's longest has no tokens; a whole word is its own token
      // (lower-cased); a part of one needs its casing split.
      const hit = end - start <= MAX_LEN && ((start === at && end === at + token.length) || tokenize(text.slice(start, end)).includes(token));
      return { hit, next: end };
    }
    let tokens = lineTokens.get(line);
    if (!tokens) lineTokens.set(line, (tokens = new Set(tokenize(lines[line - 1]!))));
    return { hit: tokens.has(token), next: lineEnd(line) };
  };
  const lineEnd = (line: number): number => (line <= breaks!.length ? breaks![line - 1]! : lower!.length);
  const tokenizeAll = (): void => {
    answers = everyToken(lines);
    complete = true;
    lower = breaks = undefined;
    lineTokens = new Map();
  };
  const linesOf = (token: string): readonly number[] => {
    const known = answers.get(token);
    if (known) return known;
    if (complete || !TOKEN.test(token)) return NO_LINES;
    if (answers.size >= SCANS) {
      tokenizeAll();
      return answers.get(token) ?? NO_LINES;
    }
    // Lower-casing keeps every line break, so lines are counted in the lower-cased text itself
    // (a few characters change length when lower-cased).
    lower ??= text.toLowerCase();
    breaks ??= newlines(lower);
    ascii ??= !NON_ASCII.test(text);
    const found: number[] = [];
    for (let at = lower.indexOf(token); at >= 0; ) {
      const line = lineAt(breaks, at);
      if (line > lines.length) break;
      const { hit, next } = check(token, at, line);
      if (hit) found.push(line);
      // A line found once is done.
      at = lower.indexOf(token, hit ? lineEnd(line) : next);
    }
    const answer = found.length > 0 ? found : NO_LINES;
    answers.set(token, answer);
    return answer;
  };
  const linesOfEach = (tokens: readonly string[]): Array<readonly number[]> => {
    if (!complete && answers.size + tokens.filter((t) => !answers.has(t)).length > SCANS) tokenizeAll();
    const each = tokens.map(linesOf);
    // The lower-cased copy (and the lines tokenized to check a term) are made again for the next
    // task's new terms: a warm process keeps hundreds of files' texts, and none needs them between.
    lower = breaks = undefined;
    lineTokens = new Map();
    return each;
  };
  let prose: Uint8Array | undefined;
  return { path, language, lines, linesOf, linesOfEach, prose: () => (prose ??= proseLines(lines, language)) };
}

const NON_ASCII = /[^\x00-\x7f]/;
/** What a token of the tokenizer looks like: anything else occurs on no line. */
const TOKEN = new RegExp(`^[a-z0-9_$]{${MIN_LEN},${MAX_LEN}}$`);

/** Every token's lines, from tokenizing every line. */
function everyToken(lines: readonly string[]): Map<string, readonly number[]> {
  const out = new Map<string, number[]>();
  lines.forEach((line, i) => {
    forEachToken(line, (token) => {
      const list = out.get(token);
      if (!list) out.set(token, [i + 1]);
      else if (list[list.length - 1] !== i + 1) list.push(i + 1);
    });
  });
  return out;
}

/** Offsets of the line feeds of `text`. */
function newlines(text: string): number[] {
  const out: number[] = [];
  for (let at = text.indexOf("\n"); at >= 0; at = text.indexOf("\n", at + 1)) out.push(at);
  return out;
}

/** The 1-based line of offset `at`, given the offsets of the line feeds. */
function lineAt(breaks: readonly number[], at: number): number {
  return lowerBound(breaks, at) + 1;
}

/** Whether a sorted list of lines has one in [start, end]. */
export function hasLineIn(lines: readonly number[], start: number, end: number): boolean {
  const i = lowerBound(lines, start);
  return i < lines.length && lines[i]! <= end;
}

/** How many of the ascending `values` are below `value`. */
function lowerBound(values: readonly number[], value: number): number {
  let lo = 0;
  let hi = values.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (values[mid]! < value) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
