import { ContextSmithError } from "../core/errors.js";
import type { SymbolInfo } from "../core/types.js";
import { PathIndex } from "../store/path-index.js";
import type { IndexStore } from "../store/store.js";
import type { SymbolRef } from "../store/types.js";
import type { SymbolLocation, SymbolLookup } from "./types.js";

/** The innermost definition holding `line`: the shortest that spans it (the first of equals), or undefined. */
export function innermostAt(symbols: readonly SymbolInfo[], line: number): SymbolInfo | undefined {
  let best: SymbolInfo | undefined;
  for (const s of symbols) {
    if (s.startLine <= line && line <= s.endLine && (!best || s.endLine - s.startLine < best.endLine - best.startLine)) best = s;
  }
  return best;
}

/** Suggestions offered for a name that matched nothing. */
const MAX_SUGGESTIONS = 5;

/** A definition found by name, with its reference. */
export interface FoundSymbol {
  ref: SymbolRef;
  location: SymbolLocation;
}

/**
 * A symbol name as a user or an agent typed it, trimmed; every query by name starts here.
 * @throws ContextSmithError `INVALID_ARGUMENT` when it is empty
 */
export function symbolQuery(name: string): string {
  const trimmed = name.trim();
  if (trimmed === "") throw new ContextSmithError("INVALID_ARGUMENT", "The symbol name is empty.");
  return trimmed;
}

/**
 * Finds the definitions a user or an agent means by a name:
 * - bare: `charge_card`, `Checkout`;
 * - qualified: `Checkout.apply_coupon`, `shop.payments.charge_card` (a module path, then names in it);
 * - in a file: `src/shop/payments.py:charge_card` (the path may be partial: `payments.py:charge_card`).
 */
export class SymbolFinder {
  readonly #store: IndexStore;
  #paths: PathIndex | undefined;
  readonly #languages = new Map<string, SymbolLocation["language"]>();
  /** Symbols per file, when the finder lives as long as one index state (see CodeGraph). */
  readonly #symbols: Map<string, SymbolInfo[]> | null;

  constructor(store: IndexStore, options: { cache?: boolean } = {}) {
    this.#store = store;
    this.#symbols = options.cache ? new Map() : null;
  }

  /** The definitions `query` may mean, with close names when none (`suggest`, default true: a scan of every defined name). */
  lookup(query: string, suggest = true): SymbolLookup {
    const name = symbolQuery(query);
    const matches = this.find(name).map((f) => f.location);
    return { query: name, matches, suggestions: matches.length === 0 && suggest ? this.suggest(name) : [] };
  }

  find(query: string): FoundSymbol[] {
    // A name as written first: outlines name things `.btn:hover`, `Step 1: install`, `site.example.com`.
    const named = this.#named(query);
    if (named.length > 0) return named;
    const colon = query.lastIndexOf(":");
    if (colon > 0 && !query.includes("::")) {
      const files = this.#pathIndex().resolve(query.slice(0, colon));
      return files.flatMap((path) => this.#inFile(path, query.slice(colon + 1)));
    }
    const parts = query.split(/::|\./).filter((p) => p !== "");
    const simple = parts[parts.length - 1];
    if (!simple) return [];
    // A simple name was looked up as written above (`::foo` and `foo.` are `foo`).
    if (parts.length === 1) return simple === query ? [] : this.#named(simple);
    const qualified = parts.join(".");
    const found: FoundSymbol[] = [];
    for (const path of this.definers(simple)) {
      this.symbols(path).forEach((s, i) => {
        if (s.name === simple && isQualifiedSuffix(s.qualifiedName, qualified)) found.push(this.#found(path, i, s));
      });
    }
    if (found.length > 0) return found;
    // A module path followed by names: `sympy.core.expr.Expr.diff`.
    const module = this.#pathIndex().resolveModule(parts.join("."));
    if (!module || module.rest.length === 0) return [];
    return module.paths.flatMap((path) => this.#inFile(path, module.rest.join(".")));
  }

  /** Defined names close to `query`: same letters in another case, a small typo, or containing it. */
  suggest(query: string): string[] {
    const simple = query.split(/::|[.:]/).pop()!.toLowerCase();
    if (simple === "") return [];
    const scored: Array<{ name: string; score: number }> = [];
    for (const name of this.#store.graph.definedNames()) {
      const lower = name.toLowerCase();
      let score: number;
      if (lower === simple) score = 0;
      else if (Math.abs(lower.length - simple.length) <= 2 && editDistance(lower, simple, 2) <= 2) score = 1 + editDistance(lower, simple, 2);
      else if (simple.length >= 3 && lower.includes(simple)) score = 4 + lower.length / 100;
      else continue;
      scored.push({ name, score });
    }
    return scored.sort((a, b) => a.score - b.score || a.name.localeCompare(b.name)).slice(0, MAX_SUGGESTIONS).map((s) => s.name);
  }

  /** Files defining `name`, in path order. */
  definers(name: string): string[] {
    return this.#store.graph.definersOf(name);
  }

  symbols(path: string): SymbolInfo[] {
    let symbols = this.#symbols?.get(path);
    if (!symbols) {
      symbols = this.#store.parse.symbols(path) ?? [];
      this.#symbols?.set(path, symbols);
    }
    return symbols;
  }

  /** The location of a definition, or null when the file no longer has it. */
  locate(ref: SymbolRef): SymbolLocation | null {
    const symbol = this.symbols(ref[0])[ref[1]];
    return symbol ? this.#found(ref[0], ref[1], symbol).location : null;
  }

  /** The definitions named exactly `name`. */
  #named(name: string): FoundSymbol[] {
    const found: FoundSymbol[] = [];
    for (const path of this.definers(name)) {
      this.symbols(path).forEach((s, i) => {
        if (s.name === name) found.push(this.#found(path, i, s));
      });
    }
    return found;
  }

  #inFile(path: string, name: string): FoundSymbol[] {
    const parts = name.split(/::|\./).filter((p) => p !== "");
    const qualified = parts.join(".");
    const found: FoundSymbol[] = [];
    this.symbols(path).forEach((s, i) => {
      if (s.name === parts[parts.length - 1] && isQualifiedSuffix(s.qualifiedName, qualified)) found.push(this.#found(path, i, s));
    });
    // A name qualified in full in its file means that definition (its overloads), not also the
    // members of that name nested deeper (`a.py:run` is not `Job.run` when `run` is defined).
    const exact = found.filter((f) => f.location.qualifiedName.split(/::|\./).join(".") === qualified);
    return exact.length > 0 ? exact : found;
  }

  #found(path: string, index: number, s: SymbolInfo): FoundSymbol {
    const language = this.#languages.get(path) ?? this.#store.file(path)?.language ?? null;
    this.#languages.set(path, language);
    return {
      ref: [path, index],
      location: {
        path,
        name: s.name,
        qualifiedName: s.qualifiedName,
        kind: s.kind,
        signature: s.signature,
        doc: s.doc,
        startLine: s.startLine,
        endLine: s.endLine,
        language,
        ...(s.decl ? { decl: true as const } : {}),
      },
    };
  }

  #pathIndex(): PathIndex {
    this.#paths ??= new PathIndex(this.#store.allPaths());
    return this.#paths;
  }
}

/** Whether `qualified` ends with the dotted `suffix` at a name boundary. */
function isQualifiedSuffix(qualified: string, suffix: string): boolean {
  return qualified === suffix || qualified.endsWith(`.${suffix}`);
}

/** Levenshtein distance, giving up (returning `max + 1`) once it must exceed `max`. */
function editDistance(a: string, b: string, max: number): number {
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    let best = i;
    for (let j = 1; j <= b.length; j++) {
      row[j] = Math.min(prev[j]! + 1, row[j - 1]! + 1, prev[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
      best = Math.min(best, row[j]!);
    }
    if (best > max) return max + 1;
    prev = row;
  }
  return prev[b.length]!;
}
