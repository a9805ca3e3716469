import type { ImportInfo, CodeLanguage } from "../../core/types.js";
import type { TSNode } from "./grammars.js";

type Name = ImportInfo["names"][number];

/** Decodes one `@import` statement node into zero or more imports. */
export function decodeImport(language: CodeLanguage, node: TSNode): ImportInfo[] {
  const line = node.startPosition.row + 1;
  switch (language) {
    case "python":
      return pythonImport(node, line);
    case "javascript":
    case "typescript":
    case "tsx":
      return jsImport(node, line);
    case "java":
      return javaImport(node, line);
    case "go":
      return goImport(node, line);
    case "rust":
      return rustImport(node, line);
    case "c":
    case "cpp":
      return includeDirective(node, line);
    case "csharp":
      return csharpUsing(node, line);
    case "ruby":
      return rubyRequire(node, line);
    case "bash":
      return shellSource(node, line);
    case "php":
      return phpImport(node, line);
    case "kotlin":
      return kotlinImport(node, line);
    case "scala":
      return scalaImport(node, line);
    case "swift":
      return swiftImport(node, line);
  }
}

function imp(module: string, names: Name[], alias: string, kind: ImportInfo["kind"], line: number): ImportInfo {
  return { module, names, alias, kind, line };
}

function pythonImport(node: TSNode, line: number): ImportInfo[] {
  if (node.type === "import_statement") {
    // import a.b, c as d
    return node.childrenForFieldName("name").map((n) =>
      n.type === "aliased_import"
        ? imp(n.childForFieldName("name")?.text ?? "", [], n.childForFieldName("alias")?.text ?? "", "import", line)
        : imp(n.text, [], "", "import", line),
    );
  }
  // from .x import y as z, w  |  from x import *
  const module = node.childForFieldName("module_name")?.text ?? "";
  const names: Name[] = node.childrenForFieldName("name").map((n) =>
    n.type === "aliased_import"
      ? { name: n.childForFieldName("name")?.text ?? "", alias: n.childForFieldName("alias")?.text ?? "" }
      : { name: n.text, alias: "" },
  );
  if (node.namedChildren.some((c) => c.type === "wildcard_import")) names.push({ name: "*", alias: "" });
  return [imp(module, names, "", "import", line)];
}

function stringContent(node: TSNode | null): string {
  if (!node) return "";
  const fragment = node.namedChildren.find((c) => c.type === "string_fragment");
  return fragment ? fragment.text : node.text.replace(/^['"`]|['"`]$/g, "");
}

function jsImport(node: TSNode, line: number): ImportInfo[] {
  const module = stringContent(node.childForFieldName("source"));
  const names: Name[] = [];
  let alias = "";
  if (node.type === "export_statement") {
    // export { a as b } from "x"  |  export * from "x"  |  export * as ns from "x"
    const clause = node.namedChildren.find((c) => c.type === "export_clause");
    for (const spec of clause?.namedChildren ?? []) {
      if (spec.type !== "export_specifier") continue;
      names.push({ name: spec.childForFieldName("name")?.text ?? "", alias: spec.childForFieldName("alias")?.text ?? "" });
    }
    const ns = node.namedChildren.find((c) => c.type === "namespace_export");
    if (ns) alias = ns.namedChildren[0]?.text ?? "";
    if (!clause && !ns) names.push({ name: "*", alias: "" });
    return [imp(module, names, alias, "reexport", line)];
  }
  const clause = node.namedChildren.find((c) => c.type === "import_clause");
  for (const part of clause?.namedChildren ?? []) {
    if (part.type === "identifier") names.push({ name: "default", alias: part.text });
    else if (part.type === "namespace_import") alias = part.namedChildren[0]?.text ?? "";
    else if (part.type === "named_imports") {
      for (const spec of part.namedChildren) {
        if (spec.type !== "import_specifier") continue;
        names.push({ name: spec.childForFieldName("name")?.text ?? "", alias: spec.childForFieldName("alias")?.text ?? "" });
      }
    }
  }
  return [imp(module, names, alias, "import", line)];
}

function javaImport(node: TSNode, line: number): ImportInfo[] {
  // import java.util.List;  import java.util.*;  import static org.junit.Assert.assertEquals;
  const path = node.namedChildren.find((c) => c.type === "scoped_identifier" || c.type === "identifier");
  if (!path) return [];
  const wildcard = node.namedChildren.some((c) => c.type === "asterisk");
  if (wildcard) return [imp(path.text, [{ name: "*", alias: "" }], "", "import", line)];
  const dot = path.text.lastIndexOf(".");
  if (dot < 0) return [imp(path.text, [], "", "import", line)];
  return [imp(path.text.slice(0, dot), [{ name: path.text.slice(dot + 1), alias: "" }], "", "import", line)];
}

function goImport(node: TSNode, line: number): ImportInfo[] {
  const path = node.childForFieldName("path");
  const module = path ? path.text.replace(/^["`]|["`]$/g, "") : "";
  return [imp(module, [], node.childForFieldName("name")?.text ?? "", "import", line)];
}

function rustImport(node: TSNode, line: number): ImportInfo[] {
  const arg = node.childForFieldName("argument");
  if (!arg) return [];
  // Flatten nested use trees into (module, name, alias) triples, then group by module.
  const flat: Array<{ module: string; name: string; alias: string }> = [];
  const join = (prefix: string, path: string): string => (prefix && path ? `${prefix}::${path}` : prefix || path);
  const split = (full: string): { module: string; name: string } => {
    const i = full.lastIndexOf("::");
    return i < 0 ? { module: "", name: full } : { module: full.slice(0, i), name: full.slice(i + 2) };
  };
  const walk = (n: TSNode, prefix: string): void => {
    switch (n.type) {
      case "scoped_use_list": {
        const path = join(prefix, n.childForFieldName("path")?.text ?? "");
        const list = n.childForFieldName("list");
        for (const item of list?.namedChildren ?? []) walk(item, path);
        return;
      }
      case "use_list":
        for (const item of n.namedChildren) walk(item, prefix);
        return;
      case "use_as_clause": {
        const { module, name } = split(join(prefix, n.childForFieldName("path")?.text ?? ""));
        flat.push({ module, name, alias: n.childForFieldName("alias")?.text ?? "" });
        return;
      }
      case "use_wildcard": {
        const inner = n.namedChildren[0];
        flat.push({ module: join(prefix, inner?.text ?? ""), name: "*", alias: "" });
        return;
      }
      default: {
        const { module, name } = split(join(prefix, n.text));
        flat.push({ module, name, alias: "" });
      }
    }
  };
  walk(arg, "");
  const byModule = new Map<string, Name[]>();
  for (const f of flat) {
    const list = byModule.get(f.module) ?? [];
    list.push({ name: f.name, alias: f.alias });
    byModule.set(f.module, list);
  }
  return [...byModule].map(([module, names]) => imp(module, names, "", "import", line));
}

/**
 * `#include "local.h"` (an `include`) or `#include <vector>` (a `system` include), not `#include
 * MACRO`; and C++'s `using namespace a::b;`.
 */
function includeDirective(node: TSNode, line: number): ImportInfo[] {
  if (node.type === "using_declaration") {
    const namespace = node.namedChildren[0]?.text.replace(/\s+/g, "") ?? "";
    return namespace ? [imp(namespace, [], "", "using", line)] : [];
  }
  const path = node.childForFieldName("path");
  if (path?.type === "string_literal") {
    const content = path.namedChildren.find((c) => c.type === "string_content")?.text ?? "";
    return content ? [imp(content, [{ name: "*", alias: "" }], "", "include", line)] : [];
  }
  if (path?.type === "system_lib_string") {
    const content = path.text.slice(1, -1).trim();
    return content ? [imp(content, [{ name: "*", alias: "" }], "", "system", line)] : [];
  }
  return [];
}

/** `using A.B;`, `using static A.B.C;` (the type's members: `*`), `using X = A.B;` (alias `X`); `global` or not. */
function csharpUsing(node: TSNode, line: number): ImportInfo[] {
  const aliasNode = node.childForFieldName("name");
  const alias = aliasNode?.text ?? "";
  // Nodes are compared by id: each read of a node is a new object (grammars.ts, withoutNodeCache).
  const target = node.namedChildren.find((c) => c.id !== aliasNode?.id && (c.type === "qualified_name" || c.type === "identifier" || c.type === "generic_name"));
  if (!target) return [];
  const module = target.text.replace(/\s+/g, "").replace(/^global::/, "");
  const isStatic = /^\s*(?:global\s+)?using\s+static\b/.test(node.text);
  return [imp(module, isStatic ? [{ name: "*", alias: "" }] : [], alias, "using", line)];
}

/** `require "a/b"`, `require_relative "x"` (as `./x`), `load "x.rb"`; a string with interpolation is none. */
function rubyRequire(node: TSNode, line: number): ImportInfo[] {
  const method = node.childForFieldName("method")?.text ?? "";
  const arg = node.childForFieldName("arguments")?.namedChildren[0];
  if (arg?.type !== "string" || arg.namedChildren.some((c) => c.type !== "string_content")) return [];
  const path = arg.namedChildren[0]?.text ?? "";
  if (path === "") return [];
  const module = method === "require_relative" && !path.startsWith(".") && !path.startsWith("/") ? `./${path}` : path;
  return [imp(module, [], "", "require", line)];
}

/**
 * `source lib/x.sh`, `. "$(dirname "$0")/x.sh"`: the path as written, the script's own folder
 * (`$(dirname "$0")`, `${BASH_SOURCE%/*}`, `$DIR`-like variables holding it) read as `./`.
 * A path built any other way is no import.
 */
function shellSource(node: TSNode, line: number): ImportInfo[] {
  const arg = node.childrenForFieldName("argument")[0];
  if (!arg) return [];
  const path = shellSourcePath(arg.text);
  return path ? [imp(path, [], "", "require", line)] : [];
}

const SCRIPT_DIR = /^(?:\$\(\s*dirname\s+\$\{?(?:0|BASH_SOURCE(?:\[0\])?)\}?\s*\)|\$\{BASH_SOURCE(?:\[0\])?%\/\*\}|\$\{?(?:DIR|SCRIPT_DIR|SCRIPTDIR|SCRIPT_PATH|BASEDIR|BASE_DIR|HERE)\}?)\//;
/** Variables that conventionally hold the repository's root: what follows is looked up from the root too. */
const ROOT_DIR = /^\$\{?(?:ROOT|ROOT_DIR|REPO_ROOT|PROJECT_ROOT|TOP|TOPDIR)\}?\//;

/**
 * The path a `source` argument names (`./x` from the script's folder), or null when it is built
 * at run time.
 */
export function shellSourcePath(written: string): string | null {
  const unquoted = written.replace(/^(["'])(.*)\1$/s, "$2").replace(/"/g, "");
  const path = unquoted.replace(SCRIPT_DIR, "./").replace(ROOT_DIR, "");
  if (path === "" || /[$`*?]/.test(path) || path.startsWith("/") || path.startsWith("~")) return null;
  return path;
}

/** A PHP name as a dotted qualified name: `\App\Models\User` -> `App.Models.User`. */
export function phpQualified(name: string): string {
  return name.replace(/^\\/, "").split("\\").filter((p) => p !== "").join(".");
}

/**
 * `use A\B\C;`, `use A\B\{C, D as E};`, `use function A\f;` (module `A.B`, the names with their
 * aliases); `require` / `include` of a string or of `__DIR__ . '/x.php'` (read as `./x.php`).
 */
function phpImport(node: TSNode, line: number): ImportInfo[] {
  if (node.type !== "namespace_use_declaration") {
    const path = phpIncludePath(node.namedChildren[0]);
    return path ? [imp(path, [], "", "require", line)] : [];
  }
  const group = node.childForFieldName("body");
  const prefix = group ? phpQualified(node.namedChildren.find((c) => c.type === "namespace_name")?.text ?? "") : "";
  const byModule = new Map<string, Name[]>();
  for (const clause of (group ?? node).namedChildren) {
    if (clause.type !== "namespace_use_clause") continue;
    const alias = clause.childForFieldName("alias")?.text ?? "";
    const target = clause.namedChildren.find((c) => c.type === "qualified_name" || c.type === "name");
    if (!target) continue;
    const full = [prefix, phpQualified(target.text)].filter((p) => p !== "").join(".");
    const dot = full.lastIndexOf(".");
    const module = dot < 0 ? "" : full.slice(0, dot);
    const names = byModule.get(module) ?? [];
    names.push({ name: full.slice(dot + 1), alias });
    byModule.set(module, names);
  }
  return [...byModule].map(([module, names]) => imp(module, names, "", "import", line));
}

/** The path a PHP `require` names: a string, or one after `__DIR__ .` / `dirname(__FILE__) .`. */
function phpIncludePath(arg: TSNode | undefined): string | null {
  if (!arg) return null;
  const literal = (n: TSNode | null | undefined): string | null =>
    n && (n.type === "string" || n.type === "encapsed_string") && n.namedChildren.every((c) => c.type === "string_content") ? (n.namedChildren[0]?.text ?? "") : null;
  if (arg.type === "parenthesized_expression") return phpIncludePath(arg.namedChildren[0]);
  const direct = literal(arg);
  if (direct !== null) return direct === "" || direct.startsWith("/") ? null : direct;
  if (arg.type !== "binary_expression") return null;
  const left = arg.childForFieldName("left")?.text.replace(/\s+/g, "") ?? "";
  const right = literal(arg.childForFieldName("right"));
  if (right === null || !/^(?:__DIR__|dirname\(__FILE__\))$/.test(left)) return null;
  return `.${right.startsWith("/") ? "" : "/"}${right}`;
}

/** `import a.b.C`, `import a.b.C as D`, `import a.b.*`. */
function kotlinImport(node: TSNode, line: number): ImportInfo[] {
  const path = node.namedChildren.find((c) => c.type === "qualified_identifier" || c.type === "identifier");
  if (!path) return [];
  const full = path.text.replace(/\s+/g, "");
  if (node.text.trimEnd().endsWith("*")) return [imp(full, [{ name: "*", alias: "" }], "", "import", line)];
  const alias = node.namedChildren.find((c) => c.id !== path.id && c.type === "identifier")?.text ?? "";
  const dot = full.lastIndexOf(".");
  return [imp(dot < 0 ? "" : full.slice(0, dot), [{ name: full.slice(dot + 1), alias }], "", "import", line)];
}

/** `import a.b.C`, `import a.b._` (or `*`), `import a.b.{C, D => E, given}`. */
function scalaImport(node: TSNode, line: number): ImportInfo[] {
  // The field also lists the `.` between the segments.
  const path = node.childrenForFieldName("path").filter((p) => p.type === "identifier").map((p) => p.text);
  if (path.length === 0) return [];
  const selectors = node.namedChildren.find((c) => c.type === "namespace_selectors");
  if (node.namedChildren.some((c) => c.type === "namespace_wildcard")) return [imp(path.join("."), [{ name: "*", alias: "" }], "", "import", line)];
  if (!selectors) return [imp(path.slice(0, -1).join("."), [{ name: path[path.length - 1]!, alias: "" }], "", "import", line)];
  const names: Name[] = [];
  for (const s of selectors.namedChildren) {
    if (s.type === "identifier") names.push({ name: s.text, alias: "" });
    else if (s.type === "arrow_renamed_identifier" || s.type === "as_renamed_identifier") {
      const alias = s.childForFieldName("alias")?.text ?? "";
      // `D => _` hides a name rather than importing it.
      if (alias !== "_") names.push({ name: s.childForFieldName("name")?.text ?? "", alias });
    } else if (s.type === "namespace_wildcard") names.push({ name: "*", alias: "" });
  }
  return names.length > 0 ? [imp(path.join("."), names, "", "import", line)] : [];
}

/**
 * `import Kit` (a module: its files are the target's), `@testable import Kit`, `import Kit.Sub` (a
 * submodule of Kit), `import struct Kit.Point` (one declaration of Kit).
 */
function swiftImport(node: TSNode, line: number): ImportInfo[] {
  const path = node.namedChildren.find((c) => c.type === "identifier");
  if (!path) return [];
  const segments = path.namedChildren.map((c) => c.text);
  if (segments.length === 0) return [];
  const declaration = /\bimport\s+(?:typealias|struct|class|enum|protocol|let|var|func|actor)\s/.test(node.text);
  if (declaration && segments.length > 1) return [imp(segments.slice(0, -1).join("."), [{ name: segments[segments.length - 1]!, alias: "" }], "", "import", line)];
  return [imp(segments.join("."), [], "", "import", line)];
}
