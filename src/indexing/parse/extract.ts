import type { CallSite, ImportInfo, CodeLanguage, ParsedFile, SymbolInfo, SymbolKind } from "../../core/types.js";
import type { Grammar, TSNode } from "./grammars.js";
import { extractApiFacts, mentionsHttp } from "./api/index.js";
import { lastSegment, scopeSegments, withoutTemplateArgs } from "../../core/cxx-names.js";
import { blankAttributeMacros } from "./c-macros.js";
import { blankConditionals } from "./swift-conditionals.js";
import { decodeImport } from "./imports.js";
import { DECLARED_NAMESPACES } from "../../core/languages.js";
import { clip, firstSentence, lineIndex, MAX_SIGNATURE } from "./text.js";

const CONTAINERS: ReadonlySet<SymbolKind> = new Set(["class", "struct", "interface", "trait", "impl", "enum"]);
/** Nodes that wrap a definition and carry its decorators, `export` or leading comments. */
const WRAPPERS: ReadonlySet<string> = new Set([
  "decorated_definition",
  "export_statement",
  "lexical_declaration",
  "variable_declaration",
  "type_declaration",
  "template_declaration",
]);
const COMMENTS: ReadonlySet<string> = new Set(["comment", "line_comment", "block_comment", "multiline_comment"]);
/** Children of a class or interface that list its bases (Python's `superclasses` is read by field). */
const HERITAGE: ReadonlySet<string> = new Set([
  "class_heritage", "extends_clause", "implements_clause", "extends_type_clause",
  "superclass", "super_interfaces", "extends_interfaces", "type_list", "base_class_clause", "base_list",
  "base_clause", "class_interface_clause", "delegation_specifiers", "delegation_specifier", "constructor_invocation",
  "inheritance_specifier",
]);
/** Nodes in a heritage list that name a base; keyword arguments and type arguments are not bases. */
const BASE_NAMES: ReadonlySet<string> = new Set([
  "identifier", "type_identifier", "attribute", "member_expression", "scoped_type_identifier", "generic_type", "nested_type_identifier",
  "template_type", "qualified_identifier", "qualified_name", "generic_name", "constant", "scope_resolution",
  "name", "user_type",
]);
/** Ruby's mixins: a module named by one of these in a class body is a base of the class. */
const RUBY_MIXINS: ReadonlySet<string> = new Set(["include", "extend", "prepend"]);
/**
 * Calls of the language itself: shell builtins, Ruby's visibility and attribute declarations and
 * Kernel methods. Never a function the repository defines (one may shadow a builtin, rarely), so
 * they are no call sites.
 */
const BUILTIN_CALLS: Partial<Record<CodeLanguage, ReadonlySet<string>>> = {
  bash: new Set([
    "echo", "printf", "cd", "pwd", "export", "local", "declare", "typeset", "readonly", "return", "exit", "set", "unset",
    "shift", "test", "[", "[[", "true", "false", "eval", "exec", "read", "source", ".", "trap", "wait", "command", "type",
    "hash", "alias", "unalias", "let", "getopts", "pushd", "popd", "builtin", "mapfile", "readarray", "shopt", "kill",
    "jobs", "bg", "fg", "umask", "ulimit", "times", "break", "continue", ":",
  ]),
  ruby: new Set([
    "private", "protected", "public", "module_function", "private_constant", "attr_reader", "attr_writer", "attr_accessor",
    "include", "extend", "prepend", "require", "require_relative", "load", "puts", "print", "p", "pp", "raise", "fail",
    "loop", "lambda", "proc", "block_given?", "binding", "freeze", "frozen?", "catch", "throw", "sleep", "format", "sprintf",
  ]),
};
/** Ruby nodes whose bare identifier statements are calls (`validate`), unless the name is a local. */
const RUBY_BODIES: ReadonlySet<string> = new Set(["program", "body_statement", "block_body", "then", "else", "do"]);
/** C/C++ declarators that wrap the one naming a function (`*f()`, `&f()`, `f() const`). */
const DECLARATOR_WRAPPERS: ReadonlySet<string> = new Set(["pointer_declarator", "reference_declarator", "attributed_declarator"]);
/** What a C/C++ function declarator's name can be. */
const FUNCTION_NAMES: ReadonlySet<string> = new Set(["identifier", "field_identifier", "destructor_name", "operator_name", "operator_cast"]);
const MAX_RECEIVER = 80;

interface Def {
  node: TSNode;
  name: string;
  kind: SymbolKind;
  /**
   * Go method receiver type, or the scope a definition is named with (`a::Foo` of C++'s
   * out-of-class `a::Foo::get`, Ruby's `class A::B`, C#'s `namespace A.B`, written with `::`): the qualifier.
   */
  recv: string;
  /** A declaration without a body (a C/C++ prototype). */
  decl: boolean;
  /** Where the definition ends when it is not its node's end: C#'s `namespace A;` runs to the end of its file. */
  end?: number;
}

/**
 * Extracts symbols, call sites and imports from one source file. Pure apart from tree-sitter:
 * runs the same in a worker thread and in a test.
 */
export function extractFile(grammar: Grammar, language: CodeLanguage, source: string): ParsedFile {
  const root = grammar.parse(parserText(language, source));
  const defs = new Map<number, Def>();
  /** `bare`: a Ruby identifier statement, a call unless its name is a local (see rubyLocals). */
  const calls: Array<{ at: number; callee: string; receiver: string; bare?: true }> = [];
  const imports: ImportInfo[] = [];

  /** C's `typedef struct x {…} X;`: the struct inside is the typedef's symbol, not one of its own. */
  const typedefBodies = new Set<number>();
  for (const match of grammar.query.matches(root)) {
    let main: TSNode | undefined;
    let kind: SymbolKind | undefined;
    let name = "";
    let recv = "";
    let decl = false;
    let captured: "name" | "declarator" | "" = "";
    let nameNode: TSNode | undefined;
    let callee = "";
    let calleeAt = 0;
    let receiver = "";
    let source_ = "";
    let what: "def" | "call" | "import" | "require" | undefined;
    for (const { name: cap, node } of match.captures) {
      if (cap.startsWith("def.") || cap.startsWith("decl.")) {
        what = "def";
        main = node;
        decl = cap.startsWith("decl.");
        kind = cap.slice(cap.indexOf(".") + 1) as SymbolKind;
      } else if (cap === "call" || cap === "import" || cap === "require") {
        what = cap;
        main = node;
      } else if (cap === "name") {
        name = node.text;
        captured = "name";
        nameNode = node;
      }
      else if (cap === "recv") recv = node.text;
      else if (cap === "declarator") {
        const named = declaratorName(node);
        name = named?.name ?? "";
        recv = named?.scope ?? "";
        captured = "declarator";
      } else if (cap === "callee") {
        callee = node.text;
        calleeAt = node.startIndex;
      }
      else if (cap === "receiver") receiver = node.text;
      else if (cap === "qualified") {
        // `a::Foo::make<T>()`: callee `make`, and the scope as receiver, told from an object by its `::`.
        const segments = scopeSegments(node.text);
        callee = segments.pop() ?? "";
        // `::flush()` is the global namespace's: its scope is empty, and still a scope.
        receiver = segments.length > 0 ? `${clip(segments.join("::"), MAX_RECEIVER - 2)}::` : node.text.trimStart().startsWith("::") ? "::" : "";
        calleeAt = node.startIndex;
      }
      else if (cap === "source") source_ = node.text;
    }
    if (!main || !what) continue;
    if (what === "def" && kind) {
      if (name === "") continue; // a function pointer variable, a declarator it cannot name
      const known = defs.get(main.id);
      // A typedef matches both as a type and as the struct or enum it defines: the latter says more.
      if (known && !(known.kind === "type" && kind !== "type")) continue;
      if (main.type === "type_definition" && kind !== "type") {
        const body = main.childForFieldName("type");
        if (body) typedefBodies.add(body.id);
      }
      if (language === "kotlin" && nameNode) kind = kotlinKind(main, nameNode, kind, source);
      // A class or namespace named with its scope (`struct Foo::Bar`, `namespace a::b`, `class A::B`, `namespace A.B`).
      const scoped = captured === "name" ? scopedName(language, kind, name) : null;
      defs.set(main.id, {
        node: main,
        name: scoped ? scoped.name : kind === "impl" ? bareTypeName(name) : name,
        kind,
        recv: scoped ? scoped.scope : recv,
        decl,
        ...(isFileScoped(main) ? { end: source.length } : {}),
      });
    } else if (what === "call") {
      if (receiver === "" && BUILTIN_CALLS[language]?.has(callee)) continue;
      const call = dynamicCall(language, callee, receiver);
      calls.push({ at: calleeAt, callee: calleeName(main, call.callee), receiver: clip(call.receiver, MAX_RECEIVER), ...(language === "ruby" && RUBY_BODIES.has(main.type) ? { bare: true as const } : {}) });
    } else if (what === "import") {
      imports.push(...decodeImport(language, main));
    } else if (what === "require") {
      imports.push(requireImport(main, source_));
    }
  }

  for (const id of typedefBodies) defs.delete(id);
  endFileScopes([...defs.values()]);
  const { symbols, starts, ends } = buildSymbols(language, source, [...defs.values()]);
  // Calls are the most numerous captures: locate them by the callee's offset alone, in JS,
  // rather than asking tree-sitter for each call node's range and position.
  const lineOf = lineIndex(source);
  // Ruby's bare identifiers are calls unless the definition around them binds the name.
  const locals = new Map<number, ReadonlySet<string>>();
  const isLocal = (at: number, name: string): boolean => {
    const scope = enclosing(symbols, starts, ends, at);
    let names = locals.get(scope);
    if (!names) locals.set(scope, (names = rubyLocals(scope < 0 ? source : source.slice(starts[scope], ends[scope]))));
    return names.has(name);
  };
  const callSites: CallSite[] = calls
    .filter((c) => c.callee !== "" && !(c.bare && isLocal(c.at, c.callee)))
    .map((c) => ({ caller: enclosing(symbols, starts, ends, c.at), callee: c.callee, receiver: c.receiver, line: lineOf(c.at) }))
    .sort((a, b) => a.line - b.line);
  imports.sort((a, b) => a.line - b.line);
  const api = grammar.apiQuery && mentionsHttp(language, source) ? apiFactsOrNone(language, grammar.apiQuery, root, imports, lineOf) : undefined;
  return { symbols, calls: callSites, imports, hasErrors: root.hasError, ...(api ? { api } : {}) };
}

/**
 * The text the parser reads: the source, with what the grammar cannot read blanked out (C/C++
 * attribute macros, Swift's `#if` lines). Same length and lines: every offset stays.
 */
function parserText(language: CodeLanguage, source: string): string {
  if (isC(language)) return blankAttributeMacros(source, language as "c" | "cpp");
  return language === "swift" ? blankConditionals(source) : source;
}

/** A file's HTTP facts; what they cannot read (a pathological expression) costs them, never the file's parse. */
function apiFactsOrNone(...args: Parameters<typeof extractApiFacts>): ReturnType<typeof extractApiFacts> {
  try {
    return extractApiFacts(...args);
  } catch {
    return undefined;
  }
}

/** Definitions nested deeper than this (functions in functions in ...) are not symbols of their own. */
const MAX_NESTING = 32;

function buildSymbols(
  language: CodeLanguage,
  source: string,
  defs: Def[],
): { symbols: SymbolInfo[]; starts: number[]; ends: number[] } {
  // Outer definitions first: by start, then the longer one.
  defs.sort((a, b) => a.node.startIndex - b.node.startIndex || b.node.endIndex - a.node.endIndex);
  const symbols: SymbolInfo[] = [];
  const starts: number[] = [];
  const ends: number[] = [];
  const stack: number[] = [];
  const c = isC(language);
  const scopedNames = c || language === "ruby" || language === "swift" || DECLARED_NAMESPACES.has(language);
  // The last line with text before where a file-scoped namespace ends (the next one, or the file's end).
  const lineOf = defs.some((d) => d.end !== undefined) ? lineIndex(source) : null;
  const lastLineBefore = (end: number): number => lineOf!(source.slice(0, end).trimEnd().length);
  // An out-of-class definition scoped by a namespace of this file is a function (`void llvm::f()`), not a method.
  const namespaces = new Set(c ? defs.filter((d) => d.kind === "module").map((d) => d.name) : []);
  for (const def of defs) {
    const { node } = def;
    while (stack.length > 0 && ends[stack[stack.length - 1]!]! < (def.end ?? node.endIndex)) stack.pop();
    // Deeper definitions belong to their enclosing one: qualified names stay short, and the work
    // per definition (tree-sitter finds a node's parent and siblings by walking down from the
    // root) stays bounded. 5,000 nested functions took 74 s and 1.6 GB.
    if (stack.length >= MAX_NESTING) continue;
    const parent = stack.length > 0 ? stack[stack.length - 1]! : -1;
    const parentSym = parent >= 0 ? symbols[parent] : undefined;
    // A declaration inside a body is a local (`buffer n(std::move(b));`), not a prototype.
    if (def.decl && (parentSym?.kind === "function" || parentSym?.kind === "method")) continue;
    let kind = def.kind;
    if (kind === "function" && parentSym && (CONTAINERS.has(parentSym.kind) || (language === "ruby" && parentSym.kind === "module"))) kind = "method";
    // `int Foo::get() {…}` defines a method of Foo outside its class, qualified by its namespaces.
    const scope = c ? scopeSegments(def.recv) : [];
    if (kind === "function" && scope.length > 0 && !namespaces.has(scope[scope.length - 1]!)) kind = "method";
    const qualifier = !def.recv
      ? parentSym?.qualifiedName ?? ""
      : scopedNames
        ? [parentSym?.qualifiedName ?? "", ...scopeSegments(def.recv)].filter((q) => q !== "").join(".")
        : bareTypeName(def.recv);
    const anchor = outerNode(node);
    const bases = hasBases(language, kind) ? basesOf(node, language) : [];
    const end = def.end ?? node.endIndex;
    symbols.push({
      name: def.name,
      qualifiedName: qualifier ? `${qualifier}.${def.name}` : def.name,
      kind,
      signature: signatureOf(node, source, language),
      doc: docOf(language, node, anchor),
      startLine: leadingAttributes(anchor).startPosition.row + 1,
      // A node that ends with its line's newline (a `#define`) ends on that line, not the next.
      endLine: def.end !== undefined ? lastLineBefore(def.end) : node.endPosition.row + (node.endPosition.column === 0 && node.endPosition.row > node.startPosition.row ? 0 : 1),
      parent,
      ...(bases.length > 0 ? { bases } : {}),
      ...(def.decl ? { decl: true as const } : {}),
    });
    starts.push(node.startIndex);
    ends.push(end);
    stack.push(symbols.length - 1);
  }
  return { symbols, starts, ends };
}

/**
 * Whether a kind of definition names bases: classes and interfaces; C, C++, C# and Swift structs;
 * Swift enums and extensions (they conform to protocols: `extension Foo: Payments`); Ruby modules
 * (their mixins).
 */
function hasBases(language: CodeLanguage, kind: SymbolKind): boolean {
  if (kind === "class" || kind === "interface") return true;
  if (kind === "struct") return isC(language) || language === "csharp" || language === "swift";
  if (language === "swift") return kind === "enum" || kind === "impl";
  return language === "ruby" && kind === "module";
}

/**
 * The bare names of a class's bases and interfaces: `class A(B, mod.C, metaclass=M)` -> `B`, `C`;
 * Ruby's modules mixed in by `include M` / `extend M` / `prepend M` in its body too.
 */
function basesOf(node: TSNode, language: CodeLanguage): string[] {
  const bases: string[] = [];
  const visit = (list: TSNode): void => {
    for (const child of list.namedChildren) {
      if (HERITAGE.has(child.type)) visit(child);
      else if (BASE_NAMES.has(child.type)) bases.push(bareTypeName(child.text));
    }
  };
  const superclasses = node.childForFieldName("superclasses");
  if (superclasses) visit(superclasses);
  for (const child of node.namedChildren) if (HERITAGE.has(child.type)) visit(child);
  if (language === "ruby") {
    for (const statement of node.childForFieldName("body")?.namedChildren ?? []) {
      if (statement.type !== "call" || statement.childForFieldName("receiver") || !RUBY_MIXINS.has(statement.childForFieldName("method")?.text ?? "")) continue;
      const args = statement.childForFieldName("arguments");
      if (args) visit(args);
    }
  }
  // PHP's traits: `use Loggable;` in a class body.
  if (language === "php") for (const statement of node.childForFieldName("body")?.namedChildren ?? []) if (statement.type === "use_declaration") visit(statement);
  return [...new Set(bases)].filter((b) => b !== "");
}

/** Index of the innermost symbol containing `offset`, or -1. */
function enclosing(symbols: SymbolInfo[], starts: number[], ends: number[], offset: number): number {
  let lo = 0;
  let hi = starts.length - 1;
  let best = -1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (starts[mid]! <= offset) {
      best = mid;
      lo = mid + 1;
    } else hi = mid - 1;
  }
  while (best >= 0 && ends[best]! <= offset) best = symbols[best]!.parent;
  return best;
}

function outerNode(node: TSNode): TSNode {
  let anchor = node;
  while (anchor.parent && WRAPPERS.has(anchor.parent.type)) anchor = anchor.parent;
  return anchor;
}

/** Rust `#[attr]` items belong to the definition after them. */
function leadingAttributes(node: TSNode): TSNode {
  let first = node;
  for (let prev = node.previousNamedSibling; prev && prev.type === "attribute_item"; prev = prev.previousNamedSibling) {
    first = prev;
  }
  return first;
}

/** Kotlin's bodies are no fields of their definitions. */
const KOTLIN_BODIES: ReadonlySet<string> = new Set(["function_body", "class_body", "enum_class_body"]);

function signatureOf(node: TSNode, source: string, language: CodeLanguage): string {
  const body = node.childForFieldName("body")
    ?? node.childForFieldName("value")?.childForFieldName("body")
    ?? (language === "kotlin" ? node.namedChildren.find((c) => KOTLIN_BODIES.has(c.type)) : undefined)
    ?? null;
  let text: string;
  if (body && body.startIndex > node.startIndex) {
    // A comment between the declaration and its body (`def f():` `# why`) is no part of the declaration.
    text = "";
    let at = node.startIndex;
    for (const child of node.namedChildren) {
      if (child.startIndex >= body.startIndex) break;
      if (!child.type.endsWith("comment") || child.startIndex < at) continue;
      text += source.slice(at, child.startIndex);
      at = child.endIndex;
    }
    text += source.slice(at, body.startIndex);
  } else {
    text = source.slice(node.startIndex, Math.min(node.endIndex, node.startIndex + 4 * MAX_SIGNATURE));
    const brace = text.indexOf("{");
    if (brace > 0) text = text.slice(0, brace);
  }
  // Ruby keeps a comment after `module A` (or before a body's first statement) ahead of the body.
  if (language === "ruby") text = text.replace(/(^|\s)#(?!\{).*$/gm, "$1");
  // A prototype's `;` ends the statement, not the signature.
  return clip(text.replace(/\s+/g, " ").trim().replace(/;$/, "").replace(/\s*[:{=]?\s*(=>)?\s*$/, (m) => (m.includes("=>") ? " =>" : "")), MAX_SIGNATURE);
}

function docOf(language: CodeLanguage, node: TSNode, anchor: TSNode): string {
  if (language === "python") {
    const first = node.childForFieldName("body")?.firstNamedChild;
    const str = first?.type === "expression_statement" ? first.firstNamedChild : null;
    return str?.type === "string" ? firstSentence(str.text.replace(/^[rRbBuUfF]*("""|'''|"|')|("""|'''|"|')$/g, "")) : "";
  }
  // The run of comments right above the definition (or above its attributes).
  const lines: string[] = [];
  const first = leadingAttributes(anchor);
  let expectedRow = first.startPosition.row;
  // Ruby keeps the comments before a body's first statement outside the body (`module A` `# doc` `class B`).
  const above = first.previousNamedSibling ?? (first.parent?.type === "body_statement" ? first.parent.previousNamedSibling : null);
  for (let prev = above; prev && COMMENTS.has(prev.type); prev = prev.previousNamedSibling) {
    if (prev.endPosition.row < expectedRow - 1) break;
    lines.unshift(prev.text);
    expectedRow = prev.startPosition.row;
  }
  if (lines.length === 0) return "";
  // C#'s XML doc comments: `/// <summary>Issues an invoice for <see cref="Order"/>.</summary>`.
  const text = language === "csharp" ? lines.join("\n").replace(/<see\w*\s+(?:c?ref|langword)="([^"]*)"\s*\/>/g, "$1").replace(/<\/?[A-Za-z][^>]*>/g, "") : lines.join("\n");
  return firstSentence(text);
}

/**
 * The name a C/C++ function declarator declares, and the scope it is qualified by:
 * `*f(void)` -> f; `Foo<T>::get() const` -> get in `Foo<T>`; `a::b::~C()` -> ~C in `a::b`.
 * Null for what declares no function by name (a function pointer variable `(*fp)(int)`).
 */
function declaratorName(node: TSNode): { name: string; scope: string } | null {
  let n: TSNode | null = node;
  for (let depth = 0; n && DECLARATOR_WRAPPERS.has(n.type) && depth < 8; depth++) {
    n = n.childForFieldName("declarator") ?? n.firstNamedChild;
  }
  if (n?.type !== "function_declarator") return null;
  n = n.childForFieldName("declarator");
  const scopes: string[] = [];
  for (let depth = 0; n?.type === "qualified_identifier" && depth < 8; depth++) {
    const scope = n.childForFieldName("scope");
    if (scope) scopes.push(withoutTemplateArgs(scope.text));
    n = n.childForFieldName("name");
  }
  if (n?.type === "template_function") n = n.childForFieldName("name");
  if (!n || !FUNCTION_NAMES.has(n.type)) return null;
  return { name: n.text, scope: scopes.join("::") };
}

/**
 * A definition named with its scope, split: C++'s `Foo::Bar`, `a::b` of a nested namespace and
 * `formatter<T>`, Ruby's `class A::B`, C#'s `namespace A.B`, Swift's `extension Outer.Inner`. The
 * scope is written with `::`. Null in the languages whose names carry no scope.
 */
function scopedName(language: CodeLanguage, kind: SymbolKind, name: string): { name: string; scope: string } | null {
  const dotted = (kind === "module" && DECLARED_NAMESPACES.has(language)) || (language === "swift" && kind === "impl");
  if (!isC(language) && language !== "ruby" && !dotted) return null;
  const segments = dotted ? name.replace(/\s+/g, "").split(/[.\\]/).filter((s) => s !== "") : scopeSegments(name);
  const last = segments.pop() ?? name;
  return { name: last, scope: segments.join("::") };
}

/** A namespace that holds the rest of its file (C#'s `namespace A.B;`, PHP's `namespace A\B;`, Kotlin's and Scala's `package a.b`). */
function isFileScoped(node: TSNode): boolean {
  return node.type === "file_scoped_namespace_declaration" || node.type === "package_header"
    || ((node.type === "namespace_definition" || node.type === "package_clause") && !node.childForFieldName("body"));
}

/** A file-scoped namespace ends where the next one starts (PHP allows several per file), or at the end of the file. */
function endFileScopes(defs: Def[]): void {
  const scoped = defs.filter((d) => d.end !== undefined).sort((a, b) => a.node.startIndex - b.node.startIndex);
  for (let i = 0; i + 1 < scoped.length; i++) scoped[i]!.end = scoped[i + 1]!.node.startIndex - 1;
}

/**
 * Kotlin's class declarations are also its interfaces and enums (`interface X`, `enum class Y`),
 * and a function declared on a receiver type (`fun String.shout()`) is an extension: a method,
 * called on a value, though a member of its package.
 */
function kotlinKind(node: TSNode, nameNode: TSNode, kind: SymbolKind, source: string): SymbolKind {
  if (node.type === "class_declaration") {
    const head = source.slice(node.startIndex, nameNode.startIndex);
    return /\binterface\s*$/.test(head) ? "interface" : /\benum\s+class\s*$/.test(head) ? "enum" : kind;
  }
  // Qualified by its package alone, as its imports name it (`import a.b.asClassName`).
  const receiver = node.type === "function_declaration" ? nameNode.previousNamedSibling : null;
  return receiver && (receiver.type === "user_type" || receiver.type === "nullable_type") ? "method" : kind;
}

/**
 * What a call names where the language writes it as something else: Ruby's `Foo::Bar.new(…)`
 * constructs `Bar` (a call of the class, as `new Bar()` is elsewhere); a receiver written with its
 * scope (Ruby's `A::Helper.run`, C#'s `Acme.Util.Helper.Run`, Swift's `Kit.Parser.parse`) is its type's bare name.
 */
function dynamicCall(language: CodeLanguage, callee: string, receiver: string): { callee: string; receiver: string } {
  if (language === "ruby") {
    const constant = /^:?:?[A-Z]\w*(?:::[A-Z]\w*)*$/.test(receiver) ? lastSegment(receiver) : "";
    if (callee === "new" && constant) return { callee: constant, receiver: "" };
    return { callee, receiver: constant || receiver };
  }
  if ((language === "csharp" || language === "swift") && /^(?:global::)?[A-Z]\w*(?:\.[A-Z]\w*)+$/.test(receiver)) return { callee, receiver: receiver.slice(receiver.lastIndexOf(".") + 1) };
  // PHP's `\App\Support\helper()` and `\App\Models\User::find()`: the bare names.
  if (language === "php") return { callee: callee.slice(callee.lastIndexOf("\\") + 1), receiver: /^\\?\w+(?:\\\w+)+$/.test(receiver) ? receiver.slice(receiver.lastIndexOf("\\") + 1) : receiver };
  return { callee, receiver };
}

/**
 * The names a Ruby definition's text (or a whole file's) binds as locals: assigned (`name =`,
 * `name ||=`, `a, b =`), taken as parameters of a method or a block, or by `for`. One pass per
 * definition, however many bare identifiers it holds.
 */
function rubyLocals(text: string): ReadonlySet<string> {
  const names = new Set<string>();
  const add = (list: string): void => {
    for (const m of list.matchAll(/[a-z_]\w*/g)) names.add(m[0]);
  };
  for (const m of text.matchAll(/(?:^|[^\w@$.:])([a-z_]\w*(?:\s*,\s*\*?[a-z_]\w*)*)\s*(?:[-+*/|&]{0,2}=)(?![=~>])/gm)) add(m[1]!);
  for (const m of text.matchAll(/\|([^|\n]*)\|/g)) add(m[1]!);
  // A method's parameters: in parentheses, or after a space on the `def` line (never the next line).
  for (const m of text.matchAll(/\bdef\s+(?:self\.)?[\w?!=]+(?:\(([^)]*)\)|[ \t]+([^\n;#=]*))/g)) add(m[1] ?? m[2] ?? "");
  for (const m of text.matchAll(/\bfor\s+([a-z_]\w*)/g)) add(m[1]!);
  return names;
}

function isC(language: CodeLanguage): boolean {
  return language === "c" || language === "cpp";
}

function calleeName(node: TSNode, captured: string): string {
  if (node.type === "macro_invocation") return `${captured}!`;
  return bareTypeName(captured);
}

/** `a.b.Foo<T>` -> `Foo`; `crate::x::Bar` -> `Bar`; `&mut Baz` -> `Baz`. */
function bareTypeName(text: string): string {
  const noGenerics = text.replace(/<[\s\S]*$/, "").replace(/^[&*\s]*(mut\s+|dyn\s+)?/, "").trim();
  const parts = noGenerics.split(/::|\./);
  return parts[parts.length - 1] ?? noGenerics;
}

function requireImport(node: TSNode, module: string): ImportInfo {
  // const x = require("m")  |  const { a, b: c } = require("m")
  const declarator = node.parent?.type === "variable_declarator" ? node.parent : null;
  const target = declarator?.childForFieldName("name");
  const names: ImportInfo["names"] = [];
  let alias = "";
  if (target?.type === "identifier") alias = target.text;
  else if (target?.type === "object_pattern") {
    for (const p of target.namedChildren) {
      if (p.type === "shorthand_property_identifier_pattern") names.push({ name: p.text, alias: "" });
      else if (p.type === "pair_pattern") {
        names.push({ name: p.childForFieldName("key")?.text ?? "", alias: p.childForFieldName("value")?.text ?? "" });
      }
    }
  }
  return { module, names, alias, kind: "require", line: node.startPosition.row + 1 };
}
