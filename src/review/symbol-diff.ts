import type { SymbolInfo } from "../core/types.js";
import type { SymbolChange } from "./types.js";

/** One version of a file: its text and its symbols (in source order, `parent` indexing them). */
export interface FileSide {
  text: string;
  symbols: readonly SymbolInfo[];
}

/** A changed definition: the symbol before and after (one of them null for an added or removed one). */
export interface SymbolDelta {
  change: SymbolChange;
  before: SymbolInfo | null;
  after: SymbolInfo | null;
}

/**
 * The definitions that changed between two versions of a file, and whether code outside every
 * definition did. A definition is compared by its own lines, those of the definitions nested in
 * it left out: a class is not changed because one of its methods is (the method is), and a
 * definition that only moved is not changed. Definitions pair up by kind and qualified name
 * (overloads by signature, then in order); an added or removed definition inside one that is also
 * added or removed is not listed apart. Indentation and blank lines do not count.
 */
export function diffSymbols(base: FileSide | null, head: FileSide | null): { symbols: SymbolDelta[]; outside: boolean } {
  const before = base ? ownTexts(base) : null;
  const after = head ? ownTexts(head) : null;
  // An added or deleted file's code outside definitions is the file's addition or removal itself.
  const outside = before !== null && after !== null && before.outside !== after.outside;
  const groups = new Map<string, { before: number[]; after: number[] }>();
  const group = (s: SymbolInfo): { before: number[]; after: number[] } => {
    const key = `${s.kind}\0${s.decl ? 1 : 0}\0${s.qualifiedName}`;
    let g = groups.get(key);
    if (!g) groups.set(key, (g = { before: [], after: [] }));
    return g;
  };
  base?.symbols.forEach((s, i) => group(s).before.push(i));
  head?.symbols.forEach((s, i) => group(s).after.push(i));
  const deltas: SymbolDelta[] = [];
  const added = new Set<number>();
  const removed = new Set<number>();
  for (const g of groups.values()) {
    let olds = g.before;
    let news = g.after;
    // Unchanged first, then the same declaration (a body change), then in order (a signature change).
    const take = (match: (o: number, n: number) => boolean, change: SymbolChange | null): void => {
      const left: number[] = [];
      for (const o of olds) {
        const n = news.find((k) => match(o, k));
        if (n === undefined) {
          left.push(o);
          continue;
        }
        news = news.filter((k) => k !== n);
        if (change) deltas.push({ change, before: base!.symbols[o]!, after: head!.symbols[n]! });
      }
      olds = left;
    };
    take((o, n) => before!.own[o] === after!.own[n], null);
    take((o, n) => base!.symbols[o]!.signature === head!.symbols[n]!.signature, "body");
    take(() => true, "signature");
    for (const o of olds) removed.add(o);
    for (const n of news) added.add(n);
  }
  for (const n of added) {
    const s = head!.symbols[n]!;
    if (!added.has(s.parent)) deltas.push({ change: "added", before: null, after: s });
  }
  for (const o of removed) {
    const s = base!.symbols[o]!;
    if (!removed.has(s.parent)) deltas.push({ change: "removed", before: s, after: null });
  }
  // In the head's order, the removed ones after in the base's.
  const place = (d: SymbolDelta): [number, number] => (d.after ? [0, d.after.startLine] : [1, d.before!.startLine]);
  deltas.sort((a, b) => place(a)[0] - place(b)[0] || place(a)[1] - place(b)[1]);
  return { symbols: deltas, outside };
}

/**
 * Each symbol's own lines (its nested symbols' lines left out) and the lines outside every
 * symbol, normalised: trimmed, blank lines dropped. One sweep marks each line with the innermost
 * symbol holding it (symbols come in source order, a nested one after its parent).
 */
function ownTexts(side: FileSide): { own: string[]; outside: string } {
  const lines = side.text.split(/\r?\n/);
  const owner = new Int32Array(lines.length).fill(-1);
  side.symbols.forEach((s, i) => owner.fill(i, Math.max(0, s.startLine - 1), Math.min(lines.length, s.endLine)));
  const own: string[][] = side.symbols.map(() => []);
  const outside: string[] = [];
  lines.forEach((line, k) => {
    const text = line.trim();
    if (text !== "") (owner[k]! >= 0 ? own[owner[k]!]! : outside).push(text);
  });
  return { own: own.map((l) => l.join("\n")), outside: outside.join("\n") };
}
