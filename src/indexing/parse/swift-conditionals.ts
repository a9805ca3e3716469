/**
 * Swift's conditional compilation (`#if os(Linux)` … `#else` … `#endif`) inside a type's body is
 * beyond tree-sitter-swift: the body closes at the `#if`, and the type's members come out as
 * top-level functions (swift-argument-parser's `Mutex`, its test classes). The directive lines
 * are blanked (same length, so every offset and line stays) in the text given to the parser:
 * every branch's declarations are then read, as an index should (both are the type's, on some
 * platform). A branch that opens a brace another closes would misparse; such code is rare.
 */
const DIRECTIVE = /^[ \t]*#(?:if|elseif|else|endif)\b[^\n]*/gm;

export function blankConditionals(source: string): string {
  if (!source.includes("#")) return source;
  return source.replace(DIRECTIVE, (line) => " ".repeat(line.length));
}
