import type { ImportInfo, Language, SymbolInfo } from "../core/types.js";

/*
 * In the languages of DECLARED_NAMESPACES (core/languages.ts), what a file sees is found through
 * the symbols of the files that declare those namespaces, wherever they are.
 */

/** What a file's code sees by a bare name, from the namespaces it is in and what it imports. */
export interface NamespaceScope {
  /** Namespaces whose every definition is seen by its bare name ("" is the global one). */
  readonly open: ReadonlySet<string>;
  /** A local name and the qualified name it imports (`import a.b.C as D`: `D` -> `a.b.C`). */
  readonly named: ReadonlyMap<string, string>;
  /** Types whose static members are seen by their bare names (C#'s `using static A.B.C;`). */
  readonly statics: readonly string[];
}

/** One name an import brings: a namespace whole (`using A.B;`, `import a.b.*`) or one qualified name. */
export interface ImportedName {
  qualified: string;
  /** The local name it is bound to; absent for a namespace imported whole. */
  local?: string;
  /** A type whose static members are imported (C#'s `using static`). */
  statics?: true;
}

/**
 * The names an import brings, as qualified names: C#'s `using A.B;` opens `A.B`, `using static
 * A.B.C;` the statics of `A.B.C`, `using X = A.B.C;` binds `X`; Kotlin's and PHP's `import a.b.C`
 * / `use A\B\C;` bind `C` (or its alias), `import a.b.*` opens `a.b`. Requires are files: none.
 */
export function importedNames(language: Language, imp: ImportInfo): ImportedName[] {
  if (imp.kind === "require") return [];
  if (language === "csharp") {
    if (imp.alias) return [{ qualified: imp.module, local: imp.alias }];
    return [imp.names.length > 0 ? { qualified: imp.module, statics: true } : { qualified: imp.module }];
  }
  const join = (name: string): string => (imp.module ? `${imp.module}.${name}` : name);
  return imp.names.map(({ name, alias }) => (name === "*" ? { qualified: imp.module } : { qualified: join(name), local: alias || name }));
}

/**
 * The scope of a file: the namespaces it declares and those enclosing them (`A.B` sees `A`), the
 * global one, and what its imports bring.
 */
export function namespaceScope(language: Language, symbols: readonly SymbolInfo[], imports: readonly ImportInfo[]): NamespaceScope {
  const open = new Set([""]);
  for (const s of symbols) {
    if (s.kind !== "module") continue;
    const parts = s.qualifiedName.split(".");
    for (let n = 1; n <= parts.length; n++) open.add(parts.slice(0, n).join("."));
  }
  const named = new Map<string, string>();
  const statics: string[] = [];
  for (const imp of imports) {
    for (const name of importedNames(language, imp)) {
      if (name.statics) statics.push(name.qualified);
      else if (name.local) named.set(name.local, name.qualified);
      else open.add(name.qualified);
    }
  }
  return { open, named, statics };
}

/** The scope a definition named `name` and qualified `qualified` is declared in (`A.B.Foo` -> `A.B`). */
export function scopeOf(qualified: string, name: string): string {
  return qualified.slice(0, Math.max(0, qualified.length - name.length - 1));
}
