import { tokenize } from "../../core/tokenize.js";
import type { SymbolInfo } from "../../core/types.js";
import type { PackConfig } from "../ranking-config.js";
import { hasLineIn, NO_LINES } from "./file-text.js";
import { importLines } from "./imports.js";
import { renderLine } from "./render.js";
import type { Candidate, PackFile } from "./types.js";

/** Kinds whose body is code worth showing whole. */
const BODY_KINDS = new Set(["function", "method", "macro", "table", "view"]);
/** Kinds that contain members (outlined by their members' signatures). */
const CONTAINER_KINDS = new Set(["class", "interface", "enum", "struct", "trait", "impl", "module", "section", "element", "rule", "key"]);
/** A file without a parse result shows at most its first lines. */
const HEAD_LINES = 80;

/** Term weights (task weight × idf) the candidates are scored with. */
export type TermWeights = ReadonlyMap<string, number>;

/**
 * The candidates of one file and their values. The file is worth `scoreShare^scoreSharpness /
 * rank^rankDecay` (its fused score's share of the best file's sharpens what its rank says); its code is
 * cut into pieces — function and method bodies, and the runs of code between definitions — that
 * share that worth by size and by how well they match the task's terms. Outlines (the file's
 * top-level declarations; each class's members) are worth `outlineValue` of the file, a class's
 * outline in proportion to its code's share; a piece holding a line the task names (`focus`, from
 * traceback frames) counts as the best match. A small file is one whole-file candidate instead
 * (unless more than `maxChars` characters of it, what the budget holds, would be shown); of a file
 * without a parse result, only the head.
 */
export function fileCandidates(file: PackFile, symbols: readonly SymbolInfo[] | undefined, terms: TermWeights, config: PackConfig, focus: readonly number[] = [], maxChars = Infinity): Candidate[] {
  const weight = Math.pow(file.scoreShare ?? 1, config.scoreSharpness) / Math.pow(file.rank, config.rankDecay);
  const n = file.lines.length;
  if (n === 0) return [];
  const rangeScore = rangeScorer(file, terms, config.proseValue);
  const candidate = (kind: Candidate["kind"], symbol: string | null, ranges: Array<[number, number]>, value: number): Candidate => ({
    file, kind, symbol, ranges, value, chars: ranges.reduce((sum, [a, b]) => sum + rangeChars(file, a, b), 0),
  });

  // A small file is shown whole, worth what all its code is worth, unless the whole of it cannot
  // fit the budget (`maxChars`): then it is cut into pieces like a big one, and of a file without a
  // parse result the head is shown.
  const whole = n <= config.wholeFileLines ? candidate("file", null, [[1, n]], weight * (1 + config.outlineValue)) : null;
  if (whole && whole.chars <= maxChars) return [whole];
  if (!symbols) return [candidate("file", null, [[1, Math.min(n, HEAD_LINES)]], weight * config.outlineValue)];
  const out: Candidate[] = [];
  const topLevel = symbols.filter((s) => s.parent === -1);
  if (topLevel.length > 0) out.push(candidate("file-outline", null, headRanges(topLevel, file.lines), weight * config.outlineValue));

  // Pieces of code: function and method bodies, classes without methods, and the runs of code
  // between them (module- and class-level statements: imports, constants, tables, attributes).
  const pieces: Array<{ kind: Candidate["kind"]; symbol: string | null; start: number; end: number; shownEnd?: number; score: number; imports?: boolean }> = [];
  const covered = new Uint8Array(n + 2);
  const classes: Array<{ symbol: SymbolInfo; ranges: Array<[number, number]> }> = [];
  // Each definition's members, found once (a config file's outline has 2,000 keys).
  const members: SymbolInfo[][] = symbols.map(() => []);
  for (const s of symbols) if (s.parent >= 0) members[s.parent]?.push(s);
  symbols.forEach((symbol, index) => {
    const own = members[index]!;
    if (CONTAINER_KINDS.has(symbol.kind) && own.length > 0) classes.push({ symbol, ranges: headRanges([symbol, ...own], file.lines) });
    // A function nested in a function is part of its parent's body, not a pick of its own.
    const nested = symbol.parent >= 0 && BODY_KINDS.has(symbols[symbol.parent]!.kind);
    if (!nested && (BODY_KINDS.has(symbol.kind) || (CONTAINER_KINDS.has(symbol.kind) && own.length === 0))) {
      const end = throughBlankLines(file.lines, Math.min(symbol.endLine, n));
      // Terms in the declaration (name, parameters) count three times; the body's once.
      const declaration = declarationLine(symbol, file.lines);
      const score = rangeScore(symbol.startLine, end) + 2 * rangeScore(declaration, declaration);
      pieces.push({ kind: "body", symbol: symbol.qualifiedName, start: symbol.startLine, end, score });
      covered.fill(1, symbol.startLine, end + 1);
    }
  });
  const imports = importLines(file.lines, file.language);
  for (const [start, end] of uncoveredRuns(file.lines, covered, imports)) pieces.push({ kind: "code", symbol: null, start, end, shownEnd: throughBlankLines(file.lines, end), score: rangeScore(start, end), imports: imports[start] === 1 });

  // Each piece's share of the file's value: a prior by size (an edit is as likely on any line)
  // sharpened by how well it matches the task relative to the file's best match.
  // A line the task names (a traceback frame) marks its piece as matching at least as well as the best.
  const top = Math.max(1e-9, ...pieces.map((p) => p.score));
  for (const p of pieces) if (focus.some((line) => p.start <= line && line <= p.end)) p.score += top;
  const best = Math.max(1e-9, ...pieces.map((p) => p.score));
  const raw = pieces.map((p) => (p.end - p.start + 1) * Math.exp((config.matchSharpness * p.score) / best));
  const total = raw.reduce((a, b) => a + b, 0) || 1;
  // Import statements are worth `importsValue` of the file besides their share: a fix that needs
  // a new name adds an import beside them, whatever the task's words.
  const importLineCount = pieces.reduce((sum, p) => (p.imports ? sum + p.end - p.start + 1 : sum), 0);
  const shares = raw.map((r, i) => r / total + (pieces[i]!.imports ? (config.importsValue * (pieces[i]!.end - pieces[i]!.start + 1)) / importLineCount : 0));
  pieces.forEach((p, i) => out.push(candidate(p.kind, p.symbol, [[p.start, p.shownEnd ?? p.end]], weight * shares[i]!)));
  // A class outline is worth the outline share of its class's code: the outlines of the classes
  // that hold the matching code first.
  for (const { symbol, ranges } of classes) {
    const share = pieces.reduce((sum, p, i) => (p.start >= symbol.startLine && p.end <= symbol.endLine + 1 ? sum + shares[i]! : sum), 0);
    out.push(candidate("class-outline", symbol.qualifiedName, ranges, weight * config.outlineValue * share));
  }
  return out;
}

/**
 * Scores a range of a file's lines: the summed weights of the task's terms that occur on them, a
 * term found only on prose lines there (comments, docstrings) at `proseValue` of its weight.
 */
function rangeScorer(file: PackFile, terms: TermWeights, proseValue: number): (start: number, end: number) => number {
  // The task's terms in this file, with the code lines and the prose lines they are on. Prose lines
  // are found only in a file that holds a term (a named file often holds none of the few asked).
  const present: Array<{ weight: number; code: readonly number[]; prosed: readonly number[] }> = [];
  const weights = [...terms.values()];
  const each = file.linesOfEach([...terms.keys()]);
  const prose = proseValue !== 1 && each.some((lines) => lines.length > 0) ? file.prose() : null;
  each.forEach((lines, i) => {
    if (lines.length === 0) return;
    const weight = weights[i]!;
    if (!prose || !lines.some((line) => prose[line])) present.push({ weight, code: lines, prosed: NO_LINES });
    else present.push({ weight, code: lines.filter((line) => !prose[line]), prosed: lines.filter((line) => prose[line]) });
  });
  return (start, end) =>
    present.reduce((sum, { weight, code, prosed }) => (hasLineIn(code, start, end) ? sum + weight : hasLineIn(prosed, start, end) ? sum + proseValue * weight : sum), 0);
}

/** Definitions named for a file below the packed ones. */
const COVER_SYMBOLS = 3;

/** The `count` heaviest of `terms` (ties by term, so the pick does not depend on the map's order). */
export function heaviest(terms: TermWeights, count: number): TermWeights {
  if (terms.size <= count) return terms;
  return new Map([...terms].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0)).slice(0, Math.max(0, count)));
}

/**
 * The one candidate of a file ranked below those whose code is packed: the declaration lines of
 * up to three of its definitions that match the task best (by the task's `coverTerms` heaviest
 * terms on the declaration line and in the body; one holding a line the task names first), in
 * file order. It names the file and where to look in it for a few tokens. A file whose
 * definitions match nothing shows its first top-level declaration; one without definitions (text,
 * an unparsed file), its first non-blank line.
 */
export function coverCandidate(file: PackFile, symbols: readonly SymbolInfo[] | undefined, terms: TermWeights, config: PackConfig, focus: readonly number[] = []): Candidate | null {
  const n = file.lines.length;
  if (n === 0) return null;
  const score = rangeScorer(file, heaviest(terms, config.coverTerms), config.proseValue);
  const scored = (symbols ?? [])
    .map((symbol) => {
      const declaration = declarationLine(symbol, file.lines);
      const end = Math.min(symbol.endLine, n);
      // A definition holding a line the task names (a traceback frame) is named first.
      const named = focus.some((line) => symbol.startLine <= line && line <= end) ? 1e6 : 0;
      return { declaration, score: named + 2 * score(declaration, declaration) + score(symbol.startLine, end), top: symbol.parent === -1 };
    })
    .filter((s) => s.declaration >= 1 && s.declaration <= n);
  let lines = scored.filter((s) => s.score > 0).sort((a, b) => b.score - a.score || a.declaration - b.declaration).slice(0, COVER_SYMBOLS).map((s) => s.declaration);
  if (lines.length === 0) lines = scored.filter((s) => s.top).slice(0, 1).map((s) => s.declaration);
  if (lines.length === 0) {
    const first = file.lines.findIndex((l) => l.trim() !== "");
    if (first < 0) return null;
    lines = [first + 1];
  }
  const ranges = lineRanges(lines);
  return {
    file, kind: "file-outline", symbol: null, ranges,
    value: config.coverValue / Math.pow(file.rank, config.rankDecay),
    chars: ranges.reduce((sum, [a, b]) => sum + rangeChars(file, a, b), 0),
  };
}

/** Lines of release notes shown from their top when no release's heading ends the open section sooner. */
const NOTES_LINES = 15;
/** The open section is shown whole up to this many lines. */
const MAX_NOTES_LINES = 40;
/** Lines of release notes read to find their head. */
export const NOTES_READ_LINES = MAX_NOTES_LINES + 1;
/**
 * A release's heading: `## [unreleased]`, `## **Unreleased** changes`, `# v0.24.0`,
 * `2.17.0 (not yet released)`, `Version 2.3.0`, `Release 7.2.0 (in development)`. Without a
 * Markdown `#`, "Unreleased" must stand alone (or before `-`, `:`, `(`): a sentence is no heading.
 */
const MARKDOWN_RELEASE_HEADING = /^#{1,4}\s*[[*]*(?:v?\d+\.\d+|unreleased|(?:version|release)\s+v?\d)/i;
const PLAIN_RELEASE_HEADING = /^(?:\[?v?\d+\.\d+[\w.-]*\]?(?:\s|$)|\[?unreleased\]?(?:\s*[-:(]|$)|(?:version|release)\s+v?\d)/i;

/**
 * The head of a repository's release notes (the file its fixes usually add an entry to): the title
 * and the open section (up to the second release's heading, where a new entry goes at its end), the
 * whole of notes that end sooner, or else the first {@link NOTES_LINES} lines. It is worth
 * `notesValue`, less than the code of a packed file: by value per token it mostly takes what the
 * code leaves, though its few lines can win over a long body that matches the task weakly.
 */
export function notesCandidate(file: PackFile, config: PackConfig): Candidate | null {
  // `file` holds at most NOTES_READ_LINES lines (PackSource.head): fewer is the whole file.
  const end = Math.min(file.lines.length, openSectionEnd(file.lines) ?? (file.lines.length <= MAX_NOTES_LINES ? file.lines.length : NOTES_LINES));
  if (end === 0 || !(config.notesValue > 0)) return null;
  return { file, kind: "file-outline", symbol: null, ranges: [[1, end]], value: config.notesValue, chars: rangeChars(file, 1, end) };
}

/** The last line before the second release heading within {@link MAX_NOTES_LINES} lines, or null. */
function openSectionEnd(lines: readonly string[]): number | null {
  let headings = 0;
  for (let i = 0; i < Math.min(lines.length, MAX_NOTES_LINES + 1); i++) {
    const line = lines[i]!.trim();
    if ((MARKDOWN_RELEASE_HEADING.test(line) || PLAIN_RELEASE_HEADING.test(line)) && ++headings === 2) return i;
  }
  return null;
}

/** Longest run of code between definitions that is one candidate. */
const MAX_RUN = 40;

/**
 * Runs of non-blank lines not covered by a body, split at blank gaps of 2+ lines, at
 * {@link MAX_RUN}, and where import statements (`imports`) begin or end.
 */
function uncoveredRuns(lines: readonly string[], covered: Uint8Array, imports: Uint8Array): Array<[number, number]> {
  const runs: Array<[number, number]> = [];
  let start = 0;
  let last = 0;
  let blanks = 0;
  for (let line = 1; line <= lines.length + 1; line++) {
    const open = line <= lines.length && !covered[line];
    const blank = open && lines[line - 1]!.trim() === "";
    if (open && !blank) {
      if (start === 0) start = line;
      else if (blanks >= 2 || line - start >= MAX_RUN || imports[line] !== imports[start]) {
        runs.push([start, last]);
        start = line;
      }
      last = line;
      blanks = 0;
    } else if (blank && start !== 0) {
      blanks++;
    } else if (!open && start !== 0) {
      runs.push([start, last]);
      start = 0;
      blanks = 0;
    }
  }
  return runs;
}

function rangeChars(file: PackFile, start: number, end: number): number {
  let chars = 0;
  for (let line = start; line <= end; line++) chars += renderLine(file, line).length;
  return chars;
}

/** Sum of the weights of the distinct task terms in `text`. */
export function matchScore(text: string, terms: TermWeights): number {
  let score = 0;
  for (const token of new Set(tokenize(text))) score += terms.get(token) ?? 0;
  return score;
}

/** Decorators and annotations above a definition (`@property`, `@Override`, `#[derive(…)]`). */
const DECORATOR = /^\s*(?:@|#\[)/;

/**
 * A piece's last line extended over the blank lines after it: nearly free, and they show where
 * code would be added after it (a fix that inserts a method, or an import after the others,
 * writes there).
 */
function throughBlankLines(lines: readonly string[], end: number): number {
  while (end < lines.length && lines[end]!.trim() === "") end++;
  return end;
}

/** The line a symbol is declared on, past its decorators. */
function declarationLine(symbol: SymbolInfo, text: readonly string[]): number {
  let line = symbol.startLine;
  while (line < symbol.endLine && DECORATOR.test(text[line - 1] ?? "")) line++;
  return line;
}

/** The declaration line of each symbol, as sorted, merged ranges. */
function headRanges(symbols: SymbolInfo[], text: readonly string[]): Array<[number, number]> {
  return lineRanges(symbols.map((s) => declarationLine(s, text)).filter((l) => l >= 1 && l <= text.length));
}

/** Line numbers as sorted, merged ranges. */
function lineRanges(numbers: readonly number[]): Array<[number, number]> {
  const lines = [...new Set(numbers)].sort((a, b) => a - b);
  const ranges: Array<[number, number]> = [];
  for (const line of lines) {
    const last = ranges[ranges.length - 1];
    if (last && last[1] + 1 === line) last[1] = line;
    else ranges.push([line, line]);
  }
  return ranges;
}
