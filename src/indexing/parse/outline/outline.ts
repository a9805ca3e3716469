import type { CallSite, ImportInfo, ParsedFile, SymbolInfo, SymbolKind } from "../../../core/types.js";
import { clip, MAX_SIGNATURE } from "../text.js";

/**
 * The most definitions one outlined file keeps: a config file of 50,000 keys (a data dump named
 * `.json`) or a generated schema is outlined by its first ones, the rest still indexed as text.
 */
export const MAX_OUTLINE_SYMBOLS = 2_000;
/** The longest name kept (a heading, a selector). */
const MAX_NAME = 120;

/** A definition as a scanner finds it (its `endLine` may move later, through {@link Outline.at}, once its end is seen). */
export interface OutlineSymbol {
  name: string;
  qualifiedName?: string;
  kind: SymbolKind;
  signature: string;
  doc?: string;
  startLine: number;
  endLine: number;
  parent: number;
}

/** Collects one file's outline: definitions (at most {@link MAX_OUTLINE_SYMBOLS}), references, imports. */
export class Outline {
  readonly #symbols: SymbolInfo[] = [];
  readonly #calls: CallSite[] = [];
  readonly #imports: ImportInfo[] = [];

  /** Adds a definition; its index, or -1 once the outline is full (what it would hold is not kept). */
  add(symbol: OutlineSymbol): number {
    if (this.#symbols.length >= MAX_OUTLINE_SYMBOLS) return -1;
    const name = clip(symbol.name, MAX_NAME);
    this.#symbols.push({
      name,
      qualifiedName: symbol.qualifiedName === undefined ? name : clip(symbol.qualifiedName, 2 * MAX_NAME),
      kind: symbol.kind,
      signature: clip(symbol.signature.trim(), MAX_SIGNATURE),
      doc: symbol.doc ?? "",
      startLine: symbol.startLine,
      endLine: Math.max(symbol.startLine, symbol.endLine),
      parent: symbol.parent,
    });
    return this.#symbols.length - 1;
  }

  /** The definition at `index` (to set its end, or read its name). */
  at(index: number): SymbolInfo | undefined {
    return index < 0 ? undefined : this.#symbols[index];
  }

  get size(): number {
    return this.#symbols.length;
  }

  call(call: CallSite): void {
    this.#calls.push(call);
  }

  import(info: ImportInfo): void {
    this.#imports.push(info);
  }

  /** Another outline's definitions and references, `lineOffset` lines down, its top level under `parent`. */
  merge(other: ParsedFile, lineOffset: number, parent: number): void {
    const base = this.#symbols.length;
    const kept = Math.min(other.symbols.length, MAX_OUTLINE_SYMBOLS - base);
    for (const s of other.symbols.slice(0, kept)) {
      this.#symbols.push({ ...s, startLine: s.startLine + lineOffset, endLine: s.endLine + lineOffset, parent: s.parent < 0 ? parent : base + s.parent });
    }
    for (const c of other.calls) {
      this.#calls.push({ ...c, line: c.line + lineOffset, caller: c.caller < 0 ? parent : c.caller < kept ? base + c.caller : parent });
    }
    for (const i of other.imports) this.#imports.push({ ...i, line: i.line + lineOffset });
  }

  /**
   * Ends the definitions on top of `open` (outermost first) while `ends` says they end before
   * `line`: each on its last line of text before it. What the scanners that read by lines
   * (Markdown's headings, YAML's indentation, TOML's tables) close their sections and keys with.
   */
  endOpen<T extends { index: number }>(open: T[], ends: (entry: T) => boolean, lines: readonly string[], line: number): void {
    while (open.length > 0 && ends(open[open.length - 1]!)) {
      const symbol = this.at(open.pop()!.index);
      if (symbol) symbol.endLine = lastTextLine(lines, symbol.startLine, line - 1);
    }
  }

  /** The finished outline (an outline scanner never fails on syntax: `hasErrors` is false). */
  done(): ParsedFile {
    return { symbols: this.#symbols, calls: this.#calls, imports: this.#imports, hasErrors: false };
  }
}

/** A URL (`https:`, `data:`, `//cdn…`): no file of the repository. */
export const URL_SCHEME = /^(?:[a-z][\w+.-]*:|\/\/)/i;

/** The last line at or before `line` that is not blank (a definition ends on its own text, not on the blank lines after it). */
function lastTextLine(lines: readonly string[], from: number, line: number): number {
  let end = line;
  while (end > from && (lines[end - 1] ?? "").trim() === "") end--;
  return end;
}
