import type { SymbolInfo } from "../core/types.js";
import type { SignalContext } from "./signals/context.js";

/** A symbol definition found by name. */
export interface Definition {
  path: string;
  symbol: SymbolInfo;
}

/** A name defined in more files than this is too common to point anywhere (`__init__`, `run`). */
const MAX_DEFINING_FILES = 30;

/**
 * The definitions of `name` (a simple name, or `Class.method`): the symbol index's postings of
 * the whole identifier narrow the search to the few files whose symbol text holds it; their
 * parse results say which of them define it. Empty when the name is too common to matter.
 */
export function findDefinitions(ctx: Pick<SignalContext, "lexical" | "symbols">, name: string): Definition[] {
  const dot = name.lastIndexOf(".");
  const simple = dot >= 0 ? name.slice(dot + 1) : name;
  if (!/^[A-Za-z0-9_$]{2,64}$/.test(simple)) return [];
  const { ids } = ctx.lexical.symbols.postings(simple.toLowerCase());
  if (ids.length === 0 || ids.length > MAX_DEFINING_FILES * 2) return [];
  const found: Definition[] = [];
  const files = new Set<string>();
  for (const id of ids) {
    const path = ctx.lexical.pathOf(id);
    const symbols = path ? ctx.symbols(path) : undefined;
    if (!path || !symbols) continue;
    for (const symbol of symbols) {
      if (symbol.name !== simple) continue;
      if (dot >= 0 && !symbol.qualifiedName.endsWith(name)) continue;
      found.push({ path, symbol });
      files.add(path);
    }
  }
  return files.size > MAX_DEFINING_FILES ? [] : found;
}
