/**
 * C and C++ code hides declarations behind macros tree-sitter cannot expand: `FMT_CONSTEXPR
 * size_padding(int n) : size(n) {…}`, `ZSTDLIB_API size_t ZSTD_compress(…)`, a lone
 * `FMT_BEGIN_NAMESPACE`. Read as a type, such a macro turns a constructor into an error that
 * swallows the rest of its class. These macros are blanked out (same length, so every offset and
 * line stays) in the text given to the parser; names, signatures and docs are read from the
 * original text (a signature starts after such a macro).
 *
 * A macro here is an upper-case name with an underscore (`FMT_API`, `MEM_STATIC`; not the types
 * `U32` or `BYTE`) that starts a line (after `static`, `inline` and the like) and is followed by a
 * name and a type (the declaration it decorates; before a name and its parameters alone it may be
 * the return type, `LARGE_INTEGER now(void)`, except on a C++ class body's indented line, where
 * `FMT_CONSTEXPR size_padding(int n)` is a constructor), that stands between `class` and the
 * class's name, or that stands alone on its line. A call (`ZSTD_STATIC_ASSERT(x);`), a constant in an
 * expression, an enumerator (`A_B = 1,`) and `#define` lines are left as they are.
 */
const LEADING = /^([ \t]*(?:(?:static|inline|constexpr|extern|virtual|explicit|friend)[ \t]+)*)((?:[A-Z][A-Z0-9]*_[A-Z0-9_]*[ \t]+)+)(?=[A-Za-z_~])/gm;
/** `class GTEST_API_ TestPartResult {`, `struct FMT_API format_error : std::runtime_error`. */
const IN_CLASS_HEAD = /(\b(?:class|struct|union)[ \t]+)((?:[A-Z][A-Z0-9]*_[A-Z0-9_]*[ \t]+)+)(?=[A-Za-z_]\w*[ \t]*(?:[:{]|final\b))/g;
const ALONE = /^([ \t]*)([A-Z][A-Z0-9]*_[A-Z0-9_]*)[ \t]*$/gm;

/** What follows the macros is a name and its parameters: the "macro" may be the return type. */
const NAME_CALL = /^[A-Za-z_~][\w~]*[ \t]*\(/;

export function blankAttributeMacros(source: string, language: "c" | "cpp"): string {
  const blank = (_: string, before: string, macros: string): string => before + " ".repeat(macros.length);
  // `LARGE_INTEGER get_time(void)` is a type and a function; `FMT_CONSTEXPR size_padding(int n)`
  // a macro and a constructor. Only a C++ class body (an indented line) has constructors.
  const leading = (match: string, before: string, macros: string, offset: number): string => {
    const rest = source.slice(offset + match.length, offset + match.length + 200);
    const constructorLike = language === "cpp" && /^[ \t]+/.test(before);
    return NAME_CALL.test(rest) && !constructorLike ? match : blank(match, before, macros);
  };
  return source
    .replace(LEADING, leading)
    .replace(IN_CLASS_HEAD, blank)
    .replace(ALONE, (line: string, indent: string) => indent + " ".repeat(line.length - indent.length));
}
