/**
 * C and C++ code hides declarations behind macros tree-sitter cannot expand: `FMT_CONSTEXPR
 * size_padding(int n) : size(n) {…}`, `ZSTDLIB_API size_t ZSTD_compress(…)`, a lone
 * `FMT_BEGIN_NAMESPACE`. Read as a type, such a macro turns a constructor into an error that
 * swallows the rest of its class. These macros are blanked out (same length, so every offset and
 * line stays) in the text given to the parser; names, signatures and docs are read from the
 * original text (a signature starts after such a macro).
 *
 * A macro here is an upper-case name with an underscore (`FMT_API`, `MEM_STATIC`; not the types
 * `U32` or `BYTE`) that starts a line and is followed by a name (the declaration it decorates),
 * or that stands alone on its line. A call (`ZSTD_STATIC_ASSERT(x);`), a constant in an
 * expression, an enumerator (`A_B = 1,`) and `#define` lines are left as they are.
 */
const LEADING = /^([ \t]*)((?:[A-Z][A-Z0-9]*_[A-Z0-9_]*[ \t]+)+)(?=[A-Za-z_~])/gm;
const ALONE = /^([ \t]*)([A-Z][A-Z0-9]*_[A-Z0-9_]*)[ \t]*$/gm;

export function blankAttributeMacros(source: string): string {
  const blank = (_: string, indent: string, macros: string): string => indent + " ".repeat(macros.length);
  return source.replace(LEADING, blank).replace(ALONE, (line: string, indent: string) => indent + " ".repeat(line.length - indent.length));
}
