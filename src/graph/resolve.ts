import type { ImportInfo, Language, ParsedFile, SymbolInfo, SymbolKind } from "../core/types.js";
import { lastSegment, scopeSegments } from "../core/cxx-names.js";
import { isInclude, languageFamily, moduleKeys, SWIFT_TARGETS_KEY, swiftImportedModule, type ModuleResolver } from "./modules.js";
import { DECLARED_NAMESPACES } from "../core/languages.js";
import { importedNames, namespaceScope, scopeOf, type NamespaceScope } from "./namespaces.js";
import type { CallEdge, FileGraph, ImportEdge, Resolution, SymbolRef } from "../store/types.js";

/** What resolution reads of the rest of the index. */
export interface ResolveSource {
  readonly modules: ModuleResolver;
  /** A file's symbols (empty when it has none or is not indexed). */
  symbols(path: string): readonly SymbolInfo[];
  imports(path: string): readonly ImportInfo[];
  language(path: string): Language | null;
  /** Files that define `name`, in path order. */
  definers(name: string): readonly string[];
}

/** More candidates than this and a name says nothing about which definition is meant. */
const MAX_CANDIDATES = 8;
/** How many re-export hops and base classes are followed. */
const MAX_DEPTH = 4;
/** How deep, and how far, a C/C++ file's includes are followed for the names they bring. */
const MAX_INCLUDE_DEPTH = 8;
const MAX_INCLUDED_FILES = 512;
const CLASS_LIKE: ReadonlySet<SymbolKind> = new Set(["class", "struct", "interface", "trait", "enum", "impl", "type"]);
const SELF: Readonly<Record<string, ReadonlySet<string>>> = {
  python: new Set(["self", "cls"]),
  js: new Set(["this"]),
  java: new Set(["this"]),
  rust: new Set(["self", "Self"]),
  go: new Set(),
  c: new Set(["this"]),
  csharp: new Set(["this"]),
  ruby: new Set(["self"]),
  php: new Set(["$this", "self", "static"]),
  kotlin: new Set(["this"]),
  scala: new Set(["this"]),
  swift: new Set(["self", "Self"]),
};
/** Families where a method calls its class's other methods without `this`. */
const CLASS_SCOPES: ReadonlySet<string> = new Set(["java", "c", "csharp", "ruby", "kotlin", "scala", "swift"]);
/**
 * Families whose namespaces (C++, C# and PHP namespaces, Kotlin packages, Ruby modules) do not make
 * a definition less top-level: `fmt::format` is qualified `fmt.format`, `Acme::Invoice` `Acme.Invoice`.
 */
const NAMESPACED: ReadonlySet<string> = new Set(["c", "ruby", ...DECLARED_NAMESPACES]);
/**
 * Families where a class is declared in pieces (C++'s out-of-class methods, C#'s partial classes,
 * Ruby's reopened classes, a Scala class and its companion object, Swift's extensions).
 */
const REOPENED: ReadonlySet<string> = new Set(["c", "csharp", "ruby", "scala", "swift"]);

/** Whether a kind of symbol holds methods called through it: a class, and in Ruby a module too (its singleton methods, a mixin's). */
function classLike(kind: SymbolKind, family: string): boolean {
  return CLASS_LIKE.has(kind) || (family === "ruby" && kind === "module");
}
/**
 * Method names that every standard library defines on its own types: a member call with an unknown
 * receiver and one of these names is far more likely a list's, a map's or a promise's method than
 * the one the repository happens to define.
 */
const LIBRARY_METHODS: ReadonlySet<string> = new Set([
  "append", "extend", "insert", "pop", "remove", "clear", "copy", "sort", "reverse", "index", "count",
  "get", "set", "has", "add", "delete", "keys", "values", "items", "update", "setdefault",
  "join", "split", "strip", "lstrip", "rstrip", "replace", "format", "startswith", "endswith", "lower", "upper",
  "encode", "decode", "read", "write", "close", "open", "flush", "seek", "readline", "readlines",
  "push", "shift", "unshift", "slice", "splice", "map", "filter", "reduce", "forEach", "find", "findIndex",
  "some", "every", "includes", "indexOf", "concat", "then", "catch", "finally", "toString", "valueOf",
  "call", "apply", "bind", "log", "error", "warn", "info", "debug", "emit", "on", "once", "off",
  "equals", "hashCode", "length", "size", "isEmpty", "contains", "put", "iter", "next", "unwrap", "expect",
  "clone", "collect", "into", "from", "as_ref", "len", "is_empty", "to_string", "fmt", "new",
  "Println", "Printf", "Sprintf", "Errorf", "Error", "String",
]);

/** The same, of the standard libraries of Ruby (Enumerable, Object), C# (collections, LINQ, System.Object) and Swift (Sequence, Collection, String). */
const FAMILY_LIBRARY_METHODS: Readonly<Record<string, ReadonlySet<string>>> = {
  ruby: new Set([
    "each", "each_with_index", "each_with_object", "each_pair", "map", "flat_map", "collect", "select", "reject", "filter_map",
    "inject", "detect", "any?", "all?", "none?", "empty?", "nil?", "include?", "key?", "fetch", "merge", "merge!", "dup",
    "to_s", "to_a", "to_h", "to_i", "to_f", "to_sym", "first", "last", "min", "max", "sum", "sort_by", "group_by", "uniq",
    "compact", "flatten", "zip", "tap", "then", "respond_to?", "is_a?", "kind_of?", "send", "public_send", "size", "length",
    "gsub", "sub", "match", "match?", "present?", "blank?", "presence", "try", "call", "new", "inspect", "hash", "eql?",
    "equal?", "to_str", "to_ary", "to_proc", "instance_of?", "class", "object_id", "dig", "each_key", "each_value",
  ]),
  csharp: new Set([
    "Add", "AddRange", "Remove", "Contains", "ContainsKey", "TryGetValue", "ToString", "Equals", "GetHashCode", "GetType",
    "Select", "SelectMany", "Where", "ToList", "ToArray", "ToDictionary", "Any", "All", "First", "FirstOrDefault", "Single",
    "SingleOrDefault", "Last", "Count", "Sum", "Max", "Min", "OrderBy", "OrderByDescending", "GroupBy", "Dispose",
    "DisposeAsync", "WriteLine", "Write", "Format", "Join", "Split", "Trim", "Substring", "StartsWith", "EndsWith",
    "ToLower", "ToUpper", "Append", "AppendLine", "Clear", "Insert", "ConfigureAwait", "Wait", "Invoke", "GetValueOrDefault",
  ]),
  swift: new Set([
    "first", "last", "compactMap", "flatMap", "sorted", "sort", "joined", "hasPrefix", "hasSuffix", "lowercased", "uppercased",
    "enumerated", "reversed", "dropFirst", "dropLast", "prefix", "suffix", "removeAll", "removeFirst", "removeLast",
    "firstIndex", "lastIndex", "allSatisfy", "contains", "union", "formUnion", "intersection", "subtracting", "min", "max",
    "starts", "split", "trimmingCharacters", "replacingOccurrences", "components", "appending", "description", "isEmpty",
    "append", "insert", "remove", "index", "distance", "zip", "forEach", "lazy", "async", "sink", "store", "dispatch",
    "init", "hash", "encode", "decode", "fulfill", "wait",
  ]),
};

/**
 * What the unique-name fallback accepts: a macro, a top-level definition, a method, a static
 * method (or an initializer), a type, an SQL table, view or function (`sqlFolded`: by its name in
 * lower case, as SQL folds an unquoted name's case).
 */
type Fallback = "macro" | "top" | "method" | "static" | "type" | "sql" | "sqlFolded";
const FALLBACKS: Readonly<Record<Fallback, (s: SymbolInfo, family: string) => boolean>> = {
  macro: (s) => s.kind === "macro",
  sql: (s) => s.parent === -1,
  sqlFolded: (s) => s.parent === -1,
  top: (s, family) => (NAMESPACED.has(family) ? topKind(s, family) : s.qualifiedName === s.name && s.kind !== "impl"),
  // Methods only: a function nested in another one has a dotted name too, but no receiver.
  method: (s) => s.kind === "method",
  // Swift's implicit member `.make()` names a static method of the contextual type (or an enum
  // case, which is no symbol: an instance method of that name is not meant).
  static: (s) => s.kind === "method" && (s.name === "init" || /\b(?:static|class)\s+func\b/.test(s.signature)),
  type: (s, family) => classLike(s.kind, family) && s.kind !== "impl",
};

type Binding =
  /** The local name is a module (`import numpy as np`, `import * as fs`, a Go package). */
  | { kind: "module"; files: string[] }
  /** The local name is `name` imported from `files` (and maybe the submodule `submodule`). */
  | { kind: "name"; files: string[]; name: string; submodule: string[] };

interface Scope {
  bindings: Map<string, Binding>;
  /** Files imported with `*`. */
  stars: string[];
}

export interface Found {
  refs: SymbolRef[];
  how: Resolution;
}

/**
 * The unique-name fallback's answers (see Resolver#byName): they depend on the index alone, never
 * on the file being resolved, so one graph stage's resolvers share them while each lets its caches
 * of files go. They are few (babel: 4,379, which each of its seven resolvers used to find again,
 * reading every definer of each name) and small (at most MAX_CANDIDATES references each); past
 * `limit` they are dropped and found again.
 */
export class FallbackAnswers {
  readonly #answers = new Map<string, Found | null>();

  constructor(private readonly limit = 65_536) {}

  get(key: string): Found | null | undefined {
    return this.#answers.get(key);
  }

  set(key: string, found: Found | null): void {
    if (this.#answers.size >= this.limit) this.#answers.clear();
    this.#answers.set(key, found);
  }
}

/**
 * Resolves the call sites and imports of files to definitions in the repository. One resolver
 * serves a batch of files and memoises what it learns of the others (their import scopes); it
 * records, per file, which other files and which names its answers depend on.
 */
export class Resolver {
  readonly #src: ResolveSource;
  readonly #scopes = new Map<string, Scope>();
  #deps = new Set<string>();
  #refs = new Set<string>();
  #nesting = 0;
  /** Fallback lookups by kind, family and name: the same names are called from many files. */
  readonly #fallbacks: FallbackAnswers;
  /** The files a C/C++ file includes, transitively. */
  readonly #included = new Map<string, ReadonlySet<string>>();
  /** C/C++ lookups by qualified name (see #qualifiedAs). */
  readonly #qualified = new Map<string, SymbolRef[]>();
  /** Language and namespace -> the files that declare it (see #namespaceFiles). */
  readonly #namespaces = new Map<string, string[]>();
  /** Definitions by language and name (see #definitionsNamed). */
  readonly #named = new Map<string, Array<{ ref: SymbolRef; symbol: SymbolInfo }>>();
  /** Swift file -> the modules it imports. */
  readonly #swiftImports = new Map<string, ReadonlySet<string>>();
  /** File -> what its code sees by bare names, in the languages of declared namespaces. */
  readonly #namespaceScopes = new Map<string, NamespaceScope>();
  /**
   * A file's symbols by name, for each symbols array looked in (the source's cached ones and the
   * file being resolved): a call's look-ups read the few definitions of its name, not every symbol
   * of the file once per distinct call. Kept as long as the array is.
   */
  readonly #symbolsNamed = new WeakMap<readonly SymbolInfo[], ReadonlyMap<string, readonly number[]>>();

  /** `fallbacks`: answers shared with the other resolvers of a graph stage (see FallbackAnswers). */
  constructor(source: ResolveSource, fallbacks = new FallbackAnswers()) {
    this.#src = source;
    this.#fallbacks = fallbacks;
  }

  /** The indexes of `symbols` named `name`, ascending. */
  #indexesNamed(symbols: readonly SymbolInfo[], name: string): readonly number[] {
    let byName = this.#symbolsNamed.get(symbols);
    if (!byName) this.#symbolsNamed.set(symbols, (byName = indexByName(symbols)));
    return byName.get(name) ?? NONE;
  }

  /** The call and import graph of one file. */
  resolveFile(path: string, language: Language, parsed: ParsedFile): FileGraph {
    this.#deps = new Set();
    this.#refs = new Set();
    const imports: ImportEdge[] = parsed.imports.map((imp) => {
      for (const key of moduleKeys(imp, language)) this.#refs.add(key);
      const targets = (DECLARED_NAMESPACES.has(language) && imp.kind !== "require"
        ? [...new Set(importedNames(language, imp).flatMap((n) => this.#namespaceFiles(language, n.qualified)))].sort()
        : this.#src.modules.resolve(path, language, imp)
      ).filter((t) => t !== path);
      // A Swift import's files are its module's whatever they define (a file added or removed is
      // keyed, see fileModuleKeys): only the files that answer a name are dependencies.
      if (language !== "swift") for (const t of targets) this.#deps.add(t);
      return { line: imp.line, module: imp.module, targets };
    });
    if (language === "swift") this.#refs.add(SWIFT_TARGETS_KEY);
    const calls: CallEdge[] = [];
    let unresolved = 0;
    const memo = new Map<string, Found | null>();
    for (const call of parsed.calls) {
      const key = `${call.caller}\u0000${call.receiver}\u0000${call.callee}`;
      let found = memo.get(key);
      if (found === undefined) {
        found = this.#resolveCall(path, language, parsed.symbols, call.caller, call.receiver, call.callee);
        memo.set(key, found);
      }
      if (!found) {
        unresolved++;
        continue;
      }
      calls.push({ caller: call.caller, line: call.line, callee: call.callee, how: found.how, targets: found.refs });
    }
    this.#deps.delete(path);
    return { calls, imports, unresolved, deps: [...this.#deps].sort(), refs: [...this.#refs].sort() };
  }

  #resolveCall(path: string, language: Language, symbols: readonly SymbolInfo[], caller: number, receiver: string, callee: string): Found | null {
    const found = this.#resolveCallIn(path, language, symbols, caller, receiver, callee);
    // A C/C++ call found a prototype or an in-class declaration: the definition is what it runs.
    return found && languageFamily(language) === "c" ? this.#definitionsOf(found) : found;
  }

  #resolveCallIn(path: string, language: Language, symbols: readonly SymbolInfo[], caller: number, receiver: string, callee: string): Found | null {
    const family = languageFamily(language);
    if (family === "sql") return this.#sqlObject(path, receiver, callee);
    if (callee.endsWith("!")) return this.#byName(path, callee.slice(0, -1), "macro", family);
    if (family === "c" && receiver.endsWith("::")) return this.#scoped(path, language, symbols, receiver.slice(0, -2), callee);
    if (receiver === "") {
      if (family !== "c") return this.#plain(path, language, symbols, caller, callee) ?? this.#byName(path, callee, "top", family);
      const scopes = [symbols[caller]?.qualifiedName ?? "", ...this.#usedNamespaces(path)];
      const visible = (found: Found | null): Found | null => (found ? this.#visibleFrom(found, scopes) : null);
      return visible(this.#plain(path, language, symbols, caller, callee)) ?? visible(this.#byName(path, callee, "top", family));
    }
    const cls = this.#enclosingClass(path, language, symbols, caller);
    const selfNames = SELF[family] ?? new Set<string>();
    const goReceiver = language === "go" && caller >= 0 ? /^func\s*\(\s*(\w+)/.exec(symbols[caller]!.signature)?.[1] : undefined;
    if (cls && (selfNames.has(receiver) || receiver === goReceiver)) {
      const found = this.#method(cls, callee, 0, new Set());
      if (found) return found;
      // Not in the class nor in the bases the index knows: an attribute holding a callable, or a
      // method of a library base. Another class's method of that name would be a guess, unless a
      // base could not be resolved (it may be that class).
      if (!this.#hasUnresolvedBase(cls)) return null;
    }
    if (cls && (/^super\b/.test(receiver) || (family === "csharp" && receiver === "base") || (family === "php" && receiver === "parent"))) {
      const found = this.#inBases(cls, callee, 0, new Set());
      if (found) return found;
    }
    const scope = this.#scope(path);
    const binding = scope.bindings.get(receiver);
    if (binding) {
      const files = binding.kind === "module" ? binding.files : binding.submodule;
      const inModule = this.#exported(files, callee, 0);
      if (inModule.length > 0) return { refs: inModule, how: "import" };
    }
    if (/^[A-Za-z_$][\w$]*$/.test(receiver) && !selfNames.has(receiver)) {
      const type = this.#type(path, language, symbols, caller, receiver);
      if (type) {
        const found = this.#method(type, callee, 0, new Set());
        if (found) return { refs: found.refs, how: found.how === "hierarchy" ? "hierarchy" : "receiver" };
      }
    }
    if (LIBRARY_METHODS.has(callee) || FAMILY_LIBRARY_METHODS[family]?.has(callee) || callee.startsWith("__")) return null;
    return this.#byName(path, callee, family === "swift" && receiver === "." ? "static" : "method", family);
  }

  /** A plain call: the caller's scopes, the file, its package, its imports. */
  #plain(path: string, language: Language, symbols: readonly SymbolInfo[], caller: number, name: string): Found | null {
    const family = languageFamily(language);
    // Lexical scopes from the inside out. Class bodies are not scopes for the code in their
    // methods, except in Java and C++ (a method calls its siblings without `this`).
    const classScoped = CLASS_SCOPES.has(family);
    // `void Foo::run() { helper(); }`: the class of a method defined outside it comes before its namespace.
    if (family === "c" && caller >= 0 && symbols[caller]!.kind === "method" && !classLike(symbols[symbols[caller]!.parent]?.kind ?? "module", family)) {
      const cls = this.#enclosingClass(path, language, symbols, caller);
      const found = cls ? this.#method(cls, name, 0, new Set()) : null;
      if (found) return found;
    }
    const named = this.#indexesNamed(symbols, name);
    for (let s = caller; s >= 0; s = symbols[s]!.parent) {
      const sym = symbols[s]!;
      if (classLike(sym.kind, family) && !classScoped) continue;
      let local = childrenNamed(symbols, named, s);
      // A method defined in a namespace block (`int Foo::get() {…}`) is no name of that namespace.
      if (family === "c" && !classLike(sym.kind, family)) local = local.filter((i) => symbols[i]!.kind !== "method");
      const localRefs = local.map((i) => [path, i] as const);
      // A Swift type's methods are those of all its pieces: an overload in an extension is as much meant.
      const allPieces = family === "swift" && classLike(sym.kind, family);
      if (local.length > 0 && !allPieces) return { refs: localRefs, how: "local" };
      if (classScoped && classLike(sym.kind, family)) {
        // Another piece of the class: a C# partial class's other file, a Ruby class reopened
        // elsewhere, a Swift type's declaration and extensions (often in one file).
        if (family !== "c" && REOPENED.has(family)) {
          const pieces = this.#qualifiedAs(`${sym.qualifiedName}.${name}`, name, "method", family).filter(([file]) => allPieces || file !== path);
          if (pieces.length > 0) return { refs: dedupe([...localRefs, ...pieces]), how: "local" };
        }
        if (local.length > 0) return { refs: localRefs, how: "local" };
        const inherited = this.#inBases([path, s], name, 0, new Set());
        if (inherited) return inherited;
      }
    }
    const top = topLevelNamed(symbols, named, family);
    if (top.length > 0) return { refs: top.map((i) => [path, i] as const), how: "local" };
    if (family === "c") return this.#fromIncludes(path, name);
    if (DECLARED_NAMESPACES.has(language)) return this.#inNamespaces(path, language, symbols, name);
    if (language === "swift") return this.#inSwiftModules(path, name);
    if (language === "go" || language === "java") {
      this.#refs.add(name);
      const refs: SymbolRef[] = [];
      for (const sibling of this.#src.modules.siblings(path)) {
        if (sibling === path) continue;
        const siblingSymbols = this.#src.symbols(sibling);
        const found = topLevelNamed(siblingSymbols, this.#indexesNamed(siblingSymbols, name));
        if (found.length > 0) this.#deps.add(sibling);
        for (const i of found) refs.push([sibling, i]);
      }
      if (refs.length > 0) return { refs, how: "local" };
    }
    const scope = this.#scope(path);
    const binding = scope.bindings.get(name);
    if (binding) {
      const refs = binding.kind === "name"
        ? this.#exported(binding.files, binding.name, 0, name)
        : this.#exported(binding.files, "default", 0, name);
      if (refs.length > 0) return { refs, how: "import" };
    }
    const starred = this.#exported(scope.stars, name, 0);
    if (starred.length > 0) return { refs: starred, how: "import" };
    return null;
  }

  /** A name used as a type (`Widget.create()`, a base class), resolved in `path`'s scope. */
  #type(path: string, language: Language, symbols: readonly SymbolInfo[], caller: number, name: string): SymbolRef | null {
    const found = this.#plain(path, language, symbols, caller, name)
      ?? this.#byName(path, name, "type", languageFamily(language));
    if (!found) return null;
    const family = languageFamily(language);
    const [ref, ...others] = found.refs;
    const first = ref && this.#src.symbols(ref[0])[ref[1]];
    if (!first || !classLike(first.kind, family)) return null;
    // Several pieces of one class (a reopened Ruby class, a Scala class and its companion): the
    // first stands for all, its other pieces found through it (see #method).
    const pieces = REOPENED.has(family) && others.every(([file, i]) => this.#src.symbols(file)[i]?.qualifiedName === first.qualifiedName);
    return others.length === 0 || pieces ? ref : null;
  }

  /** The class (struct, impl) a caller belongs to. */
  #enclosingClass(path: string, language: Language, symbols: readonly SymbolInfo[], caller: number): SymbolRef | null {
    for (let s = caller; s >= 0; s = symbols[s]!.parent) if (classLike(symbols[s]!.kind, languageFamily(language))) return [path, s];
    if (language === "go" && caller >= 0) {
      // A Go method's type is its qualifier; the type may be declared in any file of the package.
      const qualified = symbols[caller]!.qualifiedName;
      const dot = qualified.lastIndexOf(".");
      if (dot < 0) return null;
      return this.#type(path, language, symbols, -1, qualified.slice(0, dot));
    }
    if (languageFamily(language) === "c" && caller >= 0 && symbols[caller]!.kind === "method") {
      // `int fmt::Foo::get() {…}`: the class is the last part of its qualifier, declared in a header.
      const parts = symbols[caller]!.qualifiedName.split(".");
      return parts.length < 2 ? null : this.#type(path, language, symbols, -1, parts[parts.length - 2]!);
    }
    return null;
  }

  /** `name` as a method of the class at `ref`, or inherited by it. */
  #method(ref: SymbolRef, name: string, depth: number, seen: Set<string>): Found | null {
    const [path, index] = ref;
    this.#deps.add(path);
    const symbols = this.#src.symbols(path);
    const cls = symbols[index];
    if (!cls) return null;
    const language = this.#src.language(path);
    const family = languageFamily(language);
    const direct: SymbolRef[] = childrenNamed(symbols, this.#indexesNamed(symbols, name), index).map((i) => [path, i]);
    // A Swift type's methods are those of all its pieces (overloads in its extensions, a protocol's
    // requirement and its default implementations): found below, with these.
    if (direct.length > 0 && family !== "swift") return { refs: direct, how: "receiver" };
    if (REOPENED.has(family)) {
      // Declared in no class body the index holds, defined outside one (`void Foo::run() {…}`), or
      // in another piece of the class (a C# partial class, a reopened Ruby class, a Swift extension).
      const outside = this.#qualifiedAs(`${family === "c" ? cls.name : cls.qualifiedName}.${name}`, name, "method", family);
      if (outside.length > 0) return { refs: dedupe([...direct, ...outside]), how: "receiver" };
    }
    if (direct.length > 0) return { refs: direct, how: "receiver" };
    if (language === "go" || language === "rust") {
      // Methods live outside the type: in impl blocks (Rust), beside it in the package (Go).
      const qualified = `${cls.name}.${name}`;
      const siblings = language === "go" ? new Set(this.#src.modules.siblings(path)) : null;
      this.#refs.add(name);
      const refs: SymbolRef[] = [];
      for (const file of this.#src.definers(name)) {
        if (siblings ? !siblings.has(file) : languageFamily(this.#src.language(file)) !== "rust") continue;
        this.#src.symbols(file).forEach((s, i) => {
          if (s.qualifiedName === qualified) refs.push([file, i]);
        });
      }
      if (refs.length > 0) {
        for (const [file] of refs) this.#deps.add(file);
        return { refs, how: "receiver" };
      }
    }
    return this.#inBases(ref, name, depth, seen);
  }

  /** Whether the class at `ref` names a base that does not resolve to a class of the repository. */
  #hasUnresolvedBase(ref: SymbolRef): boolean {
    return this.#basesOf(ref).some(({ piece, base }) => this.#baseType(piece, base) === null);
  }

  /**
   * The bases a class declares, each with the piece that names it: in Swift, those of all the
   * type's pieces (`extension Foo: Payments` conforms Foo as much as its declaration does).
   */
  #basesOf(ref: SymbolRef): Array<{ piece: SymbolRef; base: string }> {
    const cls = this.#src.symbols(ref[0])[ref[1]];
    if (!cls) return [];
    const own = (cls.bases ?? []).map((base) => ({ piece: ref, base }));
    if (languageFamily(this.#src.language(ref[0])) !== "swift") return own;
    const pieces = this.#definitionsNamed("swift", cls.name).filter(({ symbol }) => symbol.qualifiedName === cls.qualifiedName && classLike(symbol.kind, "swift"));
    for (const { ref: [file] } of pieces) this.#deps.add(file);
    return pieces.flatMap(({ ref: piece, symbol }) => (symbol.bases ?? []).map((base) => ({ piece, base })));
  }

  /** A base as the file of the piece that names it resolves it. */
  #baseType(piece: SymbolRef, base: string): SymbolRef | null {
    const symbols = this.#src.symbols(piece[0]);
    const language = this.#src.language(piece[0]);
    return language ? this.#type(piece[0], language, symbols, symbols[piece[1]]!.parent, base) : null;
  }

  /** `name` in the bases of the class at `ref` (nearest base first). */
  #inBases(ref: SymbolRef, name: string, depth: number, seen: Set<string>): Found | null {
    const key = `${ref[0]}#${ref[1]}`;
    // Java resolves type names through enclosing classes, whose bases are looked up in turn: the
    // nesting bound stops cycles that run through several such lookups.
    if (depth >= MAX_DEPTH || seen.has(key) || this.#nesting > 3 * MAX_DEPTH) return null;
    seen.add(key);
    this.#nesting++;
    try {
      return this.#firstInBases(ref, name, depth, seen);
    } finally {
      this.#nesting--;
    }
  }

  #firstInBases(ref: SymbolRef, name: string, depth: number, seen: Set<string>): Found | null {
    for (const { piece, base } of this.#basesOf(ref)) {
      const baseRef = this.#baseType(piece, base);
      if (!baseRef) continue;
      const found = this.#method(baseRef, name, depth + 1, seen);
      if (found) return { refs: found.refs, how: "hierarchy" };
    }
    return null;
  }

  /**
   * Top-level definitions named `name` in `files`, following re-exports (`from .x import name` in a
   * package, `export { a as name } from`, `export *`, `pub use`). `default` stands for a module's
   * default export: the definition named like the local alias, or the module's only one.
   */
  #exported(files: readonly string[], name: string, depth: number, alias = ""): SymbolRef[] {
    const refs: SymbolRef[] = [];
    for (const file of files) {
      this.#deps.add(file);
      const symbols = this.#src.symbols(file);
      let found = topLevelNamed(symbols, this.#indexesNamed(symbols, name === "default" ? alias : name), languageFamily(this.#src.language(file)));
      if (found.length === 0 && name === "default") {
        const top = symbols.flatMap((s, i) => (s.parent === -1 && s.kind !== "type" && s.kind !== "interface" ? [i] : []));
        if (top.length === 1) found = top;
      }
      if (found.length > 0) {
        for (const i of found) refs.push([file, i]);
        continue;
      }
      if (depth >= MAX_DEPTH || name === "default") continue;
      const language = this.#src.language(file);
      if (!language) continue;
      // The first import that binds the name answers: the name an import of it means.
      for (const imp of this.#src.imports(file)) {
        const reexported = imp.kind === "reexport" || language === "python" || language === "rust";
        if (!reexported) continue;
        const entry = imp.names.find((n) => (n.alias || n.name) === name) ?? imp.names.find((n) => n.name === "*");
        if (!entry) continue;
        const targets = this.#src.modules.resolve(file, language, imp).filter((t) => t !== file);
        const found = this.#exported(targets, entry.name === "*" ? name : entry.name, depth + 1);
        if (found.length > 0) {
          refs.push(...found);
          break;
        }
      }
    }
    return dedupe(refs);
  }

  /**
   * A table, view or function an SQL statement names, from any SQL file (a schema's files create
   * what its queries and migrations use); `sales.orders` narrows it to that schema's `orders`, else
   * an unqualified one.
   */
  #sqlObject(path: string, schema: string, name: string): Found | null {
    // An unquoted name's case is folded (`FROM Orders` reads `CREATE TABLE orders`): the name as written first.
    const found = this.#byName(path, name, "sql", "sql") ?? this.#byName(path, name.toLowerCase(), "sqlFolded", "sql");
    if (!found || schema === "") return found;
    const named = (wanted: string): SymbolRef[] => found.refs.filter(([file, i]) => this.#src.symbols(file)[i]!.qualifiedName.toLowerCase() === wanted);
    const inSchema = named(`${schema}.${name}`.toLowerCase());
    const refs = inSchema.length > 0 ? inSchema : named(name.toLowerCase());
    return refs.length === 0 ? null : { refs, how: refs.length === 1 ? "unique" : "ambiguous" };
  }

  /** The unique-name fallback: definitions of `name` anywhere in the same language family. */
  #byName(path: string, name: string, kind: Fallback, family: string): Found | null {
    this.#refs.add(name);
    const key = `${kind}\u0000${family}\u0000${name}`;
    let found = this.#fallbacks.get(key);
    if (found === undefined) this.#fallbacks.set(key, (found = this.#findByName(name, kind === "sqlFolded", (s) => FALLBACKS[kind](s, family), family)));
    // Swift code sees the definitions of its own module and of those it imports, no others.
    if (found && family === "swift") found = visible(found, found.refs.filter(([file]) => this.#swiftSight(path, file) !== null));
    if (found) for (const [file] of found.refs) if (file !== path) this.#deps.add(file);
    return found;
  }

  /**
   * The definitions named `name` (in any case, `folded`: `name` is then lower case) among those its
   * definers hold, that `accept` takes.
   */
  #findByName(name: string, folded: boolean, accept: (s: SymbolInfo) => boolean, family: string): Found | null {
    const refs: SymbolRef[] = [];
    for (const file of this.#src.definers(name)) {
      if (languageFamily(this.#src.language(file)) !== family) continue;
      const symbols = this.#src.symbols(file);
      if (folded) {
        symbols.forEach((s, i) => {
          if (s.name.toLowerCase() === name && accept(s)) refs.push([file, i]);
        });
      } else {
        for (const i of this.#indexesNamed(symbols, name)) if (accept(symbols[i]!)) refs.push([file, i]);
      }
      if (refs.length > MAX_CANDIDATES) return null;
    }
    if (refs.length === 0) return null;
    return { refs, how: refs.length === 1 ? "unique" : "ambiguous" };
  }

  /**
   * A C/C++ name from the file's includes, followed transitively: every file they bring defines
   * names for it. Found or not, the files read on the way are dependencies (one may come to
   * include another).
   */
  #fromIncludes(path: string, name: string): Found | null {
    this.#refs.add(name);
    const included = this.#includedBy(path);
    for (const file of included) this.#deps.add(file);
    const refs: SymbolRef[] = [];
    for (const file of this.#src.definers(name)) {
      if (file === path || !included.has(file)) continue;
      const symbols = this.#src.symbols(file);
      for (const i of topLevelNamed(symbols, this.#indexesNamed(symbols, name), "c")) refs.push([file, i]);
    }
    if (refs.length === 0 || refs.length > MAX_CANDIDATES) return null;
    return { refs, how: "import" };
  }

  /**
   * The files that declare namespace `ns` (C#'s `namespace A.B`, a Kotlin package, a PHP
   * namespace), or, where no file does, those that declare a definition qualified `ns` (`import
   * a.b.C`, `using static A.B.C;`), or one of the definitions it is a member of (`import
   * a.b.Mode.FAST`, an enum's entry): what an import of those languages brings.
   */
  #namespaceFiles(language: Language, ns: string): string[] {
    let files = this.#declaring(language, ns);
    for (let end = ns.lastIndexOf("."); files.length === 0 && end > 0; end = ns.lastIndexOf(".", end - 1)) {
      files = this.#declaring(language, ns.slice(0, end), true);
    }
    return files;
  }

  /** The files that declare namespace or definition `ns` (see #namespaceFiles); definitions only, for `members`. */
  #declaring(language: Language, ns: string, members = false): string[] {
    const name = ns.slice(ns.lastIndexOf(".") + 1);
    this.#refs.add(name);
    const key = `${language}\u0000${ns}`;
    let files = this.#namespaces.get(key);
    if (!files) {
      // The first symbol qualified `ns` in each file says what the file declares it as.
      const first = new Map<string, SymbolInfo>();
      for (const { ref, symbol } of this.#definitionsNamed(language, name)) {
        if (symbol.qualifiedName === ns && !first.has(ref[0])) first.set(ref[0], symbol);
      }
      const modules = [...first].filter(([, s]) => s.kind === "module").map(([file]) => file);
      this.#namespaces.set(key, (files = modules.length > 0 ? modules : [...first.keys()]));
    }
    // A prefix that is a namespace names no member: the member is not in the repository.
    if (members && files.length > 0 && this.#src.symbols(files[0]!).some((s) => s.qualifiedName === ns && s.kind === "module")) return [];
    for (const file of files) this.#deps.add(file);
    return files;
  }

  /**
   * A bare name in a language of declared namespaces: what the file imports by that name, or a
   * definition of a namespace it sees (its own, those enclosing them, the global one, those it
   * imports whole), or a static method of a type whose statics it imports.
   */
  #inNamespaces(path: string, language: Language, symbols: readonly SymbolInfo[], name: string): Found | null {
    let scope = this.#namespaceScopes.get(path);
    if (!scope) this.#namespaceScopes.set(path, (scope = namespaceScope(language, symbols, this.#src.imports(path))));
    const imported = scope.named.get(name);
    const lookFor = imported ? imported.slice(imported.lastIndexOf(".") + 1) : name;
    this.#refs.add(lookFor);
    const refs: SymbolRef[] = [];
    for (const { ref, symbol: s } of this.#definitionsNamed(language, lookFor)) {
      if (ref[0] === path) continue;
      const within = scopeOf(s.qualifiedName, lookFor);
      const seen = imported
        ? s.qualifiedName === imported && s.kind !== "module"
        : (C_TOP(s) && scope.open.has(within)) || (s.kind === "method" && scope.statics.includes(within));
      if (seen) refs.push(ref);
    }
    if (refs.length === 0 || refs.length > MAX_CANDIDATES) return null;
    for (const [file] of refs) this.#deps.add(file);
    return { refs, how: "import" };
  }

  /**
   * A bare Swift name: a top-level definition of the file's own module (every file of a module
   * sees the others' without an import), else of a module it imports.
   */
  #inSwiftModules(path: string, name: string): Found | null {
    this.#refs.add(name);
    const own: SymbolRef[] = [];
    const imported: SymbolRef[] = [];
    for (const { ref, symbol } of this.#definitionsNamed("swift", name)) {
      if (ref[0] === path || symbol.parent !== -1 || symbol.kind === "impl") continue;
      const sight = this.#swiftSight(path, ref[0]);
      if (sight === "own") own.push(ref);
      else if (sight === "imported") imported.push(ref);
    }
    const refs = own.length > 0 ? own : imported;
    if (refs.length === 0 || refs.length > MAX_CANDIDATES) return null;
    for (const [file] of refs) this.#deps.add(file);
    return { refs, how: own.length > 0 ? "local" : "import" };
  }

  /** How a Swift file sees the definitions of `file`: as its own module's, as an imported module's, or not at all. */
  #swiftSight(path: string, file: string): "own" | "imported" | null {
    const { modules } = this.#src;
    const theirs = modules.swiftModule(file);
    if (theirs.root === modules.swiftModule(path).root) return "own";
    let imported = this.#swiftImports.get(path);
    if (!imported) this.#swiftImports.set(path, (imported = new Set(this.#src.imports(path).map(swiftImportedModule))));
    return imported.has(theirs.name) ? "imported" : null;
  }

  /** Every definition named `name` in `language`, memoised: files look up the same names over and over. */
  #definitionsNamed(language: Language, name: string): ReadonlyArray<{ ref: SymbolRef; symbol: SymbolInfo }> {
    const key = `${language}\u0000${name}`;
    let found = this.#named.get(key);
    if (!found) {
      found = [];
      for (const file of this.#src.definers(name)) {
        if (this.#src.language(file) !== language) continue;
        const symbols = this.#src.symbols(file);
        for (const i of this.#indexesNamed(symbols, name)) found.push({ ref: [file, i], symbol: symbols[i]! });
      }
      this.#named.set(key, found);
    }
    return found;
  }

  /** The namespaces a C++ file's `using namespace` directives open. */
  #usedNamespaces(path: string): string[] {
    return this.#src.imports(path).filter((imp) => imp.kind === "using").map((imp) => scopeSegments(imp.module).join("."));
  }

  /**
   * What of a C/C++ answer an unqualified call can mean: a function in a namespace only from code
   * inside that namespace (`printf()` in a test is the C library's, not `fmt::printf`). Types and
   * macros are left as they are (a type is looked up for a scope, a macro knows no namespace).
   */
  #visibleFrom(found: Found, scopes: readonly string[]): Found | null {
    const refs = found.refs.filter(([file, i]) => {
      const s = this.#src.symbols(file)[i];
      if (!s || s.kind !== "function" || s.qualifiedName === s.name) return true;
      const namespace = s.qualifiedName.slice(0, -s.name.length);
      return scopes.some((scope) => `${scope}.`.startsWith(namespace));
    });
    return visible(found, refs);
  }

  /** The repository files `path` includes, directly or through other includes (bounded). */
  #includedBy(path: string): ReadonlySet<string> {
    let included = this.#included.get(path);
    if (included) return included;
    const seen = new Set<string>();
    let frontier = [path];
    for (let depth = 0; depth < MAX_INCLUDE_DEPTH && frontier.length > 0 && seen.size < MAX_INCLUDED_FILES; depth++) {
      const next: string[] = [];
      for (const file of frontier) {
        const language = this.#src.language(file);
        if (!language) continue;
        for (const imp of this.#src.imports(file)) {
          if (!isInclude(imp)) continue;
          for (const target of this.#src.modules.resolve(file, language, imp)) {
            if (target === path || seen.has(target) || seen.size >= MAX_INCLUDED_FILES) continue;
            seen.add(target);
            next.push(target);
          }
        }
      }
      frontier = next;
    }
    this.#included.set(path, (included = seen));
    return included;
  }

  /**
   * A C++ qualified call, `scope::callee()`: a static method when the scope is a class
   * (`Foo::make()`), otherwise a function of that namespace (`detail::parse()`). The standard
   * library's (`std::move`) are never the repository's.
   */
  #scoped(path: string, language: Language, symbols: readonly SymbolInfo[], scope: string, callee: string): Found | null {
    if (scope === "std" || scope.startsWith("std::")) return null;
    if (scope === "") {
      // `::flush()`: a function of no namespace and no class.
      const refs = this.#qualifiedAs(callee, callee, "any").filter(([file, i]) => this.#src.symbols(file)[i]?.qualifiedName === callee);
      return refs.length === 0 || refs.length > MAX_CANDIDATES ? null : { refs, how: refs.length === 1 ? "unique" : "ambiguous" };
    }
    const last = lastSegment(scope);
    // Looked up from file level: the caller's class is no scope for `detail::` or `Foo::`.
    const type = this.#type(path, language, symbols, -1, last);
    if (type) {
      const found = this.#method(type, callee, 0, new Set());
      if (found) return { refs: found.refs, how: found.how === "hierarchy" ? "hierarchy" : "receiver" };
    }
    const refs = this.#qualifiedAs(`${last}.${callee}`, callee, "any");
    if (refs.length === 0 || refs.length > MAX_CANDIDATES) return null;
    return { refs, how: refs.length === 1 ? "unique" : "ambiguous" };
  }

  /**
   * C/C++ symbols named `name` whose qualified name ends with `qualified` (`Foo.get` finds
   * `fmt.Foo.get` too; in another family, `qualified` exactly), of the kind asked (`any`, `method`, or a declaration's own kind for its
   * definitions); definitions rather than declarations when both exist. Memoised per resolver.
   */
  #qualifiedAs(qualified: string, name: string, want: "any" | "method" | { definitionOf: SymbolKind }, family = "c"): SymbolRef[] {
    this.#refs.add(name);
    const key = `${family}\u0000${typeof want === "string" ? want : `def:${want.definitionOf}`}\u0000${qualified}\u0000${name}`;
    let refs = this.#qualified.get(key);
    if (!refs) {
      const accept = (s: SymbolInfo): boolean =>
        want === "any" ? true : want === "method" ? s.kind === "method" : !s.decl && s.kind === want.definitionOf;
      const defs: SymbolRef[] = [];
      const decls: SymbolRef[] = [];
      for (const file of this.#src.definers(name)) {
        if (languageFamily(this.#src.language(file)) !== family) continue;
        const symbols = this.#src.symbols(file);
        for (const i of this.#indexesNamed(symbols, name)) {
          const s = symbols[i]!;
          const same = family === "c" ? sameQualified(s.qualifiedName, qualified) : s.qualifiedName === qualified;
          if (accept(s) && same) (s.decl ? decls : defs).push([file, i]);
        }
      }
      this.#qualified.set(key, (refs = defs.length > 0 ? defs : decls));
    }
    for (const [file] of refs) this.#deps.add(file);
    return refs;
  }

  /**
   * A C/C++ answer with declarations in it (a prototype, an in-class declaration): the definitions
   * they declare instead, where the index has them. A declaration beside its own definition is one
   * candidate, not two.
   */
  #definitionsOf(found: Found): Found {
    const symbolOf = ([file, i]: SymbolRef): SymbolInfo | undefined => this.#src.symbols(file)[i];
    const decls = found.refs.filter((ref) => symbolOf(ref)?.decl);
    if (decls.length === 0) return found;
    const defs = found.refs.filter((ref) => !symbolOf(ref)?.decl);
    const seen = new Set(defs.map(([file, i]) => `${file}#${i}`));
    const kept: SymbolRef[] = [];
    for (const ref of decls) {
      const s = symbolOf(ref)!;
      const own = defs.some((d) => symbolOf(d)!.kind === s.kind && sameQualified(symbolOf(d)!.qualifiedName, s.qualifiedName));
      const elsewhere = own ? [] : this.#qualifiedAs(s.qualifiedName, s.name, { definitionOf: s.kind });
      if (own) continue;
      if (elsewhere.length === 0 || elsewhere.length > MAX_CANDIDATES) kept.push(ref);
      for (const d of elsewhere) if (!seen.has(`${d[0]}#${d[1]}`)) {
        seen.add(`${d[0]}#${d[1]}`);
        defs.push(d);
      }
    }
    const refs = [...defs, ...kept];
    if (refs.length === found.refs.length && kept.length === decls.length) return found;
    const how = found.how === "ambiguous" && refs.length === 1 ? "unique" : found.how;
    return { refs, how };
  }

  /** The names a file's imports bind, memoised per file. */
  #scope(path: string): Scope {
    let scope = this.#scopes.get(path);
    if (scope) return scope;
    scope = { bindings: new Map(), stars: [] };
    const language = this.#src.language(path);
    if (language) {
      for (const imp of this.#src.imports(path)) {
        if (imp.kind === "reexport") continue;
        const files = this.#src.modules.resolve(path, language, imp).filter((t) => t !== path);
        bind(scope, language, imp, files, this.#src.modules, path);
      }
    }
    this.#scopes.set(path, scope);
    return scope;
  }
}

function bind(scope: Scope, language: Language, imp: ImportInfo, files: string[], modules: ModuleResolver, from: string): void {
  // An include binds no name of its own: its names are looked up through the files it brings;
  // `using namespace` opens a namespace, not a file.
  if (isInclude(imp) || imp.kind === "using") return;
  // Ruby's and PHP's `require` and a script's `source` bring every definition of the file, as an include does.
  if (language === "ruby" || language === "bash" || (language === "php" && imp.kind === "require")) {
    scope.stars.push(...files);
    return;
  }
  // The imports of declared namespaces name no file: see #inNamespaces.
  if (DECLARED_NAMESPACES.has(language)) return;
  const moduleFiles = (module: string): string[] => modules.resolve(from, language, { ...imp, module, names: [] });
  if (imp.alias) scope.bindings.set(imp.alias, { kind: "module", files: imp.names.length === 0 ? files : moduleFiles(imp.module) });
  if (imp.names.length === 0 && !imp.alias) {
    if (language === "go") {
      const parts = imp.module.split("/");
      const last = /^v\d+$/.test(parts[parts.length - 1] ?? "") ? parts[parts.length - 2] : parts[parts.length - 1];
      if (last) scope.bindings.set(last.replace(/-/g, "_"), { kind: "module", files });
    } else if (language === "python") {
      // `import a.b.c` binds `a` and lets code write `a.b.c.f()`.
      scope.bindings.set(imp.module, { kind: "module", files });
    } else scope.bindings.set(imp.module.split(/::|[./]/).pop() ?? imp.module, { kind: "module", files });
    return;
  }
  for (const { name, alias } of imp.names) {
    if (name === "*") {
      scope.stars.push(...(language === "python" || language === "rust" ? moduleFiles(imp.module) : files));
      continue;
    }
    const module = language === "python" || language === "rust" ? moduleFiles(imp.module) : files;
    const sub = language === "python"
      ? modules.pythonModule(from, imp.module.endsWith(".") ? `${imp.module}${name}` : `${imp.module}.${name}`)
      : language === "rust"
        ? moduleFiles(`${imp.module}::${name}`)
        : [];
    scope.bindings.set(alias || name, { kind: "name", files: module, name, submodule: sub });
  }
}

/** What is left of an answer once only `refs` of it can be meant: null for none, `unique` for one left of several. */
function visible(found: Found, refs: SymbolRef[]): Found | null {
  if (refs.length === found.refs.length) return found;
  if (refs.length === 0) return null;
  return { refs, how: found.how === "ambiguous" && refs.length === 1 ? "unique" : found.how };
}

/** Of `named` (the indexes of one name's symbols, ascending), the children of `parent`. */
function childrenNamed(symbols: readonly SymbolInfo[], named: readonly number[], parent: number): number[] {
  return named.filter((i) => i > parent && symbols[i]!.parent === parent);
}

/**
 * Of `named` (the indexes of one name's symbols, ascending), the top-level definitions (Go and
 * Rust methods are top-level but qualified: they are left out). In C and C++ a namespace does not
 * hide a name from the files that include it.
 */
function topLevelNamed(symbols: readonly SymbolInfo[], named: readonly number[], family = ""): number[] {
  return named.filter((i) => {
    const s = symbols[i]!;
    if (s.kind === "impl") return false;
    return NAMESPACED.has(family) ? topKind(s, family) && inNamespacesOnly(symbols, s) : s.parent === -1 && s.qualifiedName === s.name;
  });
}

/** Each name's symbols, by index ascending. */
function indexByName(symbols: readonly SymbolInfo[]): ReadonlyMap<string, readonly number[]> {
  const byName = new Map<string, number[]>();
  symbols.forEach((s, i) => {
    const named = byName.get(s.name);
    if (named) named.push(i);
    else byName.set(s.name, [i]);
  });
  return byName;
}

const NONE: readonly number[] = [];

/** What a C/C++ name can stand for at file level: anything but a method or a namespace. */
const C_TOP = (s: SymbolInfo): boolean => s.kind !== "method" && s.kind !== "module" && s.kind !== "impl";

/** What a name can stand for at file level in a namespaced family: in Ruby a module too (`Helper.run`). */
function topKind(s: SymbolInfo, family: string): boolean {
  return family === "ruby" ? s.kind !== "method" : C_TOP(s);
}

function inNamespacesOnly(symbols: readonly SymbolInfo[], s: SymbolInfo): boolean {
  for (let p = s.parent, n = 0; p >= 0 && n < 64; p = symbols[p]!.parent, n++) if (symbols[p]!.kind !== "module") return false;
  return true;
}

/** Whether two C/C++ qualified names can be the same entity, one written with more of its namespaces. */
function sameQualified(a: string, b: string): boolean {
  return a === b || a.endsWith(`.${b}`) || b.endsWith(`.${a}`);
}


function dedupe(refs: SymbolRef[]): SymbolRef[] {
  const seen = new Set<string>();
  return refs.filter(([p, i]) => {
    const key = `${p}#${i}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
