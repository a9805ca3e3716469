import { tokenize } from "../../core/tokenize.js";
import type { SymbolInfo } from "../../core/types.js";
import type { PackConfig } from "../ranking-config.js";
import { hasLineIn } from "./file-text.js";
import { renderLine } from "./render.js";
import type { Candidate, PackFile } from "./types.js";

/** Kinds whose body is code worth showing whole. */
const BODY_KINDS = new Set(["function", "method", "macro"]);
/** Kinds that contain members (outlined by their members' signatures). */
const CONTAINER_KINDS = new Set(["class", "interface", "enum", "struct", "trait", "impl", "module"]);
/** A file without a parse result shows at most its first lines. */
const HEAD_LINES = 80;

/** Term weights (task weight × idf) the candidates are scored with. */
export type TermWeights = ReadonlyMap<string, number>;

/**
 * The candidates of one file: a file outline (top-level signatures), class outlines (member
 * signatures), and function/method bodies scored by the task's terms in their name, docstring
 * and body. A small file is one whole-file candidate instead.
 */
export function fileCandidates(file: PackFile, symbols: readonly SymbolInfo[] | undefined, terms: TermWeights, config: PackConfig): Candidate[] {
  const weight = 1 / Math.pow(file.rank, config.rankDecay);
  const n = file.lines.length;
  if (n === 0) return [];
  // The task's terms in this file, with the lines they are on: each body is scored from these.
  const present: Array<[number, readonly number[]]> = [];
  for (const [term, w] of terms) {
    const lines = file.tokenLines.get(term);
    if (lines) present.push([w, lines]);
  }
  const rangeScore = (start: number, end: number): number => present.reduce((sum, [w, lines]) => (hasLineIn(lines, start, end) ? sum + w : sum), 0);
  const candidate = (kind: Candidate["kind"], symbol: string | null, ranges: Array<[number, number]>, value: number): Candidate => ({
    file, kind, symbol, ranges, value, chars: ranges.reduce((sum, [a, b]) => sum + rangeChars(file, a, b), 0),
  });

  if (!symbols || symbols.length === 0 || n <= config.wholeFileLines) {
    const end = Math.min(n, symbols || n <= config.wholeFileLines ? n : HEAD_LINES);
    return [candidate("file", null, [[1, end]], weight * (config.outlineValue + rangeScore(1, end)))];
  }
  const out: Candidate[] = [];
  const topLevel = symbols.filter((s) => s.parent === -1);
  out.push(candidate("file-outline", null, headRanges(topLevel, file.lines), weight * config.outlineValue));

  // Scores of bodies, normalised by the file's best so the file's rank sets the scale.
  const bodies: Array<{ symbol: SymbolInfo; score: number }> = [];
  symbols.forEach((symbol, index) => {
    if (CONTAINER_KINDS.has(symbol.kind)) {
      const members = symbols.filter((s) => s.parent === index);
      if (members.length > 0) {
        out.push(candidate("class-outline", symbol.qualifiedName, headRanges([symbol, ...members], file.lines), weight * config.outlineValue * 0.5));
      }
    }
    // A function nested in a function is part of its parent's body, not a pick of its own.
    const nested = symbol.parent >= 0 && BODY_KINDS.has(symbols[symbol.parent]!.kind);
    if (!nested && (BODY_KINDS.has(symbol.kind) || (CONTAINER_KINDS.has(symbol.kind) && !symbols.some((s) => s.parent === index)))) {
      // Terms in the declaration (name, parameters) count three times; the body's once.
      const declaration = declarationLine(symbol, file.lines);
      const score = rangeScore(symbol.startLine, symbol.endLine) + 2 * rangeScore(declaration, declaration);
      bodies.push({ symbol, score });
    }
  });
  const best = Math.max(1e-9, ...bodies.map((b) => b.score));
  for (const { symbol, score } of bodies) {
    out.push(candidate("body", symbol.qualifiedName, [[symbol.startLine, Math.min(symbol.endLine, n)]], weight * (config.bodyBaseValue + score / best)));
  }
  return out;
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

/** The line a symbol is declared on, past its decorators. */
function declarationLine(symbol: SymbolInfo, text: readonly string[]): number {
  let line = symbol.startLine;
  while (line < symbol.endLine && DECORATOR.test(text[line - 1] ?? "")) line++;
  return line;
}

/** The declaration line of each symbol, as sorted, merged ranges. */
function headRanges(symbols: SymbolInfo[], text: readonly string[]): Array<[number, number]> {
  const lines = [...new Set(symbols.map((s) => declarationLine(s, text)).filter((l) => l >= 1 && l <= text.length))].sort((a, b) => a - b);
  const ranges: Array<[number, number]> = [];
  for (const line of lines) {
    const last = ranges[ranges.length - 1];
    if (last && last[1] + 1 === line) last[1] = line;
    else ranges.push([line, line]);
  }
  return ranges;
}
